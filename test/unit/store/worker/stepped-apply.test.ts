import { expect } from "chai";
import { AppError } from "../../../../src/errors";
import { TenantDatasets } from "../../../../src/store/worker/tenant-datasets";
import { entityTriples, normalized, open, removeDir, tempDir } from "../helpers";

describe("store/a commit applied in steps (TenantDatasets.begin)", () => {
  it("applies write by write with a zero budget, and the result equals apply()", () => {
    const stepped = new TenantDatasets(1_000_000);
    const whole = new TenantDatasets(1_000_000);
    const writes = [1, 2, 3].map((n) => ({ graph: `urn:e${n}`, triples: entityTriples(`urn:e${n}`, n) }));
    const job = stepped.begin("", writes);
    expect(job.step(0)).to.equal(false);
    expect(stepped.graphs("")).to.deep.equal(["urn:e1"]);
    expect(job.step(0)).to.equal(false);
    expect(job.step(0)).to.equal(true);
    whole.apply("", writes);
    expect(stepped.quads).to.equal(whole.quads).and.equal(15);
    for (const w of writes)
      expect(normalized(stepped.readGraph("", w.graph))).to.deep.equal(
        normalized(whole.readGraph("", w.graph)),
      );
  });

  it("refuses a commit past the ceiling before applying anything (StoreFull)", () => {
    const d = new TenantDatasets(8);
    const err = (() => {
      try {
        d.begin("", [
          { graph: "urn:a", triples: entityTriples("urn:a", "a", 2) },
          { graph: "urn:b", triples: entityTriples("urn:b", "b") },
        ]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).to.be.instanceOf(AppError).and.have.property("kind", "StoreFull");
    expect(d.graphs("")).to.deep.equal([]);
  });

  it("restores every graph the commit touched when a later step fails", () => {
    const d = new TenantDatasets(1_000_000);
    d.apply("", [{ graph: "urn:a", triples: entityTriples("urn:a", "old") }]);
    const before = normalized(d.readGraph("", "urn:a"));
    const job = d.begin("", [
      { graph: "urn:a", triples: entityTriples("urn:a", "new") },
      { graph: "urn:b", triples: entityTriples("urn:b", "b") },
      { graph: "urn:c", triples: "<urn:c> <urn:p> this is not N-Triples .\n" },
    ]);
    expect(job.step(0)).to.equal(false);
    expect(normalized(d.readGraph("", "urn:a"))).to.not.deep.equal(before);
    expect(job.step(0)).to.equal(false);
    expect(() => job.step(0))
      .to.throw(AppError)
      .with.property("kind", "BadRequestData");
    expect(normalized(d.readGraph("", "urn:a"))).to.deep.equal(before);
    expect(d.readGraph("", "urn:b")).to.equal(null);
    expect(d.graphs("")).to.deep.equal(["urn:a"]);
    expect(d.quads).to.equal(5);
  });

  it("answers a small commit sent after a large one only after it, and both are durable in order", async () => {
    const dir = tempDir();
    const store = await open(dir);
    try {
      // ~3,000 graphs: applied in several steps of the worker
      const big = Array.from({ length: 3000 }, (_, n) => ({
        graph: `urn:big:${n}`,
        triples: entityTriples(`urn:big:${n}`, n, 3),
      }));
      const order: string[] = [];
      const a = store.commit("", big).then((s) => order.push(`big ${s}`));
      const b = store
        .commit("", [{ graph: "urn:big:0", triples: entityTriples("urn:big:0", "after") }])
        .then((s) => order.push(`small ${s}`));
      const r = store.readGraphs("", ["urn:big:2999", "urn:big:0"]);
      await Promise.all([a, b]);
      expect(order).to.deep.equal(["big 1", "small 2"]);
      const [last, first] = await r;
      expect(last).to.not.equal(null); // the read queued behind the large commit sees all of it
      expect(first).to.include('"after-0"');
      await store.close();
      const again = await open(dir);
      try {
        expect(await again.stats()).to.include({ lastSeq: 2 });
        expect((await again.readGraphs("", ["urn:big:0"]))[0]).to.include('"after-0"');
      } finally {
        await again.close();
      }
    } finally {
      removeDir(dir);
    }
  });
});
