import { expect } from "chai";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { startTestApp, type TestApp } from "../helpers/test-app";
import { gql, WsProbe } from "../helpers/live-clients";

describe("GraphQL and WebSocket bad input: clear errors, no 5xx, no crash", function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ WS_MESSAGES_PER_SECOND: "20" });
  });
  after(async () => app.destroy());

  const health = async () => expect((await fetch(`${app.url}/health`)).status).to.equal(200);

  it("malformed GraphQL: syntax error, unknown field, bad JSON, no query", async () => {
    const syntax = await gql(app.url, "{ cameras( ");
    expect(syntax.status).to.be.below(500);
    expect(syntax.body.errors?.[0].message).to.match(/Syntax Error/);
    expect(syntax.body.errors?.[0].extensions?.code).to.equal("INVALID_REQUEST");
    const unknown = await gql(app.url, "{ cameraz { id } }");
    expect(unknown.body.errors?.[0].extensions?.code).to.equal("INVALID_REQUEST");
    const badJson = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(badJson.status).to.equal(400);
    const noQuery = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(noQuery.status).to.equal(400);
    expect(
      ((await noQuery.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code,
    ).to.equal("INVALID_REQUEST");
    const badVar = await gql(app.url, "query($d: DateTime) { accidents(startDate: $d) { totalCount } }", {
      d: "yesterday",
    });
    expect(badVar.status).to.be.below(500);
    expect(badVar.body.errors?.[0].message).to.match(/ISO 8601/);
    await health();
  });

  it("a query 50 levels deep is refused with QUERY_TOO_DEEP (and 5,000 levels too)", async () => {
    let deep = "name";
    for (let i = 0; i < 50; i++) deep = `ofType { ${deep} }`;
    const r = await gql(app.url, `{ __type(name: "Camera") { fields { type { ${deep} } } } }`);
    expect(r.status).to.be.below(500);
    expect(r.body.errors?.[0].extensions?.code).to.equal("QUERY_TOO_DEEP");
    expect(r.body.errors?.[0].message).to.match(/nests 54 levels of braces/);
    let mid = "name";
    for (let i = 0; i < 12; i++) mid = `ofType { ${mid} }`;
    const m = await gql(app.url, `{ __type(name: "Camera") { fields { type { ${mid} } } } }`);
    expect(m.body.errors?.[0]).to.deep.include({
      message: "The query is 16 levels deep; at most 10 are allowed",
    });
    expect(m.body.errors?.[0].extensions?.code).to.equal("QUERY_TOO_DEEP");
    const huge = "{ a ".repeat(5000) + "}".repeat(5000);
    const h = await gql(app.url, huge);
    expect(h.status).to.be.below(500);
    expect(h.body.errors?.[0].extensions?.code).to.equal("QUERY_TOO_DEEP");
    await health();
  });

  it("a query asking for 25,550 nodes is refused with QUERY_TOO_COMPLEX", async () => {
    // 50 aliases (10 each) of 100 cameras x 5 nodes
    const aliases = Array.from(
      { length: 50 },
      (_, i) => `c${i}: cameras(limit: 100) { edges { node { location { lat lon } } } }`,
    );
    const r = await gql(app.url, `{ ${aliases.join(" ")} }`);
    expect(r.status).to.be.below(500);
    expect(r.body.errors?.[0].extensions?.code).to.equal("QUERY_TOO_COMPLEX");
    expect(r.body.errors?.[0].message).to.match(/about 25550 nodes; at most 20000/);
    await health();
  });

  it("/ws: unknown messages, non-JSON and binary frames get an error message, the socket stays", async () => {
    const p = await WsProbe.open(`${app.url}/ws`);
    p.send({ type: "dance" });
    p.send("not json");
    p.send({ type: "subscribe", channels: ["parking"] });
    p.send({ type: "subscribe", channels: ["accidents"], severity: ["apocalyptic"] });
    p.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await p.next(() => p.matching((m) => m.type === "error").length === 5);
    const errors = p
      .matching((m) => m.type === "error")
      .map((m) => m.error as { code: string; message: string });
    expect(errors[0]).to.deep.equal({
      code: "INVALID_REQUEST",
      message: 'Unknown message type "dance": use subscribe, unsubscribe or ping',
    });
    expect(errors[1].code).to.equal("INVALID_REQUEST");
    expect(errors[2]).to.include({ code: "INVALID_PARAMETER" });
    expect(errors[3].message).to.match(/Unknown severity/);
    expect(errors[4].message).to.match(/Binary frames/);
    p.send({ type: "ping" });
    await p.next((m) => m.type === "pong");
    p.close();
  });

  it("/ws and graphql-ws: a 1 MB frame closes the socket with 1009", async () => {
    const p = await WsProbe.open(`${app.url}/ws`);
    p.send("x".repeat(1024 * 1024));
    expect((await p.closedWith()).code).to.equal(1009);
    const raw = new WebSocket(`${app.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
    const g = new WsProbe(raw);
    await new Promise((r) => raw.once("open", r));
    raw.send("x".repeat(1024 * 1024));
    expect((await g.closedWith()).code).to.equal(1009);
    await health();
  });

  it("/ws: a flood of subscribe messages is cut to the rate and the subscription limit", async () => {
    const p = await WsProbe.open(`${app.url}/ws`);
    for (let i = 0; i < 500; i++) p.send({ type: "subscribe", id: `f${i}`, channels: ["accidents"] });
    await p.next((m) => m.type === "error" && (m.error as { code: string }).code === "RATE_LIMIT_EXCEEDED");
    await new Promise((r) => setTimeout(r, 300));
    expect(p.matching((m) => m.type === "subscribed").length).to.be.at.most(20);
    expect(p.closed).to.equal(undefined);
    p.close();
    await health();
  });

  it("graphql-ws: an unknown message type closes with 4400, a bad subscription gets an error", async () => {
    const raw = new WebSocket(`${app.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
    const g = new WsProbe(raw);
    await new Promise((r) => raw.once("open", r));
    raw.send(JSON.stringify({ type: "connection_init" }));
    await g.next((m) => m.type === "connection_ack");
    raw.send(JSON.stringify({ type: "dance" }));
    expect((await g.closedWith()).code).to.equal(4400);
    const client = createClient({
      url: `${app.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    const errors: unknown[] = [];
    await new Promise<void>((resolve) => {
      client.subscribe(
        { query: "subscription { accidentAlerts(severity: [BAD]) { id } }" },
        {
          next: () => undefined,
          error: (e) => {
            errors.push(e);
            resolve();
          },
          complete: () => resolve(),
        },
      );
    });
    expect(JSON.stringify(errors[0])).to.match(/INVALID_REQUEST/);
    await client.dispose();
    await health();
  });
});
