import { expect } from "chai";
import * as fs from "fs";
import * as path from "path";
import { compileContext } from "../../../../src/rdf/contexts/compile-context";

const CORE = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, "../../../../../contexts/ngsi-ld-core-context-v1.8.jsonld"), "utf8"),
) as object;
const NGSI = "https://uri.etsi.org/ngsi-ld/";
const DEF = `${NGSI}default-context/`;

describe("compileContext (JSON-LD 1.1 API §4.1, §4.2, §4.5)", () => {
  const ctx = compileContext([
    {
      "@context": {
        schema: "https://schema.org/",
        speed: "https://ex.org/speed",
        kind: { "@id": "https://ex.org/kind", "@type": "@vocab" },
      },
    },
    CORE,
  ]);

  it("expands terms, compact IRIs, absolute IRIs and vocab-relative names", () => {
    expect(ctx.expandTerm("value")).to.equal(`${NGSI}hasValue`);
    expect(ctx.expandTerm("ngsi-ld:foo")).to.equal(`${NGSI}foo`);
    expect(ctx.expandTerm("schema:name")).to.equal("https://schema.org/name");
    expect(ctx.expandTerm("urn:x:y")).to.equal("urn:x:y");
    expect(ctx.expandTerm("https://a.org/b")).to.equal("https://a.org/b");
    expect(ctx.expandTerm("temperature")).to.equal(`${DEF}temperature`);
    expect(ctx.expandTerm("id")).to.equal("@id");
  });

  it("keeps coercions and containers", () => {
    expect(ctx.definition("object")).to.include({ iri: `${NGSI}hasObject`, coerce: "@id" });
    expect(ctx.definition("observedAt")).to.include({ coerce: `${NGSI}DateTime` });
    expect(ctx.definition("json")).to.include({ coerce: "@json" });
    expect(ctx.definition("languageMap")).to.include({ container: "@language" });
    expect(ctx.definition("valueList")).to.include({ container: "@list" });
    expect(ctx.definition("kind")).to.include({ coerce: "@vocab" });
  });

  it("compacts like jsonld.js: term, then vocab suffix, then shortest compact IRI", () => {
    expect(ctx.compactIri(`${NGSI}Property`)).to.equal("Property");
    expect(ctx.compactIri("https://ex.org/speed")).to.equal("speed");
    expect(ctx.compactIri(`${DEF}temperature`)).to.equal("temperature");
    expect(ctx.compactIri(`${NGSI}custom`)).to.equal("ngsi-ld:custom");
    expect(ctx.compactIri("https://schema.org/name")).to.equal("schema:name");
    expect(ctx.compactIri("urn:x:y")).to.equal("urn:x:y");
    expect(ctx.compactId(`${DEF}e1`)).to.equal("ngsi-ld:default-context/e1");
  });

  it("treats only terms ending in a gen-delim as prefixes", () => {
    expect(ctx.expandTerm("speed:x")).to.equal("speed:x");
    expect(ctx.compactIri("https://ex.org/speedy")).to.equal("https://ex.org/speedy");
  });

  it("lets the core context (last) win and refuses to redefine a protected term differently", () => {
    const c = compileContext([{ "@context": { value: "https://evil.org/value" } }, CORE]);
    expect(c.expandTerm("value")).to.equal(`${NGSI}hasValue`);
    expect(() => compileContext([CORE, { "@context": { value: "https://evil.org/value" } }])).to.throw(
      /protected term redefinition/,
    );
    expect(() => compileContext([CORE, { "@context": { value: "ngsi-ld:hasValue" } }])).not.to.throw();
  });

  it("rejects unresolved URLs and unsupported features", () => {
    expect(() => compileContext(["https://x.org/c.jsonld" as unknown as object])).to.throw(
      /unresolved context/,
    );
    expect(() => compileContext([{ "@context": { a: { "@id": "https://x/a", "@context": {} } } }])).to.throw(
      /not supported/,
    );
    expect(() => compileContext([{ "@context": { "@version": 1.0 } }])).to.throw(/@version/);
  });

  it("handles @vocab changes and null terms", () => {
    const c = compileContext([{ "@context": { "@vocab": "https://v.org/", gone: null } }]);
    expect(c.expandTerm("x")).to.equal("https://v.org/x");
    expect(c.expandIri("gone", true)).to.equal(null);
    expect(c.compactIri("https://v.org/x")).to.equal("x");
  });
});
