import { expect } from "chai";
import type { FlowRollup } from "../../../../../src/domain/traffic/flow/flow-rollup";
import { PeriodStats } from "../../../../../src/domain/traffic/flow/period-stats";
import { fakeHistory, fakeProjection as projection, MIN, T0 } from "../b-fakes";

describe("domain/traffic period stats", () => {
  it("counts a camera's vehicles, peak hour (local time) and congested minutes", () => {
    const rollup = { freeFlow: new Map([["cam", 40]]) } as unknown as FlowRollup;
    const s = new PeriodStats(projection, fakeHistory(), rollup).camera("cam", T0, T0 + 121 * MIN);
    expect(s).to.deep.equal({
      totalVehicles: 1200,
      avgSpeed: 25,
      peakHour: "08:00-09:00",
      congestionMinutes: 60,
      accidents: 0,
    });
  });
});
