import { expect } from "chai";
import { correlationPValue, incompleteBeta, significance } from "../../../../src/domain/analytics/student-t";

describe("domain/analytics/student-t: p-values of a Pearson r", () => {
  it("matches Student's t distribution (two-sided)", () => {
    // r = 0.5, n = 30: t = 3.055 with 28 df -> p = 0.0049 (R: 2*pt(-3.0551, 28))
    expect(correlationPValue(0.5, 30)).to.be.closeTo(0.0049, 0.0001);
    // r = 0.1, n = 100: t = 0.995 with 98 df -> p = 0.322
    expect(correlationPValue(0.1, 100)).to.be.closeTo(0.322, 0.001);
    expect(correlationPValue(0, 50)).to.be.closeTo(1, 1e-9);
    expect(correlationPValue(1, 50)).to.equal(0);
    expect(correlationPValue(0.9, 2)).to.equal(1);
  });

  it("computes the regularized incomplete beta", () => {
    expect(incompleteBeta(0.5, 1, 1)).to.be.closeTo(0.5, 1e-12);
    expect(incompleteBeta(0.3, 2, 3)).to.be.closeTo(0.3483, 1e-4);
  });

  it("labels significance", () => {
    expect([0.0001, 0.005, 0.03, 0.2].map(significance)).to.deep.equal(["high", "medium", "low", "none"]);
  });
});
