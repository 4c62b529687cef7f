import { expect } from "chai";
import { AppError } from "../../../src/errors";
import { entityTriples, open, removeDir, tempDir } from "./helpers";

describe("store/quad ceiling (StoreFull)", () => {
  it("rejects the commit that would pass maxQuads, applies nothing, and keeps serving", async () => {
    const dir = tempDir();
    const store = await open(dir, { maxQuads: 20 });
    try {
      await store.commit("", [{ graph: "urn:a", triples: entityTriples("urn:a", "a", 2) }]); // 5 quads
      await store.commit("t2", [{ graph: "urn:b", triples: entityTriples("urn:b", "b", 4) }]); // 9 quads
      const err = await store
        .commit("", [
          { graph: "urn:c", triples: entityTriples("urn:c", "c", 1) },
          { graph: "urn:d", triples: entityTriples("urn:d", "d", 2) },
        ])
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(AppError).and.have.property("kind", "StoreFull");
      expect((err as AppError).status).to.equal(507);
      expect(await store.readGraphs("", ["urn:a", "urn:c", "urn:d"])).to.satisfy(
        (g: (string | null)[]) => g[0] !== null && g[1] === null && g[2] === null,
      );
      const st = await store.stats();
      expect(st).to.include({ quads: 14, lastSeq: 2, capacityUsed: 0.7 });
      expect(await store.select("", "ASK { GRAPH <urn:a> { ?s ?p ?o } }")).to.deep.equal([{}]);
      // a small commit still fits; a replace that shrinks a graph is always fine
      await store.commit("", [{ graph: "urn:c", triples: entityTriples("urn:c", "c", 1) }]); // 3 quads -> 17
      await store.commit("t2", [{ graph: "urn:b", triples: entityTriples("urn:b", "b", 1) }]); // 9 -> 3
      expect((await store.stats()).quads).to.equal(11);
    } finally {
      await store.close();
      removeDir(dir);
    }
  });
});
