import { expect } from "chai";
import { triplesToQuadsRelabelled } from "../../../../src/store/worker/ntriples-text";

describe("store/N-Triples text helpers", () => {
  it("relabels blank subjects and objects, not look-alikes inside literals or IRIs", () => {
    const nt = [
      `<urn:e:1> <urn:p> _:b0 .`,
      `_:b0 <urn:v> "a _:b0 > _:b1 ." .`,
      `_:b0 <urn:q> <urn:_:x> .`,
      `_:b1 <urn:r> _:b2 .`,
      "",
    ].join("\n");
    expect(triplesToQuadsRelabelled(nt, "urn:e:1", "j7_0_")).to.equal(
      [
        `<urn:e:1> <urn:p> _:j7_0_b0 <urn:e:1> .`,
        `_:j7_0_b0 <urn:v> "a _:b0 > _:b1 ." <urn:e:1> .`,
        `_:j7_0_b0 <urn:q> <urn:_:x> <urn:e:1> .`,
        `_:j7_0_b1 <urn:r> _:j7_0_b2 <urn:e:1> .`,
        "",
      ].join("\n"),
    );
  });
});
