import { expect } from "chai";
import {
  route,
  scoreReport,
  WEIGHTS,
  type VerificationFacts,
} from "../../../../src/domain/reports/verification-score";

const facts = (f: Partial<VerificationFacts> = {}): VerificationFacts => ({
  cameraDetections: [],
  corroboratingReports: [],
  images: 0,
  record: { decided: 0, verified: 0 },
  anonymous: false,
  identified: false,
  ...f,
});

describe("domain/reports: verification score", () => {
  it("routes by the thresholds 0.85 and 0.5, each boundary on the lower side", () => {
    expect(route(0.86)).to.deep.equal({ status: "verified", priority: "none" });
    expect(route(0.85)).to.deep.equal({ status: "pending", priority: "normal" });
    expect(route(0.51)).to.deep.equal({ status: "pending", priority: "normal" });
    expect(route(0.5)).to.deep.equal({ status: "pending", priority: "high" });
    expect(route(0)).to.deep.equal({ status: "pending", priority: "high" });
  });

  it("scores the documented examples: 0.20 anonymous text, 0.80 camera-backed, 0.90 with a photo", () => {
    expect(scoreReport(facts({ anonymous: true })).score).to.equal(0.2);
    expect(scoreReport(facts({ identified: true, cameraDetections: ["a"] })).score).to.equal(0.8);
    const v = scoreReport(facts({ identified: true, cameraDetections: ["a"], images: 1 }));
    expect(v.score).to.equal(0.9);
    expect(v.status).to.equal("verified");
    expect(v.evidence.map((e) => e.factor)).to.deep.equal([
      "base",
      "camera_detection",
      "images",
      "identified",
    ]);
  });

  it("caps corroboration at +0.30 and weighs the reporter's record", () => {
    const many = scoreReport(facts({ corroboratingReports: ["a", "b", "c", "d"] }));
    expect(many.evidence.find((e) => e.factor === "corroborating_reports")!.weight).to.equal(
      WEIGHTS.corroboratingMax,
    );
    expect(scoreReport(facts({ record: { decided: 4, verified: 2 } })).score).to.equal(0.4);
    expect(scoreReport(facts({ record: { decided: 3, verified: 0 } })).score).to.equal(0.2);
  });

  it("stays within [0, 1]", () => {
    const top = facts({
      cameraDetections: ["a"],
      corroboratingReports: ["a", "b", "c"],
      images: 5,
      record: { decided: 9, verified: 9 },
      identified: true,
    });
    expect(scoreReport(top).score).to.equal(1);
    expect(scoreReport(facts({ anonymous: true, record: { decided: 5, verified: 0 } })).score).to.be.at.least(
      0,
    );
  });
});
