import { expect } from "chai";
import { startTestApp, type TestApp } from "../helpers/test-app";
import { accidentDoc, flowDoc, QUAN_1, QUAN_12, upsert, weatherDoc, WsProbe } from "../helpers/live-clients";

const isEvent = (channel: string) => (m: Record<string, unknown>) => m.channel === channel;

describe("WebSocket /ws", function () {
  this.timeout(60_000);
  let app: TestApp;
  const open: WsProbe[] = [];
  const probe = async (query = "", options = {}) => {
    const p = await WsProbe.open(`${app.url}/ws${query}`, options);
    open.push(p);
    return p;
  };

  before(async () => {
    app = await startTestApp({ SEED: "on", WS_HEARTBEAT: "300ms", WS_QUEUE_MESSAGES: "8" });
  });
  afterEach(() => {
    for (const p of open.splice(0)) p.close();
  });
  after(async () => app.destroy());

  it("acknowledges a subscribe and pushes a severe accident only to the severe subscriber", async () => {
    const severe = await probe();
    const minor = await probe();
    const all = await probe();
    severe.send({ type: "subscribe", id: "s1", channels: ["accidents"], severity: ["severe", "critical"] });
    minor.send({ type: "subscribe", id: "m1", channels: ["accidents"], severity: ["minor"] });
    all.send({ type: "subscribe", channels: ["accidents"] });
    const ack = await severe.next((m) => m.type === "subscribed");
    expect(ack).to.deep.include({ id: "s1", channels: ["accidents"], severity: ["severe", "critical"] });
    await minor.next((m) => m.type === "subscribed");
    await all.next((m) => m.type === "subscribed");
    await upsert(app.url, [accidentDoc("ws-a1", "severe", QUAN_1.lat, QUAN_1.lon)]);
    const alert = await severe.next(isEvent("accidents"));
    expect(alert).to.include({ type: "alert", channel: "accidents", subscription: "s1" });
    const data = alert.data as Record<string, unknown>;
    expect(data).to.include({ id: "ws-a1", severity: "severe", change: "created", zone_id: "quan-1" });
    expect(data.location).to.deep.equal({ lat: QUAN_1.lat, lon: QUAN_1.lon });
    expect(data.message)
      .to.be.a("string")
      .and.match(/severe/);
    await all.next(isEvent("accidents"));
    await new Promise((r) => setTimeout(r, 200));
    expect(minor.matching(isEvent("accidents"))).to.have.length(0);
  });

  it("pushes a severity change and a status change of an accident", async () => {
    const p = await probe();
    p.send({ type: "subscribe", channels: ["accidents"], severity: ["critical", "moderate"] });
    await p.next((m) => m.type === "subscribed");
    await upsert(app.url, [accidentDoc("ws-a2", "moderate", QUAN_1.lat, QUAN_1.lon)]);
    await p.next((m) => (m.data as { id?: string })?.id === "ws-a2");
    await upsert(app.url, [accidentDoc("ws-a2", "critical", QUAN_1.lat, QUAN_1.lon)]);
    const changed = await p.next((m) => (m.data as { change?: string })?.change === "severity_changed");
    expect(changed.data).to.include({ id: "ws-a2", severity: "critical" });
    const r = await fetch(`${app.url}/ngsi-ld/v1/entities/urn:ngsi-ld:TrafficAccident:ws-a2/attrs`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: { type: "Property", value: "resolved" } }),
    });
    expect(r.status).to.equal(204);
    const resolved = await p.next((m) => (m.data as { change?: string })?.change === "status_changed");
    expect(resolved.data).to.include({ id: "ws-a2", status: "resolved" });
  });

  it("pushes a zone's traffic update only to that zone's subscribers", async () => {
    const q1 = await probe();
    const q12 = await probe();
    q1.send({ type: "subscribe", channels: ["traffic"], zones: ["quan-1"] });
    q12.send({ type: "subscribe", channels: ["traffic"], zones: ["quan-12"] });
    await q1.next((m) => m.type === "subscribed");
    await q12.next((m) => m.type === "subscribed");
    // camera 0 stands in Quận 1
    await upsert(app.url, [flowDoc("0", 10.7918902432446, 106.691054105759, 12, 340)]);
    const u = await q1.next(isEvent("traffic"));
    expect(u.type).to.equal("update");
    const d = u.data as Record<string, unknown>;
    expect(d).to.include({ zone_id: "quan-1", vehicle_count: 340, avg_speed: 12 });
    expect(d.congestion_level).to.be.oneOf(["free", "light", "moderate", "heavy", "severe"]);
    await new Promise((r) => setTimeout(r, 200));
    expect(q12.matching(isEvent("traffic"))).to.have.length(0);
  });

  it("pushes weather observations on the weather channel", async () => {
    const p = await probe();
    p.send({ type: "subscribe", channels: ["weather"] });
    await p.next((m) => m.type === "subscribed");
    await upsert(app.url, [weatherDoc("ws-station", 31.5)]);
    const w = await p.next(isEvent("weather"));
    expect(w.type).to.equal("update");
    expect(w.data).to.include({ temperature: 31.5, humidity: 70 });
  });

  it("stops pushing after unsubscribe", async () => {
    const p = await probe();
    p.send({ type: "subscribe", id: "u1", channels: ["accidents"] });
    await p.next((m) => m.type === "subscribed");
    p.send({ type: "unsubscribe", id: "u1" });
    const done = await p.next((m) => m.type === "unsubscribed");
    expect(done.ids).to.deep.equal(["u1"]);
    await upsert(app.url, [accidentDoc("ws-a3", "minor", QUAN_12.lat, QUAN_12.lon)]);
    await new Promise((r) => setTimeout(r, 300));
    expect(p.matching(isEvent("accidents"))).to.have.length(0);
  });

  it("replays the accidents missed since `since` before live ones", async () => {
    const before = new Date(Date.now() - 1).toISOString();
    await upsert(app.url, [accidentDoc("ws-r1", "critical", QUAN_1.lat, QUAN_1.lon)]);
    await upsert(app.url, [accidentDoc("ws-r1", "severe", QUAN_1.lat, QUAN_1.lon)]);
    const p = await probe();
    p.send({ type: "subscribe", id: "r", channels: ["accidents"], since: before });
    const replayed = await p.next((m) => m.type === "replayed");
    const mine = p.matching((m) => m.replay === true && (m.data as { id?: string })?.id === "ws-r1");
    expect(mine.map((m) => (m.data as { change: string }).change)).to.deep.equal([
      "created",
      "severity_changed",
    ]);
    expect(replayed.count).to.be.at.least(2);
    await upsert(app.url, [accidentDoc("ws-r2", "minor", QUAN_1.lat, QUAN_1.lon)]);
    const live = await p.next((m) => (m.data as { id?: string })?.id === "ws-r2");
    expect(live.replay).to.equal(undefined);
  });

  it("drops a socket that stops answering pings", async () => {
    const p = await probe("", { autoPong: false });
    const closed = await p.closedWith(3000);
    expect(closed.code).to.equal(1006);
  });

  it("answers application pings and keeps a socket that answers protocol pings", async () => {
    const p = await probe();
    p.send({ type: "ping" });
    expect((await p.next((m) => m.type === "pong")).timestamp).to.be.a("string");
    await new Promise((r) => setTimeout(r, 1000));
    expect(p.closed).to.equal(undefined);
  });

  it("refuses a subscription past the per-connection limit", async () => {
    const p = await probe();
    for (let i = 0; i < 21; i++) p.send({ type: "subscribe", id: `l${i}`, channels: ["weather"] });
    const err = await p.next((m) => m.type === "error" && m.id === "l20");
    expect(err.error).to.deep.include({ code: "INVALID_REQUEST" });
    expect((err.error as { message: string }).message).to.match(/At most 20 subscriptions/);
    expect(p.matching((m) => m.type === "subscribed")).to.have.length(20);
  });
});

