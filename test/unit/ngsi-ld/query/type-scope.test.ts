import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { matchesScopeQuery, parseScopeQuery } from "../../../../src/ngsi-ld/query/scope-query";
import { matchesTypes, parseTypeExpression } from "../../../../src/ngsi-ld/query/type-expression";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";
import { CORE_URL, loadContext } from "../codec/local-contexts";

const ctx = compileContext([
  { "@context": { ex: "https://example.org/", A: "ex:A" } },
  loadContext(CORE_URL),
]);
const A = "https://example.org/A";
const B = "https://uri.etsi.org/ngsi-ld/default-context/B";
const C = "https://uri.etsi.org/ngsi-ld/default-context/C";

describe("type expressions (ETSI GS CIM 009 v1.8 §4.17)", () => {
  const cases: [string, string[], boolean][] = [
    ["A", [A], true],
    ["A,B", [B], true],
    ["A|B", [C], false],
    ["A;B", [A], false],
    ["(A;B)", [A, B], true],
    ["(A;B),C", [C], true],
    ["(A;B)|C", [A], false],
    ["A;(B|C)", [A, C], true],
  ];
  for (const [src, types, want] of cases) {
    it(`${src} on [${types.map((t) => t.split(/[/#]/).pop()).join(",")}] -> ${want}`, () =>
      expect(matchesTypes(parseTypeExpression(src, ctx), types)).to.equal(want));
  }
  for (const [src, pos] of [
    ["A;", 2],
    ["(A", 2],
    ["A)", 1],
    ["A,,B", 2],
  ] as const) {
    it(`refuses ${src} at position ${pos}`, () => {
      let err: AppError | undefined;
      try {
        parseTypeExpression(src, ctx);
      } catch (e) {
        err = e as AppError;
      }
      expect(err?.kind).to.equal("BadRequestData");
      expect(err?.details).to.include({ parameter: "type", position: pos });
    });
  }
});

describe("scopeQ (ETSI GS CIM 009 v1.8 §4.19)", () => {
  const scopes = ["/Madrid/Gardens/ParqueNorte", "/CompanyA/OrganizationB/UnitC"];
  const cases: [string, boolean][] = [
    ["/Madrid/Gardens/ParqueNorte", true],
    ["/Madrid/Gardens", false],
    ["/Madrid/+/ParqueNorte", true],
    ["/Madrid/#", true],
    ["/Madrid/Gardens/ParqueNorte/#", true],
    ["/#", true],
    ["/Paris/#", false],
    ["/Madrid/Gardens/ParqueNorte;/CompanyA/OrganizationB/UnitC", true],
    ["/Madrid/Gardens/ParqueNorte;/Paris", false],
    ["/Paris,/CompanyA/+/UnitC", true],
  ];
  for (const [q, want] of cases)
    it(`${q} -> ${want}`, () => expect(matchesScopeQuery(parseScopeQuery(q), scopes)).to.equal(want));
  it("an entity without scope matches no scope query", () =>
    expect(matchesScopeQuery(parseScopeQuery("/#"), [])).to.equal(false));
  it("refuses a scope without a leading slash and a # in the middle", () => {
    expect(() => parseScopeQuery("Madrid")).to.throw(/position 0/);
    expect(() => parseScopeQuery("/a/#/b")).to.throw(/final #/);
  });
});
