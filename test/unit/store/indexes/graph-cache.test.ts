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

  it("adds the graphs of a small commit, keeps cached graphs current, and a bulk commit's only while they fit", () => {
    const cache = new GraphCache(50);
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
    // "read" and "created" take 50 of the 50: no bulk graph fits, and none evicts them
    expect(cache.get("", "read")).to.equal(text(20, "y"));
    expect(cache.get("", "created")).to.equal(text(30));
    expect(cache.get("", "bulk0")).to.equal(undefined);
    expect(cache.size).to.equal(2);
    expect(cache.cachedBytes).to.equal(50);
  });

  it("fills its free room with a bulk commit's graphs, in the commit's order, and evicts none for them", () => {
    const cache = new GraphCache(100);
    cache.set("", "read", text(40));
    const bulk = Array.from({ length: CACHE_NEW_GRAPHS_UP_TO + 1 }, (_, i) => ({
      graph: `bulk${i}`,
      triples: text(25, String.fromCharCode(97 + i)),
    }));
    cache.apply({ seq: 1, tenant: "", writes: bulk });
    expect(cache.get("", "read")).to.equal(text(40));
    expect(cache.get("", "bulk0")).to.equal(text(25, "a"));
    expect(cache.get("", "bulk1")).to.equal(text(25, "b"));
    expect(cache.get("", "bulk2")).to.equal(undefined); // 40 + 25 + 25 + 25 > 100
    expect(cache.cachedBytes).to.equal(90);
  });

  it("keeps no read that a commit of the same graph crossed, and keeps the others", () => {
    const cache = new GraphCache(100_000);
    const ticket = cache.beginRead();
    // read of "a" and "b" under way; a commit writes "a" before the read comes back
    cache.apply({ seq: 1, tenant: "", writes: [{ graph: "a", triples: text(5, "n") }] });
    cache.keepRead(ticket, "", [
      ["a", text(5, "o")],
      ["b", text(7)],
      ["gone", null],
    ]);
    expect(cache.get("", "a")).to.equal(text(5, "n")); // the committed text, not the older read's
    expect(cache.get("", "b")).to.equal(text(7));
    expect(cache.size).to.equal(2);
    // a bulk commit that finds no room adds nothing, and a read it crossed is not kept either
    const full = new GraphCache(10);
    const t2 = full.beginRead();
    const bulk = Array.from({ length: CACHE_NEW_GRAPHS_UP_TO + 1 }, (_, i) => ({
      graph: i === 0 ? "a" : `bulk${i}`,
      triples: text(11, "n"),
    }));
    full.apply({ seq: 1, tenant: "", writes: bulk });
    full.keepRead(t2, "", [["a", text(5, "o")]]);
    expect(full.get("", "a")).to.equal(undefined);
    expect(full.size).to.equal(0);
    // a read that began after the commit keeps what it read
    const later = cache.beginRead();
    cache.keepRead(later, "", [["a", text(5, "n")]]);
    expect(cache.get("", "a")).to.equal(text(5, "n"));
  });
});
