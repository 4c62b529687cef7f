import { expect } from "chai";
import { plainQuadsOfRun, plainTriplesOf } from "../../../../src/store/replica/plain-view";

describe("store/replica plain view", () => {
  it("keeps the entity's own non-blank triples and drops attribute nodes and other subjects", () => {
    const g = "urn:ngsi-ld:TrafficAccident:1";
    const nt = [
      `<${g}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/citygraph/traffic#TrafficAccident> .`,
      `<${g}> <https://w3id.org/citygraph/traffic#severity> _:b0 .`,
      `_:b0 <https://uri.etsi.org/ngsi-ld/hasValue> "minor" .`,
      `<${g}> <https://w3id.org/citygraph/traffic#severity> "minor" .`,
      `<${g}> <https://w3id.org/citygraph/traffic#note> "ends like _:x ." .`,
      `<${g}x> <urn:p> "other subject" .`,
      `<${g}> <https://w3id.org/citygraph/store#attributeTimes> "{}"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> .`,
    ].join("\n");
    expect(plainTriplesOf(g, nt).trimEnd().split("\n")).to.deep.equal([
      `<${g}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/citygraph/traffic#TrafficAccident> .`,
      `<${g}> <https://w3id.org/citygraph/traffic#severity> "minor" .`,
      `<${g}> <https://w3id.org/citygraph/traffic#note> "ends like _:x ." .`,
    ]);
  });

  it("derives the same plain view from a graph's snapshot lines", () => {
    const g = "urn:ngsi-ld:TrafficAccident:1";
    const nt = [
      `<${g}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://w3id.org/citygraph/traffic#TrafficAccident> .`,
      `<${g}> <https://w3id.org/citygraph/traffic#severity> _:b0 .`,
      `_:b0 <https://uri.etsi.org/ngsi-ld/hasValue> "minor" .`,
      `<${g}> <https://w3id.org/citygraph/traffic#severity> "minor" .`,
      `<${g}> <https://w3id.org/citygraph/traffic#note> "names <${g}> ." .`,
      `<${g}> <https://w3id.org/citygraph/store#attributeTimes> "{}"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> .`,
    ];
    const nq = nt.map((l) => `${l.slice(0, -2)} <${g}> .`).join("\n") + "\n";
    expect(plainQuadsOfRun(g, nq)).to.equal(plainTriplesOf(g, nt.join("\n")));
    expect(plainQuadsOfRun(g, nq).trimEnd().split("\n")).to.have.length(3);
  });
});
