import { expect } from "chai";
import type { Entity } from "../../../../src/ngsi-ld/model/entity";
import { renderEntity } from "../../../../src/ngsi-ld/render/render-entity";
import { renderFeature } from "../../../../src/ngsi-ld/render/render-geojson";
import { parseLang } from "../../../../src/ngsi-ld/render/language";
import type { RenderOptions } from "../../../../src/ngsi-ld/render/render-options";

const T = "2024-05-01T10:00:00.000Z";
const stored: Entity = {
  id: "urn:ngsi-ld:Camera:7",
  type: "Camera",
  createdAt: T,
  modifiedAt: T,
  speed: { type: "Property", value: 41, unitCode: "KMH", createdAt: T, modifiedAt: T },
  district: { type: "Relationship", object: "urn:ngsi-ld:District:q1", createdAt: T, modifiedAt: T },
  location: {
    type: "GeoProperty",
    value: { type: "Point", coordinates: [106.7, 10.8] },
    createdAt: T,
    modifiedAt: T,
  },
  name: { type: "LanguageProperty", languageMap: { vi: "Cầu Sài Gòn", en: "Saigon Bridge" } },
};
const opts = (o: Partial<RenderOptions> = {}): RenderOptions => ({
  format: "normalized",
  sysAttrs: false,
  ...o,
});

describe("renderEntity (ETSI GS CIM 009 §4.5, §5.7.1)", () => {
  it("drops system attributes unless asked", () => {
    const out = renderEntity(stored, opts()) as Record<string, Record<string, unknown>>;
    expect(out.speed).to.deep.equal({ type: "Property", value: 41, unitCode: "KMH" });
    expect(out).to.not.have.property("createdAt");
    const withSys = renderEntity(stored, opts({ sysAttrs: true })) as Record<string, Record<string, unknown>>;
    expect(withSys.createdAt).to.equal(T);
    expect(withSys.speed.modifiedAt).to.equal(T);
  });

  it("renders keyValues and concise", () => {
    expect(renderEntity(stored, opts({ format: "keyValues" }))).to.deep.equal({
      id: "urn:ngsi-ld:Camera:7",
      type: "Camera",
      speed: 41,
      district: "urn:ngsi-ld:District:q1",
      location: { type: "Point", coordinates: [106.7, 10.8] },
      name: { vi: "Cầu Sài Gòn", en: "Saigon Bridge" },
    });
    const c = renderEntity(stored, opts({ format: "concise" })) as Record<string, unknown>;
    expect(c.speed).to.deep.equal({ value: 41, unitCode: "KMH" });
    expect(c.district).to.deep.equal({ object: "urn:ngsi-ld:District:q1" });
    expect(c.location).to.deep.equal({ type: "Point", coordinates: [106.7, 10.8] });
  });

  it("applies attrs, pick, omit and lang", () => {
    expect(Object.keys(renderEntity(stored, opts({ attrs: new Set(["speed"]) })))).to.deep.equal([
      "id",
      "type",
      "speed",
    ]);
    expect(
      Object.keys(
        renderEntity(stored, opts({ pick: { names: new Set(["id", "district"]), nested: new Map() } })),
      ),
    ).to.deep.equal(["id", "district"]);
    expect(
      renderEntity(
        stored,
        opts({ omit: { names: new Set(["type", "speed", "location", "name"]), nested: new Map() } }),
      ),
    ).to.deep.equal({
      id: "urn:ngsi-ld:Camera:7",
      district: { type: "Relationship", object: "urn:ngsi-ld:District:q1" },
    });
    const l = renderEntity(stored, opts({ lang: parseLang("fr,en;q=0.5") })) as Record<string, unknown>;
    expect(l.name).to.deep.equal({ type: "Property", value: "Saigon Bridge", lang: "en" });
  });

  it("answers lang=* with the same entry whatever the order the language map was read in (§4.15)", () => {
    const reversed: Entity = {
      ...stored,
      name: { type: "LanguageProperty", languageMap: { en: "Saigon Bridge", vi: "Cầu Sài Gòn" } },
    };
    for (const e of [stored, reversed]) {
      const any = renderEntity(e, opts({ lang: parseLang("*") })) as Record<string, unknown>;
      expect(any.name).to.deep.equal({ type: "Property", value: "Saigon Bridge", lang: "en" });
      const kv = renderEntity(e, opts({ format: "keyValues", lang: parseLang("*") })) as Record<
        string,
        unknown
      >;
      expect(kv.name).to.equal("Saigon Bridge");
    }
  });

  it("renders a GeoJSON Feature with the location as geometry", () => {
    const f = renderFeature(stored, opts({ format: "keyValues" }));
    expect(f.type).to.equal("Feature");
    expect(f.geometry).to.deep.equal({ type: "Point", coordinates: [106.7, 10.8] });
    expect((f.properties as Record<string, unknown>).speed).to.equal(41);
  });
});
