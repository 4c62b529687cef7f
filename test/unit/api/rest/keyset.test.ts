import { expect } from "chai";
import { compareKeys, keysetPage, SortedList, type KeysetOrder } from "../../../../src/api/rest/keyset";

describe("api/rest keyset paging", () => {
  type Item = { id: string; t: number };
  const newestFirst: KeysetOrder<Item> = { key: (i) => [i.t, i.id], descending: [true, false] };

  it("compares numbers numerically, strings by code unit, per direction", () => {
    expect(compareKeys([2, "a"], [10, "a"])).to.be.below(0);
    expect(compareKeys([2, "a"], [10, "a"], [true])).to.be.above(0);
    expect(compareKeys(["b"], ["a"])).to.be.above(0);
    expect(compareKeys([1, "a"], [1, "a"])).to.equal(0);
  });

  it("walks a list in order, page after page, with has_more false at the end", () => {
    const items = [5, 3, 9, 1, 7].map((t) => ({ id: `i${t}`, t }));
    const p1 = keysetPage(items, newestFirst, undefined, 2);
    expect(p1.items.map((i) => i.t)).to.deep.equal([9, 7]);
    expect(p1.hasMore).to.equal(true);
    const p2 = keysetPage(items, newestFirst, p1.last, 2);
    expect(p2.items.map((i) => i.t)).to.deep.equal([5, 3]);
    const p3 = keysetPage(items, newestFirst, p2.last, 2);
    expect(p3.items.map((i) => i.t)).to.deep.equal([1]);
    expect(p3.hasMore).to.equal(false);
  });

  it("neither repeats nor skips when items are inserted between pages, ties broken by id", () => {
    const items: Item[] = Array.from({ length: 50 }, (_, n) => ({
      id: `a${String(n).padStart(2, "0")}`,
      t: n % 5,
    }));
    const seen: string[] = [];
    let after: (string | number)[] | undefined;
    let extra = 0;
    for (;;) {
      const page = keysetPage(items, newestFirst, after, 7);
      seen.push(...page.items.map((i) => i.id));
      // inserts on both sides of the walk's position
      items.push({ id: `n${extra++}`, t: 100 }, { id: `m${extra++}`, t: -1 });
      if (!page.hasMore) break;
      after = page.last;
    }
    const originals = seen.filter((id) => id.startsWith("a"));
    expect(new Set(seen).size).to.equal(seen.length);
    expect(originals.length).to.equal(50);
  });

  it("pages a sorted list by binary search exactly as keysetPage does", () => {
    const items: Item[] = Array.from({ length: 40 }, (_, n) => ({ id: `s${(n * 7) % 40}`, t: (n * 13) % 9 }));
    const sorted = new SortedList(items, newestFirst);
    let after: (string | number)[] | undefined;
    for (;;) {
      const a = keysetPage(items, newestFirst, after, 6);
      const b = sorted.page(after, 6);
      expect(b).to.deep.equal(a);
      if (!a.hasMore) break;
      after = a.last;
    }
    expect(sorted.page([-1, "zz"], 5)).to.deep.equal({ items: [], hasMore: false, last: undefined });
  });
});
