import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { compileUserPattern, MAX_PATTERN_LENGTH } from "../../../../src/ngsi-ld/query/user-pattern";

describe("user patterns (RE2 semantics, linear time)", () => {
  it("matches anywhere in the text, as RegExp#test, with (?i) and JS named groups", () => {
    expect(compileUserPattern(".*:q[15]$", "idPattern").test("urn:x:q5")).to.equal(true);
    expect(compileUserPattern("q[15]", "idPattern").test("urn:x:q2")).to.equal(false);
    expect(compileUserPattern("(?i)abc", "q").test("xABCx")).to.equal(true);
    expect(compileUserPattern("(?<n>a)b", "q").test("ab")).to.equal(true);
  });

  it("runs catastrophic-backtracking patterns in linear time", () => {
    const p = compileUserPattern("(a+)+$", "idPattern");
    const t = performance.now();
    expect(p.test(`${"a".repeat(10_000)}!`)).to.equal(false);
    expect(performance.now() - t).to.be.below(500);
  });

  for (const bad of [
    "a{99999999}",
    "(.*){1,32000}[bc]",
    "x(?=y)",
    "(a)\\1",
    "(a",
    "a".repeat(MAX_PATTERN_LENGTH + 1),
  ]) {
    it(`refuses ${JSON.stringify(bad.slice(0, 30))} with 400 BadRequestData`, () => {
      let err: unknown;
      try {
        compileUserPattern(bad, "idPattern");
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(AppError);
      expect((err as AppError).kind).to.equal("BadRequestData");
      expect((err as AppError).details).to.include({ parameter: "idPattern" });
    });
  }
});
