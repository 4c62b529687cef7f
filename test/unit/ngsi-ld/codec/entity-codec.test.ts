import { expect } from "chai";
import { entityToTriples, triplesToEntity, type NgsiEntity } from "../../../../src/ngsi-ld/codec";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";
import { CORE_URL, loadContext } from "./local-contexts";

describe("entity codec (ETSI GS CIM 009 §5.5.7; fast JSON-LD path)", () => {
  const ctx = compileContext([loadContext(CORE_URL)]);
  const entity: NgsiEntity = {
    id: "urn:ngsi-ld:TrafficCamera:1",
    type: "TrafficCamera",
    status: { type: "Property", value: "active", observedAt: "2024-03-01T10:00:00Z" },
    seen: { type: "Property", value: { "@type": "DateTime", "@value": "2024-03-01T10:00:00Z" } },
    road: { type: "Relationship", object: "urn:ngsi-ld:Road:1" },
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.69, 10.79] } },
    label: { type: "LanguageProperty", languageMap: { en: "Cam", vi: "Máy" } },
    speed: [
      { type: "Property", value: 37.5, datasetId: "urn:ds:radar" },
      { type: "Property", value: 40, datasetId: "urn:ds:loop", quality: { type: "Property", value: 2 } },
    ],
  };

  it("round-trips an entity", () => {
    expect(triplesToEntity(entityToTriples(entity, ctx), entity.id, ctx)).to.deep.equal({
      ...entity,
      seen: { type: "Property", value: { type: "DateTime", "@value": "2024-03-01T10:00:00Z" } },
    });
  });

  it("writes GeoProperty values as one rdf:JSON literal and canonical number forms", () => {
    const nt = entityToTriples(entity, ctx, { shortcuts: false });
    expect(nt).to.include(
      `<https://uri.etsi.org/ngsi-ld/hasValue> "{\\"coordinates\\":[106.69,10.79],\\"type\\":\\"Point\\"}"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON>`,
    );
    expect(nt).to.include(`"3.75E1"^^<http://www.w3.org/2001/XMLSchema#double>`);
    expect(nt).not.to.include("asWKT");
  });

  it("adds shortcut triples for entity-level values, and the reader ignores them", () => {
    const nt = entityToTriples(entity, ctx);
    const s = "<urn:ngsi-ld:TrafficCamera:1>";
    expect(nt).to.include(`${s} <https://uri.etsi.org/ngsi-ld/status> "active" .`);
    expect(nt).to.include(
      `${s} <https://uri.etsi.org/ngsi-ld/default-context/seen> "2024-03-01T10:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .`,
    );
    expect(nt).to.include(`${s} <https://uri.etsi.org/ngsi-ld/default-context/road> <urn:ngsi-ld:Road:1> .`);
    expect(nt).to.include(
      `${s} <http://www.opengis.net/ont/geosparql#asWKT> "POINT(106.69 10.79)"^^<http://www.opengis.net/ont/geosparql#wktLiteral> .`,
    );
    expect(nt).to.include(
      `${s} <http://www.w3.org/2003/01/geo/wgs84_pos#lat> "10.79"^^<http://www.w3.org/2001/XMLSchema#double> .`,
    );
    expect(nt).to.include(`"Máy"@vi .`);
    expect(nt).not.to.match(/quality.*"2"/);
    const pure = triplesToEntity(entityToTriples(entity, ctx, { shortcuts: false }), entity.id, ctx);
    expect(triplesToEntity(nt, entity.id, ctx)).to.deep.equal(pure);
  });

  it("numbers keep their JSON value through the triples", () => {
    const e: NgsiEntity = {
      id: "urn:x:1",
      type: "T",
      n: { type: "Property", value: [0, -7, 1.5, 1e21, 123456789] },
    };
    const back = triplesToEntity(entityToTriples(e, ctx), e.id, ctx) as unknown as { n: { value: number[] } };
    expect([...back.n.value].sort((a, b) => a - b)).to.deep.equal([-7, 0, 1.5, 123456789, 1e21]);
  });

  describe("attribute timestamps in one literal (system-times.ts)", () => {
    const T1 = "2024-03-01T10:00:00.000Z";
    const T2 = "2024-03-02T10:00:00.000Z";
    const stamped: NgsiEntity = {
      id: "urn:ngsi-ld:TrafficCamera:2",
      type: "TrafficCamera",
      createdAt: T1,
      modifiedAt: T2,
      status: { type: "Property", value: "active", createdAt: T1, modifiedAt: T1 },
      road: { type: "Relationship", object: "urn:ngsi-ld:Road:1", createdAt: T1, modifiedAt: T2 },
      speed: [
        { type: "Property", value: 37.5, datasetId: "urn:ds:radar", createdAt: T1, modifiedAt: T1 },
        {
          type: "Property",
          value: 40,
          datasetId: "urn:ds:loop",
          modifiedAt: T2,
          quality: { type: "Property", value: 2 },
        },
      ],
      plain: { type: "Property", value: 1 },
    };
    const TIMES = "<https://w3id.org/citygraph/store#attributeTimes>";

    it("stores them as one literal, keeps the entity's own times as triples, and reads back exactly", () => {
      const nt = entityToTriples(stamped, ctx);
      expect(nt.match(new RegExp(TIMES, "g"))).to.have.length(1);
      expect(nt.match(/<https:\/\/uri\.etsi\.org\/ngsi-ld\/createdAt>/g)).to.have.length(1);
      expect(nt).to.include(
        `<urn:ngsi-ld:TrafficCamera:2> <https://uri.etsi.org/ngsi-ld/modifiedAt> "${T2}"`,
      );
      const normative = entityToTriples(stamped, ctx, { shortcuts: false });
      expect(normative).not.to.include(TIMES);
      expect(normative.match(/<https:\/\/uri\.etsi\.org\/ngsi-ld\/createdAt>/g)).to.have.length(4);
      expect(triplesToEntity(nt, stamped.id, ctx)).to.deep.equal(stamped);
      expect(triplesToEntity(normative, stamped.id, ctx)).to.deep.equal(stamped);
    });

    it("writes no literal when no instance has a time, and keeps triples when instances are ambiguous", () => {
      expect(entityToTriples(entity, ctx)).not.to.include(TIMES);
      const dup: NgsiEntity = {
        id: "urn:x:2",
        type: "T",
        speed: [
          { type: "Property", value: 1, createdAt: T1 },
          { type: "Property", value: 2, createdAt: T2 },
        ],
      };
      const nt = entityToTriples(dup, ctx);
      expect(nt).not.to.include(TIMES);
      expect(triplesToEntity(nt, dup.id, ctx)).to.deep.equal(dup);
    });

    it("does not change the entity it is given", () => {
      const copy = structuredClone(stamped);
      entityToTriples(stamped, ctx);
      expect(stamped).to.deep.equal(copy);
    });
  });
});
