import { expect } from "chai";
import type { FlowRollup } from "../../../../src/domain/traffic/flow-rollup";
import type { HistoryReader } from "../../../../src/domain/traffic/history-reader";
import type { TrafficProjection } from "../../../../src/domain/traffic/traffic-projection";
import { FlowIntervals } from "../../../../src/domain/traffic/flow-intervals";
import { PeriodStats } from "../../../../src/domain/traffic/period-stats";
import { cameraCapabilitiesB, cameraMetadata } from "../../../../src/domain/traffic/camera-metadata";
import { estimateUvIndex } from "../../../../src/domain/traffic/uv-index";
import { hotspotSeverity } from "../../../../src/domain/traffic/pattern-severity";
import type { Accident, Camera } from "../../../../src/domain/traffic";

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 25, 1, 0); // 08:00 in Ho Chi Minh City

/** A history of one flow entity: a sample per minute for two hours, speed 40 then 10 in the second hour. */
function fakeHistory(): HistoryReader {
  const samples: Record<string, [number, number][]> = {};
  for (let k = 1; k <= 120; k++) {
    const t = T0 + k * MIN;
    const put = (term: string, v: number) => (samples[term] ??= []).push([t, v]);
    put("intensity", 10);
    put("carCount", 3);
    put("motorcycleCount", 7);
    put("truckCount", 0);
    put("busCount", 0);
    put("averageVehicleSpeed", k <= 60 ? 40 : 10);
    put("occupancy", 0.5);
  }
  return {
    forEach: (_id: string, term: string, from: number, to: number, f: (t: number, v: number) => void) => {
      for (const [t, v] of samples[term] ?? []) if (t >= from && t < to) f(t, v);
    },
  } as unknown as HistoryReader;
}

const projection = {
  flowEntities: new Map([["cam", "urn:ngsi-ld:TrafficFlowObserved:cam"]]),
  accidentList: () => [] as Accident[],
} as unknown as TrafficProjection;

describe("domain/traffic views of variant B", () => {
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
    expect(f.windows("other", T0, T0 + HOUR(), "5m")).to.deep.equal([]);
  });

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

  it("estimates the UV index from the sun and clouds: 0 at night, high at a clear tropical noon, less under cloud", () => {
    const hcmc = { lat: 10.78, lon: 106.7 };
    const noon = Date.UTC(2026, 3, 15, 5, 0); // 12:00 local in April
    expect(estimateUvIndex(hcmc, Date.UTC(2026, 3, 15, 16, 0), 0)).to.equal(0);
    expect(estimateUvIndex(hcmc, noon, 0)).to.be.within(11, 13);
    expect(estimateUvIndex(hcmc, noon, 1)).to.be.below(estimateUvIndex(hcmc, noon, 0) * 0.5);
  });

  it("names a camera's maker from its type and gives B capabilities", () => {
    const cam = { cameraType: "tth_axis", capabilities: ["vehicle_count", "thermal"] } as unknown as Camera;
    expect(cameraMetadata(cam, { width: 640, height: 360 })).to.deep.equal({
      resolution: "640x360",
      fps: 0,
      manufacturer: "Axis Communications",
    });
    expect(cameraMetadata({ ...cam, cameraType: "tth" })).to.include({
      resolution: "unknown",
      manufacturer: "unknown",
    });
    expect(cameraCapabilitiesB(cam)).to.deep.equal(["image", "thermal"]);
  });

  it("gives a hotspot the median severity of its accidents", () => {
    const at = { lat: 10.78, lon: 106.7 };
    const acc = (severity: string, dLat: number) =>
      ({ location: { lat: at.lat + dLat, lon: at.lon }, timestamp: T0, severity }) as unknown as Accident;
    const p = {
      accidentList: () => [acc("minor", 0), acc("critical", 0.001), acc("severe", 0.002), acc("severe", 0.1)],
    } as unknown as TrafficProjection;
    expect(hotspotSeverity(p, at, 500, T0 - 1, T0 + 1)).to.equal("severe");
    expect(hotspotSeverity(p, at, 500, T0 + 1, T0 + 2)).to.equal("minor");
  });
});

function HOUR(): number {
  return 60 * MIN;
}
