import { expect } from "chai";
import { AppError } from "../../../src/errors";
import { entityTriples, open, removeDir, tempDir } from "./helpers";

describe("store/disk reserve (StoreFull)", () => {
  it("refuses a commit with 507 while the disk has less than minFreeBytes free, applying nothing", async () => {
    const dir = tempDir();
    const store = await open(dir, { minFreeBytes: Number.MAX_SAFE_INTEGER });
    try {
      const err = await store
        .commit("", [{ graph: "urn:a", triples: entityTriples("urn:a", "a", 2) }])
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(AppError).and.have.property("kind", "StoreFull");
      expect((err as AppError).status).to.equal(507);
      expect((err as AppError).message).to.match(/bytes free, below the \d+ kept in reserve/);
      expect(await store.readGraphs("", ["urn:a"])).to.deep.equal([null]);
      const st = await store.stats();
      expect(st.lastSeq).to.equal(0);
      expect(st.diskFreeBytes).to.be.greaterThan(0);
      expect(st.capacityUsed).to.be.within(0, 1);
    } finally {
      await store.close();
      removeDir(dir);
    }
  });

  it("accepts commits while the disk has room, and says how full it is", async () => {
    const dir = tempDir();
    const store = await open(dir, { minFreeBytes: 1 });
    try {
      await store.commit("", [{ graph: "urn:a", triples: entityTriples("urn:a", "a", 2) }]);
      const st = await store.stats();
      expect(st.lastSeq).to.equal(1);
      expect(st.minFreeBytes).to.equal(1);
      expect(st.storeBytes).to.be.greaterThan(0);
    } finally {
      await store.close();
      removeDir(dir);
    }
  });
});
