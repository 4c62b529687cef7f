import { expect } from "chai";
import { searchRows } from "../../../../src/ngsi-ld/temporal/strided-search";

describe("searchRows", () => {
  // rows of 3 numbers keyed by the first: 10, 20, 20, 30
  const d = [10, 1, 1, 20, 2, 2, 20, 3, 3, 30, 4, 4];

  it("finds the first row whose key is >= t", () => {
    expect(searchRows(d, 4, 3, 5)).to.equal(0);
    expect(searchRows(d, 4, 3, 10)).to.equal(0);
    expect(searchRows(d, 4, 3, 20)).to.equal(1);
    expect(searchRows(d, 4, 3, 25)).to.equal(3);
    expect(searchRows(d, 4, 3, 31)).to.equal(4);
  });

  it("with `after`, the first row whose key is > t (past equal keys)", () => {
    expect(searchRows(d, 4, 3, 10, true)).to.equal(1);
    expect(searchRows(d, 4, 3, 20, true)).to.equal(3);
    expect(searchRows(d, 4, 3, 30, true)).to.equal(4);
  });

  it("reads only the first `rows` rows", () => {
    expect(searchRows(d, 2, 3, 25)).to.equal(2);
    expect(searchRows([], 0, 3, 1)).to.equal(0);
  });
});
