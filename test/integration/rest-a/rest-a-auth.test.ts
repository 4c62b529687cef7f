import { expect } from "chai";
import { bearer, login, userToken } from "../auth/auth-client";
import { RestAClient } from "../helpers/rest-a-client";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { accidentDoc } from "../helpers/traffic-fixture";

type Err = { error: { code: string } };

describe("REST variant A behind the auth gate (AUTH=on)", function () {
  this.timeout(60_000);
  let app: TestApp;
  let api: RestAClient;
  let viewer: string;
  let operator: string;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD: "admin-secret-t19",
      RATE_LIMIT_PREFIX: `t-${process.pid}-rest-a`,
    });
    const admin = (await login(app.url, "admin", "admin-secret-t19")).access_token;
    viewer = await userToken(app.url, admin, { username: "vic", role: "viewer" });
    operator = await userToken(app.url, admin, { username: "ola", role: "operator" });
    api = new RestAClient(app.url);
    await api.init(); // the OpenAPI document is open
    const r = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/entities",
      accidentDoc("auth-1", 106.7, 10.77, Date.now(), "minor"),
      {
        "Content-Type": "application/ld+json",
        ...bearer(operator),
      },
    );
    expect(r.status, r.text).to.equal(201);
  });
  after(() => app.destroy());

  it("needs a credential for every operation but the OpenAPI document", async () => {
    const r = await api.get("/v1/cameras");
    expect(r.status).to.equal(401);
    expect((r.body as Err).error.code).to.equal("UNAUTHORIZED");
    expect((await api.call("GET", "/v1/cameras", undefined, bearer(viewer))).status).to.equal(200);
    expect((await api.call("GET", "/v1/accidents/auth-1", undefined, bearer(viewer))).status).to.equal(200);
  });

  it("lets operators change an accident's status, not viewers", async () => {
    const denied = await api.call("PATCH", "/v1/accidents/auth-1", { status: "resolved" }, bearer(viewer));
    expect(denied.status).to.equal(403);
    expect((denied.body as Err).error.code).to.equal("FORBIDDEN");
    const ok = await api.call("PATCH", "/v1/accidents/auth-1", { status: "resolved" }, bearer(operator));
    expect(ok.status).to.equal(200);
    expect((ok.body as { status: string }).status).to.equal("resolved");
  });
});
