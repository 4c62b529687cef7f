import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import type { GraphStore, HeldSnapshot } from "../../../../src/store/graph-store";
import { open, removeDir, tempDir } from "../helpers";

const triples = (n: number) => `<urn:s> <urn:p> "${n}" .\n`;

/** Copies the held files into the store folder of the data folder `to`, as a backup restores them. */
function copyHeld(held: HeldSnapshot, to: string): void {
  for (const f of held.files) {
    const file = path.join(to, "store", f);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(path.join(held.dir, f), file);
  }
}

describe("store: holdSnapshot, a checkpoint kept for a backup", () => {
  let dir: string;
  let store: GraphStore;
  beforeEach(async () => {
    dir = tempDir();
    store = await open(dir);
  });
  afterEach(async () => {
    await store.close();
    removeDir(dir);
  });

  it("holds a checkpoint of every acknowledged commit; compactions wait for its release", async () => {
    for (let i = 0; i < 5; i++) await store.commit("", [{ graph: `urn:g${i}`, triples: triples(i) }]);
    await store.commit("acme", [{ graph: "urn:a", triples: triples(7) }]);
    const held = await store.holdSnapshot();
    expect(held.seq).to.equal(6);
    expect(held.files[0]).to.equal("checkpoint-0000000000000006/checkpoint.json");
    const folders = new Set(held.files.slice(1).map((f) => f.split("/").slice(1, 3).join("/")));
    expect([...folders].sort()).to.deep.equal([
      "default/internal",
      "default/public",
      "t-61636d65/internal",
      "t-61636d65/public",
    ]);
    expect(
      held.files.some((f) => f.endsWith(".sst")),
      "table files",
    ).to.equal(true);

    // the held files, copied into a new store folder as a backup restores them, are the graph at the cut
    await store.commit("", [{ graph: "urn:g0", triples: triples(100) }]);
    const copy = tempDir();
    try {
      copyHeld(held, copy);
      const restored = await open(copy);
      try {
        const got = await restored.readGraphs("", ["urn:g0", "urn:g4"]);
        expect(got).to.deep.equal([triples(0), triples(4)]);
        expect(await restored.readGraphs("acme", ["urn:a"])).to.deep.equal([triples(7)]);
      } finally {
        await restored.close();
      }
    } finally {
      removeDir(copy);
    }

    await store.commit("", [{ graph: "urn:g9", triples: triples(9) }]);
    let compacted = false;
    const later = store.compact().then(() => (compacted = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(compacted, "a compaction waits while the snapshot is held").to.equal(false);
    for (const f of held.files) expect(fs.existsSync(path.join(held.dir, f)), f).to.equal(true);
    await held.release();
    await later;
    expect(
      fs.existsSync(path.join(held.dir, held.files[0])),
      "the old checkpoint goes after release",
    ).to.equal(false);
  });

  it("holds a cut at its seq while writers commit during the checkpoint", async () => {
    let holding = true;
    const acked = new Map<number, { graph: string; n: number }>();
    const writer = async (w: number): Promise<void> => {
      for (let n = 0; holding; n++) {
        const graph = `urn:w${w}:${n % 5}`;
        acked.set(await store.commit("", [{ graph, triples: triples(n) }]), { graph, n });
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await new Promise((r) => setTimeout(r, 50));
    const held = await store.holdSnapshot();
    holding = false;
    await Promise.all(writers);
    const checkpointSeq = Number(/^checkpoint-(\d+)\//.exec(held.files[0])?.[1]);
    expect(held.seq, "commits came while the checkpoint was taken").to.be.greaterThan(checkpointSeq);
    expect(held.files.at(-1)).to.equal(`journal-${String(checkpointSeq + 1).padStart(16, "0")}.log`);

    // what the cut must hold: each graph's last write with seq <= held.seq
    const expected = new Map<string, string>();
    for (const [seq, w] of [...acked].sort((a, b) => a[0] - b[0]))
      if (seq <= held.seq) expected.set(w.graph, triples(w.n));
    const copy = tempDir();
    try {
      copyHeld(held, copy);
      await held.release();
      const restored = await open(copy);
      try {
        const graphs = [...expected.keys()];
        expect(await restored.readGraphs("", graphs)).to.deep.equal(graphs.map((g) => expected.get(g)));
        expect((await restored.stats()).lastSeq, "the restored store's seq").to.equal(held.seq);
      } finally {
        await restored.close();
      }
    } finally {
      removeDir(copy);
    }
  });

  it("holds the same checkpoint again when nothing was committed since", async () => {
    await store.commit("", [{ graph: "urn:g", triples: triples(1) }]);
    const first = await store.holdSnapshot();
    await first.release();
    const second = await store.holdSnapshot();
    expect(second.seq).to.equal(first.seq);
    expect(second.files).to.deep.equal(first.files);
    for (const f of second.files) expect(fs.existsSync(path.join(second.dir, f)), f).to.equal(true);
    await second.release();
  });

  it("extends a held cut to the commits made since, which a restore replays", async () => {
    await store.commit("", [{ graph: "urn:g", triples: triples(1) }]);
    const held = await store.holdSnapshot();
    const s1 = await store.commit("", [{ graph: "urn:g", triples: triples(2) }]);
    const s2 = await store.commit("", [{ graph: "urn:h", triples: triples(3) }]);
    const cut = await held.extend();
    expect(cut.seq).to.equal(s2);
    expect(cut.files.slice(0, held.files.length)).to.deep.equal(held.files);
    expect(cut.files.at(-1)).to.equal(`journal-${String(s1).padStart(16, "0")}.log`);
    await store.commit("", [{ graph: "urn:g", triples: triples(4) }]); // after the cut: not in it
    const copy = tempDir();
    try {
      copyHeld({ ...held, ...cut }, copy);
      await held.release();
      const restored = await open(copy);
      try {
        expect(await restored.readGraphs("", ["urn:g", "urn:h"])).to.deep.equal([triples(2), triples(3)]);
        expect((await restored.stats()).lastSeq).to.equal(s2);
      } finally {
        await restored.close();
      }
    } finally {
      removeDir(copy);
    }
  });

  it("closes while a snapshot is held", async () => {
    await store.commit("", [{ graph: "urn:g", triples: triples(1) }]);
    await store.holdSnapshot();
    await store.close();
  });
});
