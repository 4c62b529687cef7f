import { expect } from "chai";
import type { Principal } from "../../../src/auth/principal";
import { RateLimits } from "../../../src/auth/rate-limits";

describe("auth/rate-limits (in memory)", () => {
  const tierLimits = { free: 3, basic: 1000, premium: 10_000, enterprise: 0 };
  const user: Principal = { id: "u1", kind: "user", role: "viewer", tier: "free", tenants: [] };
  const key: Principal = { id: "k1", kind: "api-key", role: "viewer", tier: "premium", tenants: [] };

  it("counts a principal's requests in a one-hour window and says when it may retry", async () => {
    const rl = new RateLimits({ tierLimits, prefix: "unit-a" });
    const t = Date.now();
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await rl.consume(user, false, t));
    expect(seen.map((d) => d?.remaining)).to.deep.equal([2, 1, 0, 0]);
    expect(seen[2]?.retryAfterS).to.equal(undefined);
    expect(seen[3]?.retryAfterS).to.be.within(3590, 3600);
    expect(seen[0]).to.include({ policy: "free", limit: 3, windowS: 3600 });
    expect(seen[0]?.resetAt).to.be.within(Math.floor(t / 1000) + 3599, Math.ceil(t / 1000) + 3600);
  });

  it("gives an API key on variant B a burst of 20 per second and 1,000 per hour", async () => {
    const rl = new RateLimits({ tierLimits, prefix: "unit-b" });
    const ds = [];
    for (let i = 0; i < 21; i++) ds.push(await rl.consume(key, true));
    expect(ds.slice(0, 20).every((d) => d?.limit === 1000 && d.retryAfterS === undefined)).to.equal(true);
    expect(ds[20]).to.include({ policy: "b-api-key-burst", limit: 20, retryAfterS: 1 });
    expect((await rl.consume(key, false))?.limit).to.equal(10_000);
  });

  it("decides at once in memory, and starts over when the hour has passed", () => {
    const rl = new RateLimits({ tierLimits, prefix: "unit-d" });
    const t = 1_700_000_000_000;
    for (let i = 0; i < 3; i++) rl.consume(user, false, t + i);
    const over = rl.consume(user, false, t + 10);
    expect(over).not.to.be.instanceOf(Promise);
    expect(over).to.include({ remaining: 0, retryAfterS: 3600, resetAt: t / 1000 + 3600 });
    const next = rl.consume(user, false, t + 3_600_000);
    expect(next).to.deep.equal({
      policy: "free",
      limit: 3,
      windowS: 3600,
      remaining: 2,
      resetAt: t / 1000 + 7200,
    });
  });

  it("does not count unlimited tiers", async () => {
    const rl = new RateLimits({ tierLimits, prefix: "unit-c" });
    expect(await rl.consume({ ...user, tier: "enterprise" }, false)).to.equal(undefined);
  });
});
