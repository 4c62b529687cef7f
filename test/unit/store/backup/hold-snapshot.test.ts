import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import type { GraphStore } from "../../../../src/store/graph-store";
import { open, removeDir, tempDir } from "../helpers";

const triples = (n: number) => `<urn:s> <urn:p> "${n}" .\n`;

describe("store: holdSnapshot, a consistent cut for a backup", () => {
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

  it("holds a snapshot of every acknowledged commit; compactions wait for its release", async () => {
    for (let i = 0; i < 5; i++) await store.commit("", [{ graph: `urn:g${i}`, triples: triples(i) }]);
    const held = await store.holdSnapshot();
    expect(held.seq).to.equal(5);
    expect(held.files[0]).to.equal("manifest.json");
    expect(held.tenants).to.deep.equal([{ tenant: "", file: held.files[1] }]);
    const text = fs.readFileSync(path.join(held.dir, held.files[1]), "utf8");
    for (let i = 0; i < 5; i++) expect(text).to.include(`<urn:g${i}>`);

    await store.commit("", [{ graph: "urn:g9", triples: triples(9) }]);
    let compacted = false;
    const later = store.compact().then(() => (compacted = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(compacted, "a compaction waits while the snapshot is held").to.equal(false);
    for (const f of held.files) expect(fs.existsSync(path.join(held.dir, f)), f).to.equal(true);
    await held.release();
    await later;
    expect(fs.existsSync(path.join(held.dir, held.files[1])), "the old snapshot goes after release").to.equal(
      false,
    );
  });

  it("closes while a snapshot is held", async () => {
    await store.commit("", [{ graph: "urn:g", triples: triples(1) }]);
    await store.holdSnapshot();
    await store.close();
  });
});
