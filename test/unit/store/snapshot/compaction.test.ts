import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import type { GraphStore } from "../../../../src/store/graph-store";
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

describe("store/snapshots and compaction", () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it("compacts into a snapshot + fresh segment, and restarts to the same data", async () => {
    const store = await open(dir);
    await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    await commitRange(store, 0, 30, "a");
    await store.commit("", [{ graph: "urn:e:29", triples: null }]);
    await store.compact();
    const files = fs.readdirSync(path.join(dir, "store")).sort();
    expect(files).to.deep.equal([
      "journal-0000000000000033.log",
      "manifest.json",
      "native",
      "snapshot-0000000000000032-default.nq",
      "snapshot-0000000000000032-t61636d65.nq",
    ]);
    await commitRange(store, 30, 35, "a"); // after the snapshot: in the new segment
    await store.close();
    await expectState(dir, [...Array(29).keys(), 30, 31, 32, 33, 34], "a", [29]);
    // again, so a second compaction replaces the first
    const again = await open(dir);
    await commitRange(again, 0, 5, "b");
    await again.compact();
    await again.close();
    const left = fs.readdirSync(path.join(dir, "store")).filter((f) => f.startsWith("snapshot-"));
    expect(left).to.have.length(2);
    expect(left.every((f) => f.includes("0000000000000042"))).to.equal(true);
    await expectState(dir, [0, 1, 2, 3, 4], "b", [29]);
  });

  it("keeps only the last write of a graph written several times, in one commit and across segments", async () => {
    const store = await open(dir);
    await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    await store.commit("acme", [{ graph: "urn:y", triples: '<urn:y> <urn:p> "gone" .\n' }]);
    await store.commit("", [
      { graph: "urn:e:1", triples: triples(1, "x") },
      { graph: "urn:e:2", triples: triples(2, "x") },
      { graph: "urn:e:1", triples: triples(1, "c") },
    ]);
    await store.compact(); // the first snapshot: later writes replace some of its graphs
    await store.commit("", [{ graph: "urn:e:2", triples: null }]);
    await store.commit("acme", [{ graph: "urn:y", triples: null }]);
    await commitRange(store, 3, 5, "x");
    await store.commit("", [{ graph: "urn:e:2", triples: triples(2, "c") }]);
    await commitRange(store, 3, 5, "c");
    await store.compact();
    await store.close();
    const text = (suffix: string): string =>
      fs
        .readdirSync(path.join(dir, "store"))
        .filter((f) => f.endsWith(suffix))
        .map((f) => fs.readFileSync(path.join(dir, "store", f), "utf8"))
        .join("");
    expect(text("-default.nq")).to.not.include('"x'); // no replaced write left in the snapshot
    expect(text("-t61636d65.nq")).to.not.include("gone");
    expect(fs.readdirSync(path.join(dir, "store")).filter((f) => f.startsWith("journal-"))).to.have.length(1);
    await expectState(dir, [1, 2, 3, 4], "c");
  });

  it("writes each tenant's own graphs when the journal interleaves tenants (one output buffer)", async () => {
    const store = await open(dir);
    for (let i = 0; i < 6; i++) {
      const tenant = ["", "acme", "beta"][i % 3];
      await store.commit(tenant, [{ graph: `urn:e:${i}`, triples: triples(i, tenant || "d") }]);
    }
    await store.compact();
    await store.close();
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
    const manifest = path.join(dir, "store", "manifest.json");
    const deadline = Date.now() + 5000;
    while (!fs.existsSync(manifest) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await store.close();
    expect(fs.existsSync(manifest)).to.equal(true);
    expect(segments(dir)).to.have.length(1);
    await expectState(dir, [...Array(40).keys()], "a");
  });

  it("puts a due compaction off while commits keep coming, and compacts once they pause", async () => {
    const manifest = path.join(dir, "store", "manifest.json");
    const store = await open(dir, { journalCompactBytes: 4000, compactQuietMs: 400 });
    try {
      await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
      await commitRange(store, 0, 40, "a"); // well past 4000 bytes, one commit right after the other
      expect(fs.existsSync(manifest), "compacted during the burst").to.equal(false);
      const deadline = Date.now() + 5000;
      while (!fs.existsSync(manifest) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(fs.existsSync(manifest), "compacted after the pause").to.equal(true);
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
      const manifest = path.join(dir, "store", "manifest.json");
      const deadline = Date.now() + 5000;
      while (!fs.existsSync(manifest) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(fs.existsSync(manifest)).to.equal(true);
    } finally {
      await store.close();
    }
    await expectState(dir, [...Array(80).keys()], "a");
  });

  it("loses nothing if killed at any step of a compaction", async () => {
    // state before the compaction: a first snapshot, then more commits in the journal
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
      const stage = (
        name: string,
        make: (d: string) => void,
      ): { name: string; make: (d: string) => void } => ({
        name,
        make,
      });
      const newFiles = fs
        .readdirSync(path.join(after, "store"))
        .filter((f) => !fs.existsSync(path.join(before, "store", f)));
      const stages = [
        // killed after the journal rotation: an empty new segment
        stage("rotated", (d) =>
          fs.copyFileSync(
            path.join(after, "store", newFiles.find((f) => f.startsWith("journal-")) ?? ""),
            path.join(d, "store", newFiles.find((f) => f.startsWith("journal-")) ?? ""),
          ),
        ),
        // killed while writing a snapshot file: a half temp file
        stage("half temp file", (d) =>
          fs.writeFileSync(
            path.join(d, "store", "snapshot-0000000000000021-default.nq.tmp"),
            "<urn:e:1> <urn:p",
          ),
        ),
        // killed after the snapshot files were renamed, before the manifest
        stage("files, no manifest", (d) => {
          for (const f of newFiles.filter((n) => n.startsWith("snapshot-")))
            fs.copyFileSync(path.join(after, "store", f), path.join(d, "store", f));
        }),
        // killed after the manifest, before old segments and snapshots were deleted
        stage("manifest, old files kept", (d) => {
          for (const f of newFiles) fs.copyFileSync(path.join(after, "store", f), path.join(d, "store", f));
          fs.copyFileSync(path.join(after, "store", "manifest.json"), path.join(d, "store", "manifest.json"));
        }),
      ];
      for (const s of stages) {
        const d = tempDir();
        try {
          copyDir(before, d);
          s.make(d);
          await expectAll(d).catch((e: Error) => {
            throw new Error(`stage "${s.name}": ${e.message}`);
          });
        } finally {
          removeDir(d);
        }
      }
      await expectAll(dir);
    } finally {
      removeDir(before);
      removeDir(after);
    }
  });

  it("keeps the blank nodes of different writes apart in the snapshot (one load call at start)", async () => {
    const store = await open(dir);
    await store.commit("acme", [{ graph: "urn:x", triples: '<urn:x> <urn:p> "acme" .\n' }]);
    await commitRange(store, 0, 10, "a"); // every write labels its attribute nodes _:b0, _:b1
    await store.compact();
    await commitRange(store, 5, 15, "b");
    await store.compact(); // merges the first snapshot with the journal
    await store.close();
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
