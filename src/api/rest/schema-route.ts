import type Router from "@koa/router";
import type { Middleware } from "koa";
import { requestAjv, validationError } from "./request-validation";
import { bodyReader } from "./route-body";
import type { JsonSchema } from "./json-schema";
import type { RouteGate, RouteSpec } from "./route-spec";

export type { JsonSchema } from "./json-schema";
export type { Access, FormBody, FormInput, RouteGate, RouteInput, RouteSpec } from "./route-spec";
export { route } from "./route-spec";

/**
 * The first value of each query parameter (a repeated parameter counts once), except for the
 * parameters `lists` names (array-typed in the schema): those take every value, repeated
 * (`m=a&m=b`) or comma-separated (`m=a,b`).
 */
function firstValues(
  q: Record<string, string | string[] | undefined>,
  lists: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(q)) {
    if (lists.has(k)) {
      const all = (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) => x.split(","));
      out[k] = [...new Set(all.map((x) => x.trim()).filter((x) => x !== ""))];
    } else out[k] = Array.isArray(v) ? v[0] : v;
  }
  return out;
}

/** Names of the array-typed properties of a query schema. */
function listParams(query: JsonSchema | undefined): Set<string> {
  const props = (query?.properties ?? {}) as Record<string, JsonSchema>;
  return new Set(Object.keys(props).filter((k) => props[k].type === "array"));
}

/**
 * Registers the routes on `router`: each validates its query and body against its schemas, then calls
 * its handler and sends what it returns (a Buffer with `produces` as its type, else JSON). `gate`, if
 * given, runs in front of every route with the route's access (the auth gate plugs in here).
 */
export function registerSpecRoutes(
  router: Router,
  specs: readonly RouteSpec[],
  opts: { gate?: RouteGate; maxBodyBytes: number },
): void {
  const gate = opts.gate;
  const queryAjv = requestAjv(true);
  const bodies = { json: requestAjv(false), form: queryAjv };
  for (const spec of specs) {
    const q = spec.query ? queryAjv.compile({ ...spec.query, type: "object" }) : undefined;
    const lists = listParams(spec.query);
    const content = bodyReader(spec, bodies, opts.maxBodyBytes);
    const run: Middleware = async (ctx) => {
      const query = firstValues(ctx.query, lists);
      if (q && !q(query)) throw validationError(q.errors ?? [], "query", firstValues(ctx.query, lists));
      const params = ctx.params as Record<string, string>;
      const out = await spec.handler(ctx, { query, params, ...(await content(ctx)) });
      if (spec.status === 204) {
        ctx.status = 204;
        return;
      }
      if (spec.status) ctx.status = spec.status;
      if (Buffer.isBuffer(out)) {
        ctx.type = spec.produces ?? "application/octet-stream";
        ctx.body = out;
      } else if (typeof out === "string") {
        // a handler may hand over its JSON already rendered
        ctx.type = spec.produces ?? "application/json";
        ctx.body = out;
      } else {
        // an object, or a stream the handler has typed
        ctx.body = out;
      }
    };
    const g = gate?.(spec.access);
    const chain = g ? [g, run] : [run];
    router[spec.method](spec.path, ...chain);
  }
}
