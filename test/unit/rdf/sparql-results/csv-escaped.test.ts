import { expect } from "chai";
import { negotiateFormat, serializeSolutions, type Solution } from "../../../../src/rdf/sparql-results";

const lit = (value: string) => ({
  termType: "Literal" as const,
  value,
  language: "",
  datatype: { value: "http://www.w3.org/2001/XMLSchema#string" },
});
const rows: Solution[] = ['=HYPERLINK("http://x","y")', "+1", "-2", "@SUM(A1)", "\tx", "plain"].map(
  (v) => new Map([["o", lit(v)]]),
);

describe("SPARQL CSV with formulas escaped", () => {
  it("is chosen by text/csv;escape=formulas; text/csv alone stays plain", () => {
    expect(negotiateFormat("SELECT", "text/csv; escape=formulas")?.kind).to.equal("csv-escaped");
    expect(negotiateFormat("SELECT", "text/csv;escape=formulas;q=0.9, application/xml;q=0.1")?.kind).to.equal(
      "csv-escaped",
    );
    expect(negotiateFormat("SELECT", "text/csv")?.kind).to.equal("csv");
    expect(negotiateFormat("SELECT", "text/csv; charset=utf-8")?.kind).to.equal("csv");
    expect(negotiateFormat("SELECT", "text/*")?.kind).to.equal("csv");
  });

  it("prefixes cells that would start a formula with a quote mark, and only those", () => {
    expect(serializeSolutions("csv-escaped", ["o"], rows)).to.equal(
      'o\r\n"\'=HYPERLINK(""http://x"",""y"")"\r\n\'+1\r\n\'-2\r\n\'@SUM(A1)\r\n\'\tx\r\nplain\r\n',
    );
    expect(serializeSolutions("csv", ["o"], rows))
      .to.contain('\r\n"=HYPERLINK(')
      .and.contain("\r\n+1\r\n");
  });
});
