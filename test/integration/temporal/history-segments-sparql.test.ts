import { expect } from "chai";
import { http, linkTo, startTestApp, TEST_CONTEXT, type TestApp } from "../helpers/test-app";

const L = { Link: linkTo(TEST_CONTEXT) };
const B = "/ngsi-ld/v1";
const ID = "urn:ngsi-ld:Vehicle:disk1";
const at = (h: number) => new Date(Date.UTC(2024, 0, 1, h, 10)).toISOString();
const segment = (h: number) => `urn:citygraph:history:2024-01-01T0${h}:00:00Z:${ID}`;
const SEGMENTS = `PREFIX cgh: <https://w3id.org/citygraph/history#>
SELECT ?seg ?count WHERE { GRAPH ?seg { ?seg cgh:entity <${ID}> ; cgh:count ?count } } ORDER BY ?seg`;

type Row = Record<string, { value: string }>;

/**
 * The history segments are graphs of the tenant's store (docs/architecture.md "Temporal history in the
 * graph"): SPARQL reads them with `GRAPH ?seg`, and they outlive a compaction and a restart.
 */
describe("temporal history segments: sealed into the store, seen by SPARQL, kept across restarts", function () {
  this.timeout(60_000);
  let app: TestApp;
  after(async () => app.destroy());

  const sparql = async (): Promise<Row[]> => {
    const r = await http(app.url, "POST", "/sparql", SEGMENTS, {
      "Content-Type": "application/sparql-query",
      Accept: "application/sparql-results+json",
    });
    expect(r.status, r.text).to.equal(200);
    return (r.body as { results: { bindings: Row[] } }).results.bindings;
  };
  const segmentsInSparql = async (n: number): Promise<string[]> => {
    let rows: Row[] = [];
    for (let i = 0; i < 100 && rows.length !== n; i++) {
      rows = await sparql();
      if (rows.length !== n) await new Promise((r) => setTimeout(r, 50));
    }
    return rows.map((r) => `${r.seg.value} ${r.count.value}`);
  };

  it("seals hours that SPARQL sees, across compaction and restart", async () => {
    app = await startTestApp({ TEMPORAL_SEAL_INTERVAL_MS: "50" });
    const speed = (value: number, h: number) => ({ type: "Property", value, observedAt: at(h) });
    const c = await http(
      app.url,
      "POST",
      `${B}/entities`,
      { id: ID, type: "Vehicle", speed: speed(10, 8) },
      L,
    );
    expect(c.status).to.equal(201);
    const p = await http(app.url, "PATCH", `${B}/entities/${ID}/attrs`, { speed: speed(20, 9) }, L);
    expect(p.status).to.equal(204);
    const expected = [`${segment(8)} 1`, `${segment(9)} 1`];
    expect(await segmentsInSparql(2)).to.deep.equal(expected);
    const [entity, seg8] = await app.store.readGraphs("", [ID, segment(8)]);
    expect(entity).to.be.a("string");
    expect(seg8).to.contain("https://w3id.org/citygraph/history#entity");

    await app.store.compact();
    const dir = app.dataDir;
    await app.close();
    app = await startTestApp({ TEMPORAL_SEAL_INTERVAL_MS: "50" }, dir);
    expect(await segmentsInSparql(2)).to.deep.equal(expected);
  });
});
