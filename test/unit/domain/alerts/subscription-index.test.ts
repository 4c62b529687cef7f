import { expect } from "chai";
import type { AlertSubscription } from "../../../../src/domain/alerts/alert-subscriptions";
import { SubscriptionIndex } from "../../../../src/domain/alerts/subscription-index";

const Q1 = "urn:ngsi-ld:District:quan-1";
const Q7 = "urn:ngsi-ld:District:quan-7";
const sub = (id: string, districts: string[]): AlertSubscription => ({
  id,
  entityId: `urn:ngsi-ld:AlertSubscription:${id}`,
  userId: "u",
  owner: "u",
  alertTypes: ["accident"],
  districts,
  locations: [],
  severityThreshold: "minor",
  channels: ["webhook"],
  targets: { webhook_url: "http://x" },
  status: "active",
});
const ids = (l: AlertSubscription[]) => l.map((s) => s.id).sort();

describe("alerts/subscription index by district", () => {
  it("gives a district's own subscriptions and the city-wide ones, none of another district", () => {
    const x = new SubscriptionIndex<AlertSubscription>();
    x.set("a", sub("a", [Q1]));
    x.set("b", sub("b", [Q1, Q7]));
    x.set("c", sub("c", [Q7]));
    x.set("d", sub("d", []));
    expect(x.size).to.equal(4);
    expect(ids(x.forDistrict(Q1))).to.deep.equal(["a", "b", "d"]);
    expect(ids(x.forDistrict(Q7))).to.deep.equal(["b", "c", "d"]);
    expect(ids(x.forDistrict(undefined))).to.deep.equal(["d"]);
  });

  it("moves a replaced subscription to its new districts and forgets a removed one", () => {
    const x = new SubscriptionIndex<AlertSubscription>();
    x.set("a", sub("a", [Q1]));
    x.set("a", sub("a", [Q7]));
    expect(ids(x.forDistrict(Q1))).to.deep.equal([]);
    expect(ids(x.forDistrict(Q7))).to.deep.equal(["a"]);
    x.set("a", null);
    expect(x.size).to.equal(0);
    expect(x.forDistrict(Q7)).to.deep.equal([]);
    expect(x.get("a")).to.equal(undefined);
  });
});
