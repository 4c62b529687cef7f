import { expect } from "chai";
import { AttributeColumns } from "../../../../src/ngsi-ld/temporal/segment-columns";

/** The columns as arrays, serialized by JSON.stringify: the form AttributeColumns must equal. */
function reference(attr: string, rows: [number, number, number, number, number, number][]): string {
  let prev = 0;
  const deltas = (xs: (number | null)[]) => {
    prev = 0;
    return xs.map((x) => {
      if (x === null) return null;
      const d = x - prev;
      prev = x;
      return d;
    });
  };
  const m = rows.map((r) => r[3]);
  const t = rows.map((r) => r[5]);
  return JSON.stringify({
    attr,
    n: deltas(rows.map((r) => r[0])),
    o: deltas(rows.map((r) => (Number.isNaN(r[1]) ? null : r[1]))),
    c: deltas(rows.map((r) => r[2])),
    ...(m.some((x) => x !== 0) ? { m } : {}),
    v: rows.map((r) => (Number.isNaN(r[4]) ? null : r[4])),
    t: t.every((x) => x === t[0]) ? t[0] : t,
  });
}

describe("AttributeColumns (the cgh:instances columns of a history segment)", () => {
  it("writes what JSON.stringify of the delta-encoded arrays gives, on random instances", () => {
    let seed = 5;
    const r = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let k = 0; k < 500; k++) {
      const rows: [number, number, number, number, number, number][] = [];
      let iid = Math.floor(r() * 50);
      for (let i = 0, n = 1 + Math.floor(r() * 8); i < n; i++) {
        iid += 1 + Math.floor(r() * 3);
        const obs = r() < 0.3 ? NaN : Math.floor(r() * 3_600_000);
        const value = r() < 0.3 ? NaN : r() < 0.1 ? -0 : Math.round(r() * 1e5) / 100 - 200;
        rows.push([
          iid,
          obs,
          Math.floor(r() * 3_600_000),
          r() < 0.6 ? 0 : Math.floor(r() * 9000),
          value,
          r() < 0.7 ? 0 : 1,
        ]);
      }
      const cols = new AttributeColumns('https://example.org/a"b');
      for (const x of rows) cols.add(...x);
      const json = cols.json();
      expect(json).to.equal(reference('https://example.org/a"b', rows));
      expect(() => JSON.parse(json)).not.to.throw();
    }
  });

  it("leaves m out when every instance has modifiedAt = createdAt, and gives one t when all share a template", () => {
    const cols = new AttributeColumns("urn:a");
    cols.add(7, 0, 0, 0, 10, 2);
    cols.add(8, NaN, 600_000, 0, NaN, 2);
    cols.add(9, 900_000, 900_000, 0, 30, 2);
    expect(JSON.parse(cols.json())).to.deep.equal({
      attr: "urn:a",
      n: [7, 1, 1],
      o: [0, null, 900_000],
      c: [0, 600_000, 300_000],
      v: [10, null, 30],
      t: 2,
    });
  });
});
