import { expect } from "chai";
import { http, linkTo, startTestApp, TestApp, TEST_CONTEXT } from "../helpers/test-app";

const ERR = "https://uri.etsi.org/ngsi-ld/errors/";
const S = "https://ngsi-ld-test-suite/context#";
const DEF = "https://uri.etsi.org/ngsi-ld/default-context/";
type Json = Record<string, unknown>;

const vehicle = (id: string) => ({
  id,
  type: "Vehicle",
  speed: [
    { type: "Property", value: 42, datasetId: "urn:ds:radar" },
    { type: "Property", value: 40, datasetId: "urn:ds:loop" },
  ],
  brandName: { type: "Property", value: "Honda" },
  isParked: {
    type: "Relationship",
    object: "urn:ngsi-ld:OffStreetParking:1",
    providedBy: { type: "Relationship", object: "urn:ngsi-ld:Person:Bob" },
  },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7, 10.78] } },
});
const building = (id: string) => ({
  id,
  type: "Building",
  name: { type: "Property", value: "Bitexco" },
  location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.704, 10.771] } },
});

describe("NGSI-LD discovery over HTTP (ETSI GS CIM 009 v1.8 §5.7.5 to §5.7.10, §6.25 to §6.28)", function () {
  let app: TestApp;
  const link = { Link: linkTo(TEST_CONTEXT) };
  const get = (p: string, h: Record<string, string> = link) =>
    http(app.url, "GET", `/ngsi-ld/v1${p}`, undefined, h);
  const post = (body: Json, h: Record<string, string> = {}) =>
    http(app.url, "POST", "/ngsi-ld/v1/entities", body, { ...link, ...h });

  before(async () => {
    app = await startTestApp();
    // one entity before the index is first built, the rest after (both paths feed it)
    expect((await post(vehicle("urn:ngsi-ld:Vehicle:1"))).status).to.equal(201);
    expect((await get("/types")).status).to.equal(200);
    for (const e of [vehicle("urn:ngsi-ld:Vehicle:2"), building("urn:ngsi-ld:Building:1")])
      expect((await post(e)).status).to.equal(201);
    expect((await post(building("urn:ngsi-ld:Building:t1"), { "NGSILD-Tenant": "t1" })).status).to.equal(201);
  });
  after(async () => app.destroy());

  it("GET /types lists the types, compacted with the request's context", async () => {
    const r = await get("/types");
    const body = r.body as Json;
    expect(body.type).to.equal("EntityTypeList");
    expect(body.id).to.match(/^urn:ngsi-ld:EntityTypeList:[0-9a-f-]{36}$/);
    expect(body.typeList).to.deep.equal(["Building", "Vehicle"]);
    expect(r.headers.get("link")).to.include(TEST_CONTEXT);
    const bare = await get("/types", {});
    expect((bare.body as Json).typeList).to.deep.equal([`${S}Building`, `${S}Vehicle`]);
  });

  it("GET /types?details=true gives each type's attribute names", async () => {
    expect((await get("/types?details=true")).body).to.deep.equal([
      { id: `${S}Building`, type: "EntityType", typeName: "Building", attributeNames: ["location", "name"] },
      {
        id: `${S}Vehicle`,
        type: "EntityType",
        typeName: "Vehicle",
        attributeNames: ["brandName", "isParked", "location", "speed"],
      },
    ]);
  });

  it("GET /types/{type} gives the entity count and each attribute's kinds, by term or by IRI", async () => {
    const want = {
      id: `${S}Vehicle`,
      type: "EntityTypeInfo",
      typeName: "Vehicle",
      entityCount: 2,
      attributeDetails: [
        { id: `${S}brandName`, type: "Attribute", attributeName: "brandName", attributeTypes: ["Property"] },
        {
          id: `${DEF}isParked`,
          type: "Attribute",
          attributeName: "isParked",
          attributeTypes: ["Relationship"],
        },
        {
          id: "https://uri.etsi.org/ngsi-ld/location",
          type: "Attribute",
          attributeName: "location",
          attributeTypes: ["GeoProperty"],
        },
        { id: `${S}speed`, type: "Attribute", attributeName: "speed", attributeTypes: ["Property"] },
      ],
    };
    expect((await get("/types/Vehicle")).body).to.deep.equal(want);
    expect((await get(`/types/${encodeURIComponent(`${S}Vehicle`)}`)).body).to.deep.equal(want);
  });

  it("GET /attributes lists attribute names; details=true adds the types that use them", async () => {
    const list = (await get("/attributes")).body as Json;
    expect(list.type).to.equal("AttributeList");
    expect(list.id).to.match(/^urn:ngsi-ld:AttributeList:/);
    expect(list.attributeList).to.deep.equal(["brandName", "isParked", "location", "name", "speed"]);
    const details = (await get("/attributes?details=true")).body as Json[];
    expect(details.find((a) => a.attributeName === "location")).to.deep.equal({
      id: "https://uri.etsi.org/ngsi-ld/location",
      type: "Attribute",
      attributeName: "location",
      typeNames: ["Building", "Vehicle"],
    });
    expect(details.map((a) => a.attributeName)).to.deep.equal([
      "brandName",
      "isParked",
      "location",
      "name",
      "speed",
    ]);
  });

  it("GET /attributes/{attrId} counts instances and names kinds and types", async () => {
    expect((await get("/attributes/speed")).body).to.deep.equal({
      id: `${S}speed`,
      type: "Attribute",
      attributeName: "speed",
      attributeCount: 4,
      attributeTypes: ["Property"],
      typeNames: ["Vehicle"],
    });
    const byIri = await get(`/attributes/${encodeURIComponent("https://uri.etsi.org/ngsi-ld/location")}`);
    expect((byIri.body as Json).attributeCount).to.equal(3);
    expect((byIri.body as Json).typeNames).to.deep.equal(["Building", "Vehicle"]);
  });

  it("answers application/ld+json with the @context in the body", async () => {
    const r = await get("/types/Building", { ...link, Accept: "application/ld+json" });
    expect(r.headers.get("content-type")).to.match(/application\/ld\+json/);
    expect((r.body as Json)["@context"]).to.equal(TEST_CONTEXT);
  });

  it("404 ResourceNotFound for an unknown type or attribute (sub-attributes are not entity attributes)", async () => {
    for (const p of [
      "/types/Bicycle",
      "/types/Bicycle?local=true",
      "/attributes/providedBy",
      "/attributes/colour",
    ]) {
      const r = await get(p);
      expect(r.status, p).to.equal(404);
      expect((r.body as Json).type).to.equal(`${ERR}ResourceNotFound`);
    }
    expect((await get("/types/Vehicle", {})).status).to.equal(404); // without the context, Vehicle is another IRI
  });

  it("keeps tenants apart", async () => {
    const t1 = { ...link, "NGSILD-Tenant": "t1" };
    expect(((await get("/types", t1)).body as Json).typeList).to.deep.equal(["Building"]);
    expect(((await get("/types/Building", t1)).body as Json).entityCount).to.equal(1);
    expect((await get("/types/Vehicle", t1)).status).to.equal(404);
    expect(
      ((await get("/attributes", { ...link, "NGSILD-Tenant": "nobody" })).body as Json).attributeList,
    ).to.deep.equal([]);
  });

  it("follows updates and deletions", async () => {
    const id = "urn:ngsi-ld:Building:2";
    expect((await post(building(id))).status).to.equal(201);
    expect(((await get("/types/Building")).body as Json).entityCount).to.equal(2);
    expect(
      (await http(app.url, "DELETE", `/ngsi-ld/v1/entities/${id}/attrs/name`, undefined, link)).status,
    ).to.equal(204);
    expect(((await get("/attributes/name")).body as Json).attributeCount).to.equal(1);
    expect((await http(app.url, "DELETE", `/ngsi-ld/v1/entities/${id}`, undefined, link)).status).to.equal(
      204,
    );
    expect(((await get("/types/Building")).body as Json).entityCount).to.equal(1);
    expect(((await get("/attributes/location")).body as Json).attributeCount).to.equal(3);
  });

  it("refuses parameters a discovery resource does not define, and non-boolean flags", async () => {
    const cases: [string, string][] = [
      ["/types?details=yes", "BadRequestData"],
      ["/types?local=1", "BadRequestData"],
      ["/types?type=Vehicle", "InvalidRequest"],
      ["/types/Vehicle?details=true", "InvalidRequest"],
      ["/attributes?limit=5", "InvalidRequest"],
      ["/attributes/speed?details=true", "InvalidRequest"],
    ];
    for (const [p, kind] of cases) {
      const r = await get(p);
      expect(r.status, p).to.equal(400);
      expect((r.body as Json).type, p).to.equal(ERR + kind);
    }
    expect((await get("/attributes?details=false&local=true")).status).to.equal(200);
  });

  it("gives the same answers after a restart (index rebuilt from the graph)", async () => {
    const paths = ["/types?details=true", "/types/Vehicle", "/attributes?details=true", "/attributes/speed"];
    const before = await Promise.all(paths.map(async (p) => (await get(p)).body));
    const dir = app.dataDir;
    await app.close();
    app = await startTestApp({}, dir);
    const after = await Promise.all(paths.map(async (p) => (await get(p)).body));
    expect(after).to.deep.equal(before);
  });
});
