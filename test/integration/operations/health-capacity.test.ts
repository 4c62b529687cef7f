import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

interface Health {
  checks: Record<string, { ok: boolean; detail?: string }>;
  store: { quads: number; maxQuads: number; capacityUsed: number };
}

describe("/health: how full the store is and whether SPARQL is loaded", () => {
  let app: TestApp;
  before(async () => (app = await startTestApp({ MAX_QUADS: "1000" })));
  after(async () => app.close());

  it("reports the store's share of MAX_QUADS and each SPARQL replica's state", async function () {
    this.timeout(60_000);
    const entity = {
      id: "urn:ngsi-ld:Camera:health1",
      type: "Camera",
      name: { type: "Property", value: "north gate" },
    };
    const created = await http(app.url, "POST", "/ngsi-ld/v1/entities", JSON.stringify(entity), {
      "Content-Type": "application/json",
    });
    expect(created.status, created.text).to.equal(201);
    const before = (await http(app.url, "GET", "/health")).body as Health;
    expect(before.store.maxQuads).to.equal(1000);
    expect(before.store.quads).to.be.greaterThan(0);
    expect(before.store.capacityUsed).to.equal(Math.round((before.store.quads / 1000) * 1000) / 1000);
    expect(before.checks.sparql).to.deep.equal({ ok: true, detail: "idle; idle" });

    const q = await http(app.url, "POST", "/sparql", "SELECT (COUNT(*) AS ?n) WHERE { ?s a ?t }", {
      "Content-Type": "application/sparql-query",
      Accept: "application/sparql-results+json",
    });
    expect(q.status, q.text).to.equal(200);
    const after = (await http(app.url, "GET", "/health")).body as Health;
    expect(after.checks.sparql.ok).to.equal(true);
    // one query loads one replica; the second waits for queries that overlap
    expect(after.checks.sparql.detail).to.match(/^ready \(\d+ quads, loaded in \d+ ms\); idle$/);
  });
});
