import type { Context, Middleware, Next } from "koa";
import { badRequest } from "../../errors";

/**
 * A percent-encoded unreserved character (RFC 3986 §2.3: letters, digits, `-`, `_`, `~`), the same
 * character as the letter itself. `%2E` stays encoded: decoded it would make dot segments (`/../`).
 */
const ENCODED_UNRESERVED = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[Dd]|5[Ff]|7[Ee])/g;

/**
 * The one spelling of a request path that the auth gate and the routers both match (RFC 3986 §6.2.2):
 * percent-encoded unreserved characters decoded (`/%73ubscriptions` is `/subscriptions`), every other
 * escape left as sent. The routers match case and treat one trailing slash as optional; the gate
 * does the same (route-permissions.ts). A path whose escapes are malformed (`%zz`) or do not decode to UTF-8 (a lone
 * surrogate such as `%ED%A0%BD`) is a 400: no route ever sees it, so no handler has to decode with care.
 */
export function canonicalPath(path: string): string {
  if (!path.includes("%")) return path;
  try {
    decodeURIComponent(path);
  } catch {
    throw badRequest("The path holds a malformed percent-encoding or bytes that are not UTF-8", {
      path: path.slice(0, 200),
    });
  }
  return path.replace(ENCODED_UNRESERVED, (m) => String.fromCharCode(parseInt(m.slice(1), 16)));
}

/**
 * Puts the request on its {@link canonicalPath} before the gates and the routes; `reselect` runs when the
 * path changed, so that what depends on the path (the face) follows it.
 */
export function canonicalPathMiddleware(reselect: (ctx: Context) => void): Middleware {
  return (ctx: Context, next: Next) => {
    const path = canonicalPath(ctx.path);
    if (path !== ctx.path) {
      ctx.path = path;
      reselect(ctx);
    }
    return next();
  };
}
