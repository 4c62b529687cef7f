import { expect } from "chai";
import { matches } from "../../../../src/domain/alerts/alert-stage";
import type { AlertFact } from "../../../../src/domain/alerts/alert-facts";
import type { AlertSubscription } from "../../../../src/domain/alerts/alert-subscriptions";

const sub = (s: Partial<AlertSubscription>): AlertSubscription => ({
  id: "s",
  entityId: "urn:ngsi-ld:AlertSubscription:s",
  userId: "u",
  owner: "u",
  alertTypes: ["accident"],
  districts: ["urn:ngsi-ld:District:quan-1"],
  locations: ["District 1"],
  severityThreshold: "severe",
  channels: ["webhook"],
  targets: { webhook_url: "http://x" },
  status: "active",
  ...s,
});
const fact = (f: Partial<AlertFact>): AlertFact => ({
  id: "accident-a",
  type: "accident",
  severity: "severe",
  lon: 106.7,
  lat: 10.78,
  source: "urn:ngsi-ld:TrafficAccident:a",
  timestamp: "2026-01-01T00:00:00Z",
  summary: "",
  ...f,
});

describe("domain/alerts: matching a fact to a subscription", () => {
  const d1 = "urn:ngsi-ld:District:quan-1";
  it("needs the type, the severity threshold and the district", () => {
    expect(matches(sub({}), fact({}), d1)).to.equal(true);
    expect(matches(sub({}), fact({ severity: "critical" }), d1)).to.equal(true);
    expect(matches(sub({}), fact({ severity: "moderate" }), d1)).to.equal(false);
    expect(matches(sub({}), fact({ type: "weather" }), d1)).to.equal(false);
    expect(matches(sub({}), fact({}), "urn:ngsi-ld:District:quan-7")).to.equal(false);
    expect(matches(sub({}), fact({}), undefined)).to.equal(false);
  });
  it("a subscription without locations covers the whole city", () => {
    expect(matches(sub({ districts: [], locations: [] }), fact({}), undefined)).to.equal(true);
  });
});
