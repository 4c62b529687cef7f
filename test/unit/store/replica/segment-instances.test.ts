import { expect } from "chai";
import { segmentInstanceTriples } from "../../../../src/store/replica/segment-instances";

const START = Date.UTC(2024, 0, 1, 8);
const SPEED = "https://example.org/speed";
const REL = "https://example.org/near";

describe("replica: the instances of a history segment as triples", () => {
  it("undoes the delta encoding and writes value, unit, dataset and relationship objects", () => {
    const json = JSON.stringify({
      templates: [
        { type: "Property", unitCode: "KMH" },
        { type: "Property", unitCode: "KMH", datasetId: "urn:ds:1" },
        { type: "Relationship", object: "urn:ngsi-ld:Road:1" },
      ],
      attrs: [
        {
          attr: SPEED,
          n: [7, 1, 5],
          o: [0, 60_000, 60_000],
          c: [10, 60_000, 60_000],
          v: [31.5, 40, 2],
          t: [0, 0, 1],
        },
        { attr: REL, n: [20], o: [null], c: [500], m: [100], v: [null], t: 2 },
      ],
    });
    const { text, triples } = segmentInstanceTriples(json, START);
    const lines = text.trim().split("\n");
    expect(triples).to.equal(lines.length);
    const of = (n: number) => lines.filter((l) => l.startsWith(`<urn:ngsi-ld:attribute:instance:${n}> `));
    expect(of(7)).to.deep.equal([
      `<urn:ngsi-ld:attribute:instance:7> <https://w3id.org/citygraph/history#attribute> <${SPEED}> .`,
      `<urn:ngsi-ld:attribute:instance:7> <https://uri.etsi.org/ngsi-ld/observedAt> "2024-01-01T08:00:00.000Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .`,
      `<urn:ngsi-ld:attribute:instance:7> <https://uri.etsi.org/ngsi-ld/hasValue> "31.5"^^<http://www.w3.org/2001/XMLSchema#double> .`,
      `<urn:ngsi-ld:attribute:instance:7> <https://uri.etsi.org/ngsi-ld/unitCode> "KMH" .`,
    ]);
    expect(of(8).join("\n"))
      .to.contain('"2024-01-01T08:01:00.000Z"')
      .and.contain('"40"^^<http://www.w3.org/2001/XMLSchema#integer>');
    expect(of(13).join("\n"))
      .to.contain('"2024-01-01T08:02:00.000Z"')
      .and.contain("<https://uri.etsi.org/ngsi-ld/datasetId> <urn:ds:1>");
    // no observedAt: its modifiedAt (createdAt + m), and the relationship's object
    expect(of(20).join("\n"))
      .to.contain('<https://uri.etsi.org/ngsi-ld/modifiedAt> "2024-01-01T08:00:00.600Z"')
      .and.contain("<https://uri.etsi.org/ngsi-ld/hasObject> <urn:ngsi-ld:Road:1>");
  });
});
