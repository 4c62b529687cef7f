import { expect } from "chai";
import net from "node:net";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const ENTITIES = "/ngsi-ld/v1/entities";
type Json = Record<string, unknown>;
const prop = (value: unknown, extra: Json = {}) => ({ type: "Property", value, ...extra });
const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

/** Sends raw bytes and resolves with the status line's code and the ms it took (0 = closed without answer). */
function rawRequest(url: string, text: string): Promise<{ status: number; ms: number }> {
  const { port } = new URL(url);
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(port), "127.0.0.1", () => sock.write(text));
    let got = "";
    sock.on("data", (b) => (got += b.toString("latin1")));
    sock.on("error", reject);
    sock.on("close", () =>
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(got)?.[1] ?? 0), ms: performance.now() - t }),
    );
  });
}

/** Hardening: what can fail is checked before the durable commit, and the limits that protect the process. */
describe("whole writes and the limits of one request", function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ BODY_READ_TIMEOUT: "500ms" });
  });
  after(async () => app.destroy());

  const count = async (type: string) =>
    ((await http(app.url, "GET", `${ENTITIES}?type=${type}`)).body as Json[]).length;

  it("stores an id with characters a header cannot carry and answers 201 with the id percent-encoded", async () => {
    const r = await http(app.url, "POST", ENTITIES, { id: "urn:ngsi-ld:T:😀é", type: "T", a: prop(1) });
    expect(r.status).to.equal(201);
    expect(r.headers.get("location")).to.equal(
      `/ngsi-ld/v1/entities/urn:ngsi-ld:T:${encodeURIComponent("😀é")}`,
    );
    const back = await http(app.url, "GET", r.headers.get("location") as string);
    expect((back.body as Json).id).to.equal("urn:ngsi-ld:T:😀é");
    const q = await http(app.url, "POST", ENTITIES, { id: "urn:ngsi-ld:T:a?b#c/d", type: "T", a: prop(1) });
    expect(q.status).to.equal(201);
    expect(q.headers.get("location")).to.equal("/ngsi-ld/v1/entities/urn:ngsi-ld:T:a%3Fb%23c%2Fd");
    expect(((await http(app.url, "GET", q.headers.get("location") as string)).body as Json).id).to.equal(
      "urn:ngsi-ld:T:a?b#c/d",
    );
  });

  it("refuses JSON nested deeper than the limit with 400 before anything is stored, and keeps history whole", async () => {
    for (const depth of [65, 950, 5000, 100_000]) {
      const value = `${"[".repeat(depth)}1${"]".repeat(depth)}`;
      const text = `{"id":"urn:ngsi-ld:D:${depth}","type":"D","a":{"type":"Property","value":${value}}}`;
      const r = await http(app.url, "POST", ENTITIES, text);
      expect(r.status, String(depth)).to.equal(400);
      expect((r.body as Json).detail).to.match(/nest/);
    }
    const deepObject = `{"id":"urn:ngsi-ld:D:o","type":"D","a":${'{"x":'.repeat(3000)}1${"}".repeat(3000)}}`;
    expect((await http(app.url, "POST", ENTITIES, deepObject)).status).to.equal(400);
    expect(await count("D")).to.equal(0);
    const ok = await http(app.url, "POST", ENTITIES, {
      id: "urn:ngsi-ld:D:ok",
      type: "D",
      a: prop(nested(50), { observedAt: "2024-01-01T00:00:00Z" }),
    });
    expect(ok.status).to.equal(201);
    const h = await http(app.url, "GET", "/ngsi-ld/v1/temporal/entities/urn:ngsi-ld:D:ok");
    expect(h.status).to.equal(200);
    expect((h.body as Record<string, Json[]>).a).to.have.length(1);
  });

  it("refuses ids over 2048 characters, over 1000 attributes and over 100 instances of an attribute (400)", async () => {
    const long = await http(app.url, "POST", ENTITIES, {
      id: `urn:ngsi-ld:L:${"x".repeat(200_000)}`,
      type: "L",
    });
    expect(long.status).to.equal(400);
    expect((long.body as Json).detail).to.match(/2048/);
    expect((await http(app.url, "GET", `${ENTITIES}/urn:ngsi-ld:L:${"x".repeat(3000)}`)).status).to.equal(
      400,
    );
    const many: Json = { id: "urn:ngsi-ld:L:many", type: "L" };
    for (let i = 0; i < 20_000; i++) many[`a${i}`] = prop(i);
    const m = await http(app.url, "POST", ENTITIES, many);
    expect(m.status).to.equal(400);
    expect((m.body as Json).detail).to.match(/1000/);
    const inst = Array.from({ length: 10_000 }, (_, i) => prop(i, { datasetId: `urn:ds:${i}` }));
    const d = await http(app.url, "POST", ENTITIES, { id: "urn:ngsi-ld:L:ds", type: "L", a: inst });
    expect(d.status).to.equal(400);
    expect((d.body as Json).detail).to.match(/100/);
    expect(await count("L")).to.equal(0);
    const fine: Json = { id: "urn:ngsi-ld:L:fine", type: "L" };
    for (let i = 0; i < 1000; i++) fine[`a${i}`] = prop(i);
    expect((await http(app.url, "POST", ENTITIES, fine)).status).to.equal(201);
  });

  it("answers an incomplete body with 408 once BODY_READ_TIMEOUT has passed", async () => {
    const head =
      `POST ${ENTITIES} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n` +
      `{"id":"urn:ngsi-ld:S:1",`;
    const r = await rawRequest(app.url, head);
    expect(r.status).to.equal(408);
    expect(r.ms).to.be.below(5000);
    expect(await count("S")).to.equal(0);
  });
});
