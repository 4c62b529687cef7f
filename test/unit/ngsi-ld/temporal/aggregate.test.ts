import { expect } from "chai";
import { Accumulator, parseAggrMethods } from "../../../../src/ngsi-ld/temporal/aggregate";
import { parseIsoDuration } from "../../../../src/ngsi-ld/temporal/iso-duration";
import { AppError } from "../../../../src/errors";

function err(f: () => unknown): AppError {
  try {
    f();
  } catch (e) {
    return e as AppError;
  }
  throw new Error("expected an error");
}

describe("temporal aggregation math (ETSI GS CIM 009 v1.8 §4.5.19)", () => {
  it("computes every method over numbers", () => {
    const a = new Accumulator();
    for (const v of [2, 4, 4, 4, 5, 5, 7, 9]) a.add(v, v);
    expect(a.value("totalCount")).to.equal(8);
    expect(a.value("distinctCount")).to.equal(5);
    expect(a.value("sum")).to.equal(40);
    expect(a.value("avg")).to.equal(5);
    expect(a.value("min")).to.equal(2);
    expect(a.value("max")).to.equal(9);
    expect(a.value("sumsq")).to.equal(4 + 16 * 3 + 25 * 2 + 49 + 81);
    expect(a.value("stddev")).to.equal(2); // population standard deviation of the classic example
  });

  it("counts non-numbers but gives no numeric result for them", () => {
    const a = new Accumulator();
    a.add(NaN, '"open"');
    a.add(NaN, '"closed"');
    a.add(NaN, '"open"');
    expect(a.value("totalCount")).to.equal(3);
    expect(a.value("distinctCount")).to.equal(2);
    expect(a.value("avg")).to.equal(undefined);
    expect(a.value("max")).to.equal(undefined);
  });

  it("parses aggrMethods and refuses unknown or missing ones with a precise 400", () => {
    expect(parseAggrMethods("avg,max,totalCount")).to.deep.equal(["avg", "max", "totalCount"]);
    const e = err(() => parseAggrMethods("avg,median"));
    expect(e.kind).to.equal("BadRequestData");
    expect(e.message).to.contain('"median"');
    expect(e.details).to.deep.equal({ parameter: "aggrMethods", value: "median" });
    expect(err(() => parseAggrMethods(undefined)).details.parameter).to.equal("aggrMethods");
  });
});

describe("ISO 8601 durations (aggrPeriodDuration)", () => {
  it("parses the forms the API uses", () => {
    expect(parseIsoDuration("PT1H")).to.equal(3_600_000);
    expect(parseIsoDuration("P1D")).to.equal(86_400_000);
    expect(parseIsoDuration("P1DT12H30M")).to.equal(86_400_000 + 12 * 3_600_000 + 30 * 60_000);
    expect(parseIsoDuration("PT0.5S")).to.equal(500);
    expect(parseIsoDuration("P2W")).to.equal(14 * 86_400_000);
    expect(parseIsoDuration("PT0S")).to.equal(0);
    expect(parseIsoDuration("P1M")).to.equal(30 * 86_400_000);
  });

  it("refuses malformed durations with a 400 naming the parameter", () => {
    for (const bad of ["1H", "P", "PT", "P1H", "PT1D", "P-1D", "PT1H ", "", "P1.D"]) {
      const e = err(() => parseIsoDuration(bad));
      expect(e.kind, bad).to.equal("BadRequestData");
      expect(e.details.parameter).to.equal("aggrPeriodDuration");
    }
  });
});
