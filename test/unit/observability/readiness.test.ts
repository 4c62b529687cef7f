import { expect } from "chai";
import { Readiness } from "../../../src/observability/readiness";

describe("Readiness", () => {
  it("lists the failing checks, a throwing one included, and a shutdown first", async () => {
    const r = new Readiness();
    let filled = false;
    r.add("indexes filled", () => filled);
    r.add("redis", () => Promise.reject(new Error("down")));
    expect(await r.notReady()).to.deep.equal(["indexes filled", "redis"]);
    filled = true;
    r.add("redis", async () => true);
    expect(await r.notReady()).to.deep.equal([]);
    r.drain();
    expect(r.draining).to.equal(true);
    expect(await r.notReady()).to.deep.equal(["shutting down"]);
    expect(await r.states()).to.deep.equal({
      "not shutting down": false,
      "indexes filled": true,
      redis: true,
    });
  });
});
