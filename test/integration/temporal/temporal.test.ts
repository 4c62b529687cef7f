import { expect } from "chai";
import { http, linkTo, startTestApp, TEST_CONTEXT, type TestApp } from "../helpers/test-app";

const L = { Link: linkTo(TEST_CONTEXT) };
const B = "/ngsi-ld/v1";
const at = (min: number) => new Date(Date.UTC(2024, 0, 1, 8, min)).toISOString().replace(".000Z", "Z");
type Inst = { value: unknown; observedAt: string; instanceId: string; createdAt?: string };

describe("NGSI-LD temporal API (ETSI GS CIM 009 v1.8 §5.6.11 to §5.6.16, §5.7.3, §5.7.4)", function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => (app = await startTestApp({ TEMPORAL_PAGE_INSTANCES: "5" })));
  after(async () => app.destroy());

  it("appends an instance for every change made through the normal API", async () => {
    const id = "urn:ngsi-ld:Vehicle:hist1";
    const c = await http(
      app.url,
      "POST",
      `${B}/entities`,
      {
        id,
        type: "Vehicle",
        speed: { type: "Property", value: 10, observedAt: at(0), unitCode: "KMH" },
        brandName: { type: "Property", value: "Mercedes" },
      },
      L,
    );
    expect(c.status).to.equal(201);
    for (let i = 1; i <= 3; i++) {
      const p = await http(
        app.url,
        "PATCH",
        `${B}/entities/${id}/attrs`,
        {
          speed: { type: "Property", value: 10 + i * 10, observedAt: at(i * 5), unitCode: "KMH" },
        },
        L,
      );
      expect(p.status).to.equal(204);
    }
    const r = await http(app.url, "GET", `${B}/temporal/entities/${id}?attrs=speed`, undefined, L);
    expect(r.status).to.equal(200);
    const body = r.body as { id: string; type: string; speed: Inst[] };
    expect(body.id).to.equal(id);
    expect(body.type).to.equal("Vehicle");
    expect(body.speed.map((i) => [i.value, i.observedAt])).to.deep.equal([
      [10, at(0)],
      [20, at(5)],
      [30, at(10)],
      [40, at(15)],
    ]);
    expect(body.speed[0]).to.include({ type: "Property", unitCode: "KMH" });
    expect(new Set(body.speed.map((i) => i.instanceId)).size).to.equal(4);
    // brandName has no observedAt: it is in the history by modifiedAt
    const m = await http(
      app.url,
      "GET",
      `${B}/temporal/entities/${id}?attrs=brandName&timeproperty=modifiedAt`,
      undefined,
      L,
    );
    expect((m.body as { brandName: Inst[] }).brandName.map((i) => i.value)).to.deep.equal(["Mercedes"]);
    const n = await http(
      app.url,
      "GET",
      `${B}/temporal/entities/${id}?attrs=speed&lastN=2&options=temporalValues`,
      undefined,
      L,
    );
    expect(n.body).to.deep.include({
      speed: {
        type: "Property",
        values: [
          [30, at(10)],
          [40, at(15)],
        ],
      },
    });
  });

  it("records deletions through the normal API as deletedAt instances (§4.5.0, timeproperty=deletedAt)", async () => {
    const id = "urn:ngsi-ld:Vehicle:del1";
    const c = await http(
      app.url,
      "POST",
      `${B}/entities`,
      {
        id,
        type: "Vehicle",
        speed: { type: "Property", value: 10, observedAt: at(0) },
        isParked: { type: "Relationship", object: "urn:ngsi-ld:Parking:p1", observedAt: at(0) },
        name: { type: "LanguageProperty", languageMap: { en: "car" } },
      },
      L,
    );
    expect(c.status).to.equal(201);
    const t0 = Date.now();
    expect((await http(app.url, "DELETE", `${B}/entities/${id}/attrs/speed`, undefined, L)).status).to.equal(
      204,
    );
    const d = await http(app.url, "GET", `${B}/temporal/entities/${id}?timeproperty=deletedAt`, undefined, L);
    expect(d.status).to.equal(200);
    const body = d.body as Record<string, Inst[] | string>;
    expect(Object.keys(body).sort()).to.deep.equal(["id", "speed", "type"]);
    const gone = (body.speed as (Inst & { deletedAt: string })[])[0];
    expect(gone).to.include({ type: "Property", value: "urn:ngsi-ld:null" });
    expect(gone.instanceId).to.match(/^urn:ngsi-ld:attribute:instance:\d+$/);
    expect(Date.parse(gone.deletedAt)).to.be.within(t0 - 1000, Date.now() + 1000);
    // the observedAt history is unchanged: a deletion has no observedAt
    const o = await http(app.url, "GET", `${B}/temporal/entities/${id}?attrs=speed`, undefined, L);
    expect((o.body as { speed: Inst[] }).speed.map((i) => i.value)).to.deep.equal([10]);
    // deleting the entity records the deletion of every attribute left; the history stays
    expect((await http(app.url, "DELETE", `${B}/entities/${id}`, undefined, L)).status).to.equal(204);
    const v = await http(
      app.url,
      "GET",
      `${B}/temporal/entities/${id}?timeproperty=deletedAt&options=temporalValues`,
      undefined,
      L,
    );
    expect(v.status).to.equal(200);
    const vb = v.body as Record<string, { type: string; [k: string]: unknown }>;
    expect(vb.isParked.type).to.equal("Relationship");
    expect((vb.isParked.objects as unknown[][]).map((x) => x[0])).to.deep.equal(["urn:ngsi-ld:null"]);
    expect((vb.name.languageMaps as unknown[][]).map((x) => x[0])).to.deep.equal([
      { languageMap: { "@none": "urn:ngsi-ld:null" } },
    ]);
    expect((vb.speed.values as unknown[][]).map((x) => x[0])).to.deep.equal(["urn:ngsi-ld:null"]);
  });

  it("creates, appends, modifies and deletes through the temporal API", async () => {
    const id = "urn:ngsi-ld:Vehicle:t2";
    const make = (v: number, m: number) => ({ type: "Property", value: v, observedAt: at(m) });
    const c = await http(
      app.url,
      "POST",
      `${B}/temporal/entities`,
      {
        id,
        type: "Vehicle",
        speed: [make(1, 0), make(2, 1)],
        fuelLevel: make(50, 0),
      },
      L,
    );
    expect(c.status).to.equal(201);
    expect(c.headers.get("location")).to.equal(`${B}/temporal/entities/${id}`);
    const again = await http(
      app.url,
      "POST",
      `${B}/temporal/entities`,
      { id, type: "Vehicle", speed: [make(3, 2)] },
      L,
    );
    expect(again.status).to.equal(204);
    const add = await http(app.url, "POST", `${B}/temporal/entities/${id}/attrs`, { speed: [make(4, 3)] }, L);
    expect(add.status).to.equal(204);
    const get = async () =>
      (await http(app.url, "GET", `${B}/temporal/entities/${id}`, undefined, L)).body as Record<
        string,
        Inst[]
      >;
    let e = await get();
    expect(e.speed.map((i) => i.value)).to.deep.equal([1, 2, 3, 4]);
    const second = e.speed[1].instanceId;
    const mod = await http(
      app.url,
      "PATCH",
      `${B}/temporal/entities/${id}/attrs/speed/${second}`,
      make(22, 1),
      L,
    );
    expect(mod.status).to.equal(204);
    e = await get();
    expect(e.speed.map((i) => i.value)).to.deep.equal([1, 22, 3, 4]);
    expect(e.speed[1].instanceId).to.equal(second);
    const del = await http(
      app.url,
      "DELETE",
      `${B}/temporal/entities/${id}/attrs/speed/${second}`,
      undefined,
      L,
    );
    expect(del.status).to.equal(204);
    const again404 = await http(
      app.url,
      "DELETE",
      `${B}/temporal/entities/${id}/attrs/speed/${second}`,
      undefined,
      L,
    );
    expect(again404.status).to.equal(404);
    e = await get();
    expect(e.speed.map((i) => i.value)).to.deep.equal([1, 3, 4]);
    expect(
      (await http(app.url, "DELETE", `${B}/temporal/entities/${id}/attrs/fuelLevel`, undefined, L)).status,
    ).to.equal(204);
    e = await get();
    expect(e).to.not.have.property("fuelLevel");
    expect((await http(app.url, "DELETE", `${B}/temporal/entities/${id}`)).status).to.equal(204);
    expect((await http(app.url, "GET", `${B}/temporal/entities/${id}`)).status).to.equal(404);
  });

  it("aggregates per period, queries many entities, and pages long histories", async () => {
    for (const k of [1, 2, 3]) {
      const speed = Array.from({ length: 12 }, (_, m) => ({
        type: "Property",
        value: k * 100 + m,
        observedAt: at(m * 10),
      }));
      const r = await http(
        app.url,
        "POST",
        `${B}/temporal/entities`,
        { id: `urn:ngsi-ld:Car:a${k}`, type: "Car", speed },
        L,
      );
      expect(r.status).to.equal(201);
    }
    const agg = await http(
      app.url,
      "GET",
      `${B}/temporal/entities/urn:ngsi-ld:Car:a1?options=aggregatedValues&aggrMethods=avg,max,totalCount&aggrPeriodDuration=PT1H`,
      undefined,
      L,
    );
    expect(agg.status).to.equal(200);
    expect((agg.body as Record<string, unknown>).speed).to.deep.equal({
      type: "Property",
      avg: [
        [102.5, at(0), at(60)],
        [108.5, at(60), at(120)],
      ],
      max: [
        [105, at(0), at(60)],
        [111, at(60), at(120)],
      ],
      totalCount: [
        [6, at(0), at(60)],
        [6, at(60), at(120)],
      ],
    });
    const q = await http(
      app.url,
      "GET",
      `${B}/temporal/entities?type=Car&timerel=between&timeAt=${at(20)}&endTimeAt=${at(40)}&options=temporalValues&count=true`,
      undefined,
      L,
    );
    expect(q.status).to.equal(200);
    expect(q.headers.get("ngsild-results-count")).to.equal("3");
    expect(
      (q.body as { id: string; speed: { values: unknown[] } }[]).map((e) => [e.id, e.speed.values]),
    ).to.deep.equal([
      [
        "urn:ngsi-ld:Car:a1",
        [
          [102, at(20)],
          [103, at(30)],
        ],
      ],
      [
        "urn:ngsi-ld:Car:a2",
        [
          [202, at(20)],
          [203, at(30)],
        ],
      ],
      [
        "urn:ngsi-ld:Car:a3",
        [
          [302, at(20)],
          [303, at(30)],
        ],
      ],
    ]);
    const post = await http(
      app.url,
      "POST",
      `${B}/temporal/entityOperations/query`,
      {
        type: "Query",
        entities: [{ type: "Car" }],
        q: "speed>250",
        temporalQ: { timerel: "before", timeAt: at(20) },
      },
      L,
    );
    expect((post.body as { id: string; speed: Inst[] }[]).map((e) => [e.id, e.speed.length])).to.deep.equal([
      ["urn:ngsi-ld:Car:a3", 2],
    ]);
    const page = await http(app.url, "GET", `${B}/temporal/entities/urn:ngsi-ld:Car:a2`, undefined, L);
    expect(page.status).to.equal(206);
    expect(page.headers.get("content-range")).to.equal(`date-time ${at(0)}-${at(40)}/*`);
    expect((page.body as { speed: Inst[] }).speed.map((i) => i.value)).to.deep.equal([
      200, 201, 202, 203, 204,
    ]);
    const last = await http(
      app.url,
      "GET",
      `${B}/temporal/entities/urn:ngsi-ld:Car:a2?lastN=7`,
      undefined,
      L,
    );
    expect(last.status).to.equal(206);
    expect(last.headers.get("content-range")).to.equal(`date-time ${at(110)}-${at(70)}/7`);
  });

  it("answers bad temporal input with a precise 400 and stores nothing", async () => {
    const cases: [string, string][] = [
      ["timerel=before", "timeAt"],
      ["timerel=whenever&timeAt=2024-01-01T00:00:00Z", "timerel"],
      ["timeAt=2024-01-01T00:00:00Z", "timerel"],
      ["timerel=between&timeAt=2024-01-01T00:00:00Z", "endTimeAt"],
      ["timerel=after&timeAt=01/01/2024", "timeAt"],
      ["options=aggregatedValues&aggrMethods=median", "aggrMethods"],
      ["options=aggregatedValues&aggrMethods=avg&aggrPeriodDuration=1h", "aggrPeriodDuration"],
      ["lastN=zero", "lastN"],
    ];
    for (const [qs, parameter] of cases) {
      const r = await http(app.url, "GET", `${B}/temporal/entities/urn:ngsi-ld:Car:a1?${qs}`, undefined, L);
      expect(r.status, qs).to.equal(400);
      expect(r.body, qs).to.deep.include({ type: "https://uri.etsi.org/ngsi-ld/errors/BadRequestData" });
      expect((r.body as { details: { parameter: string } }).details.parameter, qs).to.equal(parameter);
    }
    const bad = await http(
      app.url,
      "POST",
      `${B}/temporal/entities`,
      {
        id: "urn:ngsi-ld:Car:bad",
        type: "Car",
        speed: [{ type: "Property", value: 1, observedAt: at(0) }, { type: "Property" }],
      },
      L,
    );
    expect(bad.status).to.equal(400);
    expect((await http(app.url, "GET", `${B}/temporal/entities/urn:ngsi-ld:Car:bad`)).status).to.equal(404);
  });

  it("keeps the history over a restart", async () => {
    const dir = app.dataDir;
    const before = await http(
      app.url,
      "GET",
      `${B}/temporal/entities/urn:ngsi-ld:Car:a3?lastN=3`,
      undefined,
      L,
    );
    await app.close();
    app = await startTestApp({ TEMPORAL_PAGE_INSTANCES: "5" }, dir);
    const after = await http(
      app.url,
      "GET",
      `${B}/temporal/entities/urn:ngsi-ld:Car:a3?lastN=3`,
      undefined,
      L,
    );
    expect(after.status).to.equal(200);
    expect(after.body).to.deep.equal(before.body);
    const hist = await http(
      app.url,
      "GET",
      `${B}/temporal/entities/urn:ngsi-ld:Vehicle:hist1?attrs=speed`,
      undefined,
      L,
    );
    expect((hist.body as { speed: Inst[] }).speed.map((i) => i.value)).to.deep.equal([10, 20, 30, 40]);
  });
});
