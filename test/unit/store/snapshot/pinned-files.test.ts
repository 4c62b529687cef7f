import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { replayJournal } from "../../../../src/store/journal/journal-replay";
import { pinStoreFiles } from "../../../../src/store/snapshot/pinned-files";
import { readChunks } from "../../../../src/store/snapshot/snapshot-files";
import type { GraphStore } from "../../../../src/store/graph-store";
import { entityTriples, open, removeDir, tempDir } from "../helpers";

async function commitRange(store: GraphStore, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++)
    await store.commit("", [{ graph: `urn:e:${i}`, triples: entityTriples(`urn:e:${i}`, i) }]);
}

describe("store/snapshot pinned files (a reader beside compactions)", () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it("reads the pinned snapshot and segments whole after two compactions deleted them", async () => {
    const store = await open(dir);
    const storeDir = path.join(dir, "store");
    let pinned: ReturnType<typeof pinStoreFiles> | undefined;
    try {
      await commitRange(store, 0, 10);
      await store.compact(); // snapshot at seq 10
      await commitRange(store, 10, 20); // seqs 11..20 in the segment after it
      pinned = pinStoreFiles(storeDir);
      await commitRange(store, 20, 30);
      await store.compact();
      await commitRange(store, 30, 40);
      await store.compact();
      await commitRange(store, 40, 42);
      const left = fs.readdirSync(storeDir);
      for (const s of pinned.snapshots) expect(left).not.to.include(s.file);
      for (const s of pinned.segments) expect(left).not.to.include(path.basename(s.file));

      // the files by name: the next segment starts past what the old snapshot holds
      expect(() => replayJournal(storeDir, 10, () => undefined, true)).to.throw(/jumps from seq 10 to/);

      expect(pinned.manifest?.seq).to.equal(10);
      const snapshot = Buffer.concat([...readChunks(pinned.snapshots[0].fd)]).toString("utf8");
      expect(
        snapshot.match(/<urn:e:\d+> <http:\/\/www.w3.org\/1999\/02\/22-rdf-syntax-ns#type>/g),
      ).to.have.length(10);
      const seqs: number[] = [];
      replayJournal(storeDir, 10, (r) => seqs.push(r.seq), true, pinned.segments);
      // the pinned tail segment also holds what was appended to it before the next rotation
      expect(seqs).to.deep.equal(Array.from({ length: 20 }, (_, i) => 11 + i));
    } finally {
      pinned?.close();
      await store.close();
    }
  });
});
