import { expect } from "chai";
import { http, linkTo, startTestApp, TEST_CONTEXT, type TestApp } from "../helpers/test-app";

const L = { Link: linkTo(TEST_CONTEXT) };
const B = "/ngsi-ld/v1";
const ID = "urn:ngsi-ld:Vehicle:clean1";
const at = (h: number) => new Date(Date.UTC(2024, 0, 1, h, 10)).toISOString();
const SECRET = "secret-plate-51F-12345";

/** Every triple of any graph whose object holds SECRET (segments, instance graphs, the entity). */
const WHERE_SECRET = `SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o FILTER(CONTAINS(STR(?o), "${SECRET}")) } }`;

type Row = Record<string, { value: string }>;

/**
 * Deleting an attribute's history (what start-up does to personal attributes an old history still
 * holds: docs/reports.md) takes its instances out of the graph too: the sealed hourly segments are
 * written again without them, and the entity's instance graph loses their rows.
 */
describe("temporal history: a deleted attribute leaves the sealed segments and instance graphs", function () {
  this.timeout(60_000);
  let app: TestApp;
  after(async () => app?.destroy());

  const graphsWithSecret = async (): Promise<string[]> => {
    const r = await http(app.url, "POST", "/sparql", WHERE_SECRET, {
      "Content-Type": "application/sparql-query",
      Accept: "application/sparql-results+json",
    });
    expect(r.status, r.text).to.equal(200);
    return [
      ...new Set((r.body as { results: { bindings: Row[] } }).results.bindings.map((b) => b.g.value)),
    ].sort();
  };
  const until = async (done: (graphs: string[]) => boolean): Promise<string[]> => {
    let graphs: string[] = [];
    for (let i = 0; i < 100; i++) {
      graphs = await graphsWithSecret();
      if (done(graphs)) return graphs;
      await new Promise((r) => setTimeout(r, 50));
    }
    return graphs;
  };

  it("rewrites the segments without the attribute and keeps the others", async () => {
    app = await startTestApp({ TEMPORAL_SEAL_INTERVAL_MS: "50" });
    const plate = (h: number) => ({ type: "Property", value: `${SECRET}-${h}`, observedAt: at(h) });
    const speed = (value: number, h: number) => ({ type: "Property", value, observedAt: at(h) });
    const c = await http(
      app.url,
      "POST",
      `${B}/entities`,
      { id: ID, type: "Vehicle", plate: plate(8), speed: speed(10, 8) },
      L,
    );
    expect(c.status, c.text).to.equal(201);
    const p = await http(
      app.url,
      "PATCH",
      `${B}/entities/${ID}/attrs`,
      { plate: plate(9), speed: speed(20, 9) },
      L,
    );
    expect(p.status, p.text).to.equal(204);
    // sealed: the entity, both hours' segments and the instance graph hold the plate
    const sealed = await until((g) => g.length === 4);
    expect(sealed).to.include.members([ID, `urn:citygraph:instances:${ID}`]);

    const d = await http(app.url, "DELETE", `${B}/entities/${ID}/attrs/plate`, undefined, L);
    expect(d.status, d.text).to.equal(204);
    const del = await http(
      app.url,
      "DELETE",
      `${B}/temporal/entities/${ID}/attrs/plate?deleteAll=true`,
      undefined,
      L,
    );
    expect(del.status, del.text).to.equal(204);
    expect(await until((g) => g.length === 0)).to.deep.equal([]);

    // the speed history is still there, in both segments
    const r = await http(app.url, "GET", `${B}/temporal/entities/${ID}?attrs=speed`, undefined, L);
    expect(r.status).to.equal(200);
    const speeds = (r.body as { speed: { value: number }[] }).speed.map((i) => i.value).sort();
    expect(speeds).to.deep.equal([10, 20]);
  });
});
