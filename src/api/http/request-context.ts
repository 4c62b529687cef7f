import type { Context } from "koa";
import type { Principal } from "../../auth/principal";
import { AppError } from "../../errors";

export type { Principal } from "../../auth/principal";

/** The faces of the service; each renders errors its own way (docs/design.md "Errors"). */
export type FaceName =
  | "ngsi-ld"
  | "sparql"
  | "ldes"
  | "rest-a"
  | "rest-b"
  | "graphql"
  | "ws"
  | "auth"
  | "dashboard"
  | "open311"
  | "http";

/** What every face knows about the request it serves (docs/design.md "The request pipeline"). */
export interface RequestContext {
  /** Random UUID, sent back as `X-Request-Id` and written in every log line and error body. */
  readonly id: string;
  /** The face serving the request: set when a face's prefix matches, "http" otherwise. */
  face: FaceName;
  /** Principal, set by the auth gate. */
  principal?: Principal;
}

/** The request context of a Koa request, made by the request-id middleware. */
export function requestOf(ctx: Context): RequestContext {
  return (ctx.state as { request: RequestContext }).request;
}

/** The principal of a request on a protected path; 401 if no credential was checked (an open path). */
export function principalOf(ctx: Context): Principal {
  const p = requestOf(ctx).principal;
  // the auth gate sets one on every protected path (the anonymous admin when AUTH=off)
  if (!p) throw new AppError("Unauthorized", "No credential was checked for this request");
  return p;
}

/** The route template that served the request (the router's pattern, e.g. `/ngsi-ld/v1/entities/:entityId`), or "unmatched". */
export function routeTemplateOf(ctx: Context): string {
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof route === "string" ? route : "unmatched";
}

/** The methods of RFC 9110 and PATCH (RFC 5789): the ones metrics and traces name as they are. */
const KNOWN_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
  "CONNECT",
]);

/**
 * The method of a request as metrics and traces name it: a known method as it is, any other one (WebDAV's
 * PROPFIND, PURGE, ...) as `_OTHER`, as OpenTelemetry's HTTP conventions do, so that a client cannot add a
 * series per method it invents.
 */
export function methodLabelOf(ctx: Context): string {
  return KNOWN_METHODS.has(ctx.method) ? ctx.method : "_OTHER";
}
