import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, login, userToken } from "./auth-client";

describe("auth: the LDES face has the NGSI-LD face's access rules (AUTH=on)", function () {
  this.timeout(60_000);
  let app: TestApp;
  let viewer: string;
  let restricted: string;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD: "admin-secret-1",
      RATE_LIMIT_PREFIX: `t-${process.pid}-ldes`,
    });
    const admin = (await login(app.url, "admin", "admin-secret-1")).access_token;
    viewer = await userToken(app.url, admin, { username: "vera", role: "viewer" });
    restricted = await userToken(app.url, admin, { username: "rita", role: "operator", tenants: ["cityA"] });
  });
  after(() => app.destroy());

  it("401 without a credential, a viewer reads, a principal of other tenants gets 403", async () => {
    for (const p of ["/ldes", "/ldes/view", "/ldes/pages/2026-01-01T00:00:00Z"]) {
      const r = await http(app.url, "GET", p);
      expect(r.status, p).to.equal(401);
      expect(r.body).to.include({ type: "https://uri.etsi.org/ngsi-ld/errors/Unauthorized" });
    }
    const v = await http(app.url, "GET", "/ldes/view", undefined, bearer(viewer));
    expect(v.status).to.equal(200);
    expect(v.text).to.contain("<https://w3id.org/tree#Node>");
    expect((await http(app.url, "GET", "/ldes/view", undefined, bearer(restricted))).status).to.equal(403);
    const own = await http(app.url, "GET", "/ldes/view", undefined, {
      ...bearer(restricted),
      "NGSILD-Tenant": "cityA",
    });
    expect(own.status).to.equal(200);
  });
});
