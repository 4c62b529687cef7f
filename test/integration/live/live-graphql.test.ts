import { expect } from "chai";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { sha256 } from "../../../src/api/graphql/persisted-queries";
import { startTestApp, type TestApp } from "../helpers/test-app";
import {
  accidentDoc,
  flowDoc,
  gql,
  QUAN_1,
  QUAN_12,
  upsert,
  weatherDoc,
  WsProbe,
} from "../helpers/live-clients";

/** A graphql-ws client of the app, and the events of each subscription it starts. */
function wsClient(app: TestApp, params: Record<string, unknown> = {}): Client {
  return createClient({
    url: `${app.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: params,
    retryAttempts: 0,
    lazy: false,
  });
}

function collect(client: Client, query: string, variables?: Record<string, unknown>) {
  const got: Record<string, unknown>[] = [];
  const errors: unknown[] = [];
  const stop = client.subscribe(
    { query, variables },
    {
      next: (r) => void got.push(r as Record<string, unknown>),
      error: (e) => void errors.push(e),
      complete: () => undefined,
    },
  );
  return { got, errors, stop };
}

async function until(pred: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("GraphQL /graphql", function () {
  this.timeout(60_000);
  let app: TestApp;
  const clients: Client[] = [];

  before(async () => {
    app = await startTestApp({ SEED: "on" });
    await upsert(app.url, [
      accidentDoc("gq-1", "severe", QUAN_1.lat, QUAN_1.lon),
      accidentDoc("gq-2", "minor", QUAN_12.lat, QUAN_12.lon, {
        refCamera: { type: "Relationship", object: "urn:ngsi-ld:TrafficCamera:1" },
      }),
      weatherDoc("gq-station", 30),
      flowDoc("0", 10.7918902432446, 106.691054105759, 20, 100),
    ]);
  });
  after(async () => {
    for (const c of clients) await c.dispose();
    await app.destroy();
  });

  it("cameras: filters by district and status, pages with a Relay connection", async () => {
    const { body } = await gql(
      app.url,
      `query($d: String) { cameras(district: $d, status: ACTIVE, limit: 3, offset: 1) {
        totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        edges { cursor node { id name status zoneId lastUpdate capabilities location { lat lon address } statistics { uptime24h detectionsToday avgVehicleCount } } } } }`,
      { d: "Quận 1" },
    );
    const c = (
      body.data as {
        cameras: {
          totalCount: number;
          edges: { node: Record<string, unknown> }[];
          pageInfo: Record<string, unknown>;
        };
      }
    ).cameras;
    expect(c.totalCount).to.be.greaterThan(3);
    expect(c.edges).to.have.length(3);
    for (const e of c.edges) expect(e.node).to.include({ status: "ACTIVE", zoneId: "quan-1" });
    expect(c.pageInfo).to.include({ hasNextPage: true, hasPreviousPage: true });
    expect(c.edges[0].node.statistics).to.have.keys("uptime24h", "detectionsToday", "avgVehicleCount");
  });

  it("camera and accident by id, accident with its camera", async () => {
    const { body } = await gql(
      app.url,
      `{ camera(id: "0") { id name } accident(id: "gq-1") { id severity status vehiclesInvolved injuries fatalities images timestamp location { lat lon } camera { id name } } }`,
    );
    const d = body.data as { camera: { id: string }; accident: Record<string, unknown> };
    expect(d.camera.id).to.equal("0");
    expect(d.accident).to.deep.include({
      id: "gq-1",
      severity: "SEVERE",
      status: "ACTIVE",
      vehiclesInvolved: 2,
      injuries: 1,
      fatalities: 0,
    });
    expect((d.accident.camera as { id: string }).id).to.equal("0");
  });

  it("accidents: filters by severity, district and dates", async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const { body } = await gql(
      app.url,
      `query($from: DateTime) { severe: accidents(severity: SEVERE, startDate: $from, limit: 10) { totalCount edges { node { id severity } } }
        q12: accidents(district: "quan-12") { totalCount edges { node { id zoneId camera { id } } } } }`,
      { from },
    );
    const d = body.data as Record<string, { totalCount: number; edges: { node: Record<string, unknown> }[] }>;
    expect(d.severe.edges.map((e) => e.node.id)).to.include("gq-1");
    for (const e of d.severe.edges) expect(e.node.severity).to.equal("SEVERE");
    expect(d.q12.edges.map((e) => e.node.id)).to.deep.equal(["gq-2"]);
    expect(d.q12.edges[0].node.camera).to.deep.equal({ id: "1" });
  });

  it("traffic (all zones and one), weather, airQuality", async () => {
    const { body } = await gql(
      app.url,
      `{ all: traffic { timestamp zones { zoneId } } one: traffic(zoneId: "quan-1") { zones { zoneId name congestionLevel congestionIndex avgSpeed vehicleCount incidentCount } }
         weather { timestamp temperature humidity conditions wind { speed direction } location { lat lon } }
         airQuality { timestamp stations { id aqi } } }`,
    );
    const d = body.data as Record<string, Record<string, unknown>>;
    expect((d.all.zones as unknown[]).length).to.be.greaterThan(10);
    const q1 = (d.one.zones as Record<string, unknown>[])[0];
    expect(q1).to.include({ zoneId: "quan-1", vehicleCount: 100, avgSpeed: 20 });
    expect(q1.incidentCount).to.be.at.least(1);
    expect(d.weather).to.include({ temperature: 30, humidity: 70 });
    expect(d.airQuality.stations).to.be.an("array");
  });

  it("updateCameraStatus is seen by NGSI-LD GET, REST A and SPARQL", async () => {
    const { body } = await gql(
      app.url,
      `mutation { updateCameraStatus(id: "0", status: ERROR) { id status } }`,
    );
    expect(body.data).to.deep.equal({ updateCameraStatus: { id: "0", status: "ERROR" } });
    const ngsi = await (
      await fetch(`${app.url}/ngsi-ld/v1/entities/urn:ngsi-ld:TrafficCamera:0?options=keyValues`)
    ).json();
    expect((ngsi as { status: string }).status).to.equal("error");
    const sparql = await fetch(`${app.url}/sparql`, {
      method: "POST",
      headers: { "content-type": "application/sparql-query", accept: "application/sparql-results+json" },
      body: `SELECT ?s WHERE { GRAPH <urn:ngsi-ld:TrafficCamera:0> { <urn:ngsi-ld:TrafficCamera:0> <https://w3id.org/citygraph/traffic#status> ?s } }`,
    });
    const rows = ((await sparql.json()) as { results: { bindings: { s: { value: string } }[] } }).results
      .bindings;
    expect(rows.map((r) => r.s.value)).to.deep.equal(["error"]);
    const restA = (await (await fetch(`${app.url}/v1/cameras/0`)).json()) as { status: string };
    expect(restA.status).to.equal("error");
    const back = await gql(app.url, `{ camera(id: "0") { status } }`);
    expect(back.body.data).to.deep.equal({ camera: { status: "ERROR" } });
  });

  it("updateCameraStatus of an unknown camera is NOT_FOUND", async () => {
    const a = await gql(app.url, `mutation { updateCameraStatus(id: "nope", status: ACTIVE) { id } }`);
    expect(a.body.errors?.[0].extensions?.code).to.equal("NOT_FOUND");
  });

  it("a repeated document (compiled from its second run) answers as its first: data, errors, extensions.code", async () => {
    const cases: [string, Record<string, unknown> | undefined, string | undefined][] = [
      [
        `query($n: Int) { cameras(limit: $n) { totalCount edges { cursor node { id name status lastUpdate
          location { lat lon address } statistics { uptime24h detectionsToday avgVehicleCount } } } } }`,
        { n: 20 },
        undefined,
      ],
      [`{ ok: camera(id: "1") { id } cameras(limit: 0) { totalCount } }`, undefined, "INVALID_PARAMETER"],
      [`mutation { updateCameraStatus(id: "nope", status: ACTIVE) { id } }`, undefined, "NOT_FOUND"],
      [
        `query($d: DateTime) { accidents(startDate: $d) { totalCount } }`,
        { d: "yesterday" },
        "INVALID_PARAMETER",
      ],
    ];
    for (const [query, variables, code] of cases) {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await gql(app.url, query, variables));
      expect(runs[2], query).to.deep.equal(runs[0]);
      expect(runs[1], query).to.deep.equal(runs[0]);
      expect(runs[2].body.errors?.[0].extensions?.code, query).to.equal(code);
    }
  });

  it("submitCitizenReport makes the same report as REST A POST /citizen-reports; bad input is INVALID_PARAMETER", async () => {
    const ok = await gql(
      app.url,
      `mutation { submitCitizenReport(input: {category: ACCIDENT, location: {lat: 10.7769, lon: 106.7009}, description: "Two motorbikes collided at the corner", reporter: {name: "Lan"}}) { id status verificationStatus message } }`,
    );
    const r = (ok.body.data as { submitCitizenReport: Record<string, string> }).submitCitizenReport;
    expect(r.id).to.be.a("string");
    expect(r.status).to.be.oneOf(["submitted", "verified"]);
    expect(r.message).to.match(/Report received/);
    const rest = await fetch(`${app.url}/v1/citizen-reports/${encodeURIComponent(r.id)}`);
    expect(rest.status).to.equal(200);
    expect(((await rest.json()) as { id: string }).id).to.equal(r.id);
    const bad = await gql(
      app.url,
      `mutation { submitCitizenReport(input: {category: OTHER, location: {lat: 10.77, lon: 106.7}, description: "short"}) { id } }`,
    );
    expect(bad.body.errors?.[0].extensions?.code).to.equal("INVALID_PARAMETER");
  });

  it("automatic persisted queries: unknown hash, then registered, then by GET", async () => {
    const query = `{ camera(id: "1") { id name } }`;
    const ext = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    const miss = await fetch(`${app.url}/graphql?extensions=${encodeURIComponent(JSON.stringify(ext))}`);
    const missBody = (await miss.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(missBody.errors[0]).to.deep.include({ message: "PersistedQueryNotFound" });
    expect(missBody.errors[0].extensions.code).to.equal("PERSISTED_QUERY_NOT_FOUND");
    const reg = await gql(app.url, query, undefined, ext);
    expect(reg.body.data).to.deep.equal({
      camera: { id: "1", name: (reg.body.data as { camera: { name: string } }).camera.name },
    });
    const hit = await fetch(`${app.url}/graphql?extensions=${encodeURIComponent(JSON.stringify(ext))}`);
    expect(hit.status).to.equal(200);
    expect(((await hit.json()) as { data: { camera: { id: string } } }).data.camera.id).to.equal("1");
    const bad = await gql(app.url, `{ camera(id: "2") { id } }`, undefined, ext);
    expect(bad.body.errors?.[0].extensions?.code).to.equal("PERSISTED_QUERY_HASH_MISMATCH");
  });

  it("introspection is on", async () => {
    const { body } = await gql(app.url, `{ __schema { subscriptionType { fields { name } } } }`);
    const names = (
      body.data as { __schema: { subscriptionType: { fields: { name: string }[] } } }
    ).__schema.subscriptionType.fields.map((f) => f.name);
    expect(names).to.have.members(["trafficUpdates", "accidentAlerts", "weatherUpdates"]);
  });

  it("accidentAlerts(severity) delivers exactly the matching accidents, with their camera", async () => {
    const c = wsClient(app);
    clients.push(c);
    const severe = collect(
      c,
      `subscription { accidentAlerts(severity: [SEVERE]) { id severity change camera { id } } }`,
    );
    const minor = collect(c, `subscription { accidentAlerts(severity: [MINOR]) { id severity } }`);
    await new Promise((r) => setTimeout(r, 300));
    await upsert(app.url, [accidentDoc("gq-s1", "severe", QUAN_1.lat, QUAN_1.lon)]);
    await until(() => severe.got.length === 1);
    expect(severe.got[0]).to.deep.equal({
      data: { accidentAlerts: { id: "gq-s1", severity: "SEVERE", change: "CREATED", camera: { id: "0" } } },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(minor.got).to.have.length(0);
    severe.stop();
    minor.stop();
  });

  it("trafficUpdates(zones) reaches only that zone's subscribers; weatherUpdates each observation", async () => {
    const c = wsClient(app);
    clients.push(c);
    const q1 = collect(
      c,
      `subscription { trafficUpdates(zones: ["quan-1"]) { timestamp zones { zoneId vehicleCount congestionLevel } } }`,
    );
    const q12 = collect(c, `subscription { trafficUpdates(zones: ["quan-12"]) { zones { zoneId } } }`);
    const weather = collect(c, `subscription { weatherUpdates { temperature stationId } }`);
    await new Promise((r) => setTimeout(r, 300));
    await upsert(app.url, [
      flowDoc("0", 10.7918902432446, 106.691054105759, 18, 777),
      weatherDoc("gq-station", 33),
    ]);
    await until(() => q1.got.length === 1 && weather.got.length === 1);
    const zones = (q1.got[0].data as { trafficUpdates: { zones: Record<string, unknown>[] } }).trafficUpdates
      .zones;
    expect(zones).to.have.length(1);
    expect(zones[0]).to.include({ zoneId: "quan-1", vehicleCount: 777 });
    expect(
      (weather.got[0].data as { weatherUpdates: { temperature: number } }).weatherUpdates.temperature,
    ).to.equal(33);
    await new Promise((r) => setTimeout(r, 200));
    expect(q12.got).to.have.length(0);
    q1.stop();
    // after complete, no more events for that subscription
    await new Promise((r) => setTimeout(r, 100));
    await upsert(app.url, [flowDoc("0", 10.7918902432446, 106.691054105759, 9, 1234)]);
    await new Promise((r) => setTimeout(r, 300));
    expect(q1.got).to.have.length(1);
    q12.stop();
    weather.stop();
  });

  it("refuses a subscription past the per-connection limit; a completed one frees its place", async () => {
    const p = await WsProbe.graphqlWs(app.url);
    const query = "subscription { accidentAlerts(severity: [CRITICAL]) { id severity } }";
    for (let i = 0; i < 21; i++) p.send({ id: `l${i}`, type: "subscribe", payload: { query } });
    const refused = await p.next((m) => m.type === "error" && m.id === "l20");
    expect(refused.payload).to.deep.equal([
      {
        message: "At most 20 subscriptions per connection: complete one first",
        extensions: { code: "INVALID_REQUEST" },
      },
    ]);
    p.send({ id: "l0", type: "complete" });
    p.send({ id: "l21", type: "subscribe", payload: { query } });
    await new Promise((r) => setTimeout(r, 300));
    expect(p.matching((m) => m.type === "error")).to.have.length(1);
    // the 20 subscriptions of one operation get the one execution's result, each under its own id
    await upsert(app.url, [accidentDoc("gq-limit", "critical", QUAN_1.lat, QUAN_1.lon)]);
    await p.next(() => p.matching((m) => m.type === "next").length === 20);
    const next = p.matching((m) => m.type === "next");
    const ids = [...Array.from({ length: 19 }, (_, i) => `l${i + 1}`), "l21"];
    expect(next.map((m) => m.id)).to.have.members(ids);
    for (const m of next)
      expect(m.payload).to.deep.equal({ data: { accidentAlerts: { id: "gq-limit", severity: "CRITICAL" } } });
    expect(p.closed).to.equal(undefined);
    p.close();
  });
});
