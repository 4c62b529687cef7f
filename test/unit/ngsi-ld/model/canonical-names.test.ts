import { expect } from "chai";
import { canonicalizeEntity } from "../../../../src/ngsi-ld/model/canonical-names";
import type { Entity } from "../../../../src/ngsi-ld/model/entity";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";
import { CORE_URL, loadContext } from "../codec/local-contexts";

const ctx = compileContext([
  { "@context": { ex: "https://example.org/", speed: "ex:speed", unit: "ex:unit" } },
  loadContext(CORE_URL),
]);

describe("canonicalizeEntity (JSON-LD 1.1 §4.1 expansion then §4.3 compaction of names)", () => {
  it("keeps an entity whose names are canonical as it is, member order included, sub-attributes renamed", () => {
    const e: Entity = {
      id: "urn:ngsi-ld:T:1",
      type: "T",
      speed: { type: "Property", value: 5, "https://example.org/unit": { type: "Property", value: "KMH" } },
      status: { type: "Property", value: "ok" },
    };
    const out = canonicalizeEntity(e, ctx);
    expect(out).to.equal(e);
    expect(Object.keys(out)).to.deep.equal(["id", "type", "speed", "status"]);
    expect(out.speed).to.deep.equal({ type: "Property", value: 5, unit: { type: "Property", value: "KMH" } });
  });

  it("renames IRIs and prefixed names to their terms, every attribute moving after the other members as before", () => {
    const e: Entity = {
      id: "urn:ngsi-ld:T:1",
      type: "https://example.org/speed",
      status: { type: "Property", value: "ok" },
      "https://example.org/speed": [{ type: "Property", value: 1 }],
      "ex:unit": { type: "Property", value: "x" },
    };
    const out = canonicalizeEntity(e, ctx);
    expect(out.type).to.equal("speed");
    expect(Object.keys(out)).to.deep.equal(["id", "type", "status", "speed", "unit"]);
    expect(out.speed).to.deep.equal([{ type: "Property", value: 1 }]);
  });

  it("moves the attributes after members that follow them, as deleting and re-adding every one does", () => {
    const e = { id: "urn:ngsi-ld:T:1", status: { type: "Property", value: 1 }, type: "T" } as Entity;
    expect(Object.keys(canonicalizeEntity(e, ctx))).to.deep.equal(["id", "type", "status"]);
  });
});
