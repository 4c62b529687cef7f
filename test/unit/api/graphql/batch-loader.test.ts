import { expect } from "chai";
import { BatchLoader } from "../../../../src/api/graphql/batch-loader";

describe("BatchLoader", () => {
  it("reads the keys asked for in one turn in one batch, each key once", async () => {
    const calls: string[][] = [];
    const loader = new BatchLoader<string, string>((keys) => {
      calls.push(keys);
      return keys.map((k) => k.toUpperCase());
    });
    const values = await Promise.all(["a", "b", "a", "c"].map((k) => loader.load(k)));
    expect(values).to.deep.equal(["A", "B", "A", "C"]);
    expect(calls).to.deep.equal([["a", "b", "c"]]);
    expect(await loader.load("b")).to.equal("B");
    expect(loader.batches).to.equal(1);
  });

  it("joins keys asked for after awaited promises of the same turn (100 accidents -> one camera read)", async () => {
    let batches = 0;
    const loader = new BatchLoader<number, number>((keys) => {
      batches++;
      return keys;
    });
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        await Promise.resolve();
        return loader.load(i % 7);
      }),
    );
    expect(batches).to.equal(1);
  });

  it("rejects every key of a failed batch", async () => {
    const loader = new BatchLoader<string, string>(() => Promise.reject(new Error("down")));
    const r = await Promise.allSettled([loader.load("a"), loader.load("b")]);
    expect(r.map((x) => x.status)).to.deep.equal(["rejected", "rejected"]);
  });
});
