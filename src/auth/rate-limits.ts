import IORedis from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { Principal, Tier } from "./principal";

/** What a request used of its limit: the figures of the `X-RateLimit-*` and `RateLimit` headers. */
export interface RateDecision {
  /** The policy's name ("premium", "b-api-key"...). */
  policy: string;
  limit: number;
  /** Window of `limit`, seconds. */
  windowS: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  resetAt: number;
  /** Set when over a limit: seconds to wait. */
  retryAfterS?: number;
}

/** Options of {@link RateLimits}. */
export interface RateLimitOptions {
  /** Requests per hour per tier; 0 = unlimited. */
  tierLimits: Record<Tier, number>;
  /** Redis URL: counters shared by every replica; undefined = in memory. */
  redisUrl?: string;
  /** Key prefix of the counters. */
  prefix: string;
  onError?: (e: Error) => void;
}

const HOUR_S = 3600;
/** Variant B (traffic-service-interface.md §8): per API key 1,000 per hour and a burst of 20 per second. */
export const B_KEY_HOURLY = 1000;
export const B_KEY_BURST_PER_S = 20;
/** The hourly counter never refuses by itself; the limit is compared here, so one counter serves every tier. */
const UNBOUNDED = 2 ** 31 - 1;

/**
 * Requests counted per user or API key across every face (decisions.md "Rate limits"), with
 * rate-limiter-flexible: one fixed one-hour window per principal in memory, or in Redis when configured
 * (with an in-memory fallback while Redis is unreachable). API keys on variant B also get its burst limit.
 */
export class RateLimits {
  private readonly hourly: RateLimiterAbstract;
  private readonly burst: RateLimiterAbstract;
  private readonly redis?: IORedis;

  constructor(private readonly opts: RateLimitOptions) {
    const make = (points: number, duration: number, name: string): RateLimiterAbstract => {
      const keyPrefix = `${opts.prefix}:${name}`;
      const memory = new RateLimiterMemory({ points, duration, keyPrefix });
      if (!this.redis) return memory;
      return new RateLimiterRedis({
        storeClient: this.redis,
        points,
        duration,
        keyPrefix,
        insuranceLimiter: memory,
      });
    };
    if (opts.redisUrl) {
      this.redis = new IORedis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      this.redis.on("error", (e: Error) => opts.onError?.(e));
    }
    this.hourly = make(UNBOUNDED, HOUR_S, "hour");
    this.burst = make(B_KEY_BURST_PER_S, 1, "burst");
  }

  /** Counts one request of `p`; `variantB` when it came to `/api/v1`. Undefined when `p` is not limited. */
  async consume(p: Principal, variantB: boolean, now = Date.now()): Promise<RateDecision | undefined> {
    const bKey = variantB && p.kind === "api-key";
    const limit = bKey ? B_KEY_HOURLY : p.tier ? this.opts.tierLimits[p.tier] : 0;
    if (!limit) return undefined;
    if (bKey) {
      const b = await this.burst.consume(p.id).catch((e: unknown) => e);
      if (b instanceof RateLimiterRes && b.remainingPoints === 0 && b.consumedPoints > B_KEY_BURST_PER_S) {
        const retryAfterS = Math.max(1, Math.ceil(b.msBeforeNext / 1000));
        return {
          policy: "b-api-key-burst",
          limit: B_KEY_BURST_PER_S,
          windowS: 1,
          remaining: 0,
          resetAt: Math.ceil((now + b.msBeforeNext) / 1000),
          retryAfterS,
        };
      }
    }
    const r = await this.hourly.consume(p.id);
    const resetAt = Math.ceil((now + r.msBeforeNext) / 1000);
    const d: RateDecision = {
      policy: bKey ? "b-api-key" : (p.tier ?? "default"),
      limit,
      windowS: HOUR_S,
      remaining: Math.max(0, limit - r.consumedPoints),
      resetAt,
    };
    if (r.consumedPoints > limit) d.retryAfterS = Math.max(1, Math.ceil(r.msBeforeNext / 1000));
    return d;
  }

  /** Closes the Redis connection, if any. */
  async close(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}
