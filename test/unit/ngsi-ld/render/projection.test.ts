import { expect } from "chai";
import { parseProjection } from "../../../../src/ngsi-ld/render/projection";

const parse = (s: string) => parseProjection(s, "pick", (n) => `c:${n}`);

describe("pick / omit projections (ETSI GS CIM 009 v1.8 §4.21)", () => {
  it("parses names, keeps id and type, canonicalizes attributes, nests linked projections", () => {
    const p = parse("id,locatedAt{id,name,isInCountry{description}}");
    expect([...p.names]).to.deep.equal(["id", "c:locatedAt"]);
    const l = p.nested.get("c:locatedAt");
    expect([...(l?.names ?? [])]).to.deep.equal(["id", "c:name", "c:isInCountry"]);
    expect([...(l?.nested.get("c:isInCountry")?.names ?? [])]).to.deep.equal(["c:description"]);
  });
  for (const [bad, pos] of [
    ["id;name", 0],
    ["id,locatedAt{name", 17],
    ["id,locatedAt{{name}", 13],
    ["id,,name", 3],
    ["id,locatedAt{,name}", 13],
    ["id,locatedAt{}", 13],
    ["id}", 2],
  ] as const) {
    it(`refuses ${bad} at position ${pos}`, () => {
      expect(() => parse(bad)).to.throw(`Invalid pick at position ${pos}`);
    });
  }
});
