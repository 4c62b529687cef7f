import type { Context } from "koa";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";

/** What the NGSI-LD request middleware leaves in `ctx.state` for the routes. */
export interface NgsiState {
  /** Tenant from `NGSILD-Tenant` ("" = default tenant), ETSI GS CIM 009 §6.3.14. */
  tenant: string;
  /** Parsed JSON body, if the request had one. */
  body?: unknown;
  /** Media type of the request body. */
  bodyType?: "application/json" | "application/ld+json" | "application/merge-patch+json";
  /** The @context value in effect (Link URL, or the body's @context), undefined = core only. */
  contextValue?: unknown;
  /** The compiled context in effect. */
  ldContext: CompiledContext;
}

/** The context services the NGSI-LD face needs (implemented in src/rdf). */
export interface ContextProvider {
  /** The compiled context for an @context value (undefined = the core context alone), used by `tenant`. */
  compiled(value: unknown, tenant?: string): Promise<CompiledContext>;
  /** The context URL of a `Link` header value; throws 400 when malformed. */
  parseContextLink(header: string): string | undefined;
}

/** The NGSI-LD state of a request, as `ngsiRequest` left it (the one place that reads `ctx.state` so). */
export function ngsiState(ctx: Context): NgsiState {
  return ctx.state as NgsiState;
}
