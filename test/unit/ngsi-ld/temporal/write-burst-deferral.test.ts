import { expect } from "chai";
import { WriteBurstDeferral } from "../../../../src/ngsi-ld/temporal/write-burst-deferral";

describe("temporal: write-burst deferral (sealing after the burst)", () => {
  it("puts the work off while writes are younger than the quiet period, and lets it run after a pause", () => {
    const d = new WriteBurstDeferral(2_000, 60_000);
    expect(d.defer(10_000, 10_500)).to.equal(true); // a write 0.5 s ago
    expect(d.since).to.equal(10_500);
    expect(d.defer(19_000, 20_000)).to.equal(true); // still writing
    expect(d.defer(19_000, 21_000)).to.equal(false); // 2 s without a write: the burst is over
    expect(d.since).to.equal(undefined);
  });

  it("never puts the work off for longer than maxDeferMs in a row, then counts afresh", () => {
    const d = new WriteBurstDeferral(2_000, 60_000);
    const deferred = [0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000].map((t) =>
      d.defer(t - 1, t),
    );
    expect(deferred).to.deep.equal([true, true, true, true, true, true, false, true]);
    expect(d.since).to.equal(70_000);
  });

  it("with a quiet period of 0 never puts anything off", () => {
    const d = new WriteBurstDeferral(0, 60_000);
    expect(d.defer(1_000, 1_000)).to.equal(false);
  });
});
