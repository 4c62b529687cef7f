import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import type { GraphStore } from "../../../../src/store/graph-store";
import { open, removeDir, tempDir } from "../helpers";

const triples = (n: number) => `<urn:s> <urn:p> "${n}" .\n`;

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
      for (const f of held.files) {
        const to = path.join(copy, "store", f);
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.copyFileSync(path.join(held.dir, f), to);
      }
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

  it("closes while a snapshot is held", async () => {
    await store.commit("", [{ graph: "urn:g", triples: triples(1) }]);
    await store.holdSnapshot();
    await store.close();
  });
});
