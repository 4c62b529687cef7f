import { expect } from "chai";
import type { Accident } from "../../../../../src/domain/traffic";
import { hotspotSeverity } from "../../../../../src/domain/traffic/flow/pattern-severity";
import type { TrafficProjection } from "../../../../../src/domain/traffic/projection/traffic-projection";
import { T0 } from "../b-fakes";

describe("domain/traffic pattern severity", () => {
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