describe("/ws and graphql-ws: a reader that stops reading", function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({
      WS_QUEUE_MESSAGES: "8",
      WS_MAX_SUBSCRIPTIONS: "200",
      WS_MESSAGES_PER_SECOND: "1000",
    });
  });
  after(async () => app.destroy());

  it("/ws: is closed with 4008 once the kernel's buffers and its bounded queue are full", async () => {
    const p = await WsProbe.open(`${app.url}/ws`);
    for (let i = 0; i < 200; i++) p.send({ type: "subscribe", channels: ["accidents"] });
    await p.next(() => p.matching((m) => m.type === "subscribed").length === 200);
    // the client stops reading: the socket buffers fill, then the 8-message queue, then it is cut off
    const raw = (p.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    // 200 subscriptions x 600 accidents x ~400 bytes: ~48 MB, past what loopback TCP buffers hold
    for (let b = 0; b < 6; b++) {
      const docs = Array.from({ length: 100 }, (_, k) =>
        accidentDoc(`slow-${b}-${k}`, "minor", QUAN_12.lat, QUAN_12.lon),
      );
      await upsert(app.url, docs);
    }
    raw.resume();
    const closed = await p.closedWith(30_000);
    expect(closed.code).to.equal(4008);
    expect(closed.reason).to.match(/Too slow/);
    // what it read before the close is bounded by the buffers, not by the 120,000 events
    expect(p.matching((m) => m.channel === "accidents").length).to.be.below(120_000);
    p.close();
  });

  it("graphql-ws: is closed with 4008 likewise", async () => {
    const p = await WsProbe.graphqlWs(app.url);
    const query = `subscription { accidentAlerts(severity: [MODERATE]) {
      id severity status change zoneId timestamp vehiclesInvolved injuries fatalities location { lat lon } } }`;
    for (let i = 0; i < 200; i++) p.send({ id: `g${i}`, type: "subscribe", payload: { query } });
    await new Promise((r) => setTimeout(r, 500));
    const raw = (p.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    // 200 subscriptions x 600 accidents x ~250 bytes: ~30 MB
    for (let b = 0; b < 6; b++) {
      const docs = Array.from({ length: 100 }, (_, k) =>
        accidentDoc(`slow-gql-${b}-${k}`, "moderate", QUAN_12.lat, QUAN_12.lon),
      );
      await upsert(app.url, docs);
    }
    raw.resume();
    const closed = await p.closedWith(30_000);
    expect(closed.code).to.equal(4008);
    expect(closed.reason).to.match(/Too slow/);
    expect(p.matching((m) => m.type === "next").length).to.be.below(120_000);
    p.close();
  });
});
