import type Router from "@koa/router";
import type { Context } from "koa";
import { AppError } from "../../errors";
import { CONTEXT_KINDS, type ContextKind } from "../../rdf/contexts/info";
import type { ContextRegistry } from "../../rdf/contexts/registry";
import { serverOrigin } from "../http/server-origin";

/** A boolean query flag (`details`, `reload`): absent = false; only "true"/"false" accepted (§6.3.x → 400). */
function flag(ctx: Context, name: string): boolean {
  const raw = ctx.query[name];
  if (raw === undefined) return false;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw new AppError("BadRequestData", `Query parameter ${name} must be true or false`, { parameter: name });
}

function kindParam(ctx: Context): ContextKind | undefined {
  const raw = ctx.query.kind;
  if (raw === undefined) return undefined;
  if (typeof raw === "string" && (CONTEXT_KINDS as readonly string[]).includes(raw))
    return raw as ContextKind;
  throw new AppError("BadRequestData", `Query parameter kind must be one of ${CONTEXT_KINDS.join(", ")}`, {
    parameter: "kind",
  });
}

/** The request's tenant (§5.5.10): `ctx.state.tenant` when the app set it, else the NGSILD-Tenant header. */
function tenantOf(ctx: Context): string {
  const t: unknown = (ctx.state as Record<string, unknown>).tenant;
  return typeof t === "string" ? t : ctx.get("NGSILD-Tenant");
}

/**
 * The JSON-LD @context API of ETSI GS CIM 009 v1.8 §5.13 (HTTP binding §6.31-6.32), relative to
 * the `/ngsi-ld/v1` router prefix:
 * - `POST /jsonldContexts` Add @context (§5.13.2) -> 201 + Location, no body;
 * - `GET /jsonldContexts?details&kind` List @contexts (§5.13.3) -> 200 URLs or ContextInfo;
 * - `GET /jsonldContexts/{contextId}?details` Serve @context (§5.13.4) -> 200 application/json;
 * - `DELETE /jsonldContexts/{contextId}?reload` Delete and Reload @context (§5.13.5) -> 204.
 * `contextId` is a localId or (Cached) the original URL, percent-encoded. Errors are thrown as
 * AppError for the app's error middleware. Expects the parsed JSON body in `ctx.state.body`.
 */
export function registerJsonLdContextRoutes(router: Router, registry: ContextRegistry): void {
  router.get("/jsonldContexts", (ctx) => {
    const details = flag(ctx, "details");
    const kind = kindParam(ctx);
    ctx.status = 200;
    ctx.body = registry.list(tenantOf(ctx), { details, kind, origin: serverOrigin(ctx) });
    ctx.set("Content-Type", "application/json");
  });

  router.post("/jsonldContexts", async (ctx) => {
    const body: unknown = (ctx.state as Record<string, unknown>).body;
    const { location } = await registry.addHosted(tenantOf(ctx), body);
    ctx.status = 201;
    ctx.set("Location", location);
    ctx.body = ""; // §5.13.2.4: no body (null would turn 201 into 204, none would send "Created")
  });

  router.get("/jsonldContexts/:contextId", (ctx) => {
    const details = flag(ctx, "details");
    ctx.status = 200;
    ctx.body = registry.serve(tenantOf(ctx), ctx.params.contextId, { details, origin: serverOrigin(ctx) });
    ctx.set("Content-Type", "application/json");
  });

  router.delete("/jsonldContexts/:contextId", async (ctx) => {
    const reload = flag(ctx, "reload");
    await registry.remove(tenantOf(ctx), ctx.params.contextId, { reload });
    ctx.status = 204;
  });
}
