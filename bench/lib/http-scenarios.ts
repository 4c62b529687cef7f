import { entityId, makeEntities, makeEntity } from "./entities";
import { runLoad, type LoadResult } from "./load";
import type { Settings } from "./settings";

/**
 * The HTTP scenarios against the service under test. Each runs an untimed warm-up, then the timed
 * load; all use pipelining 1 over loopback.
 */

/** The NGSI-LD API's path prefix. */
export const NGSI = "/ngsi-ld/v1";
/** Headers of an NGSI-LD write whose body carries its @context. */
export const LD_JSON = { "content-type": "application/ld+json", accept: "application/json" };

/** Ids handed out to POST /entities; entity numbers below `next` were sent. */
export interface IdCounter {
  next: number;
}

/** Warm-up then timed load of GET `path` (the bare-Koa ceiling uses this with "/"). */
export async function getLoad(url: string, path: string, s: Settings): Promise<LoadResult> {
  const requests = [{ method: "GET" as const, path }];
  if (s.warmupSeconds > 0)
    await runLoad({ url, connections: s.connections, durationS: s.warmupSeconds, requests });
  return runLoad({ url, connections: s.connections, durationS: s.seconds, requests });
}

/** POST /entities, each request a new 10-attribute entity (application/ld+json, @context in the body). */
export async function postEntities(
  url: string,
  s: Settings,
  ids: IdCounter,
  /** Called after the warm-up, just before the timed load (for CPU accounting of the timed load alone). */
  beforeTimed?: () => void,
): Promise<LoadResult> {
  const requests = [
    {
      method: "POST" as const,
      path: `${NGSI}/entities`,
      headers: LD_JSON,
      setupRequest: (req: object) => ({ ...req, body: JSON.stringify(makeEntity(ids.next++, true)) }),
    },
  ];
  const connections = s.postConnections;
  if (s.warmupSeconds > 0) await runLoad({ url, connections, durationS: s.warmupSeconds, requests });
  beforeTimed?.();
  return runLoad({ url, connections, durationS: s.seconds, requests });
}

/** GET /entities/{id}, a random id among entity numbers [0, `count`) per request. */
export async function getEntities(url: string, s: Settings, count: number): Promise<LoadResult> {
  const requests = [
    {
      method: "GET" as const,
      path: `${NGSI}/entities/${entityId(0)}`,
      headers: { accept: "application/json" },
      setupRequest: (req: object) => ({
        ...req,
        path: `${NGSI}/entities/${entityId(Math.floor(Math.random() * count))}`,
      }),
    },
  ];
  if (s.warmupSeconds > 0)
    await runLoad({ url, connections: s.connections, durationS: s.warmupSeconds, requests });
  return runLoad({ url, connections: s.connections, durationS: s.seconds, requests });
}

/** Result of {@link batchUpsert}: the load figures plus entities per second. */
export interface BatchResult extends LoadResult {
  entities: number;
  entitiesPerSec: number;
}

/**
 * POST /entityOperations/upsert of entity numbers [from, from + batches × batchSize) as `make` builds
 * them (default: the TrafficFlowObserved entities), `batchSize` per request, bodies built before the load starts so the load generator only sends. Prints
 * progress every 10 batches.
 */
export async function batchUpsert(
  url: string,
  s: Settings,
  from: number,
  batches: number,
  make: (from: number, count: number) => unknown[] = (f, c) => makeEntities(f, c, true),
  /** Called once the bodies are built, just before the load starts (for CPU accounting of the load alone). */
  beforeLoad?: () => void,
): Promise<BatchResult> {
  const bodies: string[] = [];
  for (let b = 0; b < batches; b++) bodies.push(JSON.stringify(make(from + b * s.batchSize, s.batchSize)));
  beforeLoad?.();
  let sent = 0;
  let done = 0;
  const t0 = performance.now();
  const requests = [
    {
      method: "POST" as const,
      path: `${NGSI}/entityOperations/upsert`,
      headers: LD_JSON,
      setupRequest: (req: object) => ({ ...req, body: bodies[sent++ % bodies.length] }),
    },
  ];
  const r = await runLoad({
    url,
    connections: Math.min(s.batchConnections, batches),
    durationS: 3600,
    amount: batches,
    timeoutS: 120,
    requests,
    onResponse: () => {
      done++;
      if (done % 10 === 0 || done === batches) {
        const n = done * s.batchSize;
        const rate = n / ((performance.now() - t0) / 1000);
        process.stdout.write(
          `  batch upsert: ${from + n} entities in store (${Math.round(rate)} entities/s)\n`,
        );
      }
    },
  });
  const ok = r.statusCodes["201"] ?? 0;
  const entities = (ok + (r.statusCodes["204"] ?? 0)) * s.batchSize;
  return { ...r, entities, entitiesPerSec: entities / r.durationS };
}
