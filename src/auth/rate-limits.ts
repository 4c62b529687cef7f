import IORedis from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { Principal, Tier } from "./principal";
import { WindowCounter } from "./window-counter";

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
/** Variant B (docs/auth.md "Rate limits"): per API key 1,000 per hour and a burst of 20 per second. */
export const B_KEY_HOURLY = 1000;
export const B_KEY_BURST_PER_S = 20;
/** The hourly counter never refuses by itself; the limit is compared here, so one counter serves every tier. */
const UNBOUNDED = 2 ** 31 - 1;

/**
 * Requests counted per user or API key across every face (docs/auth.md "Rate limits"): one fixed one-hour
 * window per principal, and for API keys on variant B its burst limit too. In memory the counting is
 * synchronous ({@link WindowCounter}); with Redis configured it is rate-limiter-flexible's RateLimiterRedis,
 * shared by every replica, with an in-memory fallback while Redis is unreachable.
 */
export class RateLimits {
  private readonly hourly?: WindowCounter;
  private readonly burst?: WindowCounter;
  private readonly shared?: { hourly: RateLimiterAbstract; burst: RateLimiterAbstract; redis: IORedis };

  constructor(private readonly opts: RateLimitOptions) {
    if (!opts.redisUrl) {
      this.hourly = new WindowCounter(HOUR_S * 1000);
      this.burst = new WindowCounter(1000);
      return;
    }
    const redis = new IORedis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    redis.on("error", (e: Error) => opts.onError?.(e));
    const make = (points: number, duration: number, name: string): RateLimiterAbstract => {
      const keyPrefix = `${opts.prefix}:${name}`;
      return new RateLimiterRedis({
        storeClient: redis,
        points,
        duration,
        keyPrefix,
        insuranceLimiter: new RateLimiterMemory({ points, duration, keyPrefix }),
      });
    };
    this.shared = {
      hourly: make(UNBOUNDED, HOUR_S, "hour"),
      burst: make(B_KEY_BURST_PER_S, 1, "burst"),
      redis,
    };
  }

  /**
   * Counts one request of `p`; `variantB` when it came to `/api/v1`. Undefined when `p` is not limited.
   * In memory the decision comes back at once, with Redis as a promise.
   */
  consume(
    p: Principal,
    variantB: boolean,
    now = Date.now(),
  ): RateDecision | undefined | Promise<RateDecision | undefined> {
    const bKey = variantB && p.kind === "api-key";
    const limit = bKey ? B_KEY_HOURLY : p.tier ? this.opts.tierLimits[p.tier] : 0;
    if (!limit) return undefined;
    const policy = bKey ? "b-api-key" : (p.tier ?? "default");
    if (this.shared) return this.consumeShared(p.id, bKey, policy, limit, now);
    if (bKey) {
      const b = this.burst!.hit(p.id, now);
      if (b.count > B_KEY_BURST_PER_S) return burstRefusal(b.endsAt - now, now);
    }
    const h = this.hourly!.hit(p.id, now);
    return decision(policy, limit, h.count, h.endsAt - now, now);
  }

  private async consumeShared(
    id: string,
    bKey: boolean,
    policy: string,
    limit: number,
    now: number,
  ): Promise<RateDecision> {
    const { hourly, burst } = this.shared!;
    if (bKey) {
      const b = await burst.consume(id).catch((e: unknown) => e);
      if (b instanceof RateLimiterRes && b.remainingPoints === 0 && b.consumedPoints > B_KEY_BURST_PER_S)
        return burstRefusal(b.msBeforeNext, now);
    }
    const r = await hourly.consume(id);
    return decision(policy, limit, r.consumedPoints, r.msBeforeNext, now);
  }

  /** Closes the Redis connection, if any. */
  async close(): Promise<void> {
    const redis = this.shared?.redis;
    if (redis) await redis.quit().catch(() => redis.disconnect());
  }
}

/** The hourly decision once `count` requests are counted in a window ending in `msLeft` ms. */
function decision(policy: string, limit: number, count: number, msLeft: number, now: number): RateDecision {
  const d: RateDecision = {
    policy,
    limit,
    windowS: HOUR_S,
    remaining: Math.max(0, limit - count),
    resetAt: Math.ceil((now + msLeft) / 1000),
  };
  if (count > limit) d.retryAfterS = Math.max(1, Math.ceil(msLeft / 1000));
  return d;
}

/** Variant B's burst refusal, the burst window ending in `msLeft` ms. */
function burstRefusal(msLeft: number, now: number): RateDecision {
  return {
    policy: "b-api-key-burst",
    limit: B_KEY_BURST_PER_S,
    windowS: 1,
    remaining: 0,
    resetAt: Math.ceil((now + msLeft) / 1000),
    retryAfterS: Math.max(1, Math.ceil(msLeft / 1000)),
  };
}
