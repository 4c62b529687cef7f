import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

interface Health {
  checks: Record<string, { ok: boolean; detail?: string }>;
  store: {
    quads: number;
    storeBytes: number;
    diskFreeBytes: number;
    minFreeBytes: number;
    capacityUsed: number;
  };
}

describe("/health: how full the store and its disk are, and the SPARQL queries running", () => {
  let app: TestApp;
  before(async () => (app = await startTestApp({ STORE_MIN_FREE_BYTES: "4096" })));
  after(async () => app.close());

  it("reports the store's bytes, the disk's free bytes and reserve, and SPARQL's load", async function () {
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
    const health = (await http(app.url, "GET", "/health")).body as Health;
    expect(health.store.minFreeBytes).to.equal(4096);
    expect(health.store.quads).to.be.greaterThan(0);
    expect(health.store.storeBytes).to.be.greaterThan(0);
    expect(health.store.diskFreeBytes).to.be.greaterThan(4096);
    expect(health.store.capacityUsed).to.be.within(0, 1);
    expect(health.checks.sparql).to.deep.equal({ ok: true, detail: "0 running, 0 waiting" });

    const q = await http(app.url, "POST", "/sparql", "SELECT (COUNT(*) AS ?n) WHERE { ?s a ?t }", {
      "Content-Type": "application/sparql-query",
      Accept: "application/sparql-results+json",
    });
    expect(q.status, q.text).to.equal(200);
    const n = Number(
      (q.body as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0].n.value,
    );
    expect(n).to.be.greaterThan(0);
  });
});
