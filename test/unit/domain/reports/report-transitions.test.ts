import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { transition } from "../../../../src/domain/reports/report-transitions";

describe("domain/reports: transitions table", () => {
  it("verification, confirm and reject act on a pending report; resolve on a verified one", () => {
    expect(transition("pending", "pending", "verify")).to.deep.equal({
      status: "verified",
      verificationStatus: "confirmed",
    });
    expect(transition("pending", "pending", "confirm")).to.deep.equal({
      status: "verified",
      verificationStatus: "confirmed",
    });
    expect(transition("pending", "pending", "reject")).to.deep.equal({
      status: "rejected",
      verificationStatus: "rejected",
    });
    expect(transition("verified", "confirmed", "resolve")).to.deep.equal({
      status: "resolved",
      verificationStatus: "confirmed",
    });
  });

  it("anything else is a 409 Conflict", () => {
    for (const [s, v, t] of [
      ["verified", "confirmed", "confirm"],
      ["rejected", "rejected", "confirm"],
      ["rejected", "rejected", "resolve"],
      ["pending", "pending", "resolve"],
      ["resolved", "confirmed", "reject"],
    ] as const) {
      try {
        transition(s, v, t);
        expect.fail(`${s} ${t} should be refused`);
      } catch (e) {
        expect(e).to.be.instanceOf(AppError);
        expect((e as AppError).status).to.equal(409);
      }
    }
  });
});
