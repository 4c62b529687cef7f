import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { instancesQuery, WEEK_ATTRS, weekOfCamera } from "../helpers/week-query";

const ID = "urn:ngsi-ld:TrafficFlowObserved:week1";
const START = Date.UTC(2024, 0, 1);
const B = "/ngsi-ld/v1";
type Row = Record<string, { value: string; datatype?: string }>;

describe("SPARQL: every raw instance of the history as rows (instance graphs)", function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ TEMPORAL_SEAL_INTERVAL_MS: "50" });
  });
  after(async () => app?.destroy());

  const sparql = async (q: string): Promise<Row[]> => {
    const r = await http(app.url, "POST", "/sparql", q, {
      "Content-Type": "application/sparql-query",
      Accept: "application/sparql-results+json",
    });
    expect(r.status, r.text).to.equal(200);
    return (r.body as { results: { bindings: Row[] } }).results.bindings;
  };

  it("the week-of-one-camera query returns the temporal API's values for the same attribute and interval", async () => {
    const w = await http(app.url, "POST", `${B}/temporal/entities`, weekOfCamera(ID, START));
    expect(w.status, w.text).to.equal(201);
    const segments = `SELECT (COUNT(?seg) AS ?n) WHERE { GRAPH ?seg { ?seg <https://w3id.org/citygraph/history#entity> <${ID}> } }`;
    for (let i = 0; i < 400; i++) {
      if (Number((await sparql(segments))[0].n.value) === 7 * 24) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(Number((await sparql(segments))[0].n.value)).to.equal(7 * 24);

    const from = "2024-01-01T06:00:00Z";
    const to = "2024-01-07T18:00:00Z";
    for (const attr of [WEEK_ATTRS.speed, WEEK_ATTRS.intensity]) {
      const rows = await sparql(instancesQuery(ID, attr, from, to));
      const q = new URLSearchParams({ attrs: attr, timerel: "between", timeAt: from, endTimeAt: to });
      const t = await http(app.url, "GET", `${B}/temporal/entities/${ID}?${q}`);
      expect(t.status).to.equal(200);
      const api = (t.body as Record<string, { value: number; observedAt: string; instanceId: string }[]>)[
        attr
      ];
      expect(rows.length).to.equal(api.length);
      expect(rows.length).to.equal((6 * 24 + 12) * 12); // 06:00 on day 1 to 18:00 on day 7, 5-min steps
      expect(
        rows.map((r) => [Date.parse(r.time.value), Number(r.value.value), r.instance.value]),
      ).to.deep.equal(api.map((i) => [Date.parse(i.observedAt), i.value, i.instanceId]));
      if (attr === WEEK_ATTRS.speed) expect(rows.every((r) => r.unit?.value === "KMH")).to.equal(true);
    }
  });

  it("follows the history: a newly sealed hour shows in the next query", async () => {
    const late = "2024-01-08T00:10:00Z";
    const r = await http(app.url, "POST", `${B}/temporal/entities/${ID}/attrs`, {
      [WEEK_ATTRS.intensity]: { type: "Property", value: 999, observedAt: late },
    });
    expect(r.status, r.text).to.equal(204);
    const q = instancesQuery(ID, WEEK_ATTRS.intensity, "2024-01-08T00:00:00Z", "2024-01-08T01:00:00Z");
    let rows: Row[] = [];
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      rows = await sparql(q);
      if (rows.length === 0) await new Promise((res) => setTimeout(res, 100));
    }
    expect(rows.map((x) => Number(x.value.value))).to.deep.equal([999]);
  });

  it("answers an empty result for the instance graph of an id that is no entity's", async () => {
    const rows = await sparql("SELECT * WHERE { GRAPH <urn:citygraph:instances:x> { ?s ?p ?o } }");
    expect(rows).to.deep.equal([]);
  });

  it("a second version of a sealed hour replaces its rows, never adds to them", async () => {
    const q = instancesQuery(ID, WEEK_ATTRS.intensity, "2024-01-08T00:00:00Z", "2024-01-08T01:00:00Z");
    const before = await sparql(q);
    const r = await http(app.url, "POST", `${B}/temporal/entities/${ID}/attrs`, {
      [WEEK_ATTRS.intensity]: { type: "Property", value: 1000, observedAt: "2024-01-08T00:20:00Z" },
    });
    expect(r.status, r.text).to.equal(204);
    let rows: Row[] = before;
    for (let i = 0; i < 100 && rows.length === before.length; i++) {
      rows = await sparql(q);
      if (rows.length === before.length) await new Promise((res) => setTimeout(res, 100));
    }
    expect(rows.map((x) => Number(x.value.value)).sort()).to.deep.equal(
      [...before.map((x) => Number(x.value.value)), 1000].sort(),
    );
  });
});
