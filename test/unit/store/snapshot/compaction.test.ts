import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import type { GraphStore } from "../../../../src/store/graph-store";
import { latestCheckpoint } from "../../../../src/store/snapshot/checkpoint-files";
import { entityTriples, normalized, open, removeDir, segments, tempDir } from "../helpers";

const triples = (i: number, v: string): string => entityTriples(`urn:e:${i}`, `${v}${i}`);

/** Expects urn:e:<i> = triples(i, v) for i in `ids` of the store at `dir`, and `gone` absent. */
async function expectState(dir: string, ids: number[], v: string, gone: number[] = []): Promise<void> {
  const store = await open(dir);
  try {
    const got = await store.readGraphs(
      "",
      ids.map((i) => `urn:e:${i}`),
    );
    got.forEach((g, n) =>
      expect(normalized(g), `urn:e:${ids[n]}`).to.deep.equal(normalized(triples(ids[n], v))),
    );
    expect(
      await store.readGraphs(
        "",
        gone.map((i) => `urn:e:${i}`),
      ),
    ).to.deep.equal(gone.map(() => null));
    const rows = await store.select("acme", "SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }");
    expect(rows).to.deep.equal([{ o: '"acme"' }]);
    // the quad count of /health: counted once at the start, journal replay included only once
    let quads = (await store.stats()).quads;
    for (let i = 0; i < 100 && quads === -1; i++) {
      await new Promise((r) => setTimeout(r, 20));
      quads = (await store.stats()).quads;
    }
    let counted = 0;
    for (const tenant of ["", "acme"]) {
      const all = "SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }";
      for (const r of await store.select(tenant, all)) counted += Number(/^"(\d+)"/.exec(r.n)?.[1]);
    }
    expect(quads, "quads of /health").to.equal(counted);
  } finally {
    await store.close();
  }
}

async function commitRange(store: GraphStore, from: number, to: number, v: string): Promise<void> {
  for (let i = from; i < to; i++) await store.commit("", [{ graph: `urn:e:${i}`, triples: triples(i, v) }]);
}

function copyDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
}

/** Removes the live RocksDB stores, so the next start rebuilds them from the checkpoint and the journal. */
function loseStores(dir: string): void {
  fs.rmSync(path.join(dir, "store", "native"), { recursive: true, force: true });
}

