import type { Context, Middleware, Next } from "koa";
import type { RateDecision, RateLimits } from "../../auth/rate-limits";
import { AppError } from "../../errors";
import { requestOf } from "./request-context";

/**
 * The rate limit of every face (decisions.md "Rate limits"), after the auth gate: counts the request
 * against its principal's limit and sets `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`
 * (Unix seconds) and the IETF draft's `RateLimit-Policy` and `RateLimit` fields
 * (draft-ietf-httpapi-ratelimit-headers); over the limit, 429 with `Retry-After` and `retry_after`.
 * Unauthenticated requests (open paths) and unlimited principals carry no such headers.
 */
export function rateLimitGate(limits: Pick<RateLimits, "consume">): Middleware {
  return async (ctx: Context, next: Next) => {
    const p = requestOf(ctx).principal;
    if (p && p.kind !== "anonymous") {
      const d = await limits.consume(p, ctx.path.startsWith("/api/v1/"));
      if (d) {
        setHeaders(ctx, d);
        if (d.retryAfterS !== undefined) {
          throw new AppError(
            "TooManyRequests",
            `Rate limit of ${d.limit} requests exceeded, retry in ${d.retryAfterS} seconds`,
            {
              retry_after: d.retryAfterS,
            },
          );
        }
      }
    }
    await next();
  };
}

function setHeaders(ctx: Context, d: RateDecision): void {
  const now = Math.floor(Date.now() / 1000);
  ctx.set("X-RateLimit-Limit", String(d.limit));
  ctx.set("X-RateLimit-Remaining", String(d.remaining));
  ctx.set("X-RateLimit-Reset", String(d.resetAt));
  ctx.set("RateLimit-Policy", `"${d.policy}";q=${d.limit};w=${d.windowS}`);
  ctx.set("RateLimit", `"${d.policy}";r=${d.remaining};t=${Math.max(0, d.resetAt - now)}`);
}
