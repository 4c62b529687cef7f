import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import {
  SUBSCRIPTION_GRAPH_PREFIX,
  SUBSCRIPTION_STATE,
} from "../../../src/ngsi-ld/subscriptions/subscription-repository";

const ENTITIES = "/ngsi-ld/v1/entities";
const SUBS = "/ngsi-ld/v1/subscriptions";
type Json = Record<string, unknown>;
const prop = (value: unknown) => ({ type: "Property", value });

/** Hardening: the broker's own namespaces and the entity's own members are not reachable as data. */
describe("reserved names: internal namespaces, id/type as attributes", function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ SUBSCRIPTION_STATUS_FLUSH: "50ms" });
  });
  after(async () => app.destroy());

  const forged = {
    id: "urn:citygraph:internal:subscription:forged",
    type: "X",
    "urn:citygraph:internal:subscriptionState": prop("x"),
  };

  it("refuses ids under urn:citygraph:internal: and urn:citygraph:history: with 400 on every write path", async () => {
    for (const id of [
      forged.id,
      "urn:citygraph:history:2026-01-01T00:00:00Z:urn:a",
      "URN:citygraph:INTERNAL:x",
    ]) {
      const body = { ...forged, id };
      const r = await http(app.url, "POST", ENTITIES, body);
      expect(r.status, id).to.equal(400);
      expect((r.body as Json).detail).to.match(/reserved/);
      const b = await http(app.url, "POST", "/ngsi-ld/v1/entityOperations/upsert", [body]);
      expect(b.status, id).to.equal(207);
      expect((b.body as { errors: { error: Json }[] }).errors[0].error.status).to.equal(400);
      const t = await http(app.url, "POST", "/ngsi-ld/v1/temporal/entities", {
        id,
        type: "X",
        speed: [{ type: "Property", value: 1, observedAt: "2024-01-01T00:00:00Z" }],
      });
      expect(t.status, id).to.equal(400);
      for (const [m, p] of [
        ["GET", `${ENTITIES}/${id}`],
        ["DELETE", `${ENTITIES}/${id}`],
        ["PATCH", `${ENTITIES}/${id}/attrs`],
        ["GET", `/ngsi-ld/v1/temporal/entities/${id}`],
      ]) {
        const res = await http(app.url, m, p, m === "PATCH" ? { a: prop(1) } : undefined);
        expect(res.status, `${m} ${p}`).to.equal(400);
      }
    }
    expect((await http(app.url, "GET", `${ENTITIES}?type=X`)).body).to.deep.equal([]);
  });

  it("refuses attribute and type names that expand into the broker's namespaces", async () => {
    const attr = await http(app.url, "POST", ENTITIES, { ...forged, id: "urn:ngsi-ld:X:1" });
    expect(attr.status).to.equal(400);
    const type = await http(app.url, "POST", ENTITIES, {
      id: "urn:ngsi-ld:X:2",
      type: "urn:citygraph:history:T",
    });
    expect(type.status).to.equal(400);
    const ok = await http(app.url, "POST", ENTITIES, { id: "urn:ngsi-ld:X:3", type: "X", a: prop(1) });
    expect(ok.status).to.equal(201);
    const patch = await http(app.url, "POST", `${ENTITIES}/urn:ngsi-ld:X:3/attrs`, {
      "urn:citygraph:internal:subscriptionState": prop("x"),
    });
    expect(patch.status).to.equal(400);
    expect((await http(app.url, "GET", `${ENTITIES}?type=X`)).body).to.have.length(1);
  });

  it("refuses type, id, @id, @type and @context as attribute names (400) and keeps the entity whole", async () => {
    const id = "urn:ngsi-ld:X:typed";
    expect((await http(app.url, "POST", ENTITIES, { id, type: "X", a: prop(1) })).status).to.equal(201);
    for (const name of ["type", "id", "@id", "@type", "@context"]) {
      const p = `${ENTITIES}/${id}/attrs/${encodeURIComponent(name)}`;
      for (const [m, body] of [
        ["DELETE", undefined],
        ["PATCH", prop(2)],
        ["PUT", prop(2)],
      ] as const) {
        const r = await http(app.url, m, p, body);
        expect(r.status, `${m} ${name}`).to.equal(400);
        expect((r.body as Json).type).to.equal("https://uri.etsi.org/ngsi-ld/errors/BadRequestData");
      }
    }
    const e = (await http(app.url, "GET", `${ENTITIES}/${id}`)).body as Json;
    expect(e).to.deep.include({ id, type: "X" });
  });

  it("starts with a bad stored subscription record: skips it, keeps the rest", async () => {
    const dir = app.dataDir;
    const good = await http(app.url, "POST", SUBS, {
      id: "urn:ngsi-ld:Subscription:kept",
      type: "Subscription",
      entities: [{ type: "X" }],
      notification: { endpoint: { uri: "http://example.org/n" } },
    });
    expect(good.status).to.equal(201);
    // a record that does not parse, as a damaged or forged journal could hold
    const g = `${SUBSCRIPTION_GRAPH_PREFIX}bad`;
    await app.store.commit("", [{ graph: g, triples: `<${g}> <${SUBSCRIPTION_STATE}> "not json" .\n` }]);
    await app.close();
    app = await startTestApp({}, dir);
    const list = (await http(app.url, "GET", SUBS)).body as Json[];
    expect(list.map((s) => s.id)).to.deep.equal(["urn:ngsi-ld:Subscription:kept"]);
  });
});
