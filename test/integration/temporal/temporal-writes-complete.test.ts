import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const B = "/ngsi-ld/v1/temporal/entities";
const T0 = "2026-11-28T10:00:00Z";
type Problem = { detail: string; details?: { attribute?: string; others?: string[] } };
type Inst = { value: unknown; observedAt?: string; instanceId: string };

/**
 * Every temporal write stores each attribute it was given or refuses the request naming it
 * (docs/ngsi-ld.md "Temporal writes"): never a 2xx with an attribute out of sight.
 */
describe("NGSI-LD temporal writes store every attribute or refuse (ETSI GS CIM 009 v1.8 §5.6.11, §5.6.12, §5.6.15)", function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => (app = await startTestApp()));
  after(async () => app.destroy());

  const get = async (id: string, qs = "") => {
    const r = await http(app.url, "GET", `${B}/${id}${qs}`);
    return { status: r.status, body: r.body as Record<string, Inst[]> };
  };
  const refusedFor = (r: { status: number; body: unknown }, attribute: string) => {
    expect(r.status, JSON.stringify(r.body)).to.equal(400);
    expect((r.body as Problem).details?.attribute).to.equal(attribute);
    expect((r.body as Problem).detail).to.contain(attribute);
  };

  it("refuses a create whose concise attribute has no observedAt, and creates nothing", async () => {
    const id = "urn:ngsi-ld:T:1";
    const temp = [{ type: "Property", value: 20, observedAt: T0 }];
    const r = await http(app.url, "POST", B, { id, type: "T", speed: true, temp });
    refusedFor(r, "speed");
    expect((await get(id)).status).to.equal(404);
  });

  it("stores a concise attribute with observedAt beside a normalized one", async () => {
    const id = "urn:ngsi-ld:T:2";
    const temp = [{ type: "Property", value: 20, observedAt: T0 }];
    const r = await http(app.url, "POST", B, { id, type: "T", speed: { value: true, observedAt: T0 }, temp });
    expect(r.status, r.text).to.equal(201);
    const e = (await get(id)).body;
    expect(e.speed.map((i) => [i.value, i.observedAt])).to.deep.equal([[true, T0]]);
    expect(e.temp.map((i) => [i.value, i.observedAt])).to.deep.equal([[20, T0]]);
  });

  it("refuses an append with an attribute that has no observedAt or no instance, and appends nothing", async () => {
    const id = "urn:ngsi-ld:T:3";
    const first = { type: "Property", value: 1, observedAt: T0 };
    expect((await http(app.url, "POST", B, { id, type: "T", speed: [first] })).status).to.equal(201);
    const later = { type: "Property", value: 2, observedAt: "2026-11-28T10:05:00Z" };
    refusedFor(await http(app.url, "POST", `${B}/${id}/attrs`, { speed: [later], fuel: 40 }), "fuel");
    refusedFor(await http(app.url, "POST", `${B}/${id}/attrs`, { speed: [later], fuel: [] }), "fuel");
    const e = (await get(id, "?timeproperty=modifiedAt")).body;
    expect(e.speed.map((i) => i.value)).to.deep.equal([1]);
    expect(e).to.not.have.property("fuel");
  });

  it("refuses an instance update whose fragment names another attribute too, and changes nothing", async () => {
    const id = "urn:ngsi-ld:T:4";
    const first = { type: "Property", value: 1, observedAt: T0 };
    expect((await http(app.url, "POST", B, { id, type: "T", speed: [first] })).status).to.equal(201);
    const iid = (await get(id)).body.speed[0].instanceId;
    const r = await http(app.url, "PATCH", `${B}/${id}/attrs/speed/${iid}`, {
      speed: { type: "Property", value: 5 },
      fuel: { type: "Property", value: 40 },
    });
    expect(r.status, r.text).to.equal(400);
    expect((r.body as Problem).details?.others).to.deep.equal(["fuel"]);
    const e = (await get(id)).body;
    expect(e.speed.map((i) => i.value)).to.deep.equal([1]);
    expect(e).to.not.have.property("fuel");
  });
});
