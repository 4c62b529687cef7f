import type { Action } from "../../auth/permissions";

/** What a route needs: an action of a role, `open` (no credential), or `optional` (a credential is used if sent). */
export type RouteAccess = Action | "open" | "optional";

/** One line of the permission table: the method (or `*`), the path pattern, and the access it needs. */
export interface RoutePermission {
  method: string;
  path: RegExp;
  access: RouteAccess;
}

/** Paths under these need a credential; every other path (the dashboard's files) is open. */
export const PROTECTED_PREFIXES = [
  "/ngsi-ld/",
  "/sparql",
  "/ldes",
  "/v1/",
  "/api/v1/",
  "/graphql",
  "/ws",
  "/notifications/",
  "/open311/",
];

const PROTECTED = PROTECTED_PREFIXES.map((p) => [p, p.replace(/\/$/, "")] as const);

const rule = (method: string, path: RegExp, access: RouteAccess): RoutePermission => ({
  method,
  path,
  access,
});
const BASES = "(?:/v1|/api/v1)";

/**
 * The permission table of every face (docs/auth.md "Roles and permissions"). Without a line here a
 * route on a protected path needs `read` for GET, HEAD and OPTIONS and `write` for any other method. The
 * lines say where a GET needs more than `read` (NGSI-LD subscriptions), where a POST is a read (SPARQL, NGSI-LD query, GraphQL: the GraphQL face checks mutations
 * itself with checkPermission), where a viewer may write (citizen reports, its own alert subscriptions),
 * what is open (login, refresh, the OpenAPI documents) and what only an admin does. A face adds its own
 * lines through `Face.permissions`; the first matching line wins and the faces' lines come first.
 */
export const DEFAULT_PERMISSIONS: readonly RoutePermission[] = [
  rule("POST", new RegExp(`^${BASES}/auth/(login|refresh)$`), "open"),
  rule("POST", new RegExp(`^${BASES}/auth/logout$`), "optional"),
  rule("GET", new RegExp(`^${BASES}/(openapi\\.json|docs(/.*)?)$`), "open"),
  rule("*", /^\/v1\/admin(\/|$)/, "admin"),
  rule("*", /^\/notifications\//, "read"),
  rule("POST", /^\/sparql$/, "read"),
  rule("POST", /^\/graphql$/, "read"),
  rule("POST", /^\/ngsi-ld\/v1\/entityOperations\/query$/, "read"),
  rule("DELETE", /^\/ngsi-ld\/v1\/entities$/, "admin"), // purge by type, id or q
  // subscriptions hold their receivers' endpoints and secrets (receiverInfo): operators and admins only
  // (and each sees its own: subscription-routes.ts)
  rule("GET", /^\/ngsi-ld\/v1\/(subscriptions|csourceSubscriptions)(\/|$)/, "write"),
  rule("POST", new RegExp(`^${BASES}/citizen-reports$`), "report"),
  rule("POST", /^\/v1\/accidents\/report$/, "report"),
  rule("POST", /^\/api\/v1\/accidents$/, "report"),
  rule("*", new RegExp(`^${BASES}/alerts/subscriptions(/[^/]+)?$`), "own-alerts"),
];

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The access a request needs: `open` outside the protected paths, else the first matching line, else by
 * method. `path` is the canonical path (canonical-path.ts); trailing slashes are ignored as the routers
 * ignore one (`DELETE /ngsi-ld/v1/entities/` is the purge), and case counts as it does for the routers.
 */
export function accessOf(method: string, rawPath: string, table: readonly RoutePermission[]): RouteAccess {
  const path = withoutTrailingSlash(rawPath);
  if (!PROTECTED.some(([p, bare]) => path.startsWith(p) || path === bare)) return "open";
  for (const r of linesFor(table, method)) if (r.path.test(path)) return r.access;
  return READ_METHODS.has(method) ? "read" : "write";
}

/** The lines of `table` for one method, in order, computed once per table and method (this runs per request). */
const byMethod = new WeakMap<readonly RoutePermission[], Map<string, RoutePermission[]>>();
function linesFor(table: readonly RoutePermission[], method: string): RoutePermission[] {
  let m = byMethod.get(table);
  if (!m) byMethod.set(table, (m = new Map()));
  let lines = m.get(method);
  if (!lines) m.set(method, (lines = table.filter((r) => r.method === "*" || r.method === method)));
  return lines;
}

/** `path` without its trailing slashes ("/" stays "/"). */
function withoutTrailingSlash(path: string): string {
  if (path.length < 2 || path.charCodeAt(path.length - 1) !== 47) return path;
  const bare = path.replace(/\/+$/, "");
  return bare === "" ? "/" : bare;
}
