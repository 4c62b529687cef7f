import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

/**
 * Start-up fills the attribute and geo indexes in the background from one scan of the stored graphs
 * (scanGraphs): the service listens before the scan ends, so a
 * query sent at once must wait for it and answer exactly as before the restart, writes made while it
 * runs included (ETSI GS CIM 009 v1.8 §4.9 q, §4.10 geo-queries).
 */
describe("indexes after a restart (one background scan; queries wait for it)", () => {
  let app: TestApp | undefined;
  after(async () => app?.destroy());

  const N = 1500;
  const entity = (n: number) => ({
    id: `urn:ngsi-ld:Sensor:${n}`,
    type: "Sensor",
    level: { type: "Property", value: n % 10 },
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [106 + (n % 100) / 100, 10.5] } },
  });
  const ids = (body: unknown) => (body as { id: string }[]).map((e) => e.id).sort();
  const queries = [
    "/ngsi-ld/v1/entities?type=Sensor&q=level==3&limit=1000",
    "/ngsi-ld/v1/entities?type=Sensor&georel=near;maxDistance==2000&geometry=Point&coordinates=[106.5,10.5]&limit=1000",
    "/ngsi-ld/v1/entities?type=Sensor&q=level==7&georel=within&geometry=Polygon&coordinates=[[[105.9,10],[106.3,10],[106.3,11],[105.9,11],[105.9,10]]]&limit=1000",
  ];

  it("answers the same queries right after a restart, and sees writes made during the scan", async () => {
    app = await startTestApp();
    for (let i = 0; i < N; i += 500) {
      const batch = Array.from({ length: 500 }, (_, k) => entity(i + k));
      const r = await http(app.url, "POST", "/ngsi-ld/v1/entityOperations/create", batch);
      expect(r.status).to.equal(201);
    }
    const before = await Promise.all(queries.map((q) => http(app!.url, "GET", q)));
    before.forEach((r) => expect(r.status).to.equal(200));
    expect(ids(before[0].body)).to.have.length(N / 10);
    expect(ids(before[1].body).length).to.be.greaterThan(0);
    expect(ids(before[2].body).length).to.be.greaterThan(0);

    const dir = app.dataDir;
    await app.close();
    app = await startTestApp({}, dir);
    // sent at once: the scan of 1,500 graphs is still running (or just done); the answers must not differ
    const moved = {
      ...entity(50),
      location: { type: "GeoProperty", value: { type: "Point", coordinates: [120, 20] } },
    };
    const [write, ...after] = await Promise.all([
      http(app.url, "POST", "/ngsi-ld/v1/entityOperations/upsert", [moved]),
      ...queries.map((q) => http(app!.url, "GET", q)),
    ]);
    expect(write.status).to.be.oneOf([201, 204]);
    const without = ids(before[1].body).filter((id) => id !== moved.id);
    expect(without).to.have.length(ids(before[1].body).length - 1);
    expect(ids(after[0].body)).to.deep.equal(ids(before[0].body));
    expect(ids(after[2].body)).to.deep.equal(ids(before[2].body));
    // the near query raced the write: it sees the entity where it was, or where it went
    expect([ids(before[1].body), without]).to.deep.include(ids(after[1].body));
    // once the write is acknowledged, every query sees it
    const again = await http(app.url, "GET", queries[1]);
    expect(ids(again.body)).to.deep.equal(without);
    const q3 = await http(app.url, "GET", queries[0]);
    expect(ids(q3.body)).to.deep.equal(ids(before[0].body));
  });
});
