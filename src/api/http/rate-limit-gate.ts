import type { Context, Middleware, Next } from "koa";
import type { RateDecision, RateLimits } from "../../auth/rate-limits";
import { AppError } from "../../errors";
import { requestOf } from "./request-context";

/**
 * The rate limit of every face (docs/auth.md "Rate limits"), after the auth gate: counts the request
 * against its principal's limit and sets `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (Unix seconds); over the limit, 429 with `Retry-After`, `retry_after` and the IETF
 * draft's `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers), which name the
 * policy that refused it (the hour or variant B's burst). A successful response carries only the three
 * `X-RateLimit-*` headers, because every response header costs main-thread time on the fastest reads
 * (docs/decisions/0012-rate-limit-headers.md).
 * Unauthenticated requests (open paths) and unlimited principals carry no such headers. Counters in memory
 * answer at once, and the request then goes on without a promise of the gate's own.
 */
export function rateLimitGate(limits: Pick<RateLimits, "consume">): Middleware {
  return (ctx: Context, next: Next) => {
    const p = requestOf(ctx).principal;
    if (!p || p.kind === "anonymous") return next();
    const d = limits.consume(p, ctx.path.startsWith("/api/v1/"));
    if (d instanceof Promise) return d.then((x) => apply(ctx, next, x));
    return apply(ctx, next, d);
  };
}

function apply(ctx: Context, next: Next, d: RateDecision | undefined): Promise<void> {
  if (d) {
    setHeaders(ctx, d);
    if (d.retryAfterS !== undefined) {
      return Promise.reject(
        new AppError(
          "TooManyRequests",
          `Rate limit of ${d.limit} requests exceeded, retry in ${d.retryAfterS} seconds`,
          { retry_after: d.retryAfterS },
        ),
      );
    }
  }
  return next();
}

/** The texts of a policy's fixed header values, made once per policy rather than per request. */
interface PolicyTexts {
  limit: number;
  windowS: number;
  /** `X-RateLimit-Limit`. */
  limitText: string;
  /** `RateLimit-Policy`. */
  policyField: string;
  /** `RateLimit` up to the remaining count. */
  ratePrefix: string;
}
const textsByPolicy = new Map<string, PolicyTexts>();

function textsOf(d: RateDecision): PolicyTexts {
  let x = textsByPolicy.get(d.policy);
  if (x === undefined || x.limit !== d.limit || x.windowS !== d.windowS) {
    x = {
      limit: d.limit,
      windowS: d.windowS,
      limitText: String(d.limit),
      policyField: `"${d.policy}";q=${d.limit};w=${d.windowS}`,
      ratePrefix: `"${d.policy}";r=`,
    };
    textsByPolicy.set(d.policy, x);
  }
  return x;
}

function setHeaders(ctx: Context, d: RateDecision): void {
  // straight to the response (Koa's ctx.set costs more) and as strings (a number is turned into text twice,
  // once to be checked, once to be written): this runs on every counted request
  const res = ctx.res;
  const x = textsOf(d);
  const remaining = String(d.remaining);
  res.setHeader("X-RateLimit-Limit", x.limitText);
  res.setHeader("X-RateLimit-Remaining", remaining);
  res.setHeader("X-RateLimit-Reset", String(d.resetAt));
  if (d.retryAfterS === undefined) return;
  res.setHeader("RateLimit-Policy", x.policyField);
  res.setHeader(
    "RateLimit",
    `${x.ratePrefix}${remaining};t=${Math.max(0, d.resetAt - Math.floor(Date.now() / 1000))}`,
  );
}
