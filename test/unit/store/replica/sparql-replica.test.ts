import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { SparqlReplica } from "../../../../src/store/replica/sparql-replica";
import { entityTriples, open, removeDir, tempDir, type LogLine } from "../helpers";

const G = "urn:ngsi-ld:Camera:1";

/** `n` triples of graph G, each value tagged with `round`. */
function triples(round: number, n: number): string {
  let t = "";
  for (let i = 0; i < n; i++) t += `<${G}> <urn:p:${i}> "r${round}" .\n`;
  return t;
}

async function until(what: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("SPARQL replica (src/store/replica/sparql-replica.ts)", () => {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => removeDir(dir));

  it("reloads itself once it holds more dropped quads than its threshold and the live ones", async function () {
    this.timeout(30_000);
    const store = await open(dir);
    const logs: LogLine[] = [];
    const replica = new SparqlReplica({
      dataDir: dir,
      store,
      timeoutMs: 10_000,
      eager: true,
      reclaimDroppedQuads: 50,
      wasmPreGrowBytes: 0,
      log: (level, msg, fields) => logs.push({ level, msg, fields }),
    });
    const ready = (): number => logs.filter((l) => l.msg === "sparql replica ready").length;
    try {
      await until(() => ready() === 1);
      // 30 live quads, replaced twice: 60 dropped passes max(50, 30)
      for (let r = 0; r < 3; r++) await store.commit("", [{ graph: G, triples: triples(r, 30) }]);
      await until(() => ready() === 2);
      const reload = logs.find((l) => l.msg === "sparql replica holds dropped quads; reloading it");
      expect(reload?.fields).to.deep.equal({ dropped: 60 });
      const answer = await replica.query({
        tenant: "",
        sparql: `SELECT (COUNT(*) AS ?n) (SAMPLE(?o) AS ?v) WHERE { GRAPH <${G}> { ?s ?p ?o } }`,
        form: "SELECT",
        format: "json",
        maxRows: 10,
      });
      const row = (JSON.parse(answer.body) as { results: { bindings: Record<string, { value: string }>[] } })
        .results.bindings[0];
      expect(row.n.value).to.equal("30");
      expect(row.v.value).to.equal("r2");
    } finally {
      await replica.close();
      await store.close();
    }
  });

  it("loads and follows while the journal rotates and compacts under it", async function () {
    this.timeout(180_000);
    // a compaction every few commits, so several run while the replica reads the snapshot and journal
    const storeLogs: LogLine[] = [];
    const store = await open(dir, { journalCompactBytes: 4096 }, storeLogs);
    const compactions = (): number => storeLogs.filter((l) => l.msg === "store compacted").length;
    const logs: LogLine[] = [];
    let written = 0;
    const commitNext = (): Promise<unknown> =>
      store.commit("", [{ graph: `urn:e:${written}`, triples: entityTriples(`urn:e:${written++}`, 1, 20) }]);
    const replica = (): SparqlReplica =>
      new SparqlReplica({
        dataDir: dir,
        store,
        timeoutMs: 10_000,
        eager: true,
        wasmPreGrowBytes: 0,
        log: (level, msg, fields) => logs.push({ level, msg, fields }),
      });
    const count = async (r: SparqlReplica): Promise<number> => {
      const answer = await r.query({
        tenant: "",
        sparql: "SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?s a ?t } }",
        form: "SELECT",
        format: "json",
        maxRows: 10,
      });
      return Number(
        (JSON.parse(answer.body) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]
          .n.value,
      );
    };
    const replicas: SparqlReplica[] = [];
    try {
      while (written < 1000) await commitNext();
      const before = compactions();
      let writing = true;
      const writer = (async () => {
        while (writing) await commitNext();
      })();
      for (let n = 0; n < 2; n++) {
        const r = replica();
        replicas.push(r);
        await until(() => logs.filter((l) => l.msg === "sparql replica ready").length > n, 60_000);
      }
      writing = false;
      await writer;
      expect(compactions() - before).to.be.greaterThan(4);
      for (const r of replicas) expect(await count(r)).to.equal(written);
      expect(logs.filter((l) => l.level === "error" || l.level === "warn")).to.deep.equal([]);
    } finally {
      for (const r of replicas) await r.close();
      await store.close();
    }
  });

  it("answers without a file path when it cannot load the graph", async function () {
    this.timeout(30_000);
    fs.mkdirSync(path.join(dir, "store"), { recursive: true });
    fs.writeFileSync(path.join(dir, "store", "manifest.json"), JSON.stringify({ version: 9 }));
    const logs: LogLine[] = [];
    const replica = new SparqlReplica({
      dataDir: dir,
      store: { onCommit: () => () => undefined },
      timeoutMs: 10_000,
      wasmPreGrowBytes: 0,
      log: (level, msg, fields) => logs.push({ level, msg, fields }),
    });
    try {
      const q = { tenant: "", sparql: "ASK {}", form: "ASK" as const, format: "json" as const, maxRows: 1 };
      const err = await replica.query(q).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).to.equal("The SPARQL service cannot load the graph; try again shortly");
      expect(JSON.stringify(logs)).to.include("manifest.json"); // the log keeps the cause
    } finally {
      await replica.close();
    }
  });
});
