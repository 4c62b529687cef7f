import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { NATIVE_DIR, tenantKey } from "../../../src/store/native/tenant-folders";
import { entityTriples, normalized, open, removeDir, tempDir } from "./helpers";

/**
 * GraphStore.readGraphs reads RocksDB from the main thread (src/store/native/graph-reader.ts): a read is not
 * queued behind the commit the store worker is applying, and it sees every acknowledged commit.
 */
describe("store/readGraphs: reads beside the store worker's commits", () => {
  it("answers while the worker applies a large commit, and sees every acknowledged one", async () => {
    const dir = tempDir();
    const store = await open(dir);
    try {
      await store.commit("", [{ graph: "urn:small", triples: entityTriples("urn:small", "v1") }]);
      // 2,000 graphs of 41 triples: the worker applies it for a while, in one synchronous step
      const large = Array.from({ length: 2000 }, (_, i) => ({
        graph: `urn:large:${i}`,
        triples: entityTriples(`urn:large:${i}`, i, 20),
      }));
      const order: string[] = [];
      const commit = store.commit("", large, () => {
        order.push("large applied");
        return undefined;
      });
      // sent after the commit: through the worker it would wait until the large commit was applied
      const read = store.readGraphs("", ["urn:small", "urn:large:0"]).then((r) => {
        order.push("read answered");
        return r;
      });
      const [small, first] = await read;
      expect(first === null || first.length > 0).to.equal(true); // before or after the commit, never half of it
      await commit;
      expect(order).to.deep.equal(["read answered", "large applied"]);
      expect(normalized(small)).to.deep.equal(normalized(entityTriples("urn:small", "v1")));
      // acknowledged: seen by the next read
      const after = await store.readGraphs("", ["urn:large:1999", "urn:none"]);
      expect(normalized(after[0])).to.deep.equal(normalized(entityTriples("urn:large:1999", 1999, 20)));
      expect(after[1]).to.equal(null);
      // a tenant that never wrote reads as empty and gets no folder
      expect(await store.readGraphs("elsewhere", ["urn:small"])).to.deep.equal([null]);
      expect(fs.existsSync(path.join(dir, "store", NATIVE_DIR, tenantKey("elsewhere")))).to.equal(false);
    } finally {
      await store.close();
      removeDir(dir);
    }
  });
});
