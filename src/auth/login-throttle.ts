import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "../errors";

/** Failed logins allowed per username in {@link WINDOW_S} before that username waits. */
export const FAILURES_PER_USERNAME = 10;
/** Failed logins allowed per client address in {@link WINDOW_S}. */
export const FAILURES_PER_ADDRESS = 50;
const WINDOW_S = 15 * 60;

/**
 * The brute-force limit of login (issue: "repeated failures for one username or address slow down"):
 * failures are counted per username and per address in a 15-minute window; past the allowance the login
 * answers 429 with the wait, without checking the password. A success clears the username's count.
 */
export class LoginThrottle {
  private readonly byUser = new RateLimiterMemory({
    points: FAILURES_PER_USERNAME,
    duration: WINDOW_S,
    keyPrefix: "login-user",
  });
  private readonly byAddress = new RateLimiterMemory({
    points: FAILURES_PER_ADDRESS,
    duration: WINDOW_S,
    keyPrefix: "login-ip",
  });

  /** Throws 429 when `username` or `address` has used up its failures. */
  async check(username: string, address: string): Promise<void> {
    for (const [limiter, key, max] of [
      [this.byUser, username.toLowerCase(), FAILURES_PER_USERNAME],
      [this.byAddress, address, FAILURES_PER_ADDRESS],
    ] as const) {
      const r = await limiter.get(key);
      if (r && r.consumedPoints >= max) throw tooMany(r);
    }
  }

  /** Counts a failed login. */
  async failed(username: string, address: string): Promise<void> {
    await Promise.all([
      this.byUser.consume(username.toLowerCase()).catch(() => undefined),
      this.byAddress.consume(address).catch(() => undefined),
    ]);
  }

  /** Clears the username's failures after a successful login. */
  async succeeded(username: string): Promise<void> {
    await this.byUser.delete(username.toLowerCase());
  }
}

function tooMany(r: RateLimiterRes): AppError {
  const s = Math.max(1, Math.ceil(r.msBeforeNext / 1000));
  return new AppError("TooManyRequests", `Too many failed logins, retry in ${s} seconds`, { retry_after: s });
}
