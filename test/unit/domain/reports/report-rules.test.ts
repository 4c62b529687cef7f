import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { reportSeverityOf, type ReportInput } from "../../../../src/domain/reports/report-model";
import { checkReport, MAX_IMAGE_BYTES } from "../../../../src/domain/reports/report-rules";

const input = (over: Partial<ReportInput> = {}): ReportInput => ({
  type: "accident",
  description: "Two cars collided in the middle lane",
  lat: 10.78,
  lon: 106.7,
  severity: "medium",
  reporter: { isAnonymous: false },
  images: [],
  source: "api",
  ...over,
});
const refused = (over: Partial<ReportInput>, status = 400): AppError => {
  try {
    checkReport(input(over));
  } catch (e) {
    expect(e).to.be.instanceOf(AppError);
    expect((e as AppError).status).to.equal(status);
    return e as AppError;
  }
  return expect.fail(`accepted ${JSON.stringify(over)}`) as never;
};

describe("domain/reports: the rules of a report, whichever face it came through", () => {
  it("trims the texts; an empty title is absent; no name and no contact is anonymous", () => {
    const r = checkReport(input({ title: "   ", description: "  Two cars collided in the middle lane  " }));
    expect(r.title).to.equal(undefined);
    expect(r.description).to.equal("Two cars collided in the middle lane");
    expect(r.reporter).to.deep.equal({ isAnonymous: true });
    const named = checkReport(input({ reporter: { name: " An ", phone: "0901", isAnonymous: false } }));
    expect(named.reporter).to.include({ name: "An", phone: "0901", isAnonymous: false });
  });

  it("an anonymous reporter keeps no contact, but keeps the caller's principal", () => {
    const r = checkReport(
      input({ reporter: { name: "An", phone: "0901", isAnonymous: true, principalId: "u1" } }),
    );
    expect(r.reporter).to.deep.equal({ isAnonymous: true, principalId: "u1" });
  });

  it("refuses a point outside 10.3-11.2 / 106.2-107.2 with the message that it must be inside the city", () => {
    for (const [lat, lon] of [
      [11.3, 106.7],
      [10.2, 106.7],
      [10.7, 107.3],
      [Number.NaN, 106.7],
    ]) {
      const e = refused({ lat, lon });
      expect(e.kind).to.equal("BadRequestData");
      expect(e.details?.parameter).to.equal("location");
      if (!Number.isNaN(lat)) expect(e.message).to.match(/inside the city/);
    }
  });

  it("refuses text out of its limits or with control characters, naming the field", () => {
    expect(refused({ description: "too short" }).details?.parameter).to.equal("description");
    expect(refused({ description: "x".repeat(1001) }).details?.expected).to.equal("20 to 1000 characters");
    expect(refused({ description: "bad\u0000control characters in the text" }).details?.expected).to.equal(
      "text without control characters",
    );
    expect(refused({ title: "short" }).details?.parameter).to.equal("title");
    expect(refused({ reporter: { name: "x".repeat(101), isAnonymous: false } }).details?.parameter).to.equal(
      "reporter.name",
    );
    expect(refused({ description: "   " }).kind).to.equal("InvalidRequest");
  });

  it("refuses a type or severity outside the domain, more than 5 images, an image over 8 MiB, bad counts", () => {
    expect(refused({ type: "fire" as never }).details?.parameter).to.equal("type");
    expect(refused({ severity: "apocalyptic" as never }).details?.parameter).to.equal("severity");
    expect(refused({ images: Array(6).fill(Buffer.alloc(1)) }).details?.parameter).to.equal("images");
    expect(refused({ images: [Buffer.alloc(MAX_IMAGE_BYTES + 1)] }, 413).kind).to.equal("PayloadTooLarge");
    expect(refused({ injuries: 1.5 }).details?.parameter).to.equal("injuries");
    expect(refused({ vehiclesInvolved: 1001 }).details?.parameter).to.equal("vehicles_involved");
  });

  it("reads the accident scale as report severities", () => {
    expect(
      ["minor", "moderate", "severe", "critical", "low"].map((s) => reportSeverityOf(s as never)),
    ).to.deep.equal(["low", "medium", "high", "critical", "low"]);
  });
});
