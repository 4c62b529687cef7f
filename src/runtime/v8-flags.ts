import v8 from "node:v8";

/**
 * V8 flags the service sets for itself at the start of the process (main.ts imports this module first),
 * so that `npm start`, `node dist/src/main.js` and the Docker image run with the same heap behaviour.
 *
 * `--no-allocation-site-pretenuring`: V8 allocates the objects of an allocation site directly in the
 * old generation once it has seen most of them survive scavenges. Long requests (a batch upsert takes
 * seconds) make the sites of Koa, Node's HTTP server and the routes "tenured", and from then on every
 * short GET allocates its request objects in the old generation, where only a mark-compact frees them:
 * several times the old-generation traffic and longer scavenges (docs/decisions/0009-query-tail.md).
 */
export const V8_FLAGS = ["--no-allocation-site-pretenuring"] as const;

for (const flag of V8_FLAGS) v8.setFlagsFromString(flag);
