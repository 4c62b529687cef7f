import { expect } from "chai";
import { http, linkTo, startTestApp, TEST_CONTEXT, type TestApp } from "../helpers/test-app";

const L = { Link: linkTo(TEST_CONTEXT) };
const B = "/ngsi-ld/v1";
const ID = "urn:ngsi-ld:Vehicle:seg1";
const SPEED = "https://ngsi-ld-test-suite/context#speed";
const at = (h: number, min: number) =>
  new Date(Date.UTC(2024, 0, 1, h, min)).toISOString().replace(".000Z", "Z");

/** The hourly averages of the speed of ID from the history segments (the README's example query). */
const HOURLY_AVG = `PREFIX cgh: <https://w3id.org/citygraph/history#>
SELECT ?seg ?start ?end ?avg ?count ?json WHERE {
  GRAPH ?seg { ?seg cgh:entity <${ID}> ; cgh:start ?start ; cgh:end ?end ; cgh:count ?count ;
                    <${SPEED}> ?avg ; cgh:instances ?json }
} ORDER BY ?start`;

type Row = Record<string, { value: string }>;
interface Segment {
  templates: Record<string, unknown>[];
  attrs: { attr: string; n: number[]; o: (number | null)[]; v: (number | null)[]; t: number[] | number }[];
}

/** Undoes the delta encoding of a column of cgh:instances. */
const sums = (xs: number[]) => xs.map((_, i) => xs.slice(0, i + 1).reduce((a, b) => a + b, 0));

describe("temporal history in the graph: hourly segments read through /sparql", function () {
  this.timeout(60_000);
  let app: TestApp;
  let dir: string;
  before(async () => {
    app = await startTestApp({ TEMPORAL_SEAL_INTERVAL_MS: "50" });
    dir = app.dataDir;
  });
  after(async () => app.destroy());

  const sparql = async (q: string): Promise<Row[]> => {
    const r = await http(app.url, "POST", "/sparql", q, {
      "Content-Type": "application/sparql-query",
      Accept: "application/sparql-results+json",
    });
    expect(r.status, r.text).to.equal(200);
    return (r.body as { results: { bindings: Row[] } }).results.bindings;
  };
  /** Polls the query until `done` holds (segments are sealed by a timer). */
  const until = async (q: string, done: (rows: Row[]) => boolean): Promise<Row[]> => {
    let rows: Row[] = [];
    for (let i = 0; i < 100; i++) {
      rows = await sparql(q);
      if (done(rows)) return rows;
      await new Promise((r) => setTimeout(r, 50));
    }
    return rows;
  };
  const patch = async (value: number, time: string) => {
    const p = await http(
      app.url,
      "PATCH",
      `${B}/entities/${ID}/attrs`,
      { speed: { type: "Property", value, observedAt: time, unitCode: "KMH" } },
      L,
    );
    expect(p.status).to.equal(204);
  };

  it("seals a closed hour as one segment: start, end, count, hourly avg and the instances as rdf:JSON", async () => {
    const c = await http(
      app.url,
      "POST",
      `${B}/entities`,
      {
        id: ID,
        type: "Vehicle",
        speed: { type: "Property", value: 10, observedAt: at(8, 0), unitCode: "KMH" },
      },
      L,
    );
    expect(c.status).to.equal(201);
    await patch(20, at(8, 10));
    await patch(30, at(8, 20));
    await patch(50, at(9, 5)); // the entity moved on: 08:00-09:00 is closed; 09:00-10:00 ended long ago
    const rows = await until(HOURLY_AVG, (r) => r.length === 2);
    expect(
      rows.map((r) => [r.start.value, r.end.value, Number(r.avg.value), Number(r.count.value)]),
    ).to.deep.equal([
      ["2024-01-01T08:00:00Z", "2024-01-01T09:00:00Z", 20, 3],
      ["2024-01-01T09:00:00Z", "2024-01-01T10:00:00Z", 50, 1],
    ]);
    expect(rows[0].seg.value).to.equal(`urn:citygraph:history:2024-01-01T08:00:00Z:${ID}`);
    const seg = JSON.parse(rows[0].json.value) as Segment;
    expect(seg.attrs.map((a) => a.attr)).to.deep.equal([SPEED]);
    expect(seg.attrs[0].v).to.deep.equal([10, 20, 30]);
    expect(seg.attrs[0].o).to.deep.equal([0, 600_000, 600_000]); // observedAt - start, delta-encoded
    expect(seg.attrs[0].t).to.equal(0); // one template for all
    expect(seg.templates[0]).to.deep.include({ type: "Property", unitCode: "KMH" });
    // the instance numbers are those the temporal API shows
    const t = await http(app.url, "GET", `${B}/temporal/entities/${ID}?attrs=speed`, undefined, L);
    const ids = (t.body as { speed: { instanceId: string }[] }).speed.map((i) => i.instanceId);
    expect(sums(seg.attrs[0].n).map((n) => `urn:ngsi-ld:attribute:instance:${n}`)).to.deep.equal(
      ids.slice(0, 3),
    );
  });

  it("is no entity: the segment graph is neither listed nor retrievable through NGSI-LD", async () => {
    const list = await http(app.url, "GET", `${B}/entities?type=Vehicle`, undefined, L);
    expect((list.body as { id: string }[]).map((e) => e.id)).to.deep.equal([ID]);
    const g = encodeURIComponent(`urn:citygraph:history:2024-01-01T08:00:00Z:${ID}`);
    // the broker's own namespace: not an entity id a client may name (400)
    expect((await http(app.url, "GET", `${B}/entities/${g}`)).status).to.equal(400);
  });

  it("rewrites a sealed hour when a late instance arrives", async () => {
    await patch(40, at(8, 30));
    const rows = await until(HOURLY_AVG, (r) => r.length === 2 && Number(r[0].count.value) === 4);
    expect(rows.map((r) => [Number(r.avg.value), Number(r.count.value)])).to.deep.equal([
      [25, 4],
      [50, 1],
    ]);
    expect((JSON.parse(rows[0].json.value) as Segment).attrs[0].v).to.deep.equal([10, 20, 30, 40]);
  });

  it("keeps the current hour open, seals it on shutdown, once: a restart writes nothing again", async () => {
    const now = Date.now();
    const hour = new Date(now - (now % 3_600_000)).toISOString().replace(".000Z", "Z");
    await patch(60, new Date(now).toISOString());
    await new Promise((r) => setTimeout(r, 300)); // six sweeps
    expect((await sparql(HOURLY_AVG)).length).to.equal(2);
    await app.close();
    app = await startTestApp({ TEMPORAL_SEAL_INTERVAL_MS: "50" }, dir);
    const rows = await until(HOURLY_AVG, (r) => r.length === 3);
    expect(rows.map((r) => [r.start.value, Number(r.avg.value), Number(r.count.value)])).to.deep.equal([
      ["2024-01-01T08:00:00Z", 25, 4],
      ["2024-01-01T09:00:00Z", 50, 1],
      [hour, 60, 1],
    ]);
    const seq = (await app.store.stats()).lastSeq;
    await new Promise((r) => setTimeout(r, 300)); // six sweeps
    expect((await app.store.stats()).lastSeq).to.equal(seq);
  });

  it("drops the segments with the temporal entity", async () => {
    expect((await http(app.url, "DELETE", `${B}/temporal/entities/${ID}`)).status).to.equal(204);
    expect(await until(HOURLY_AVG, (r) => r.length === 0)).to.deep.equal([]);
  });
});
