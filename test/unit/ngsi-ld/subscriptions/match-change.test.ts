import { expect } from "chai";
import type { Entity } from "../../../../src/ngsi-ld/model/entity";
import { compileSubscription } from "../../../../src/ngsi-ld/subscriptions/compile-subscription";
import { diffEntity, notifiedEntity } from "../../../../src/ngsi-ld/subscriptions/entity-diff";
import { matchChange } from "../../../../src/ngsi-ld/subscriptions/match-change";
import { parseSubscription } from "../../../../src/ngsi-ld/subscriptions/parse-subscription";
import { SubscriptionIndex } from "../../../../src/ngsi-ld/subscriptions/subscription-index";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";
import { CORE_URL, loadContext } from "../codec/local-contexts";

const ctx = compileContext([
  { "@context": { ex: "https://example.org/", Camera: "ex:Camera" } },
  loadContext(CORE_URL),
]);
const NOW = "2026-01-01T00:00:00Z";

function compiled(extra: Record<string, unknown>, id = "urn:ngsi-ld:Subscription:m") {
  const sub = parseSubscription(
    {
      type: "Subscription",
      entities: [{ type: "Camera" }],
      notification: { endpoint: { uri: "http://x/" } },
      ...extra,
    },
    id,
    NOW,
  );
  return compileSubscription(
    { tenant: "", sub, context: undefined, stats: { timesSent: 0, timesFailed: 0 } },
    ctx,
  );
}

const cam = (speed: number, extra: Record<string, unknown> = {}): Entity => ({
  id: "urn:ngsi-ld:Camera:1",
  type: "Camera",
  speed: { type: "Property", value: speed },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7, 10.78] } },
  ...extra,
});

