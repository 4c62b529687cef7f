import { expect } from "chai";
import { WindowCounter } from "../../../src/auth/window-counter";

describe("auth/window-counter", () => {
  const t0 = 1_700_000_000_000;

  it("counts a key's requests in a window that starts at its first request", () => {
    const c = new WindowCounter(1000);
    expect(c.hit("a", t0)).to.deep.equal({ count: 1, endsAt: t0 + 1000 });
    expect(c.hit("a", t0 + 400)).to.deep.equal({ count: 2, endsAt: t0 + 1000 });
    expect(c.hit("a", t0 + 999)).to.deep.equal({ count: 3, endsAt: t0 + 1000 });
  });

  it("starts a new window once the old one has ended", () => {
    const c = new WindowCounter(1000);
    c.hit("a", t0);
    c.hit("a", t0 + 10);
    expect(c.hit("a", t0 + 1000)).to.deep.equal({ count: 1, endsAt: t0 + 2000 });
    expect(c.hit("a", t0 + 2500)).to.deep.equal({ count: 1, endsAt: t0 + 3500 });
  });

  it("counts each key apart", () => {
    const c = new WindowCounter(60_000);
    c.hit("a", t0);
    c.hit("a", t0);
    expect(c.hit("b", t0 + 5)).to.deep.equal({ count: 1, endsAt: t0 + 60_005 });
    expect(c.hit("a", t0 + 5).count).to.equal(3);
  });

  it("drops ended windows at most once per window length", () => {
    const c = new WindowCounter(1000);
    c.hit("a", t0);
    c.hit("b", t0 + 500);
    expect(c.size).to.equal(2);
    c.hit("c", t0 + 1200); // sweeps: a has ended, b has not
    expect(c.size).to.equal(2);
    c.hit("c", t0 + 1600); // no sweep before t0 + 2200, though b has ended
    expect(c.size).to.equal(2);
    c.hit("c", t0 + 2200);
    expect(c.size).to.equal(1);
  });
});
