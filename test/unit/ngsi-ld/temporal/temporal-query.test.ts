import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { parseTemporalQuery } from "../../../../src/ngsi-ld/temporal/temporal-query";
import { paginate, selectRows } from "../../../../src/ngsi-ld/temporal/select-rows";
import { Series } from "../../../../src/ngsi-ld/temporal/series";

const q = (p: Record<string, string>, aggregated = false) => parseTemporalQuery((n) => p[n], aggregated);
function bad(p: Record<string, string>, aggregated = false): AppError {
  try {
    q(p, aggregated);
  } catch (e) {
    return e as AppError;
  }
  throw new Error("expected a 400");
}

const T0 = Date.parse("2024-01-01T00:00:00Z");
const MIN = 60_000;

describe("temporal query parameters (ETSI GS CIM 009 v1.8 §4.11)", () => {
  it("reads a valid query", () => {
    const r = q({
      timerel: "between",
      timeAt: "2024-01-01T00:00:00Z",
      endTimeAt: "2024-01-02T00:00:00Z",
      lastN: "5",
    });
    expect(r).to.deep.include({ timerel: "between", timeAt: T0, endTimeAt: T0 + 86_400_000, lastN: 5 });
    expect(r.timeproperty).to.equal("observedAt");
    const a = q({ aggrMethods: "avg", aggrPeriodDuration: "PT1H" }, true);
    expect(a.aggregate).to.deep.equal({ methods: ["avg"], periodMs: 3_600_000 });
  });

  it("gives a precise 400 for each bad combination", () => {
    const cases: [Record<string, string>, string][] = [
      [{ timerel: "before" }, "timeAt"],
      [{ timerel: "during", timeAt: "2024-01-01T00:00:00Z" }, "timerel"],
      [{ timeAt: "2024-01-01T00:00:00Z" }, "timerel"],
      [{ timerel: "between", timeAt: "2024-01-01T00:00:00Z" }, "endTimeAt"],
      [
        { timerel: "between", timeAt: "2024-01-02T00:00:00Z", endTimeAt: "2024-01-01T00:00:00Z" },
        "endTimeAt",
      ],
      [{ timerel: "after", timeAt: "2024-01-01T00:00:00Z", endTimeAt: "2024-01-02T00:00:00Z" }, "endTimeAt"],
      [{ timerel: "after", timeAt: "yesterday" }, "timeAt"],
      [{ timeproperty: "deletedAtt" }, "timeproperty"],
      [{ lastN: "0" }, "lastN"],
      [{ lastN: "-3" }, "lastN"],
      [{ aggrPeriodDuration: "1 hour" }, "aggrPeriodDuration"],
    ];
    for (const [p, parameter] of cases) {
      const e = bad(p);
      expect(e.kind, JSON.stringify(p)).to.equal("BadRequestData");
      expect(e.details.parameter, JSON.stringify(p)).to.equal(parameter);
    }
    expect(bad({ aggrMethods: "mean" }, true).details.parameter).to.equal("aggrMethods");
    expect(bad({}, true).details.parameter).to.equal("aggrMethods");
  });
});

describe("selecting and paging rows of a series", () => {
  const s = new Series();
  for (let i = 0; i < 10; i++)
    s.insert({ iid: i + 1, obs: T0 + i * MIN, created: 0, modified: 0, num: i, rest: 0 });

  it("selects before / after / between windows and lastN", () => {
    const at = T0 + 5 * MIN;
    const sel = (p: Record<string, string>) => selectRows(s, q(p)).idx;
    const iso = new Date(at).toISOString();
    expect(sel({ timerel: "before", timeAt: iso })).to.deep.equal([0, 1, 2, 3, 4]);
    expect(sel({ timerel: "after", timeAt: iso })).to.deep.equal([5, 6, 7, 8, 9]);
    expect(
      sel({ timerel: "between", timeAt: new Date(T0 + 2 * MIN).toISOString(), endTimeAt: iso }),
    ).to.deep.equal([2, 3, 4]);
    expect(sel({ lastN: "3" })).to.deep.equal([7, 8, 9]);
    expect(sel({ timerel: "before", timeAt: iso, lastN: "2" })).to.deep.equal([3, 4]);
  });

  it("cuts long answers with a Content-Range (oldest first, or newest with lastN)", () => {
    const p = [selectRows(s, q({}))];
    const r = paginate(p, q({}), 4);
    expect(p[0].idx).to.deep.equal([0, 1, 2, 3]);
    expect(r).to.deep.equal({ start: T0, end: T0 + 3 * MIN, size: "*" });
    const ql = q({ lastN: "6" });
    const pl = [selectRows(s, ql)];
    expect(paginate(pl, ql, 4)).to.deep.equal({ start: T0 + 9 * MIN, end: T0 + 6 * MIN, size: 6 });
    expect(pl[0].idx).to.deep.equal([6, 7, 8, 9]);
    expect(paginate([selectRows(s, q({}))], q({}), 10)).to.equal(undefined);
  });
});
