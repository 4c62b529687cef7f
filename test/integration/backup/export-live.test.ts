import { expect } from "chai";
import { gunzipSync } from "node:zlib";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { weekOfCamera } from "../helpers/week-query";

const LD = { "Content-Type": "application/ld+json" };
const CORE = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";
const CAMERA = "urn:ngsi-ld:TrafficFlowObserved:export1";
const THING = "urn:ngsi-ld:Thing:export1";
const HISTORY = "urn:citygraph:history:";
const INSTANCES = "urn:citygraph:instances:";
const COUNTERS = 300;

/**
 * Every counter entity at generation `gen`, with enough attributes to span many chunks of an export; one
 * upsert of them inserts more than 10,000 quads, so the store takes its two-step bulk path
 * (native/store/core/src/writes.rs), between whose steps no export may start.
 */
const counters = (gen: number) =>
  Array.from({ length: COUNTERS }, (_, i) => ({
    id: `urn:ngsi-ld:Counter:c${i}`,
    type: "Counter",
    gen: { type: "Property", value: `gen-${gen}` },
    ...Object.fromEntries(
      Array.from({ length: 20 }, (_, k) => [`a${k}`, { type: "Property", value: `${"x".repeat(60)}${k}` }]),
    ),
    "@context": CORE,
  }));

/** The named graphs of N-Quads lines (each ends with ` <graph> .`). */
const graphsOf = (nq: string) =>
  new Set(
    nq
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => l.slice(l.lastIndexOf(" <") + 2, l.length - 3)),
  );

describe("export read from the live store: history as asked, one cut while writes go on", function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ TEMPORAL_SEAL_INTERVAL_MS: "50" });
  });
  after(async () => app?.destroy());

  const exported = async (query: string): Promise<string> => {
    const r = await fetch(`${app.url}/v1/admin/export?${query}`);
    if (r.status !== 200) expect.fail(`${r.status} ${await r.text()}`);
    return gunzipSync(Buffer.from(await r.arrayBuffer())).toString("utf8");
  };
  const sparqlCount = async (where: string): Promise<number> => {
    const r = await http(app.url, "POST", "/sparql", `SELECT (COUNT(*) AS ?n) WHERE { ${where} }`, {
      "Content-Type": "application/sparql-query",
      Accept: "application/sparql-results+json",
    });
    expect(r.status, r.text).to.equal(200);
    const body = r.body as { results: { bindings: { n: { value: string } }[] } };
    return Number(body.results.bindings[0].n.value);
  };

  it("holds the sealed history segments only with history=true, and never the instance graphs", async () => {
    const thing = { id: THING, type: "Thing", name: { type: "Property", value: "t" }, "@context": CORE };
    const t = await http(app.url, "POST", "/ngsi-ld/v1/entities", thing, LD);
    expect(t.status, t.text).to.equal(201);
    const w = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/temporal/entities",
      weekOfCamera(CAMERA, Date.UTC(2024, 0, 1), 1, 30),
    );
    expect(w.status, w.text).to.equal(201);
    const segments = `GRAPH ?seg { ?seg <https://w3id.org/citygraph/history#entity> <${CAMERA}> }`;
    const rows = `GRAPH <${INSTANCES}${CAMERA}> { ?i ?p ?o }`;
    for (let i = 0; i < 300 && ((await sparqlCount(segments)) < 24 || (await sparqlCount(rows)) === 0); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await sparqlCount(segments)).to.equal(24);
    expect(await sparqlCount(rows), "the store holds instance graphs").to.be.greaterThan(0);

    // the temporal entity's instances are history only: it has no entity graph
    expect([...graphsOf(await exported("history=false"))]).to.deep.equal([THING]);

    const withHistory = await exported("history=true");
    const graphs = [...graphsOf(withHistory)];
    expect(graphs).to.include(THING);
    expect(graphs.filter((g) => g.startsWith(HISTORY))).to.have.length(24);
    expect(graphs.filter((g) => g.startsWith(INSTANCES))).to.deep.equal([]);
    expect(withHistory).to.include(`<https://w3id.org/citygraph/history#entity> <${CAMERA}> <${HISTORY}`);
    expect(withHistory).not.to.include("urn:citygraph:internal:");
  });

  it("is one cut of the store while batch writes go on: every entity at the same generation", async () => {
    const first = await http(app.url, "POST", "/ngsi-ld/v1/entityOperations/upsert", counters(0), LD);
    expect(first.status, first.text).to.be.oneOf([201, 204]);
    let written = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        const r = await http(
          app.url,
          "POST",
          "/ngsi-ld/v1/entityOperations/upsert",
          counters(written + 1),
          LD,
        );
        expect(r.status, r.text).to.equal(204);
        written++;
      }
    })();
    try {
      const before = written;
      for (let k = 0; k < 2; k++) {
        for (const format of ["nquads", "trig"]) {
          const text = await exported(`format=${format}`);
          const gens = new Set(text.match(/"gen-\d+"/g));
          expect(gens.size, `one generation in one export: ${[...gens].join(" ")}`).to.equal(1);
          const ids = new Set(text.match(/<urn:ngsi-ld:Counter:c\d+> \{|<urn:ngsi-ld:Counter:c\d+> \.$/gm));
          expect(ids.size, "every counter's graph").to.equal(COUNTERS);
        }
      }
      expect(written, "writes went on meanwhile").to.be.greaterThan(before);
    } finally {
      stop = true;
      await writer;
    }
  });
});
