import { expect } from "chai";
import { epochMs } from "../../../../src/ngsi-ld/model/datetime";

describe("epochMs: NGSI-LD DateTime to epoch ms (ETSI GS CIM 009 §4.6.3), as Date.parse", () => {
  it("gives Date.parse's answer for the broker's own form and for every other form", () => {
    const fixed = [
      "2025-01-06T07:00:00Z",
      "2025-01-06T07:00:00.123Z",
      "2024-02-29T23:59:59.999Z",
      "2023-02-29T00:00:00Z", // no such day
      "2025-13-01T00:00:00Z",
      "2025-04-31T00:00:00Z",
      "2025-01-01T24:00:00Z",
      "2025-01-01T23:60:00Z",
      "0050-01-01T00:00:00Z", // Date.UTC would read year 50 as 1950
      "1900-02-29T00:00:00Z",
      "2000-02-29T00:00:00Z",
      "2025-01-06T07:00:00+02:00",
      "2025-01-06T07:00:00.5Z",
      "2025-01-06T07:00:00.123456Z",
      "2025-01-06",
      "2025-01-0xT07:00:00Z",
      "not a date",
    ];
    for (const s of fixed) expect(epochMs(s), s).to.deep.equal(Date.parse(s));
    let seed = 11;
    const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const pad = (v: number, w: number) => String(v).padStart(w, "0");
    for (let i = 0; i < 5000; i++) {
      const s =
        `${pad(1 + next(2999), 4)}-${pad(next(14), 2)}-${pad(next(33), 2)}T` +
        `${pad(next(25), 2)}:${pad(next(61), 2)}:${pad(next(61), 2)}` +
        (next(2) ? `.${pad(next(1000), 3)}` : "") +
        "Z";
      expect(epochMs(s), s).to.deep.equal(Date.parse(s));
    }
  });
});
