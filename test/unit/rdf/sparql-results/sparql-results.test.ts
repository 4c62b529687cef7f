import { expect } from "chai";
import {
  negotiateFormat,
  queryFormOf,
  serializeBoolean,
  serializeSolutions,
  type ResultTerm,
  type Solution,
} from "../../../../src/rdf/sparql-results";

const iri = (value: string): ResultTerm => ({ termType: "NamedNode", value });
const lit = (value: string, datatype?: string, language?: string): ResultTerm => ({
  termType: "Literal",
  value,
  language: language ?? "",
  datatype: { value: datatype ?? "http://www.w3.org/2001/XMLSchema#string" },
});
const XSD_INT = "http://www.w3.org/2001/XMLSchema#integer";
const rows: Solution[] = [
  new Map([
    ["s", iri("urn:a")],
    ["o", lit('say "hi", then\ngo', undefined)],
  ]),
  new Map<string, ResultTerm>([
    ["s", { termType: "BlankNode", value: "b1" }],
    ["o", lit("7", XSD_INT)],
  ]),
  new Map([["o", lit("xin chào", undefined, "vi")]]),
];

describe("rdf/sparql-results (SPARQL 1.1 Protocol and result formats)", () => {
  it("tells the query form after the prologue", () => {
    expect(queryFormOf("PREFIX a: <urn:x#>\n# c\nSELECT * {}")).to.equal("SELECT");
    expect(queryFormOf("BASE <urn:b> construct {} where {}")).to.equal("CONSTRUCT");
    expect(queryFormOf("ASK {}")).to.equal("ASK");
    expect(queryFormOf("PREFIX a: <urn:x#> INSERT DATA {}")).to.equal("UPDATE");
    expect(queryFormOf("  drop all")).to.equal("UPDATE");
    expect(queryFormOf("FOO")).to.equal("UNKNOWN");
    expect(queryFormOf("PREFIX : <urn:x#>\r\n\tPREFIX b:<urn:y>select ?s {}")).to.equal("SELECT");
    expect(queryFormOf("# only a comment")).to.equal("UNKNOWN");
    expect(queryFormOf("PREFIX a: <urn:x")).to.equal("UNKNOWN");
  });

  it("tells the form of adversarial texts in linear time (runs of spaces, comments, prefixes)", () => {
    const t = performance.now();
    expect(queryFormOf(`${" ".repeat(200_000)}{`)).to.equal("UNKNOWN");
    expect(queryFormOf(`${"PREFIX a: <x> ".repeat(20_000)}{`)).to.equal("UNKNOWN");
    expect(queryFormOf(`${"#\n".repeat(100_000)}ASK {}`)).to.equal("ASK");
    expect(performance.now() - t).to.be.below(1000);
  });

  it("negotiates by Accept with q-values, per form, and finds nothing for an unknown type", () => {
    expect(negotiateFormat("SELECT", undefined)?.kind).to.equal("json");
    expect(negotiateFormat("SELECT", "text/csv;q=0.5, application/sparql-results+xml")?.kind).to.equal("xml");
    expect(negotiateFormat("ASK", "*/*")?.kind).to.equal("json");
    expect(negotiateFormat("CONSTRUCT", "*/*")?.kind).to.equal("turtle");
    expect(negotiateFormat("DESCRIBE", "application/ld+json")?.kind).to.equal("jsonld");
    expect(negotiateFormat("SELECT", "text/*")?.kind).to.equal("csv");
    expect(negotiateFormat("SELECT", "image/png")).to.equal(undefined);
    expect(negotiateFormat("SELECT", "text/csv;q=0")).to.equal(undefined);
  });

  it("writes JSON with uri, bnode, typed and tagged literals", () => {
    const j = JSON.parse(serializeSolutions("json", ["s", "o"], rows));
    expect(j.head.vars).to.deep.equal(["s", "o"]);
    expect(j.results.bindings[0]).to.deep.equal({
      s: { type: "uri", value: "urn:a" },
      o: { type: "literal", value: 'say "hi", then\ngo' },
    });
    expect(j.results.bindings[1].s).to.deep.equal({ type: "bnode", value: "b1" });
    expect(j.results.bindings[1].o).to.deep.equal({ type: "literal", value: "7", datatype: XSD_INT });
    expect(j.results.bindings[2]).to.deep.equal({
      o: { type: "literal", value: "xin chào", "xml:lang": "vi" },
    });
    expect(JSON.parse(serializeBoolean("json", true))).to.deep.equal({ head: {}, boolean: true });
  });

  it("writes XML with escapes", () => {
    const x = serializeSolutions("xml", ["s", "o"], rows);
    expect(x).to.contain('<variable name="s"/>');
    expect(x).to.contain("<literal>say &quot;hi&quot;, then\ngo</literal>");
    expect(x).to.contain(`<literal datatype="${XSD_INT}">7</literal>`);
    expect(x).to.contain('<literal xml:lang="vi">xin chào</literal>');
    expect(serializeBoolean("xml", false)).to.contain("<boolean>false</boolean>");
  });

  it("writes CSV (RFC 4180 quoting, CRLF) and TSV (N-Triples terms)", () => {
    expect(serializeSolutions("csv", ["s", "o"], rows)).to.equal(
      's,o\r\nurn:a,"say ""hi"", then\ngo"\r\n_:b1,7\r\n,xin chào\r\n',
    );
    expect(serializeSolutions("tsv", ["s", "o"], rows)).to.equal(
      `?s\t?o\n<urn:a>\t"say \\"hi\\", then\\ngo"\n_:b1\t"7"^^<${XSD_INT}>\n\t"xin chào"@vi\n`,
    );
  });
});
