import { expect } from "chai";
import { http, linkTo, startTestApp, TEST_CONTEXT, type TestApp } from "../helpers/test-app";

const L = { Link: linkTo(TEST_CONTEXT) };
const B = "/ngsi-ld/v1";
const ID = "urn:ngsi-ld:Vehicle:ret1";
const SPEED = "https://ngsi-ld-test-suite/context#speed";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (t: number) => new Date(t).toISOString();
/** The form of a time in the aggregated representation and the graph (no zero milliseconds). */
const z = (t: number) => iso(t).replace(".000Z", "Z");

type Row = Record<string, { value: string }>;

/**
 * Windows of 2 hours raw, 2 days hourly, 10 days in all, and a pass every 50 ms: the instances of the
 * last minutes stay raw, those of 5 hours ago become an hourly aggregate, those of 4 days ago a daily one,
 * and those of 20 days ago go. The temporal API's aggregation and SPARQL answer from what is kept.
 */
describe("temporal retention: raw window, hourly and daily aggregates", function () {
  this.timeout(60_000);
  let app: TestApp;
  // the clock is read when the data is written, not when mocha loads the file
  let now = 0;
  let hourAgo5 = 0;
  let day4 = 0;
  let recent: number[] = [];
  const env = {
    TEMPORAL_RAW_RETENTION: "2h",
    TEMPORAL_HOURLY_RETENTION: "2d",
    TEMPORAL_RETENTION: "10d",
    TEMPORAL_RETENTION_INTERVAL_MS: "50",
    TEMPORAL_SEAL_INTERVAL_MS: "50",
  };

  const get = async (query: string) => {
    const r = await http(app.url, "GET", `${B}/temporal/entities/${ID}?${query}`, undefined, L);
    expect(r.status, r.text).to.equal(200);
    return r.body as Record<string, unknown>;
  };
  const sparql = async (q: string): Promise<Row[]> => {
    const r = await http(app.url, "POST", "/sparql", q, {
      "Content-Type": "application/sparql-query",
      Accept: "application/sparql-results+json",
    });
    expect(r.status, r.text).to.equal(200);
    return (r.body as { results: { bindings: Row[] } }).results.bindings;
  };
  const until = async <T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> => {
    let v = await read();
    for (let i = 0; i < 200 && !done(v); i++) {
      await new Promise((r) => setTimeout(r, 50));
      v = await read();
    }
    return v;
  };
  const rawSpeeds = async () => {
    const body = await get("timerel=after&timeAt=1970-01-01T00:00:00Z");
    return ((body.speed ?? []) as { value: number; observedAt: string }[]).map((i) => [
      i.observedAt,
      i.value,
    ]);
  };
  const aggregated = (window: string) =>
    get(`options=aggregatedValues&aggrMethods=totalCount,sum,avg,min,max&${window}`).then(
      (b) => b.speed as Record<string, [number, string, string][]>,
    );
  const SEGMENTS = `PREFIX cgh: <https://w3id.org/citygraph/history#>
    SELECT ?g ?start ?end ?count ?avg ?raw ?aggs WHERE {
      GRAPH ?g { ?g cgh:entity <${ID}> ; cgh:start ?start ; cgh:end ?end ; cgh:count ?count ; <${SPEED}> ?avg .
                 OPTIONAL { ?g cgh:instances ?raw } OPTIONAL { ?g cgh:aggregates ?aggs } }
    } ORDER BY ?start`;

  before(async () => {
    now = Date.now();
    hourAgo5 = Math.floor((now - 5 * HOUR) / HOUR) * HOUR;
    day4 = Math.floor((now - 4 * DAY) / DAY) * DAY;
    recent = [now - 10 * 60_000, now - 5 * 60_000];
    const instances: [number, number][] = [
      [now - 20 * DAY, 999],
      [day4 + HOUR, 100],
      [day4 + HOUR + 60_000, 200],
      [day4 + 3 * HOUR, 300],
      [hourAgo5 + 60_000, 10],
      [hourAgo5 + 120_000, 20],
      [recent[0], 50],
      [recent[1], 60],
    ];
    app = await startTestApp(env);
    const body = {
      id: ID,
      type: "Vehicle",
      speed: instances.map(([t, value]) => ({ type: "Property", value, observedAt: iso(t) })),
    };
    const r = await http(app.url, "POST", `${B}/temporal/entities`, body, L);
    expect(r.status, r.text).to.equal(201);
  });
  after(async () => app.destroy());

  it("keeps the instances inside the raw window untouched and drops the raw ones past it", async () => {
    const raw = await until(rawSpeeds, (r) => r.length === 2);
    expect(raw).to.deep.equal([
      [iso(recent[0]), 50],
      [iso(recent[1]), 60],
    ]);
  });

  it("answers aggregated queries over old periods from the hourly and daily aggregates", async () => {
    const all = await aggregated("timerel=after&timeAt=1970-01-01T00:00:00Z");
    expect(all.totalCount.map((p) => p[0])).to.deep.equal([7]); // the instance of 20 days ago is gone
    expect(all.sum[0][0]).to.equal(100 + 200 + 300 + 10 + 20 + 50 + 60);
    expect(all.min[0][0]).to.equal(10);
    expect(all.max[0][0]).to.equal(300);
    const days = await aggregated(`timerel=before&timeAt=${iso(day4 + DAY)}&aggrPeriodDuration=P1D`);
    expect(days.totalCount).to.deep.equal([[3, z(day4), z(day4 + DAY)]]);
    expect(days.avg[0][0]).to.equal(200);
    const hour = await aggregated(
      `timerel=between&timeAt=${iso(hourAgo5)}&endTimeAt=${iso(hourAgo5 + HOUR)}`,
    );
    expect(hour.totalCount[0][0]).to.equal(2);
    expect(hour.avg[0][0]).to.equal(15);
    expect(hour.max[0][0]).to.equal(20);
  });

  it("shows the aggregates in the graph: an hourly aggregate segment, a day graph, nothing past the window", async () => {
    const want = (rows: Row[]) =>
      rows.some((r) => r.g.value.includes("/P1D:")) &&
      rows.some((r) => r.start.value === z(hourAgo5) && !r.raw);
    const rows = await until(() => sparql(SEGMENTS), want);
    const day = rows.filter((r) => r.g.value.includes("/P1D:"));
    expect(day.map((r) => [r.start.value, r.end.value, r.count.value, Number(r.avg.value)])).to.deep.equal([
      [z(day4), z(day4 + DAY), "3", 200],
    ]);
    // distinct values of a day: the most of its hours' (2 in the first hour), a lower bound
    expect(JSON.parse(day[0].aggs.value).attrs).to.deep.equal([
      { attr: SPEED, t: 0, count: 3, numbers: 3, sum: 600, sumsq: 140000, min: 100, max: 300, distinct: 2 },
    ]);
    const hour = rows.find((r) => r.start.value === z(hourAgo5))!;
    expect(hour.raw, "the hour's raw instances left the graph").to.equal(undefined);
    expect([hour.count.value, Number(hour.avg.value)]).to.deep.equal(["2", 15]);
    // the hours of the folded day and the dropped day have no graph of their own any more
    const starts = rows.map((r) => Date.parse(r.start.value));
    expect(starts.filter((t) => t >= day4 && t < day4 + DAY)).to.deep.equal([day4]);
    expect(starts.some((t) => t < now - 10 * DAY)).to.equal(false);
  });

  it("gives the same answers after a restart on the same data (the pass is replayed from the log)", async () => {
    const before = {
      raw: await rawSpeeds(),
      all: await aggregated("timerel=after&timeAt=1970-01-01T00:00:00Z"),
    };
    const dir = app.dataDir;
    await app.close();
    app = await startTestApp(env, dir);
    expect(await rawSpeeds()).to.deep.equal(before.raw);
    expect(await aggregated("timerel=after&timeAt=1970-01-01T00:00:00Z")).to.deep.equal(before.all);
  });
});
