import { expect } from "chai";
import type { LiveEvent } from "../../../src/events/live-event";
import { SubscriberIndex } from "../../../src/events/subscriber-index";

const traffic = (zoneId: string, tenant = ""): LiveEvent => ({
  channel: "traffic",
  tenant,
  at: "2026-01-01T00:00:00.000Z",
  data: {
    zoneId,
    congestionLevel: "free",
    congestionIndex: 0,
    avgSpeed: 30,
    vehicleCount: 1,
    incidentCount: 0,
    reporting: 1,
  },
});
const accident = (severity: "minor" | "severe"): LiveEvent => ({
  channel: "accidents",
  tenant: "",
  at: "2026-01-01T00:00:00.000Z",
  data: {
    id: "a",
    entityId: "urn:ngsi-ld:TrafficAccident:a",
    change: "created",
    timestamp: "2026-01-01T00:00:00.000Z",
    location: { lat: 10.7, lon: 106.7 },
    severity,
    status: "active",
    vehiclesInvolved: 1,
    injuries: 0,
    fatalities: 0,
    images: [],
  },
});
const matches = (idx: SubscriberIndex<string>, e: LiveEvent) => {
  const out: string[] = [];
  idx.forEachMatch(e, (s) => out.push(s));
  return out.sort();
};

describe("SubscriberIndex", () => {
  it("files subscribers by zone: an update reaches that zone's and the every-zone subscribers only", () => {
    const idx = new SubscriberIndex<string>();
    idx.add("q1", { tenant: "", channel: "traffic", keys: ["quan-1", "quan-3"] });
    idx.add("q12", { tenant: "", channel: "traffic", keys: ["quan-12"] });
    idx.add("all", { tenant: "", channel: "traffic" });
    idx.add("acc", { tenant: "", channel: "accidents" });
    expect(matches(idx, traffic("quan-1"))).to.deep.equal(["all", "q1"]);
    expect(matches(idx, traffic("quan-12"))).to.deep.equal(["all", "q12"]);
    expect(matches(idx, traffic("quan-5"))).to.deep.equal(["all"]);
  });

  it("files subscribers by severity", () => {
    const idx = new SubscriberIndex<string>();
    idx.add("severe", { tenant: "", channel: "accidents", keys: ["severe", "critical"] });
    idx.add("minor", { tenant: "", channel: "accidents", keys: ["minor"] });
    expect(matches(idx, accident("severe"))).to.deep.equal(["severe"]);
    expect(matches(idx, accident("minor"))).to.deep.equal(["minor"]);
  });

  it("keeps tenants apart and forgets removed subscribers (removal is idempotent)", () => {
    const idx = new SubscriberIndex<string>();
    const remove = idx.add("t1", { tenant: "t1", channel: "traffic", keys: ["quan-1"] });
    idx.add("default", { tenant: "", channel: "traffic", keys: ["quan-1"] });
    expect(matches(idx, traffic("quan-1", "t1"))).to.deep.equal(["t1"]);
    expect(idx.size).to.equal(2);
    remove();
    remove();
    expect(idx.size).to.equal(1);
    expect(matches(idx, traffic("quan-1", "t1"))).to.deep.equal([]);
  });
});
