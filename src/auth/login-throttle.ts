import { RateLimiterMemory } from "rate-limiter-flexible";
import { AppError } from "../errors";

/** Failed logins of one username from one address before each further one makes it wait. */
export const FREE_FAILURES = 5;
/** The first wait; each further failure doubles it, up to {@link MAX_DELAY_MS}. */
export const FIRST_DELAY_MS = 1_000;
/** Longest wait of one (username, address). */
export const MAX_DELAY_MS = 15 * 60_000;
/** Failed logins allowed per client address in {@link WINDOW_S}, whatever the usernames. */
export const FAILURES_PER_ADDRESS = 50;
const WINDOW_S = 15 * 60;

/** The failures of one username from one address. */
interface Failures {
  count: number;
  /** ms since epoch before which a login is refused unchecked. */
  waitUntil: number;
  last: number;
}

/**
 * The brute-force limit of login (docs/auth.md "Logging in"): failures are counted per (username,
 * address), and past {@link FREE_FAILURES} each one makes that pair wait, 1 s doubling up to 15 min; so
 * guessing a password is slow, and no one can lock a user out from another address. Each address also
 * has {@link FAILURES_PER_ADDRESS} failures per 15 minutes over all usernames. A refused login answers 429
 * with the wait, without checking the password. A success clears the pair's failures.
 */
export class LoginThrottle {
  private readonly pairs = new Map<string, Failures>();
  private sweepAt = 0;
  private readonly byAddress = new RateLimiterMemory({
    points: FAILURES_PER_ADDRESS,
    duration: WINDOW_S,
    keyPrefix: "login-ip",
  });

  /** Throws 429 while the (username, address) pair waits or `address` has used up its failures. */
  async check(username: string, address: string, now = Date.now()): Promise<void> {
    const f = this.pairs.get(pairKey(username, address));
    if (f && f.waitUntil > now) throw tooMany(f.waitUntil - now);
    const r = await this.byAddress.get(address);
    if (r && r.consumedPoints >= FAILURES_PER_ADDRESS) throw tooMany(r.msBeforeNext);
  }

  /** Counts a failed login. */
  async failed(username: string, address: string, now = Date.now()): Promise<void> {
    if (now >= this.sweepAt) this.sweep(now);
    const key = pairKey(username, address);
    let f = this.pairs.get(key);
    if (!f) this.pairs.set(key, (f = { count: 0, waitUntil: 0, last: now }));
    // 15 quiet minutes start the count again
    if (f.last + WINDOW_S * 1000 <= now) f.count = 0;
    f.count++;
    f.last = now;
    if (f.count > FREE_FAILURES) {
      const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(30, f.count - FREE_FAILURES - 1));
      f.waitUntil = now + delay;
    }
    await this.byAddress.consume(address).catch((): undefined => undefined);
  }

  /** Clears the pair's failures after a successful login. */
  async succeeded(username: string, address: string): Promise<void> {
    this.pairs.delete(pairKey(username, address));
    return Promise.resolve();
  }

  /** Forgets pairs with no failure in the last 15 minutes and no wait left. */
  private sweep(now: number): void {
    for (const [k, f] of this.pairs) {
      if (f.last + WINDOW_S * 1000 <= now && f.waitUntil <= now) this.pairs.delete(k);
    }
    this.sweepAt = now + 60_000;
  }
}

function pairKey(username: string, address: string): string {
  return `${username.toLowerCase()}\u0000${address}`;
}

function tooMany(waitMs: number): AppError {
  const s = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError("TooManyRequests", `Too many failed logins, retry in ${s} seconds`, { retry_after: s });
}
