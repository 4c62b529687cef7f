import { expect } from "chai";
import { Interner } from "../../../../src/ngsi-ld/temporal/interner";

describe("Interner (temporal history templates)", () => {
  it("gives one id per distinct text and its parsed object", () => {
    const i = new Interner();
    const a = i.id('{"type":"Property","unitCode":"KMH"}');
    expect(i.id('{"type":"Property","unitCode":"KMH"}')).to.equal(a);
    expect(i.id('{"type":"Relationship"}')).to.equal(a + 1);
    expect(i.object(a)).to.deep.equal({ type: "Property", unitCode: "KMH" });
    expect(i.size).to.equal(2);
  });

  it("stringified(id) is JSON.stringify of the object, whatever form the text was in", () => {
    const i = new Interner();
    const texts = [
      '{"type":"Property","value":"a\\"b","sub":{"type":"Property","value":[1,2.5,{"x":null}]}}',
      '{ "type" : "Property",\n "value" : 1.50 }',
      '{"b":1,"1":2,"unicode":"\\u00e9\\ud83d\\udea6"}',
    ];
    for (const t of texts) {
      const id = i.id(t);
      expect(i.stringified(id)).to.equal(JSON.stringify(JSON.parse(t)));
      expect(i.stringified(id)).to.equal(JSON.stringify(i.object(id)));
    }
    // a text already in that form is returned as it is
    const canonical = JSON.stringify({ type: "Property", value: "x" });
    expect(i.stringified(i.id(canonical))).to.equal(canonical);
  });
});
