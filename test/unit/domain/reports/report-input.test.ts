import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import {
  parseAccidentReportJson,
  parseCitizenReportJson,
  parseReportForm,
} from "../../../../src/domain/reports/report-input";

const body = {
  category: "accident",
  location: { lat: 10.78, lon: 106.7 },
  description: "Two cars collided in the middle lane",
};
const refused = (f: () => unknown, status = 400): AppError => {
  try {
    f();
  } catch (e) {
    expect(e).to.be.instanceOf(AppError);
    expect((e as AppError).status).to.equal(status);
    return e as AppError;
  }
  return expect.fail("accepted") as never;
};

describe("domain/reports: submission validation", () => {
  it("reads A's body: category, location, description, reporter; severity defaults to medium", () => {
    const r = parseCitizenReportJson({ ...body, reporter: { name: "An", phone: "0901" } }, "a");
    expect(r).to.include({ type: "accident", lat: 10.78, lon: 106.7, severity: "medium", form: "a" });
    expect(r.reporter).to.include({ name: "An", phone: "0901", isAnonymous: false });
  });

  it("B's reporter contact becomes an email or a phone; no reporter is anonymous", () => {
    expect(
      parseCitizenReportJson({ ...body, reporter: { name: "An", contact: "a@b.vn" } }, "b").reporter.email,
    ).to.equal("a@b.vn");
    expect(parseCitizenReportJson(body, "b").reporter.isAnonymous).to.equal(true);
  });

  it("the accident endpoints take the accident severity scale", () => {
    const r = parseAccidentReportJson(
      { location: body.location, description: body.description, severity: "severe", vehicles_involved: 2 },
      "a-accident",
    );
    expect(r).to.include({ type: "accident", severity: "high", vehiclesInvolved: 2 });
  });

  it("refuses a latitude outside 10.3-11.2 with the message that the location must be inside the city", () => {
    const e = refused(() => parseCitizenReportJson({ ...body, location: { lat: 11.3, lon: 106.7 } }, "a"));
    expect(e.message).to.match(/inside the city/);
    refused(() =>
      parseReportForm(
        {
          type: "other",
          title: "A title of ten",
          description: body.description,
          latitude: "10.2",
          longitude: "106.7",
        },
        [],
      ),
    );
  });

  it("refuses bad text lengths, types, severities and more than 5 images", () => {
    refused(() => parseCitizenReportJson({ ...body, description: "too short" }, "a"));
    refused(() => parseCitizenReportJson({ ...body, description: "x".repeat(1001) }, "a"));
    refused(() => parseCitizenReportJson({ ...body, category: "fire" }, "a"));
    refused(() => parseCitizenReportJson({ ...body, severity: "apocalyptic" }, "a"));
    refused(() => parseCitizenReportJson({ ...body, images: Array(6).fill("AAAA") }, "a"));
    refused(() =>
      parseReportForm(
        {
          type: "other",
          title: "short",
          description: body.description,
          latitude: "10.7",
          longitude: "106.7",
        },
        [],
      ),
    );
    refused(() =>
      parseReportForm(
        {
          type: "other",
          title: "A title of ten",
          description: body.description,
          latitude: "10.7",
          longitude: "106.7",
        },
        Array(6).fill(Buffer.alloc(1)),
      ),
    );
    expect(
      refused(() => parseCitizenReportJson({ location: body.location, description: body.description }, "a"))
        .kind,
    ).to.equal("InvalidRequest");
  });
});
