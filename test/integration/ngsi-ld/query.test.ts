import { expect } from "chai";
import { http, linkTo, startTestApp, TestApp, TEST_CONTEXT } from "../helpers/test-app";

type Json = Record<string, unknown>;
const ERR = "https://uri.etsi.org/ngsi-ld/errors/";

const building = (n: number, extra: Json = {}): Json => ({
  id: `urn:ngsi-ld:Building:q${n}`,
  type: n % 3 === 0 ? ["Building", "TouristDestination"] : "Building",
  name: { type: "Property", value: `Tower ${n}` },
  floors: { type: "Property", value: n * 2, observedAt: `2024-01-${String(n).padStart(2, "0")}T00:00:00Z` },
  almostFull: { type: "Property", value: n % 2 === 0 },
  locatedIn: { type: "Relationship", object: `urn:ngsi-ld:City:c${n % 2}` },
  address: { type: "Property", value: { city: n < 4 ? "Pisa" : "Paris" } },
  scope: n < 3 ? "/Madrid/Gardens" : "/CompanyA/UnitC",
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7 + n / 100, 10.78] } },
  ...extra,
});

/** The keyValues form of a test building as the broker renders it. */
function kvOf(e: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(e)) {
    const a = v as Json;
    out[k] = typeof v === "object" && v !== null && !Array.isArray(v) ? (a.value ?? a.object) : v;
  }
  return out;
}