describe("subscription matching (ETSI GS CIM 009 v1.8 §5.8.6)", () => {
  it("default triggers: attributeCreated on creation, attributeUpdated on update, nothing on deletion", () => {
    const cs = compiled({});
    expect(matchChange(cs, diffEntity("urn:ngsi-ld:Camera:1", undefined, cam(1), NOW))).to.equal(
      "attributeCreated",
    );
    expect(matchChange(cs, diffEntity("urn:ngsi-ld:Camera:1", cam(1), cam(2), NOW))).to.equal(
      "attributeUpdated",
    );
    expect(matchChange(cs, diffEntity("urn:ngsi-ld:Camera:1", cam(1), undefined, NOW))).to.equal(undefined);
  });

  it("entity triggers and attributeDeleted", () => {
    const cs = compiled({ notificationTrigger: ["entityCreated", "entityDeleted", "attributeDeleted"] });
    expect(matchChange(cs, diffEntity("urn:ngsi-ld:Camera:1", undefined, cam(1), NOW))).to.equal(
      "entityCreated",
    );
    expect(matchChange(cs, diffEntity("urn:ngsi-ld:Camera:1", cam(1), undefined, NOW))).to.equal(
      "entityDeleted",
    );
    const { speed: _s, ...noSpeed } = cam(1);
    expect(matchChange(cs, diffEntity("urn:ngsi-ld:Camera:1", cam(1), noSpeed as Entity, NOW))).to.equal(
      "attributeDeleted",
    );
    expect(matchChange(cs, diffEntity("urn:ngsi-ld:Camera:1", cam(1), cam(2), NOW))).to.equal(undefined);
  });

  it("watchedAttributes: only changes to those attributes count", () => {
    const cs = compiled({ watchedAttributes: ["status"] });
    expect(matchChange(cs, diffEntity("urn:ngsi-ld:Camera:1", cam(1), cam(2), NOW))).to.equal(undefined);
    const withStatus = cam(1, { status: { type: "Property", value: "on" } });
    expect(matchChange(cs, diffEntity("urn:ngsi-ld:Camera:1", cam(1), withStatus, NOW))).to.equal(
      "attributeCreated",
    );
  });

  it("q, geoQ and scopeQ use the query engine's evaluators", () => {
    const q = compiled({ q: "speed>50" });
    expect(matchChange(q, diffEntity("urn:ngsi-ld:Camera:1", cam(1), cam(40), NOW))).to.equal(undefined);
    expect(matchChange(q, diffEntity("urn:ngsi-ld:Camera:1", cam(1), cam(60), NOW))).to.equal(
      "attributeUpdated",
    );
    const near = compiled({
      geoQ: { georel: "near;maxDistance==2000", geometry: "Point", coordinates: [106.7, 10.79] },
    });
    expect(matchChange(near, diffEntity("urn:ngsi-ld:Camera:1", cam(1), cam(2), NOW))).to.equal(
      "attributeUpdated",
    );
    const far = compiled({
      geoQ: { georel: "near;maxDistance==500", geometry: "Point", coordinates: [106.6, 10.7] },
    });
    expect(matchChange(far, diffEntity("urn:ngsi-ld:Camera:1", cam(1), cam(2), NOW))).to.equal(undefined);
    const scoped = compiled({ scopeQ: "/HCMC/#" });
    expect(matchChange(scoped, diffEntity("urn:ngsi-ld:Camera:1", cam(1), cam(2), NOW))).to.equal(undefined);
    const inScope = cam(2, { scope: "/HCMC/D1" });
    expect(matchChange(scoped, diffEntity("urn:ngsi-ld:Camera:1", cam(1), inScope, NOW))).to.equal(
      "attributeUpdated",
    );
  });

  it("id, idPattern and type selectors; paused, expired and periodic subscriptions never match", () => {
    const change = diffEntity("urn:ngsi-ld:Camera:1", cam(1), cam(2), NOW);
    expect(
      matchChange(compiled({ entities: [{ type: "Camera", id: "urn:ngsi-ld:Camera:2" }] }), change),
    ).to.equal(undefined);
    expect(matchChange(compiled({ entities: [{ type: "Camera", idPattern: ":1$" }] }), change)).to.equal(
      "attributeUpdated",
    );
    expect(matchChange(compiled({ entities: [{ type: "Road" }] }), change)).to.equal(undefined);
    expect(matchChange(compiled({ isActive: false }), change)).to.equal(undefined);
    const expiring = compiled({ expiresAt: "2026-01-01T00:00:01Z" });
    expect(matchChange(expiring, change, Date.parse("2026-01-01T00:00:02Z"))).to.equal(undefined);
    expect(matchChange(compiled({ timeInterval: 5 }), change)).to.equal(undefined);
  });

  it("shows deletions with the NGSI-LD null and changes with previous values (showChanges)", () => {
    const { speed: _s, ...noSpeed } = cam(1);
    const shown = notifiedEntity(diffEntity("urn:ngsi-ld:Camera:1", cam(1), noSpeed as Entity, NOW), {
      showChanges: true,
      sysAttrs: false,
    });
    expect(shown.speed).to.deep.equal({ type: "Property", previousValue: 1, value: "urn:ngsi-ld:null" });
    const upd = notifiedEntity(diffEntity("urn:ngsi-ld:Camera:1", cam(1), cam(2), NOW), {
      showChanges: true,
      sysAttrs: false,
    });
    expect(upd.speed).to.deep.equal({ type: "Property", value: 2, previousValue: 1 });
  });

  it("the index hands a write only the subscriptions of its types and the type-less ones", () => {
    const idx = new SubscriptionIndex();
    for (let i = 0; i < 100; i++) idx.put(compiled({ entities: [{ type: `T${i}` }] }, `urn:s:${i}`));
    idx.put(compiled({ entities: undefined, watchedAttributes: ["speed"] }, "urn:s:any"));
    const c = [...idx.candidates("", [ctx.expandTerm("T7")])].map((cs) => cs.record.sub.id);
    expect(c.sort()).to.deep.equal(["urn:s:7", "urn:s:any"]);
    expect(idx.candidates("other", [ctx.expandTerm("T7")]).size).to.equal(0);
    idx.remove("", "urn:s:7");
    expect([...idx.candidates("", [ctx.expandTerm("T7")])].map((cs) => cs.record.sub.id)).to.deep.equal([
      "urn:s:any",
    ]);
  });
});
