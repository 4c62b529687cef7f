import { expect } from "chai";
import { Series, type InstanceRow } from "../../../../src/ngsi-ld/temporal/series";

const row = (iid: number, obs: number, num = iid): InstanceRow => ({
  iid,
  obs,
  created: 1000 + iid,
  modified: 2000 + iid,
  num,
  rest: 0,
  js: 0,
});

describe("temporal Series (columnar history of one attribute)", () => {
  it("keeps rows in time order whatever the insert order, and grows", () => {
    const s = new Series();
    const times = [50, 10, 30, 20, 40, 10, 60, 5, 70, 80, 90, 15];
    times.forEach((t, i) => s.insert(row(i + 1, t)));
    expect(s.length).to.equal(times.length);
    const got = Array.from({ length: s.length }, (_, i) => s.time(i));
    expect(got).to.deep.equal([...times].sort((a, b) => a - b));
    // equal times keep insertion order (the later instance after the earlier one)
    const tens = [0, 1, 2, 3, 4].filter((i) => s.time(i) === 10).map((i) => s.iid(i));
    expect(tens).to.deep.equal([2, 6]);
    expect(s.row(0)).to.deep.equal(row(8, 5));
  });

  it("uses modifiedAt as the time of a row without observedAt", () => {
    const s = new Series();
    s.insert(row(1, 5000));
    s.insert(row(2, NaN)); // modified = 2002
    expect(s.iid(0)).to.equal(2);
    expect(s.time(0)).to.equal(2002);
  });

  it("answers bounds, finds and removes rows, and drops old rows", () => {
    const s = new Series();
    for (let i = 1; i <= 10; i++) s.insert(row(i, i * 10));
    expect(s.lowerBound(30)).to.equal(2);
    expect(s.upperBound(30)).to.equal(3);
    expect(s.lowerBound(1000)).to.equal(10);
    expect(s.indexOf(4)).to.equal(3);
    s.removeRange(3, 5);
    expect(Array.from({ length: s.length }, (_, i) => s.iid(i))).to.deep.equal([1, 2, 3, 6, 7, 8, 9, 10]);
    expect(s.dropBefore(75)).to.equal(5);
    expect(Array.from({ length: s.length }, (_, i) => s.time(i))).to.deep.equal([80, 90, 100]);
    expect(s.indexOf(4)).to.equal(-1);
  });
});
