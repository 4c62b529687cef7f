import { expect } from "chai";
import { AppError } from "../../../../../src/errors";
import { parseQ } from "../../../../../src/ngsi-ld/query/q/q-parser";

function error(q: string): AppError {
  try {
    parseQ(q);
  } catch (e) {
    return e as AppError;
  }
  throw new Error(`parsed: ${q}`);
}

describe("q parser (ETSI GS CIM 009 v1.8 §4.9)", () => {
  it("parses a comparison with a number", () => {
    expect(parseQ("speed>50")).to.deep.equal({
      kind: "leaf",
      leaf: {
        path: { names: ["speed"], keys: [] },
        op: ">",
        operand: { kind: "value", value: { t: "number", v: 50 } },
      },
    });
  });

  it("gives ; precedence over | and honours parentheses", () => {
    const e = parseQ("a==1|b==2;c==3");
    expect(e.kind).to.equal("or");
    const p = parseQ("(a==1|b==2);c==3");
    expect(p.kind).to.equal("and");
    if (p.kind !== "leaf") expect(p.items[0].kind).to.equal("or");
  });

  it("reads quoted strings with escapes, booleans, date-times, dates, times and URIs", () => {
    const v = (q: string) => {
      const e = parseQ(q);
      if (e.kind !== "leaf" || e.leaf.operand?.kind !== "value") throw new Error("not a value");
      return e.leaf.operand.value;
    };
    expect(v('name=="Eiffel \\"Tower\\";|"')).to.deep.equal({ t: "string", v: 'Eiffel "Tower";|' });
    expect(v("almostFull==false")).to.deep.equal({ t: "boolean", v: false });
    expect(v("t>=2018-12-04T12:00:00Z")).to.deep.equal({
      t: "dateTime",
      v: Date.parse("2018-12-04T12:00:00Z"),
      raw: "2018-12-04T12:00:00Z",
    });
    expect(v("d<2018-12-04")).to.deep.equal({ t: "date", v: "2018-12-04" });
    expect(v("h<12:00:00Z")).to.deep.equal({ t: "time", v: "12:00:00Z" });
    expect(v("locatedIn==urn:ngsi-ld:City:Pisa")).to.deep.equal({ t: "uri", v: "urn:ngsi-ld:City:Pisa" });
    expect(v("x==-1.5e3")).to.deep.equal({ t: "number", v: -1500 });
  });

  it("parses ranges, value lists, patterns, paths and bare attributes", () => {
    const leaf = (q: string) => {
      const e = parseQ(q);
      if (e.kind !== "leaf") throw new Error("not a leaf");
      return e.leaf;
    };
    expect(leaf("speed==10..20").operand).to.deep.equal({
      kind: "range",
      low: { t: "number", v: 10 },
      high: { t: "number", v: 20 },
    });
    expect(leaf('color=="red","blue"').operand).to.deep.equal({
      kind: "list",
      values: [
        { t: "string", v: "red" },
        { t: "string", v: "blue" },
      ],
    });
    const p = leaf("name~=(?i)tow(er)?");
    expect(p.op).to.equal("~=");
    expect(p.operand?.kind === "pattern" && p.operand.regex.flags).to.equal("i");
    expect(leaf("speed.observedAt>2020-01-01T00:00:00Z").path).to.deep.equal({
      names: ["speed", "observedAt"],
      keys: [],
    });
    expect(leaf("address[city][zip]==1").path).to.deep.equal({ names: ["address"], keys: ["city", "zip"] });
    expect(leaf("brandName")).to.deep.equal({ path: { names: ["brandName"], keys: [] } });
  });

  const bad: [string, number, RegExp][] = [
    ["", 0, /expected an expression/],
    ["speed>", 6, /expected a value/],
    ["speed>>5", 6, /expected a number/],
    ["speed=5", 5, /expected an operator/],
    ["(speed>5", 8, /expected '\)'/],
    ["speed>5)", 7, /unbalanced '\)'/],
    ["speed>5;", 8, /expected a term/],
    ['name=="open', 6, /unterminated string/],
    ["status==active", 8, /quoted string/],
    ["speed>1..5", 6, /a range needs == or !=/],
    ["speed>true", 6, /> needs a number/],
    ["a[b==1", 1, /unclosed '\['/],
    ["name~=(", 6, /invalid regular expression/],
    ["a..b==1", 1, /expected an operator/],
  ];
  for (const [q, pos, msg] of bad) {
    it(`refuses ${JSON.stringify(q)} with 400 at position ${pos}`, () => {
      const e = error(q);
      expect(e.kind).to.equal("BadRequestData");
      expect(e.message).to.match(msg);
      expect(e.message).to.contain(`position ${pos}`);
      expect(e.details).to.include({ parameter: "q", position: pos });
    });
  }
});