/** Waits up to 5 s for a checkpoint to appear; true if one did. */
async function checkpointed(dir: string): Promise<boolean> {
  const deadline = Date.now() + 5000;
  while (!latestCheckpoint(path.join(dir, "store")) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  return latestCheckpoint(path.join(dir, "store")) !== undefined;
}

describe("store/checkpoints and compaction", () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it("compacts into a checkpoint + fresh segment, and restarts to the same data", async () => {
    const store = await open(dir);
    await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    await commitRange(store, 0, 30, "a");
    await store.commit("", [{ graph: "urn:e:29", triples: null }]);
    await store.compact();
    const files = fs.readdirSync(path.join(dir, "store")).sort();
    expect(files).to.deep.equal(["checkpoint-0000000000000032", "journal-0000000000000033.log", "native"]);
    await commitRange(store, 30, 35, "a"); // after the checkpoint: in the new segment
    await store.close();
    await expectState(dir, [...Array(29).keys(), 30, 31, 32, 33, 34], "a", [29]);
    // again, so a second compaction replaces the first
    const again = await open(dir);
    await commitRange(again, 0, 5, "b");
    await again.compact();
    await again.close();
    const left = fs.readdirSync(path.join(dir, "store")).filter((f) => f.startsWith("checkpoint-"));
    expect(left).to.deep.equal(["checkpoint-0000000000000042"]);
    await expectState(dir, [0, 1, 2, 3, 4], "b", [29]);
    loseStores(dir);
    await expectState(dir, [0, 1, 2, 3, 4], "b", [29]);
  });

  it("rebuilds lost stores from the checkpoint and the journal after it, last writes winning", async () => {
    const store = await open(dir);
    await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    await store.commit("acme", [{ graph: "urn:y", triples: '<urn:y> <urn:p> "gone" .\n' }]);
    await store.commit("", [
      { graph: "urn:e:1", triples: triples(1, "x") },
      { graph: "urn:e:2", triples: triples(2, "x") },
      { graph: "urn:e:1", triples: triples(1, "c") },
    ]);
    await store.compact(); // the first checkpoint: later writes replace some of its graphs
    await store.commit("", [{ graph: "urn:e:2", triples: null }]);
    await store.commit("acme", [{ graph: "urn:y", triples: null }]);
    await commitRange(store, 3, 5, "x");
    await store.commit("", [{ graph: "urn:e:2", triples: triples(2, "c") }]);
    await commitRange(store, 3, 5, "c");
    await store.close();
    loseStores(dir);
    await expectState(dir, [1, 2, 3, 4], "c");
    const again = await open(dir);
    try {
      expect(await again.readGraphs("acme", ["urn:y"])).to.deep.equal([null]);
      await again.compact();
    } finally {
      await again.close();
    }
    expect(fs.readdirSync(path.join(dir, "store")).filter((f) => f.startsWith("journal-"))).to.have.length(1);
    loseStores(dir);
    await expectState(dir, [1, 2, 3, 4], "c");
  });

  it("keeps each tenant's own graphs in the checkpoint when the journal interleaves tenants", async () => {
    const store = await open(dir);
    for (let i = 0; i < 6; i++) {
      const tenant = ["", "acme", "beta"][i % 3];
      await store.commit(tenant, [{ graph: `urn:e:${i}`, triples: triples(i, tenant || "d") }]);
    }
    await store.compact();
    await store.close();
    loseStores(dir);
    const again = await open(dir);
    try {
      for (let i = 0; i < 6; i++) {
        const tenant = ["", "acme", "beta"][i % 3];
        for (const other of ["", "acme", "beta"]) {
          const [got] = await again.readGraphs(other, [`urn:e:${i}`]);
          if (other === tenant)
            expect(normalized(got), `${tenant}/${i}`).to.deep.equal(normalized(triples(i, tenant || "d")));
          else expect(got, `${other}/${i}`).to.equal(null);
        }
      }
    } finally {
      await again.close();
    }
  });

  it("compacts by itself when the journal passes journalCompactBytes", async () => {
    const store = await open(dir, { journalCompactBytes: 4000 });
    await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    await commitRange(store, 0, 40, "a");
    // a close stops a running compaction: wait for this one to end first
    const done = await checkpointed(dir);
    await store.close();
    expect(done).to.equal(true);
    expect(segments(dir)).to.have.length(1);
    await expectState(dir, [...Array(40).keys()], "a");
  });

  it("puts a due compaction off while commits keep coming, and compacts once they pause", async () => {
    const store = await open(dir, { journalCompactBytes: 4000, compactQuietMs: 400 });
    try {
      await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
      await commitRange(store, 0, 40, "a"); // well past 4000 bytes, one commit right after the other
      expect(latestCheckpoint(path.join(dir, "store")), "compacted during the burst").to.equal(undefined);
      expect(await checkpointed(dir), "compacted after the pause").to.equal(true);
    } finally {
      await store.close();
    }
    expect(segments(dir)).to.have.length(1);
    await expectState(dir, [...Array(40).keys()], "a");
  });

  it("compacts during a burst all the same once the journal passes journalCompactMaxBytes", async () => {
    const store = await open(dir, {
      journalCompactBytes: 4000,
      journalCompactMaxBytes: 8000,
      compactQuietMs: 60_000,
    });
    try {
      await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
      await commitRange(store, 0, 80, "a");
      expect(await checkpointed(dir)).to.equal(true);
    } finally {
      await store.close();
    }
    await expectState(dir, [...Array(80).keys()], "a");
  });

  it("loses nothing if killed at any step of a compaction, with the stores kept or lost", async () => {
    // state before the compaction: a first checkpoint, then more commits in the journal
    const s1 = await open(dir);
    await s1.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    await commitRange(s1, 0, 10, "a");
    await s1.compact();
    await commitRange(s1, 5, 15, "b");
    await s1.close();
    const before = tempDir();
    const after = tempDir();
    try {
      copyDir(dir, before);
      const s2 = await open(dir);
      await s2.compact();
      await s2.close();
      copyDir(dir, after);
      const expectAll = (d: string): Promise<void> =>
        expectState(d, [5, 6, 7, 8, 9, 10, 11, 12, 13, 14], "b").then(() =>
          expectState(d, [0, 1, 2, 3, 4], "a"),
        );
      const storeOf = (d: string): string => path.join(d, "store");
      const newFiles = fs
        .readdirSync(storeOf(after))
        .filter((f) => !fs.existsSync(path.join(storeOf(before), f)));
      const segment = newFiles.find((f) => f.startsWith("journal-")) ?? "";
      const checkpoint = newFiles.find((f) => f.startsWith("checkpoint-")) ?? "";
      expect(segment && checkpoint, newFiles.join()).to.not.equal("");
      const stages: { name: string; make: (d: string) => void }[] = [
        // killed after the journal rotation: an empty new segment
        {
          name: "rotated",
          make: (d) => fs.copyFileSync(path.join(storeOf(after), segment), path.join(storeOf(d), segment)),
        },
        // killed while the checkpoint was written (after the rotation): a folder still named .tmp, without
        // its manifest
        {
          name: "half checkpoint",
          make: (d) => {
            fs.copyFileSync(path.join(storeOf(after), segment), path.join(storeOf(d), segment));
            fs.cpSync(path.join(storeOf(after), checkpoint), path.join(storeOf(d), `${checkpoint}.tmp`), {
              recursive: true,
            });
            fs.rmSync(path.join(storeOf(d), `${checkpoint}.tmp`, "checkpoint.json"));
          },
        },
        // killed after the checkpoint's rename, before the marker and the removal of old files
        {
          name: "checkpoint, old files kept",
          make: (d) => {
            for (const f of newFiles)
              fs.cpSync(path.join(storeOf(after), f), path.join(storeOf(d), f), { recursive: true });
          },
        },
      ];
      for (const s of stages) {
        for (const lost of [false, true]) {
          const d = tempDir();
          try {
            copyDir(before, d);
            s.make(d);
            if (lost) loseStores(d);
            await expectAll(d).catch((e: Error) => {
              throw new Error(`stage "${s.name}"${lost ? ", stores lost" : ""}: ${e.message}`);
            });
          } finally {
            removeDir(d);
          }
        }
      }
      await expectAll(dir);
      loseStores(dir);
      await expectAll(dir);
    } finally {
      removeDir(before);
      removeDir(after);
    }
  });

  it("rebuilds from a checkpoint that holds commits past its seq, replaying them to the same graphs", async () => {
    // a checkpoint taken while commits go on holds some after the seq it names: make one that holds all
    // of them (a checkpoint at the last seq, renamed to an earlier seq) with the journal from that seq
    const store = await open(dir);
    await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    await commitRange(store, 0, 10, "a"); // seqs 2-11
    await commitRange(store, 0, 5, "b"); // 12-16: replacements, each with new blank nodes
    await store.commit("", [{ graph: "urn:e:9", triples: null }]); // 17
    await commitRange(store, 10, 12, "b"); // 18-19
    await store.close();
    const storeDir = path.join(dir, "store");
    const journal = segments(dir).map((file) => ({ file, bytes: fs.readFileSync(file) }));
    const again = await open(dir);
    await again.compact();
    await again.close();
    const [done] = fs.readdirSync(storeDir).filter((f) => f.startsWith("checkpoint-"));
    expect(done).to.equal("checkpoint-0000000000000019");
    const named = "checkpoint-0000000000000011";
    fs.renameSync(path.join(storeDir, done), path.join(storeDir, named));
    const manifest = path.join(storeDir, named, "checkpoint.json");
    fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, "utf8")), seq: 11 }));
    for (const file of segments(dir)) fs.rmSync(file);
    for (const { file, bytes } of journal) fs.writeFileSync(file, bytes);
    loseStores(dir);
    await expectState(dir, [0, 1, 2, 3, 4, 10, 11], "b", [9]);
    await expectState(dir, [5, 6, 7, 8], "a");
    const rebuilt = await open(dir);
    try {
      const rows = await rebuilt.select(
        "",
        "SELECT (COUNT(DISTINCT ?b) AS ?n) WHERE { GRAPH ?g { ?s ?p ?b FILTER(isBlank(?b)) } }",
      );
      expect(rows[0].n).to.match(/^"22"/); // 11 entities x 2 attribute nodes, none twice
    } finally {
      await rebuilt.close();
    }
  });

  it("goes on committing while a compaction takes its checkpoint, and rebuilds to the last commit", async () => {
    const store = await open(dir);
    await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    await commitRange(store, 0, 40, "a");
    const compacted = store.compact();
    const racing = [];
    for (let i = 0; i < 40; i++)
      racing.push(store.commit("", [{ graph: `urn:e:${i}`, triples: triples(i, "b") }]));
    await Promise.all([compacted, ...racing]);
    await store.close();
    loseStores(dir);
    await expectState(dir, [...Array(40).keys()], "b");
  });

  it("keeps the blank nodes of different writes apart through checkpoints and a rebuild", async () => {
    const store = await open(dir);
    await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    await commitRange(store, 0, 10, "a"); // every write labels its attribute nodes _:b0, _:b1
    await store.compact();
    await commitRange(store, 5, 15, "b");
    await store.compact();
    await store.close();
    loseStores(dir);
    const again = await open(dir);
    try {
      const rows = await again.select(
        "",
        "SELECT (COUNT(DISTINCT ?b) AS ?n) WHERE { GRAPH ?g { ?s ?p ?b FILTER(isBlank(?b)) } }",
      );
      expect(rows[0].n).to.match(/^"30"/); // 15 entities x 2 attribute nodes
    } finally {
      await again.close();
    }
    await expectState(dir, [0, 1, 2, 3, 4], "a");
    await expectState(dir, [5, 6, 7, 8, 9, 10, 11, 12, 13, 14], "b");
  });
});
