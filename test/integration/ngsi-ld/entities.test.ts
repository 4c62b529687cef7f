import { expect } from "chai";
import { request } from "node:http";
import { http, linkTo, startTestApp, TestApp, TEST_CONTEXT } from "../helpers/test-app";

const ERR = "https://uri.etsi.org/ngsi-ld/errors/";
type Json = Record<string, unknown>;

const vehicle = (id: string, extra: Json = {}) => ({
  id,
  type: "Vehicle",
  speed: { type: "Property", value: 42, observedAt: "2024-01-01T10:00:00Z", unitCode: "KMH" },
  brandName: { type: "Property", value: "Honda" },
  isParked: { type: "Relationship", object: "urn:ngsi-ld:OffStreetParking:1" },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7, 10.78] } },
  ...extra,
});

describe("NGSI-LD entities over HTTP (ETSI GS CIM 009 §5.6, §5.7)", function () {
  let app: TestApp;
  const link = { Link: linkTo(TEST_CONTEXT) };
  const get = (p: string, h: Json = {}) => http(app.url, "GET", p, undefined, { ...link, ...(h as object) });

  before(async () => {
    app = await startTestApp();
  });
  after(async () => app.destroy());

  it("creates an entity (201 + Location) and retrieves it with the same context", async () => {
    const id = "urn:ngsi-ld:Vehicle:create1";
    const r = await http(app.url, "POST", "/ngsi-ld/v1/entities", vehicle(id), link);
    expect(r.status).to.equal(201);
    expect(r.headers.get("location")).to.equal(`/ngsi-ld/v1/entities/${id}`);
    const g = await get(`/ngsi-ld/v1/entities/${id}`);
    expect(g.status).to.equal(200);
    expect(g.body).to.deep.equal(vehicle(id));
  });

  it("answers a repeated GET the same way, per variant, and shows each acknowledged change at once", async () => {
    const id = "urn:ngsi-ld:Vehicle:cached1";
    await http(app.url, "POST", "/ngsi-ld/v1/entities", vehicle(id), link);
    const url = `/ngsi-ld/v1/entities/${id}`;
    const first = await get(url);
    const again = await get(url);
    expect(again.body).to.deep.equal(first.body);
    expect(again.headers.get("content-type")).to.equal(first.headers.get("content-type"));
    expect(again.headers.get("link")).to.equal(first.headers.get("link"));
    expect((await get(`${url}?options=keyValues`)).body).to.have.property("speed", 42);
    const ld = await get(url, { Accept: "application/ld+json" });
    expect((ld.body as Json)["@context"]).to.equal(TEST_CONTEXT);
    for (const v of [43, 44]) {
      const patch = { speed: { type: "Property", value: v } };
      expect((await http(app.url, "PATCH", `${url}/attrs`, patch, link)).status).to.equal(204);
      expect(((await get(url)).body as Record<string, Json>).speed.value).to.equal(v);
      expect((await get(`${url}?options=keyValues`)).body).to.have.property("speed", v);
    }
    expect((await http(app.url, "DELETE", url, undefined, link)).status).to.equal(204);
    expect((await get(url)).status).to.equal(404);
  });

  it("answers ld+json with the @context and keyValues / sysAttrs forms", async () => {
    const id = "urn:ngsi-ld:Vehicle:create2";
    await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/entities",
      { ...vehicle(id), "@context": TEST_CONTEXT },
      {
        "Content-Type": "application/ld+json",
      },
    );
    const ld = await get(`/ngsi-ld/v1/entities/${id}`, { Accept: "application/ld+json" });
    expect((ld.body as Json)["@context"]).to.equal(TEST_CONTEXT);
    const kv = await get(`/ngsi-ld/v1/entities/${id}?options=keyValues`);
    expect(kv.body).to.deep.equal({
      id,
      type: "Vehicle",
      speed: 42,
      brandName: "Honda",
      isParked: "urn:ngsi-ld:OffStreetParking:1",
      location: { type: "Point", coordinates: [106.7, 10.78] },
    });
    const sys = (await get(`/ngsi-ld/v1/entities/${id}?options=sysAttrs`)).body as Record<string, Json>;
    expect(sys.createdAt).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(sys.speed.modifiedAt).to.match(/^\d{4}-\d\d-\d\dT/);
  });

  it("refuses a duplicate with 409 AlreadyExists and bad input with precise 4xx, storing nothing", async () => {
    const id = "urn:ngsi-ld:Vehicle:dup";
    expect((await http(app.url, "POST", "/ngsi-ld/v1/entities", vehicle(id), link)).status).to.equal(201);
    const dup = await http(app.url, "POST", "/ngsi-ld/v1/entities", vehicle(id), link);
    expect(dup.status).to.equal(409);
    expect((dup.body as Json).type).to.equal(ERR + "AlreadyExists");

    const bad = [
      { body: "{not json", type: ERR + "InvalidRequest", status: 400 },
      { body: { id: "no-uri", type: "Vehicle" }, type: ERR + "BadRequestData", status: 400 },
      { body: { id: "urn:x:1", type: "Vehicle", "a<b": 1 }, type: ERR + "BadRequestData", status: 400 },
      {
        body: { id: "urn:x:2", type: "Vehicle", p: { type: "Property" } },
        type: ERR + "BadRequestData",
        status: 400,
      },
    ];
    for (const b of bad) {
      const r = await http(app.url, "POST", "/ngsi-ld/v1/entities", b.body, link);
      expect(r.status, JSON.stringify(b.body)).to.equal(b.status);
      expect((r.body as Json).type).to.equal(b.type);
    }
    const media = await http(app.url, "POST", "/ngsi-ld/v1/entities", "x", { "Content-Type": "text/plain" });
    expect(media.status).to.equal(415);
    const big = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/entities",
      vehicle("urn:x:big", { blob: "x".repeat(3e6) }),
    );
    expect(big.status).to.equal(413);
    for (const id2 of ["urn:x:1", "urn:x:2", "urn:x:big"]) {
      expect((await get(`/ngsi-ld/v1/entities/${id2}`)).status).to.equal(404);
    }
  });

  it("reads a body sent in chunks (Transfer-Encoding: chunked); a chunked body over the limit stores nothing", async () => {
    /** POSTs `parts` one write each, without Content-Length; resolves with the status, or "reset". */
    const chunked = (parts: string[]): Promise<number | "reset"> =>
      new Promise((resolve) => {
        const req = request(`${app.url}/ngsi-ld/v1/entities`, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...link },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", () => resolve("reset"));
        for (const p of parts) req.write(p);
        req.end();
      });
    const id = "urn:ngsi-ld:Vehicle:chunked1";
    const text = JSON.stringify(vehicle(id));
    const cut = [0, 7, 40, 41, 90, text.length];
    expect(await chunked(cut.slice(1).map((end, i) => text.slice(cut[i], end)))).to.equal(201);
    expect((await get(`/ngsi-ld/v1/entities/${id}`)).body).to.deep.equal(vehicle(id));
    const big = JSON.stringify(vehicle("urn:x:chunkedBig", { blob: "x".repeat(3e6) }));
    const parts = [];
    for (let i = 0; i < big.length; i += 256 * 1024) parts.push(big.slice(i, i + 256 * 1024));
    expect([413, "reset"]).to.include(await chunked(parts));
    expect((await get("/ngsi-ld/v1/entities/urn:x:chunkedBig")).status).to.equal(404);
  });

  it("appends, updates, patches, replaces and deletes attributes", async () => {
    const id = "urn:ngsi-ld:Vehicle:attrs";
    const base = `/ngsi-ld/v1/entities/${id}`;
    await http(app.url, "POST", "/ngsi-ld/v1/entities", vehicle(id), link);
    const noOv = await http(
      app.url,
      "POST",
      `${base}/attrs?options=noOverwrite`,
      { speed: 1, fuelLevel: 9 },
      link,
    );
    expect(noOv.status).to.equal(207);
    expect((noOv.body as Json).updated).to.deep.equal(["https://ngsi-ld-test-suite/context#fuelLevel"]);
    // PATCH /attrs replaces the instance wholesale (§5.6.2), so it carries observedAt and unitCode again
    const speed50 = { type: "Property", value: 50, observedAt: "2024-01-01T10:00:00Z", unitCode: "KMH" };
    // an attribute the entity lacks is appended (ETSI suite 011_01_03), an NGSI-LD null for one is not
    const upd = await http(app.url, "PATCH", `${base}/attrs`, { speed: speed50, added: 1 }, link);
    expect(upd.status).to.equal(204);
    expect(((await get(base)).body as Record<string, Json>).added).to.deep.include({ value: 1 });
    const nul = { type: "Property", value: "urn:ngsi-ld:null" };
    const none = await http(app.url, "PATCH", `${base}/attrs`, { nope: nul }, link);
    expect(none.status).to.equal(207);
    expect((none.body as { notUpdated: Json[] }).notUpdated[0].attributeName).to.equal(
      "https://uri.etsi.org/ngsi-ld/default-context/nope",
    );
    expect((await http(app.url, "PATCH", `${base}/attrs/speed`, { value: 55 }, link)).status).to.equal(204);
    let e = (await get(base)).body as Record<string, Json>;
    expect(e.speed).to.deep.equal({
      type: "Property",
      value: 55,
      observedAt: "2024-01-01T10:00:00Z",
      unitCode: "KMH",
    });
    expect(
      (await http(app.url, "PUT", `${base}/attrs/speed`, { type: "Property", value: 7 }, link)).status,
    ).to.equal(204);
    expect((await http(app.url, "DELETE", `${base}/attrs/brandName`, undefined, link)).status).to.equal(204);
    expect((await http(app.url, "DELETE", `${base}/attrs/brandName`, undefined, link)).status).to.equal(404);
    e = (await get(base)).body as Record<string, Json>;
    expect(e.speed).to.deep.equal({ type: "Property", value: 7 });
    expect(e).to.not.have.property("brandName");
    expect(e.fuelLevel).to.deep.equal({ type: "Property", value: 9 });
  });

  it("keeps datasetId instances apart and deletes one or all", async () => {
    const id = "urn:ngsi-ld:Vehicle:multi";
    const base = `/ngsi-ld/v1/entities/${id}`;
    const speed = [
      { type: "Property", value: 1 },
      { type: "Property", value: 2, datasetId: "urn:ds:gps" },
    ];
    await http(app.url, "POST", "/ngsi-ld/v1/entities", { id, type: "Vehicle", speed }, link);
    expect(((await get(base)).body as Json).speed).to.have.deep.members(speed);
    // §4.5.3: the simplified form of a multi-attribute maps each datasetId (@none: the default) to its value
    expect(((await get(`${base}?options=keyValues`)).body as Json).speed).to.deep.equal({
      dataset: { "@none": 1, "urn:ds:gps": 2 },
    });
    await http(app.url, "DELETE", `${base}/attrs/speed?datasetId=urn:ds:gps`, undefined, link);
    expect(((await get(base)).body as Json).speed).to.deep.equal(speed[0]);
    await http(app.url, "POST", `${base}/attrs`, { speed: speed[1] }, link);
    await http(app.url, "DELETE", `${base}/attrs/speed?deleteAll=true`, undefined, link);
    expect((await get(base)).body).to.not.have.property("speed");
  });

  it("merges (PATCH) and replaces (PUT) whole entities", async () => {
    const id = "urn:ngsi-ld:Vehicle:merge";
    const base = `/ngsi-ld/v1/entities/${id}`;
    await http(app.url, "POST", "/ngsi-ld/v1/entities", vehicle(id), link);
    const m = await http(
      app.url,
      "PATCH",
      base,
      { speed: { value: 60 }, brandName: "urn:ngsi-ld:null", fuelLevel: 3 },
      link,
    );
    expect(m.status).to.equal(204);
    let e = (await get(base)).body as Record<string, Json>;
    expect(e.speed.value).to.equal(60);
    expect(e.speed.unitCode).to.equal("KMH");
    expect(e).to.not.have.property("brandName");
    expect(e.fuelLevel).to.deep.equal({ type: "Property", value: 3 });
    expect((await http(app.url, "PUT", base, { type: "Vehicle", speed: 1 }, link)).status).to.equal(204);
    e = (await get(base)).body as Record<string, Json>;
    expect(e).to.deep.equal({ id, type: "Vehicle", speed: { type: "Property", value: 1 } });
    expect((await http(app.url, "DELETE", base, undefined, link)).status).to.equal(204);
    expect((await get(base)).status).to.equal(404);
  });

  it("runs batch create, upsert, update, delete with BatchOperationResult", async () => {
    const ids = ["urn:ngsi-ld:Vehicle:b1", "urn:ngsi-ld:Vehicle:b2"];
    const c = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/entityOperations/create",
      ids.map((i) => vehicle(i)),
      link,
    );
    expect(c.status).to.equal(201);
    expect(c.body).to.deep.equal(ids);
    const again = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/entityOperations/create",
      [vehicle(ids[0]), vehicle("urn:ngsi-ld:Vehicle:b3"), { id: "bad", type: "X" }],
      link,
    );
    expect(again.status).to.equal(207);
    const res = again.body as { success: string[]; errors: { entityId: string; error: Json }[] };
    expect(res.success).to.deep.equal(["urn:ngsi-ld:Vehicle:b3"]);
    expect(res.errors.map((x) => x.entityId)).to.have.members([ids[0], "bad"]);
    expect(res.errors.find((x) => x.entityId === ids[0])?.error.type).to.equal(ERR + "AlreadyExists");
    const up = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/entityOperations/upsert?options=update",
      [{ id: ids[0], type: "Vehicle", speed: 99 }],
      link,
    );
    expect(up.status).to.equal(204);
    const e = (await get(`/ngsi-ld/v1/entities/${ids[0]}`)).body as Record<string, Json>;
    expect(e.speed.value).to.equal(99);
    expect(e.brandName.value).to.equal("Honda");
    const del = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/entityOperations/delete",
      [...ids, "urn:x:none"],
      link,
    );
    expect(del.status).to.equal(207);
    expect((await get(`/ngsi-ld/v1/entities/${ids[1]}`)).status).to.equal(404);
  });

  it("applies an id repeated in one batch element after element (upsert, then update of the same entity)", async () => {
    const id = "urn:ngsi-ld:Vehicle:twice";
    const first = vehicle(id);
    const second = { id, type: "Vehicle", speed: { type: "Property", value: 7 } };
    const up = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/entityOperations/upsert?options=update",
      [first, second],
      link,
    );
    expect(up.status).to.equal(201);
    expect(up.body).to.deep.equal([id]);
    const e = (await get(`/ngsi-ld/v1/entities/${id}`)).body as Record<string, Json>;
    expect(e.speed).to.deep.equal({ type: "Property", value: 7 });
    expect(e.brandName.value).to.equal("Honda");
    const rep = await http(app.url, "POST", "/ngsi-ld/v1/entityOperations/upsert", [second, first], link);
    expect(rep.status).to.equal(204);
    expect((await get(`/ngsi-ld/v1/entities/${id}`)).body).to.deep.equal(vehicle(id));
  });

  it("keeps tenants isolated", async () => {
    const id = "urn:ngsi-ld:Vehicle:tenant";
    await http(app.url, "POST", "/ngsi-ld/v1/entities", vehicle(id), {
      ...link,
      "NGSILD-Tenant": "district1",
    });
    expect((await get(`/ngsi-ld/v1/entities/${id}`, { "NGSILD-Tenant": "district1" })).status).to.equal(200);
    expect((await get(`/ngsi-ld/v1/entities/${id}`)).status).to.equal(404);
    expect((await get(`/ngsi-ld/v1/entities/${id}`, { "NGSILD-Tenant": "other" })).status).to.equal(404);
  });

  it("purges entities by type", async () => {
    await http(app.url, "POST", "/ngsi-ld/v1/entities", { id: "urn:p:1", type: "Building" }, link);
    await http(app.url, "POST", "/ngsi-ld/v1/entities", { id: "urn:p:2", type: "Building" }, link);
    expect(
      (await http(app.url, "DELETE", "/ngsi-ld/v1/entities?type=Building", undefined, link)).status,
    ).to.equal(204);
    expect((await get("/ngsi-ld/v1/entities?type=Building")).body).to.deep.equal([]);
  });

  it("purges the entities matching q (ETSI GS CIM 009 v1.8 §5.6.21)", async () => {
    const b = (n: number, name: string) => ({
      id: `urn:pq:${n}`,
      type: "Tower",
      name: { type: "Property", value: name },
    });
    for (const e of [b(1, "Eiffel Tower"), b(2, "Pisa Tower"), b(3, "Eiffel Tower")])
      await http(app.url, "POST", "/ngsi-ld/v1/entities", e, link);
    const del = await http(app.url, "DELETE", '/ngsi-ld/v1/entities?q=name=="Eiffel Tower"', undefined, link);
    expect(del.status).to.equal(204);
    const left = (await get("/ngsi-ld/v1/entities?type=Tower")).body as Json[];
    expect(left.map((e) => e.id)).to.deep.equal(["urn:pq:2"]);
    expect((await http(app.url, "DELETE", "/ngsi-ld/v1/entities?q=name==", undefined, link)).status).to.equal(
      400,
    );
  });

  it("keeps every acknowledged entity across a restart", async () => {
    const id = "urn:ngsi-ld:Vehicle:restart";
    await http(app.url, "POST", "/ngsi-ld/v1/entities", vehicle(id), link);
    await app.close();
    app = await startTestApp({}, app.dataDir);
    const g = await get(`/ngsi-ld/v1/entities/${id}`);
    expect(g.body).to.deep.equal(vehicle(id));
  });
});
