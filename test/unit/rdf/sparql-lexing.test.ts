import { expect } from "chai";
import { sparqlStringEnd } from "../../../src/rdf/sparql-lexing";

describe("sparqlStringEnd", () => {
  it("ends a short literal at its closing quote, past escapes", () => {
    const s = 'x "a\\"b" y';
    expect(s.slice(sparqlStringEnd(s, 2))).to.equal(" y");
    expect(sparqlStringEnd("'it''", 0)).to.equal(4);
  });

  it("ends a long literal at its closing triple quote, across lines and single quotes", () => {
    const s = '"""one "quoted"\nline""" rest';
    expect(s.slice(sparqlStringEnd(s, 0))).to.equal(" rest");
  });

  it("ends a short literal at a line break, which it cannot hold", () => {
    const s = '"open\n} }';
    expect(sparqlStringEnd(s, 0)).to.equal(5);
  });

  it("ends an unclosed literal at the end of the text", () => {
    expect(sparqlStringEnd('"abc', 0)).to.equal(4);
  });
});
