import { expect } from "chai";
import { parseNTriples, unescape } from "../../../../src/rdf/ntriples/parse";
import {
  escapeString,
  ntBlank,
  ntIri,
  ntIriOnce,
  ntLangLiteral,
  ntLine,
  ntLiteral,
} from "../../../../src/rdf/ntriples/write";
import { RDF_LANGSTRING, XSD_INTEGER, XSD_STRING } from "../../../../src/rdf/vocab";

describe("N-Triples writer and parser (RDF 1.1 N-Triples)", () => {
  it("escapes literals and IRIs", () => {
    expect(escapeString('a"b\\c\nd\re')).to.equal('a\\"b\\\\c\\nd\\re');
    expect(ntIri("http://x/a b")).to.equal("<http://x/a\\u0020b>");
    expect(ntIriOnce("http://x/a b")).to.equal("<http://x/a\\u0020b>");
    expect(ntIriOnce("urn:citygraph:history:2025-01-06T07:00:00Z:urn:x")).to.equal(
      "<urn:citygraph:history:2025-01-06T07:00:00Z:urn:x>",
    );
    expect(ntLiteral("x", XSD_STRING)).to.equal('"x"');
    expect(ntLiteral("5", XSD_INTEGER)).to.equal(`"5"^^<${XSD_INTEGER}>`);
    expect(ntLangLiteral("chào", "vi")).to.equal('"chào"@vi');
  });

  it('escapes exactly ", \\, LF and CR whichever path a string takes (loop or regular-expression scan, JSON.stringify or replace)', () => {
    const slow = (x: string) =>
      x.replace(/["\\\n\r]/g, (c) => ({ '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r" })[c] as string);
    const parts = [
      '"',
      "\\",
      "\n",
      "\r",
      "\t",
      "\u0001",
      "a",
      "é",
      "🚦",
      "\ud800",
      "\u2028",
      '{"d":["2025-01-01T00:00:00Z",null]}',
    ];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      let x = "";
      for (let k = 0; k < 1 + (i % 24); k++) x += parts[(seed = (seed * 48271) % 2147483647) % parts.length];
      expect(escapeString(x), JSON.stringify(x)).to.equal(slow(x));
    }
    expect(escapeString('{"a":"b\\n"}')).to.equal('{\\"a\\":\\"b\\\\n\\"}');
  });

  it("round-trips awkward strings, unicode, datatypes and language tags", () => {
    const values = ["", 'q"uote', "back\\slash", "multi\nline\r", "tab\there", "Đường 🚦", "\u0001"];
    let text = "";
    values.forEach((v, i) => (text += ntLine(ntBlank(`b${i}`), "http://x/p", ntLiteral(v, XSD_STRING))));
    text += ntLine(ntIri("urn:a"), "http://x/q", ntLangLiteral("hi", "en-GB"));
    text += ntLine(ntIri("urn:a"), "http://x/r", ntLiteral("7", XSD_INTEGER));
    const t = parseNTriples(text);
    expect(t.slice(0, values.length).map((x) => x.object.value)).to.deep.equal(values);
    expect(t[values.length].object).to.deep.equal({
      termType: "Literal",
      value: "hi",
      datatype: RDF_LANGSTRING,
      language: "en-GB",
    });
    expect(t[values.length + 1].object).to.include({ value: "7", datatype: XSD_INTEGER });
    expect(t[0].subject).to.include({ termType: "BlankNode", value: "b0" });
  });

  it("reads standard N-Triples as Oxigraph dumps it: comments, blank lines, UCHAR escapes, no space before '.'", () => {
    const t = parseNTriples(
      '# c\n\n<urn:s> <http://x/p> "caf\\u00E9 \\U0001F6A6"@fr.\n_:x\t<http://x/p>\t<urn:o\\u0020x> .\r\n',
    );
    expect(t).to.have.length(2);
    expect(t[0].object.value).to.equal("café 🚦");
    expect(t[1].object).to.include({ termType: "NamedNode", value: "urn:o x" });
    expect(unescape("a\\tb")).to.equal("a\tb");
  });

  it("fails loudly on malformed input", () => {
    expect(() => parseNTriples('<urn:s> <urn:p> "x"')).to.throw(/expected '\.'/);
    expect(() => parseNTriples("<urn:s <urn:p> <urn:o> .")).to.throw(/N-Triples/);
    expect(() => parseNTriples('<urn:s> <urn:p> "x\\q" .')).to.throw(/bad escape/);
  });
});
