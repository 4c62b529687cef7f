import { expect } from "chai";
import { startTestApp, type TestApp } from "../helpers/test-app";

/** Answers of several faces, errors and static files among them. */
const REQUESTS: { path: string; init?: RequestInit; status: number }[] = [
  { path: "/health", status: 200 },
  { path: "/", status: 200 },
  { path: "/assets/none.js", status: 404 },
  { path: "/docs", status: 200 },
  { path: "/docs/swagger-ui.css", status: 200 },
  { path: "/docs/nothing.txt", status: 404 },
  { path: "/api/v1/openapi.json", status: 200 },
  { path: "/v1/cameras", status: 401 },
  { path: "/ngsi-ld/v1/entities/urn:x:1", status: 401 },
  { path: "/sparql?query=ASK%7B%7D", status: 401 },
  { path: "/graphql", init: { method: "POST", body: "{" }, status: 401 },
  {
    path: "/v1/auth/login",
    init: { method: "POST", body: "{", headers: { "Content-Type": "application/json" } },
    status: 400,
  },
  { path: "/no/such/path", status: 404 },
];

describe("browser security headers on every answer", function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ AUTH: "on", ADMIN_PASSWORD: "headers-admin-pw-1" });
  });
  after(() => app?.destroy());

  for (const r of REQUESTS) {
    it(`${r.init?.method ?? "GET"} ${r.path} (${r.status})`, async () => {
      const res = await fetch(app.url + r.path, r.init);
      await res.arrayBuffer();
      expect(res.status).to.equal(r.status);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).to.contain("script-src 'self'").and.contain("frame-ancestors 'none'");
      expect(csp).to.not.match(/script-src[^;]*unsafe/);
      // pages whose libraries set inline styles (Swagger UI, YASGUI) allow them; nothing else does
      if (r.path !== "/docs" && r.path !== "/") expect(csp).to.not.contain("unsafe-inline");
      expect(res.headers.get("x-content-type-options")).to.equal("nosniff");
      expect(res.headers.get("referrer-policy")).to.equal("no-referrer");
    });
  }
});
