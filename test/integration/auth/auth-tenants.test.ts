import { expect } from "chai";
import { WsProbe } from "../helpers/live-clients";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, login, userToken } from "./auth-client";

const SPARQL = { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" };
const T1 = { "NGSILD-Tenant": "t1" };
const CAMERAS = JSON.stringify({ query: "{ cameras { id } }" });

/** The traffic faces' reads and writes, each as one HTTP request. */
const TRAFFIC_REQUESTS: [method: string, path: string, body?: unknown][] = [
  ["GET", "/v1/cameras"],
  ["GET", "/v1/accidents"],
  ["GET", "/v1/zones"],
  ["GET", "/v1/reviews"],
  [
    "POST",
    "/v1/citizen-reports",
    { category: "other", location: { lat: 10.78, lon: 106.7 }, description: "x" },
  ],
  ["GET", "/v1/alerts/subscriptions"],
  ["GET", "/api/v1/cameras"],
  ["GET", "/open311/v2/requests.json"],
  ["POST", "/graphql", CAMERAS],
];

/** The error code of a traffic face's answer: REST `error.code`, GraphQL `extensions.code`, Open311 `[{code}]`. */
function codeOf(body: unknown): string | undefined {
  if (Array.isArray(body))
    return ({ 400: "INVALID_PARAMETER", 403: "FORBIDDEN" } as Record<string, string>)[
      String((body as { code: number }[])[0]?.code)
    ];
  const b = body as { error?: { code?: string }; errors?: { extensions?: { code?: string } }[] };
  return b.error?.code ?? b.errors?.[0]?.extensions?.code;
}

describe("auth: tenants on every face (AUTH=on)", function () {
  this.timeout(60_000);
  let app: TestApp;
  let admin: string;
  let viewer: string;
  let t1User: string;
  let t1Key: string;
  let both: string;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD: "admin-secret-1",
      RATE_LIMIT_PREFIX: `t-${process.pid}-tenants`,
    });
    admin = (await login(app.url, "admin", "admin-secret-1")).access_token;
    viewer = await userToken(app.url, admin, { username: "vic", role: "viewer" });
    t1User = await userToken(app.url, admin, { username: "tom", role: "operator", tenants: ["t1"] });
    both = await userToken(app.url, admin, { username: "bea", role: "viewer", tenants: ["", "t1"] });
    const k = await http(
      app.url,
      "POST",
      "/v1/admin/api-keys",
      { name: "t1-key", role: "operator", tier: "enterprise", tenants: ["t1"] },
      bearer(admin),
    );
    expect(k.status, k.text).to.equal(201);
    t1Key = (k.body as { key: string }).key;
  });
  after(() => app.destroy());

  it("refuses a principal limited to t1 on every traffic face with 403, whatever tenant it names", async () => {
    for (const [name, cred] of [
      ["user", bearer(t1User)],
      ["api key", { "X-API-Key": t1Key }],
    ] as const) {
      for (const headers of [cred, { ...cred, ...T1 }]) {
        for (const [method, p, body] of TRAFFIC_REQUESTS) {
          const r = await http(app.url, method, p, body, headers);
          const what = `${name} ${method} ${p} ${JSON.stringify(headers)}`;
          expect(r.status, `${what}: ${r.text}`).to.equal(403);
          expect(codeOf(r.body), what).to.equal("FORBIDDEN");
          expect(r.text, what).to.include("serves the default tenant only");
        }
      }
    }
  });

  it("closes a t1-only principal's /ws and graphql-ws sockets with 4403", async () => {
    for (const url of [`${app.url}/ws?token=${t1User}`, `${app.url}/ws?token=${t1User}&tenant=t1`]) {
      const ws = await WsProbe.open(url);
      expect((await ws.closedWith()).code, url).to.equal(4403);
    }
    const keyed = await WsProbe.open(`${app.url}/ws`, { headers: { "X-API-Key": t1Key, ...T1 } });
    expect((await keyed.closedWith()).code).to.equal(4403);
    for (const payload of [{ authorization: `Bearer ${t1User}` }, { apiKey: t1Key }]) {
      const g = await WsProbe.open(`${app.url}/graphql`, {}, "graphql-transport-ws");
      g.send({ type: "connection_init", payload });
      expect((await g.closedWith()).code, JSON.stringify(payload)).to.equal(4403);
      expect(g.matching((m) => m.type === "connection_ack")).to.deep.equal([]);
    }
  });

  it("refuses an NGSILD-Tenant header naming another tenant on the traffic faces with 400", async () => {
    for (const token of [viewer, both]) {
      for (const [method, p, body] of TRAFFIC_REQUESTS) {
        const r = await http(app.url, method, p, body, { ...bearer(token), ...T1 });
        expect(r.status, `${method} ${p}: ${r.text}`).to.equal(400);
        expect(codeOf(r.body), `${method} ${p}`).to.equal("INVALID_PARAMETER");
        expect(r.text).to.include('NGSILD-Tenant \\"t1\\" is not accepted');
      }
      expect((await http(app.url, "GET", "/v1/cameras", undefined, bearer(token))).status).to.equal(200);
    }
    const ws = await WsProbe.open(`${app.url}/ws?token=${viewer}`, { headers: T1 });
    expect((await ws.closedWith()).code).to.equal(4400);
    const g = await WsProbe.open(`${app.url}/graphql`, { headers: T1 }, "graphql-transport-ws");
    g.send({ type: "connection_init", payload: { authorization: `Bearer ${viewer}` } });
    expect((await g.closedWith()).code).to.equal(4400);
    const ok = await WsProbe.open(`${app.url}/graphql`, {}, "graphql-transport-ws");
    ok.send({ type: "connection_init", payload: { authorization: `Bearer ${viewer}` } });
    await ok.next((m) => m.type === "connection_ack");
    ok.close();
  });

  it("holds NGSI-LD and SPARQL to the principal's tenants (403 outside them, 200 inside)", async () => {
    for (const cred of [bearer(t1User), { "X-API-Key": t1Key }]) {
      for (const tenant of [{}, { "NGSILD-Tenant": "t2" }] as Record<string, string>[]) {
        const e = await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing", undefined, {
          ...cred,
          ...tenant,
        });
        expect(e.status, e.text).to.equal(403);
        const s = await http(app.url, "POST", "/sparql", "ASK {}", { ...SPARQL, ...cred, ...tenant });
        expect(s.status, s.text).to.equal(403);
        expect((s.body as { detail: string }).detail).to.match(/^Tenant "(t2)?" is not open to this /);
      }
      const own = await http(app.url, "POST", "/sparql", "ASK {}", { ...SPARQL, ...cred, ...T1 });
      expect(own.status, own.text).to.equal(200);
      const list = await http(app.url, "GET", "/ngsi-ld/v1/types", undefined, { ...cred, ...T1 });
      expect(list.status, list.text).to.equal(200);
    }
  });
});
