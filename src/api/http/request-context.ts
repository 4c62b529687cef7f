import type { Context } from "koa";

/** The faces of the service; each renders errors its own way (DESIGN.md "Errors"). */
export type FaceName =
  "ngsi-ld" | "sparql" | "rest-a" | "rest-b" | "graphql" | "ws" | "auth" | "dashboard" | "http";

/** Who made a request, once the auth gate has run. */
export interface Principal {
  /** User or API key id. */
  id: string;
  kind: "user" | "api-key" | "anonymous";
  role: "viewer" | "operator" | "admin";
  /** NGSI-LD tenants the principal may use; empty = all. */
  tenants: readonly string[];
}

/** What every face knows about the request it serves (DESIGN.md "The request pipeline"). */
export interface RequestContext {
  /** Random UUID, sent back as `X-Request-Id` and written in every log line and error body. */
  readonly id: string;
  /** The face serving the request: set when a face's prefix matches, "http" otherwise. */
  face: FaceName;
  /** Principal, set by the auth gate. */
  principal?: Principal;
  /** Start of the request (ms since epoch), for the access log. */
  readonly startedAt: number;
}

/** The request context of a Koa request, made by the request-id middleware. */
export function requestOf(ctx: Context): RequestContext {
  return (ctx.state as { request: RequestContext }).request;
}
