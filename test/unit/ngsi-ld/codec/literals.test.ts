import { expect } from "chai";
import { canonicalDouble } from "../../../../src/ngsi-ld/codec/literals";

describe("canonicalDouble (JSON-LD 1.1 API §8.6 step 10, as jsonld.js writes xsd:double)", () => {
  const cases: [number, string][] = [
    [1.5, "1.5E0"],
    [37.5, "3.75E1"],
    [-2.25e-7, "-2.25E-7"],
    [0, "0.0E0"],
    [-0, "0.0E0"],
    [1e21, "1.0E21"],
    [0.1 + 0.2, "3.0E-1"],
  ];

  it("gives the canonical form, the same again from its memo, also after the memo was cleared", () => {
    for (let round = 0; round < 2; round++) {
      for (const [n, lex] of cases) expect(canonicalDouble(n), String(n)).to.equal(lex);
      // more distinct values than the memo holds: it is cleared on the way
      for (let i = 0; i < 10_000; i++) {
        const n = i + 0.5; // e.g. 10.5 -> 1.050000000000000e+1 -> 1.05E1
        expect(canonicalDouble(n)).to.equal(n.toExponential(15).replace(/(\d)0*e\+?/, "$1E"));
      }
    }
  });
});
