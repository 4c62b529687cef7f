import { expect } from "chai";
import { SparqlReplica } from "../../../../src/store/replica/sparql-replica";
import { open, removeDir, tempDir, type LogLine } from "../helpers";

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
      for (let r = 0; r < 3; r++) await store.commit("", [{ graph: G, triples: triples(r, 30) }], null);
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
});
