import Router from "@koa/router";

/**
 * A router of a face. Paths match with their case (`/Subscriptions` is not `/subscriptions`), so the auth
 * gate, which matches case too, sees the route that serves the request; one trailing slash stays optional
 * (the gate ignores it the same way: api/http/route-permissions.ts).
 */
export function faceRouter(prefix?: string): Router {
  return new Router(prefix === undefined ? { sensitive: true } : { prefix, sensitive: true });
}
