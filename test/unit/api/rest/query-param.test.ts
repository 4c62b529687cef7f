import { expect } from "chai";
import type { AppError } from "../../../../src/errors";
import {
  dateTimeParam,
  enumListParam,
  enumParam,
  intParam,
  textParam,
} from "../../../../src/api/rest/query-param";

describe("api/rest query parameters", () => {
  const fails = (f: () => unknown): AppError => {
    try {
      f();
    } catch (e) {
      return e as AppError;
    }
    throw new Error("accepted");
  };

  it("reads integers in range with a default, refuses anything else with parameter, value, expected", () => {
    const limit = intParam({ min: 1, max: 100, def: 20 });
    expect(limit.parse([], "limit")).to.equal(20);
    expect(limit.parse(["100"], "limit")).to.equal(100);
    for (const bad of ["0", "101", "1.5", "abc", "", "1e3", "99999999999999999999"]) {
      const e = fails(() => limit.parse([bad], "limit"));
      expect(e.kind).to.equal("BadRequestData");
      expect(e.details).to.deep.include({ parameter: "limit", value: bad });
    }
    expect(fails(() => limit.parse(["1", "2"], "limit")).details.parameter).to.equal("limit");
  });

  it("reads enums and lists given repeated or comma-separated", () => {
    const status = enumParam(["active", "inactive"] as const);
    expect(status.parse(["active"], "status")).to.equal("active");
    expect(status.parse([], "status")).to.equal(undefined);
    expect(fails(() => status.parse(["ACTIVE"], "status")).details.expected).to.contain("active");
    const metrics = enumListParam(["a", "b", "c"] as const);
    expect(metrics.parse(["a", "b"], "m")).to.deep.equal(["a", "b"]);
    expect(metrics.parse(["a,c", "c"], "m")).to.deep.equal(["a", "c"]);
    expect(fails(() => metrics.parse(["a,x"], "m")).details.value).to.equal("x");
  });

  it("reads ISO 8601 date-times (UTC without an offset) and refuses the rest", () => {
    const t = dateTimeParam();
    expect(t.parse(["2026-11-25T08:00:00Z"], "t")).to.equal(Date.UTC(2026, 10, 25, 8));
    expect(t.parse(["2026-11-25T15:00:00+07:00"], "t")).to.equal(Date.UTC(2026, 10, 25, 8));
    expect(t.parse(["2026-11-25T08:00:00"], "t")).to.equal(Date.UTC(2026, 10, 25, 8));
    expect(t.parse(["2026-11-25"], "t")).to.equal(Date.UTC(2026, 10, 25));
    for (const bad of ["yesterday", "2026-13-45T00:00:00Z", "1e12", "-0001-01-01", "2026-11-25T25:00Z"]) {
      expect(fails(() => t.parse([bad], "t")).details.parameter).to.equal("t");
    }
  });

  it("trims text, treats empty as absent, refuses text past its length", () => {
    const loc = textParam({ maxLength: 10 });
    expect(loc.parse(["  Quận 1 "], "location")).to.equal("Quận 1");
    expect(loc.parse([" "], "location")).to.equal(undefined);
    expect(fails(() => loc.parse(["x".repeat(11)], "location")).details.parameter).to.equal("location");
  });
});
