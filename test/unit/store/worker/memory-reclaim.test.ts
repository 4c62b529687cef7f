import { expect } from "chai";
import { entityTriples, normalized, open, removeDir, tempDir, type LogLine } from "../helpers";

const ids = Array.from({ length: 20 }, (_, i) => `urn:ngsi-ld:Camera:${i}`);
const round = (r: number) => ids.map((graph) => ({ graph, triples: entityTriples(graph, `round-${r}`, 10) }));

describe("store memory reclaim (Oxigraph keeps the memory of dropped quads)", function () {
  this.timeout(60_000);

  it("reloads itself once dropped quads pass the threshold, holding commits meanwhile, losing nothing", async () => {
    const dir = tempDir();
    const logs: LogLine[] = [];
    const store = await open(dir, { reclaimDroppedQuads: 1000 }, logs);
    try {
      // 20 graphs of 21 quads = 420 live; each round drops 420: the 4th round passes max(1000, 420).
      for (let r = 0; r < 4; r++) await store.commit("", round(r));
      expect((await store.stats()).droppedQuads).to.be.at.least(1000);
      // Commits sent while the reclaim compacts and reloads are held, then applied in order.
      const racing = [4, 5, 6, 7, 8].map((r) => store.commit("", round(r)));
      const seqs = await Promise.all(racing);
      expect(seqs).to.deep.equal([...seqs].sort((a, b) => a - b));
      const deadline = Date.now() + 30_000;
      while ((await store.stats()).reclaims < 1 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const stats = await store.stats();
      expect(stats.reclaims).to.be.at.least(1);
      expect(stats.quads).to.equal(420);
      expect(logs.some((l) => l.msg === "store memory reclaimed")).to.equal(true);
      const graphs = await store.readGraphs("", ids);
      expect(graphs.map(normalized)).to.deep.equal(round(8).map((w) => normalized(w.triples)));
      await store.commit("", round(9));
      expect(normalized((await store.readGraphs("", [ids[3]]))[0])).to.deep.equal(
        normalized(round(9)[3].triples),
      );
      await store.close();
      const reopened = await open(dir);
      expect(normalized((await reopened.readGraphs("", [ids[3]]))[0])).to.deep.equal(
        normalized(round(9)[3].triples),
      );
      await reopened.close();
    } finally {
      await store.close();
      removeDir(dir);
    }
  });
});
