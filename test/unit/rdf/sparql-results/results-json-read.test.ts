import { expect } from "chai";
import { cutJsonSolutions, solutionsFromJson } from "../../../../src/rdf/sparql-results";

const XSD_INT = "http://www.w3.org/2001/XMLSchema#integer";
// as Oxigraph writes it: no spaces; a literal holding braces, quotes and backslashes
const answer = JSON.stringify({
  head: { vars: ["bindings", "o"] },
  results: {
    bindings: [
      { bindings: { type: "uri", value: "urn:a" }, o: { type: "literal", value: 'x"},{"\\' } },
      {},
      { o: { type: "literal", value: "7", datatype: XSD_INT } },
      { o: { type: "literal", value: "xin chào", "xml:lang": "vi" } },
      { bindings: { type: "bnode", value: "b1" } },
    ],
  },
});

describe("rdf/sparql-results: reading JSON results", () => {
  it("counts the solutions and keeps the text when none is cut", () => {
    expect(cutJsonSolutions(answer, 5)).to.deep.equal({ body: answer, rows: 5, truncated: false });
    expect(cutJsonSolutions(answer, 100).body).to.equal(answer);
  });

  it("cuts after the first max solutions, leaving valid JSON with the same head", () => {
    const all = (JSON.parse(answer) as { results: { bindings: unknown[] } }).results.bindings;
    for (const max of [0, 1, 2, 3, 4]) {
      const cut = cutJsonSolutions(answer, max);
      expect(cut.rows).to.equal(max);
      expect(cut.truncated).to.equal(true);
      const doc = JSON.parse(cut.body) as { head: unknown; results: { bindings: unknown[] } };
      expect(doc.head).to.deep.equal({ vars: ["bindings", "o"] });
      expect(doc.results.bindings).to.deep.equal(all.slice(0, max));
    }
  });

  it("counts no solution in an empty answer", () => {
    const empty = '{"head":{"vars":["s"]},"results":{"bindings":[]}}';
    expect(cutJsonSolutions(empty, 0)).to.deep.equal({ body: empty, rows: 0, truncated: false });
  });

  it("reads the terms as the other writers take them", () => {
    const { vars, rows } = solutionsFromJson(answer);
    expect(vars).to.deep.equal(["bindings", "o"]);
    expect(rows.map((r) => Object.fromEntries(r))).to.deep.equal([
      {
        bindings: { termType: "NamedNode", value: "urn:a" },
        o: { termType: "Literal", value: 'x"},{"\\', language: "", datatype: undefined },
      },
      {},
      { o: { termType: "Literal", value: "7", language: "", datatype: { value: XSD_INT } } },
      { o: { termType: "Literal", value: "xin chào", language: "vi", datatype: undefined } },
      { bindings: { termType: "BlankNode", value: "b1" } },
    ]);
  });
});
