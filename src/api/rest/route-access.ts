import type { Context, Middleware, Next } from "koa";
import { checkPermission } from "../../auth/permissions";
import { unauthorized } from "../../auth/token-errors";
import { requestOf } from "../http/request-context";
import type { Access } from "./schema-route";

/**
 * The REST faces' per-route gate (`RouteGate` of schema-route.ts): the access a route declares, checked
 * against the principal the auth gate set (`viewer` routes need `read`, `operator` routes `write`), so a
 * route's own declaration holds even where the permission table (api/http/route-permissions.ts) is coarser.
 */
export function routeAccessGate(access: Access): Middleware | undefined {
  if (access === "public") return undefined;
  const action = access === "operator" ? "write" : "read";
  return async (ctx: Context, next: Next) => {
    const p = requestOf(ctx).principal;
    if (!p) throw unauthorized("A bearer token or an API key is required", false);
    checkPermission(p, action);
    await next();
  };
}
