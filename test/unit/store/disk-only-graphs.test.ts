import { expect } from "chai";
import { AppError } from "../../../src/errors";
import type { GraphStore, GraphWrite } from "../../../src/store/graph-store";
import { entityTriples, normalized, open, removeDir, tempDir, type LogLine } from "./helpers";

const DISK = "urn:test:disk:";
const A = "urn:ngsi-ld:Camera:a";
const D1 = `${DISK}1`;
const D2 = `${DISK}2`;
const diskOnly = { diskOnlyGraphPrefixes: [DISK] };

/** A disk-only graph of `n` triples (its subject is the graph). */
const disk = (graph: string, tag: string, n = 3): GraphWrite => ({
  graph,
  triples: Array.from({ length: n }, (_, i) => `<${graph}> <urn:test:p${i}> "${tag}-${i}" .\n`).join(""),
});

/** What a store opened without the option reads for the disk-only graphs: they are on disk. */
async function onDisk(dir: string, graphs: string[]): Promise<(string[] | null)[]> {
  const plain = await open(dir);
  try {
    return (await plain.readGraphs("", graphs)).map(normalized);
  } finally {
    await plain.close();
  }
}

/** Asserts that `store` holds the entity graph A (5 quads) in memory and none of the disk-only graphs. */
async function holdsOnlyTheEntity(store: GraphStore): Promise<void> {
  expect((await store.stats()).quads).to.equal(5);
  const [a, d1, d2] = await store.readGraphs("", [A, D1, D2]);
  expect(a).to.not.equal(null);
  expect([d1, d2]).to.deep.equal([null, null]);
  const graphs = await store.select("", "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }");
  expect(graphs).to.deep.equal([{ g: `<${A}>` }]);
}

describe("store/disk-only graphs (journaled, not in the store worker's memory)", function () {
  this.timeout(30_000);
  let dir = "";
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it("journals them but keeps them out of memory, quads and dropped quads, across replay and compaction", async () => {
    let store = await open(dir, diskOnly);
    try {
      await store.commit("", [{ graph: A, triples: entityTriples(A, "a") }, disk(D1, "v1")]);
      await store.commit("", [disk(D1, "v2"), disk(D2, "w")]); // D1 replaced: nothing dropped in memory
      await store.commit("t2", [disk(D1, "other tenant")]);
      await holdsOnlyTheEntity(store);
      expect(await store.stats()).to.include({ droppedQuads: 0, lastSeq: 3 });
      expect(await store.tenants()).to.deep.equal([""]); // t2 holds only a disk-only graph
      await store.close();

      // journal replay: still not loaded; a store opened without the option shows they are on disk
      store = await open(dir, diskOnly);
      await holdsOnlyTheEntity(store);
      await store.close();
      expect(await onDisk(dir, [D1, D2])).to.deep.equal([
        normalized(disk(D1, "v2").triples),
        normalized(disk(D2, "w").triples),
      ]);

      // compaction merges files: the snapshot keeps them, the snapshot load skips them
      store = await open(dir, diskOnly);
      await store.commit("", [disk(D2, "w2")]);
      await store.compact();
      await store.close();
      store = await open(dir, diskOnly);
      await holdsOnlyTheEntity(store);
      expect((await store.stats()).lastSeq).to.equal(4);
      await store.close();
      expect(await onDisk(dir, [D1, D2])).to.deep.equal([
        normalized(disk(D1, "v2").triples),
        normalized(disk(D2, "w2").triples),
      ]);
    } finally {
      await store.close();
    }
  });

  it("does not count them towards the quad ceiling", async () => {
    const store = await open(dir, { ...diskOnly, maxQuads: 8 });
    try {
      await store.commit("", [disk(D1, "big", 50), { graph: A, triples: entityTriples(A, "a") }]);
      expect((await store.stats()).quads).to.equal(5);
      const err = await store
        .commit("", [{ graph: "urn:b", triples: entityTriples("urn:b", "b") }])
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(AppError).and.have.property("kind", "StoreFull");
    } finally {
      await store.close();
    }
  });

  it("refuses a disk-only write whose graph name is not an IRI, applying nothing", async () => {
    const store = await open(dir, diskOnly);
    try {
      const err = await store
        .commit("", [
          { graph: A, triples: entityTriples(A, "a") },
          { graph: `${DISK}a b`, triples: "" },
        ])
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(AppError).and.have.property("kind", "BadRequestData");
      expect(await store.stats()).to.include({ quads: 0, lastSeq: 0 });
    } finally {
      await store.close();
    }
  });

  it("leaves them out of the memory reclaim's reload, which keeps them on disk", async () => {
    const logs: LogLine[] = [];
    const store = await open(dir, { ...diskOnly, reclaimDroppedQuads: 100 }, logs);
    const ids = Array.from({ length: 10 }, (_, i) => `urn:ngsi-ld:Camera:${i}`);
    try {
      // 10 entity graphs of 21 quads = 210 live; the 2nd round drops 210 (and no quad of the two disk-only
      // graphs it rewrites), which passes max(100, 210) and starts one reclaim
      for (let r = 0; r < 2; r++) {
        const writes = ids.map((graph) => ({ graph, triples: entityTriples(graph, `r${r}`, 10) }));
        await store.commit("", [...writes, disk(D1, `r${r}`, 40), disk(D2, `r${r}`, 40)]);
      }
      const deadline = Date.now() + 20_000;
      while ((await store.stats()).reclaims < 1 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const stats = await store.stats();
      expect(stats).to.include({ reclaims: 1, quads: 210, droppedQuads: 0 });
      expect(await store.readGraphs("", [D1, D2])).to.deep.equal([null, null]);
      expect(logs.find((l) => l.msg === "store memory reclaimed")?.fields).to.include({ dropped: 210 });
    } finally {
      await store.close();
    }
    expect(await onDisk(dir, [D1, D2])).to.deep.equal([
      normalized(disk(D1, "r1", 40).triples),
      normalized(disk(D2, "r1", 40).triples),
    ]);
  });
});
