import { expect } from "chai";
import { CACHE_NEW_GRAPHS_UP_TO, GraphCache } from "../../../../src/store/indexes/graph-cache";

const text = (n: number, c = "x") => c.repeat(n);

describe("GraphCache (bounded by bytes, GRAPH_CACHE_BYTES)", () => {
  it("evicts the least recently used graphs once the texts exceed the budget", () => {
    const cache = new GraphCache(1000);
    for (let i = 0; i < 4; i++) cache.set("", `g${i}`, text(300));
    expect(cache.size).to.equal(3);
    expect(cache.cachedBytes).to.equal(900);
    expect(cache.get("", "g0")).to.equal(undefined);
    expect(cache.get("", "g1")).to.equal(text(300)); // g1 is now the most recent
    cache.set("", "g4", text(300));
    expect(cache.get("", "g2")).to.equal(undefined);
    expect(cache.get("", "g1")).to.equal(text(300));
  });

  it("counts a replaced or deleted graph once, and never keeps a text larger than the budget", () => {
    const cache = new GraphCache(1000);
    cache.set("", "a", text(400));
    cache.apply({ seq: 1, tenant: "", writes: [{ graph: "a", triples: text(500, "y") }] });
    expect(cache.cachedBytes).to.equal(500);
    expect(cache.get("", "a")).to.equal(text(500, "y"));
    cache.apply({ seq: 2, tenant: "", writes: [{ graph: "a", triples: null }] });
    expect(cache.cachedBytes).to.equal(0);
    expect(cache.get("", "a")).to.equal(undefined);
    cache.set("t", "big", text(1001));
    expect(cache.size).to.equal(0);
    cache.set("t", "b", text(10));
    expect(cache.get("", "b")).to.equal(undefined); // tenants are apart
    expect(cache.get("t", "b")).to.equal(text(10));
  });

  it("adds the graphs of a small commit, keeps cached graphs current, but adds none of a bulk commit", () => {
    const cache = new GraphCache(100_000);
    cache.set("", "read", text(10));
    cache.apply({ seq: 1, tenant: "", writes: [{ graph: "created", triples: text(30) }] });
    expect(cache.get("", "created")).to.equal(text(30)); // read-your-write of a create
    const bulk = Array.from({ length: CACHE_NEW_GRAPHS_UP_TO + 1 }, (_, i) => ({
      graph: `bulk${i}`,
      triples: text(5),
    }));
    cache.apply({
      seq: 2,
      tenant: "",
      writes: [{ graph: "read", triples: text(20, "y") }, ...bulk],
    });
    expect(cache.get("", "read")).to.equal(text(20, "y"));
    expect(cache.get("", "bulk0")).to.equal(undefined);
    expect(cache.size).to.equal(2);
    expect(cache.cachedBytes).to.equal(50);
  });

  it("keeps no read that a commit of the same graph crossed, and keeps the others", () => {
    const cache = new GraphCache(100_000);
    const ticket = cache.beginRead();
    // read of "a" and "b" under way; a bulk commit (no graph added) writes "a" before the read comes back
    const bulk = Array.from({ length: CACHE_NEW_GRAPHS_UP_TO + 1 }, (_, i) => ({
      graph: i === 0 ? "a" : `bulk${i}`,
      triples: text(5, "n"),
    }));
    cache.apply({ seq: 1, tenant: "", writes: bulk });
    cache.keepRead(ticket, "", [
      ["a", text(5, "o")],
      ["b", text(7)],
      ["gone", null],
    ]);
    expect(cache.get("", "a")).to.equal(undefined); // the old text is not kept
    expect(cache.get("", "b")).to.equal(text(7));
    expect(cache.size).to.equal(1);
    // a read that began after the commit keeps what it read
    const later = cache.beginRead();
    cache.keepRead(later, "", [["a", text(5, "n")]]);
    expect(cache.get("", "a")).to.equal(text(5, "n"));
  });
});
