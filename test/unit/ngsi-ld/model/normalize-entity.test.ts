import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { normalizeEntity } from "../../../../src/ngsi-ld/model/normalize-entity";

function fails(body: unknown, kind: "entity" | "fragment" = "entity"): AppError {
  try {
    normalizeEntity(body, kind);
  } catch (e) {
    expect(e).to.be.instanceOf(AppError);
    return e as AppError;
  }
  throw new Error("expected a failure");
}

describe("normalizeEntity (ETSI GS CIM 009 §4.5)", () => {
  it("keeps a normalized entity and infers kinds of concise attributes", () => {
    const e = normalizeEntity(
      {
        id: "urn:ngsi-ld:Camera:1",
        type: "Camera",
        speed: 42,
        status: { value: "active", observedAt: "2024-01-01T00:00:00Z" },
        district: { object: "urn:ngsi-ld:District:q1" },
        location: { type: "Point", coordinates: [106.7, 10.8] },
        name: { languageMap: { vi: "Cầu", en: "Bridge" } },
        address: { street: "Lê Lợi" },
      },
      "entity",
    );
    expect(e.speed).to.deep.equal({ type: "Property", value: 42 });
    expect(e.status).to.deep.equal({ type: "Property", value: "active", observedAt: "2024-01-01T00:00:00Z" });
    expect(e.district).to.deep.equal({ type: "Relationship", object: "urn:ngsi-ld:District:q1" });
    expect(e.location).to.deep.equal({
      type: "GeoProperty",
      value: { type: "Point", coordinates: [106.7, 10.8] },
    });
    expect(e.name).to.deep.equal({ type: "LanguageProperty", languageMap: { vi: "Cầu", en: "Bridge" } });
    expect(e.address).to.deep.equal({ type: "Property", value: { street: "Lê Lợi" } });
  });

  it("normalizes sub-attributes and multi-instance attributes", () => {
    const e = normalizeEntity(
      {
        id: "urn:a:1",
        type: "T",
        temp: [
          { type: "Property", value: 1, datasetId: "urn:ds:1", accuracy: { type: "Property", value: 0.1 } },
          { type: "Property", value: 2 },
        ],
      },
      "entity",
    );
    expect(e.temp).to.have.length(2);
    expect((e.temp as Record<string, unknown>[])[0].accuracy).to.deep.equal({ type: "Property", value: 0.1 });
  });

  it("refuses ids that are not URIs, bad names, wrong shapes, duplicate datasetIds", () => {
    expect(fails({ id: "not a uri", type: "T" }).kind).to.equal("BadRequestData");
    expect(fails({ id: "urn:a:1" }).message).to.match(/type/);
    expect(fails({ id: "urn:a:1", type: "T", "bad(name)": 1 }).message).to.match(/not valid/);
    expect(fails({ id: "urn:a:1", type: "T", p: { type: "Property" } }).message).to.match(/non-null "value"/);
    expect(fails({ id: "urn:a:1", type: "T", r: { type: "Relationship", object: "nope" } }).message).to.match(
      /URI/,
    );
    expect(fails({ id: "urn:a:1", type: "T", p: { type: "Foo", value: 1 } }).message).to.match(
      /unknown type/,
    );
    expect(fails({ id: "urn:a:1", type: "T", location: { type: "Property", value: 3 } }).message).to.match(
      /GeoProperty/,
    );
    expect(
      fails({
        id: "urn:a:1",
        type: "T",
        g: { type: "GeoProperty", value: { type: "Point", coordinates: [1] } },
      }).message,
    ).to.match(/position/);
    expect(
      fails({
        id: "urn:a:1",
        type: "T",
        p: [
          { type: "Property", value: 1 },
          { type: "Property", value: 2 },
        ],
      }).message,
    ).to.match(/datasetId/);
    expect(fails({ id: "urn:a:1", type: "T", p: null }).message).to.match(/null/);
    expect(fails({ id: "urn:a:1", type: "T", p: { value: 1, observedAt: "yesterday" } }).message).to.match(
      /observedAt/,
    );
  });

  it("accepts fragments without id and type, and drops client-sent system attributes", () => {
    const e = normalizeEntity({ speed: { value: 3, createdAt: "2020-01-01T00:00:00Z" } }, "fragment");
    expect(e.id).to.equal("");
    expect(e.type).to.equal(undefined);
    expect(e.speed).to.deep.equal({ type: "Property", value: 3 });
  });
});
