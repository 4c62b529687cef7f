import { expect } from "chai";
import { AppError } from "../../../src/errors";
import {
  FAILURES_PER_ADDRESS,
  FREE_FAILURES,
  LoginThrottle,
  MAX_DELAY_MS,
} from "../../../src/auth/login-throttle";

/** The wait (s) a refused check answers, or 0 when the login may go on. */
async function waitOf(t: LoginThrottle, user: string, address: string, now: number): Promise<number> {
  try {
    await t.check(user, address, now);
    return 0;
  } catch (e) {
    expect(e).to.be.instanceOf(AppError);
    expect((e as AppError).kind).to.equal("TooManyRequests");
    return (e as AppError).details.retry_after as number;
  }
}

describe("LoginThrottle", () => {
  it("makes one (username, address) wait longer at each failure past the free ones; other addresses log in", async () => {
    const t = new LoginThrottle();
    let now = 1_000_000;
    for (let i = 0; i < FREE_FAILURES; i++) await t.failed("admin", "10.0.0.1", now);
    expect(await waitOf(t, "admin", "10.0.0.1", now)).to.equal(0);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      await t.failed("Admin", "10.0.0.1", now);
      waits.push(await waitOf(t, "admin", "10.0.0.1", now));
      now += waits[i] * 1000;
    }
    expect(waits).to.deep.equal([1, 2, 4, 8, 16]);
    // the attacker's address does not lock the admin out of another one
    expect(await waitOf(t, "admin", "10.0.0.2", now - 1000)).to.equal(0);
    await t.failed("admin", "10.0.0.1", now);
    await t.succeeded("admin", "10.0.0.1");
    expect(await waitOf(t, "admin", "10.0.0.1", now)).to.equal(0);
  });

  it("caps the wait at 15 minutes", async () => {
    const t = new LoginThrottle();
    const now = 5_000_000;
    for (let i = 0; i < FREE_FAILURES + 40; i++) await t.failed("u", "10.0.0.3", now);
    expect(await waitOf(t, "u", "10.0.0.3", now)).to.equal(MAX_DELAY_MS / 1000);
  });

  it("keeps the per-address limit over every username", async () => {
    const t = new LoginThrottle();
    const now = Date.now();
    for (let i = 0; i < FAILURES_PER_ADDRESS; i++) await t.failed(`user${i}`, "10.0.0.4", now);
    expect(await waitOf(t, "someone-else", "10.0.0.4", now)).to.be.above(0);
    expect(await waitOf(t, "someone-else", "10.0.0.5", now)).to.equal(0);
  });
});
