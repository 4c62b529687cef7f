import path from "node:path";
import { expect } from "chai";
import type { GraphStore } from "../../../../src/store/graph-store";
import { readAppliedMarker } from "../../../../src/store/native/applied-marker";
import { latestCheckpoint } from "../../../../src/store/snapshot/checkpoint-files";
import { entityTriples, type LogLine, normalized, open, removeDir, tempDir } from "../helpers";

/** Enough entities that one commit of them passes the store's bulk threshold (10,000 inserted quads). */
const ENTITIES = 600;
const ATTRS = 8;

const ids = Array.from({ length: ENTITIES }, (_, i) => `urn:e:${i}`);
const writes = (v: string) => ids.map((graph) => ({ graph, triples: entityTriples(graph, v, ATTRS) }));
const COUNT_PLAIN = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }";

async function plainCount(store: GraphStore): Promise<string> {
  return (await store.select("", COUNT_PLAIN))[0].n;
}

describe("store/native large commits (bulk path)", function () {
  this.timeout(60_000);
  let bulkDir: string;
  let smallDir: string;
  beforeEach(() => {
    bulkDir = tempDir();
    smallDir = tempDir();
  });
  afterEach(() => {
    removeDir(bulkDir);
    removeDir(smallDir);
  });

  it("replaces graphs and their plain view as commits of one graph each do, and keeps them over a restart", async () => {
    // one store takes each version as one large commit, the other graph by graph
    let bulk = await open(bulkDir);
    const small = await open(smallDir);
    try {
      for (const v of ["a", "b"]) {
        await bulk.commit("", writes(v));
        for (const w of writes(v)) await small.commit("", [w]);
      }
      // a large commit that drops one graph and rewrites another twice
      const last = [
        ...writes("c"),
        { graph: ids[1], triples: null },
        { graph: ids[2], triples: entityTriples(ids[2], "d", ATTRS) },
      ];
      await bulk.commit("", last);
      for (const w of last) await small.commit("", [w]);

      const sample = [ids[0], ids[1], ids[2], ids[ENTITIES - 1]];
      const expected = (await small.readGraphs("", sample)).map(normalized);
      expect(expected[1]).to.equal(null);
      expect(expected[2]).to.deep.equal(normalized(entityTriples(ids[2], "d", ATTRS)));
      expect((await bulk.readGraphs("", sample)).map(normalized)).to.deep.equal(expected);
      expect(await plainCount(bulk)).to.equal(await plainCount(small));
      expect((await bulk.stats()).quads).to.equal((await small.stats()).quads);

      await bulk.close();
      bulk = await open(bulkDir);
      expect((await bulk.readGraphs("", sample)).map(normalized)).to.deep.equal(expected);
      expect(await plainCount(bulk)).to.equal(await plainCount(small));
    } finally {
      await bulk.close();
      await small.close();
    }
  });

  it("stops a compaction under way at close, so the stores are marked durable and the next start replays nothing", async () => {
    const logs: LogLine[] = [];
    const store = await open(bulkDir);
    let lastSeq = 0;
    for (let i = 0; i < 20; i++) lastSeq = await store.commit("", writes(`v${i}`).slice(0, 200));
    const compaction = store.compact().then(
      () => "done",
      (e: Error) => e.message,
    );
    await store.close();
    expect(await compaction).to.match(/closing/);
    expect(latestCheckpoint(path.join(bulkDir, "store"))?.seq ?? 0).to.be.below(lastSeq);
    expect(readAppliedMarker(path.join(bulkDir, "store"))).to.equal(lastSeq);

    const again = await open(bulkDir, {}, logs);
    try {
      const ready = logs.find((l) => l.msg === "store ready");
      expect(ready?.fields).to.include({ replayed: 0, lastSeq });
      expect(normalized((await again.readGraphs("", [ids[199]]))[0])).to.deep.equal(
        normalized(entityTriples(ids[199], "v19", ATTRS)),
      );
    } finally {
      await again.close();
    }
  });
});