describe("NGSI-LD query entities over HTTP (ETSI GS CIM 009 v1.8 §5.7.2, §6.23)", function () {
  let app: TestApp;
  const link = { Link: linkTo(TEST_CONTEXT) };
  const get = (p: string, h: Json = {}) =>
    http(app.url, "GET", `/ngsi-ld/v1/entities?${p}`, undefined, { ...link, ...(h as object) });
  const ids = (body: unknown) => (body as Json[]).map((e) => String(e.id).split(":").pop()).sort();

  before(async () => {
    app = await startTestApp();
    const batch = [1, 2, 3, 4, 5, 6].map((n) => building(n));
    const r = await http(app.url, "POST", "/ngsi-ld/v1/entityOperations/create", batch, link);
    expect(r.status).to.equal(201);
  });
  after(async () => app.destroy());

  it("filters by q comparisons, ranges, patterns, paths and logic", async () => {
    const cases: [string, string[]][] = [
      ["q=floors>6", ["q4", "q5", "q6"]],
      ["q=floors==4..8;almostFull==true", ["q2", "q4"]],
      ['q=name=="Tower 1"|name=="Tower 6"', ["q1", "q6"]],
      ["q=name~=Tower [12]", ["q1", "q2"]],
      ["q=locatedIn==urn:ngsi-ld:City:c1", ["q1", "q3", "q5"]],
      ["q=floors.observedAt>=2024-01-05T00:00:00Z", ["q5", "q6"]],
      ['q=address[city]=="Pisa";(floors<3|floors>5)', ["q1", "q3"]],
      ["q=nosuchattribute", []],
    ];
    for (const [p, want] of cases) {
      const r = await get(`type=Building&${p}`);
      expect(r.status, p).to.equal(200);
      expect(ids(r.body), p).to.deep.equal(want);
    }
  });

  it("selects by type expressions, scopeQ, idPattern and id lists", async () => {
    expect(ids((await get("type=(Building;TouristDestination)")).body)).to.deep.equal(["q3", "q6"]);
    expect(ids((await get("type=TouristDestination,Vehicle")).body)).to.deep.equal(["q3", "q6"]);
    expect(ids((await get("type=Building&scopeQ=/Madrid/%23")).body)).to.deep.equal(["q1", "q2"]);
    expect(ids((await get("type=Building&scopeQ=/%2B/UnitC;/CompanyA/%23")).body)).to.deep.equal([
      "q3",
      "q4",
      "q5",
      "q6",
    ]);
    expect(ids((await get("idPattern=.*:q[15]$")).body)).to.deep.equal(["q1", "q5"]);
    expect(
      ids((await get("id=urn:ngsi-ld:Building:q2,urn:ngsi-ld:Building:q9&type=Building&q=floors>1")).body),
    ).to.deep.equal(["q2"]);
  });

  it("counts, pages with Link next/prev, and answers limit=0 with the count only", async () => {
    const r = await get("type=Building&limit=2&offset=2&count=true");
    expect(r.headers.get("ngsild-results-count")).to.equal("6");
    expect((r.body as Json[]).length).to.equal(2);
    const links = r.headers.get("link") ?? "";
    expect(links).to.match(
      /<\/ngsi-ld\/v1\/entities\?type=Building&limit=2&offset=4&count=true>; rel="next"/,
    );
    expect(links).to.match(
      /<\/ngsi-ld\/v1\/entities\?type=Building&limit=2&offset=0&count=true>; rel="prev"/,
    );
    const q = await get("type=Building&q=almostFull==true&count=true&limit=0");
    expect(q.headers.get("ngsild-results-count")).to.equal("3");
    expect(q.body).to.deep.equal([]);
    const last = await get("type=Building&q=almostFull==true&limit=2&offset=2");
    expect(last.headers.get("link") ?? "").not.to.contain('rel="next"');
  });

  it("renders keyValues, attrs, pick and GeoJSON answers", async () => {
    const kv = await get("id=urn:ngsi-ld:Building:q2&type=Building&options=keyValues&attrs=floors");
    expect(kv.body).to.deep.equal([
      { id: "urn:ngsi-ld:Building:q2", type: "Building", scope: "/Madrid/Gardens", floors: 4 },
    ]);
    const pick = await get("id=urn:ngsi-ld:Building:q2&type=Building&format=simplified&pick=id,name");
    expect(pick.body).to.deep.equal([{ id: "urn:ngsi-ld:Building:q2", name: "Tower 2" }]);
    const ld = await get("type=Building&q=floors==2&options=keyValues", { Accept: "application/ld+json" });
    expect(ld.headers.get("content-type")).to.equal("application/ld+json");
    expect(ld.body).to.deep.equal([{ ...kvOf(building(1)), "@context": TEST_CONTEXT }]);
    const again = await get("type=Building&q=floors==2&options=keyValues&pick=id");
    expect(again.body).to.deep.equal([{ id: "urn:ngsi-ld:Building:q1" }]);
    const geo = await get("id=urn:ngsi-ld:Building:q2&type=Building&pick=id,name", {
      Accept: "application/geo+json",
    });
    expect((geo.body as Json).type).to.equal("FeatureCollection");
    expect(((geo.body as Json).features as Json[])[0].id).to.equal("urn:ngsi-ld:Building:q2");
  });

  it("follows writes: updated and deleted entities leave the answers", async () => {
    const id = "urn:ngsi-ld:Building:q7";
    await http(app.url, "POST", "/ngsi-ld/v1/entities", building(7), link);
    expect(ids((await get("type=Building&q=floors==14")).body)).to.deep.equal(["q7"]);
    const patch = { floors: { type: "Property", value: 1 } };
    expect((await http(app.url, "PATCH", `/ngsi-ld/v1/entities/${id}/attrs`, patch, link)).status).to.equal(
      204,
    );
    expect(ids((await get("type=Building&q=floors==14")).body)).to.deep.equal([]);
    const listed = (await get("type=Building&q=floors<2")).body as Json[];
    expect(ids(listed)).to.deep.equal(["q7"]);
    // the answer lists the entity as written now, not a text rendered before the PATCH
    expect(listed[0].floors).to.deep.include({ type: "Property", value: 1 });
    await http(app.url, "DELETE", `/ngsi-ld/v1/entities/${id}`, undefined, link);
    expect(ids((await get("type=Building&q=floors<2")).body)).to.deep.equal([]);
  });

  it("combines geo-queries with q (GET parameters and POST geoQ)", async () => {
    // one hundredth of a degree of longitude at 10.78 N is about 1.09 km
    const near = "georel=near;maxDistance==2500&geometry=Point&coordinates=[106.73,10.78]";
    expect(ids((await get(`type=Building&${near}`)).body)).to.deep.equal(["q1", "q2", "q3", "q4", "q5"]);
    expect(ids((await get(`type=Building&${near}&q=floors>6`)).body)).to.deep.equal(["q4", "q5"]);
    const body = {
      type: "Query",
      entities: [{ type: "Building" }],
      geoQ: { georel: "near;minDistance==2500", geometry: "Point", coordinates: [106.73, 10.78] },
      q: "almostFull==true",
    };
    const r = await http(app.url, "POST", "/ngsi-ld/v1/entityOperations/query", body, link);
    expect(ids(r.body)).to.deep.equal(["q6"]);
    expect((await get("type=Building&georel=near&geometry=Point&coordinates=[1,2]")).status).to.equal(400);
  });

  it("joins linked entities (inline, flat, nested pick) and filters instances by datasetId", async () => {
    const city = { id: "urn:ngsi-ld:City:j1", type: "City", name: { type: "Property", value: "Pisa" } };
    const house = {
      id: "urn:ngsi-ld:House:j1",
      type: "House",
      locatedIn: { type: "Relationship", object: city.id },
      label: [
        { type: "Property", value: "Torre", datasetId: "urn:ngsi-ld:Dataset:it" },
        { type: "Property", value: "Tower" },
      ],
    };
    await http(app.url, "POST", "/ngsi-ld/v1/entityOperations/create", [city, house], link);
    const inline = await get("type=House&join=inline&options=keyValues&pick=id,locatedIn{name}");
    expect(inline.body).to.deep.equal([{ id: house.id, locatedIn: { name: "Pisa" } }]);
    const flat = await get("type=House&join=flat&options=keyValues&omit=label");
    expect(flat.body).to.deep.equal([
      { id: house.id, type: "House", locatedIn: city.id },
      { id: city.id, type: "City", name: "Pisa" },
    ]);
    const notFollowed = await get("type=House&join=flat&pick=id");
    expect(notFollowed.body).to.deep.equal([{ id: house.id }]);
    const ds = await get("type=House&attrs=label&datasetId=@none&options=keyValues");
    expect(ds.body).to.deep.equal([{ id: house.id, type: "House", label: "Tower" }]);
    const body = { type: "Query", entities: [{ type: "House" }], join: "inline", joinLevel: 1 };
    const post = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/entityOperations/query?options=keyValues&pick=locatedIn",
      body,
      link,
    );
    expect(post.body).to.deep.equal([{ locatedIn: { id: city.id, type: "City", name: "Pisa" } }]);
  });

  it("answers POST /entityOperations/query with selectors, q and count", async () => {
    const body = {
      type: "Query",
      entities: [{ type: "TouristDestination" }, { type: "Building", idPattern: ".*q1$" }],
      q: "floors<10",
      attrs: ["floors"],
    };
    const r = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/entityOperations/query?count=true&options=keyValues",
      body,
      link,
    );
    expect(r.status).to.equal(200);
    expect(r.headers.get("ngsild-results-count")).to.equal("2");
    expect(ids(r.body)).to.deep.equal(["q1", "q3"]);
    expect((r.body as Json[]).every((e) => Object.keys(e).sort().join() === "floors,id,scope,type")).to.equal(
      true,
    );
    const bad = await http(app.url, "POST", "/ngsi-ld/v1/entityOperations/query", { entities: [] }, link);
    expect(bad.status).to.equal(400);
  });

  it("refuses malformed q, type and scopeQ with 400 saying where, and stores nothing", async () => {
    for (const [p, pos] of [
      ["q=floors>>1", 7],
      ["type=Building;(", 10],
      ["type=Building&scopeQ=Madrid", 0],
    ] as const) {
      const r = await get(p);
      expect(r.status, p).to.equal(400);
      expect((r.body as Json).type).to.equal(`${ERR}BadRequestData`);
      expect((r.body as Json).detail).to.contain(`position ${pos}`);
    }
    expect((await get("limit=5")).status).to.equal(400);
    expect((await get("id=urn:ngsi-ld:Building:q1")).status).to.equal(400);
    expect((await get("attrs=id,type")).status).to.equal(400);
    expect((await get("local=true&count=true&limit=0")).headers.get("ngsild-results-count")).to.equal("8");
  });
});
