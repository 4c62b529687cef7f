import { expect } from "chai";
import { FlowIntervals } from "../../../../../src/domain/traffic/flow/flow-intervals";
import { fakeHistory, fakeProjection as projection, MIN, T0 } from "../b-fakes";

describe("domain/traffic flow windows of variant B", () => {
  it("aggregates a camera's flow into windows of every interval with the same vehicles", () => {
    const f = new FlowIntervals(projection, fakeHistory());
    const sums = (["1m", "5m", "15m", "1h"] as const).map((i) => {
      const w = f.windows("cam", T0, T0 + 120 * MIN, i);
      return [w.length, w.reduce((s, x) => s + x.intensity, 0)];
    });
    expect(sums).to.deep.equal([
      [120, 1200],
      [24, 1200],
      [8, 1200],
      [2, 1200],
    ]);
    const [first, second] = f.windows("cam", T0, T0 + 120 * MIN, "1h");
    expect(first).to.include({
      from: T0,
      to: T0 + 60 * MIN,
      averageSpeed: 40,
      observations: 60,
      occupancy: 0.5,
    });
    expect(first.vehicleTypes).to.deep.equal({ car: 180, motorcycle: 420, truck: 0, bus: 0 });
    expect(second.averageSpeed).to.equal(10);
    expect(first.entityId).to.equal("urn:ngsi-ld:TrafficFlowObserved:cam:1h:20261125T010000Z");
    expect(f.windows("other", T0, T0 + 60 * MIN, "5m")).to.deep.equal([]);
  });
});
