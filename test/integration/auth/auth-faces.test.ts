import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, entity, login, userToken } from "./auth-client";

const LD = { "Content-Type": "application/ld+json" };
const SPARQL = { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" };

describe("auth: identity and roles on every face (AUTH=on)", function () {
  this.timeout(60_000);
  let app: TestApp;
  let admin: string;
  let viewer: string;
  let operator: string;
  let restricted: string;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD: "admin-secret-1",
      RATE_LIMIT_PREFIX: `t-${process.pid}-faces`,
    });
    admin = (await login(app.url, "admin", "admin-secret-1")).access_token;
    viewer = await userToken(app.url, admin, { username: "vera", role: "viewer" });
    operator = await userToken(app.url, admin, { username: "otto", role: "operator" });
    restricted = await userToken(app.url, admin, { username: "rita", role: "operator", tenants: ["cityA"] });
  });
  after(() => app.destroy());

  it("answers 401 without a credential on every face, in the face's format, with WWW-Authenticate: Bearer", async () => {
    const ngsi = await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing");
    expect(ngsi.status).to.equal(401);
    expect(ngsi.headers.get("www-authenticate")).to.equal('Bearer realm="citygraph"');
    expect(ngsi.body).to.include({ type: "https://uri.etsi.org/ngsi-ld/errors/Unauthorized", status: 401 });
    const sparql = await http(app.url, "POST", "/sparql", "ASK {}", SPARQL);
    expect(sparql.status).to.equal(401);
    expect(sparql.body).to.include({ title: "Unauthorized" });
    const a = await http(app.url, "GET", "/v1/cameras");
    expect(a.status).to.equal(401);
    expect((a.body as { error: { code: string } }).error.code).to.equal("UNAUTHORIZED");
    const rest = await http(app.url, "GET", "/v1/admin/users");
    expect(rest.status).to.equal(401);
    expect(rest.body).to.deep.equal({
      error: { code: "UNAUTHORIZED", message: "A bearer token or an API key is required", details: {} },
    });
    for (const p of [
      "/api/v1/cameras",
      "/v1/cameras",
      "/graphql",
      "/ws",
      "/notifications/queue",
      "/ngsi-ld/v1/jsonldContexts",
    ]) {
      const r = await http(app.url, "GET", p);
      expect(r.status, p).to.equal(401);
      expect(r.headers.get("www-authenticate"), p).to.match(/^Bearer /);
    }
  });

  it("keeps /health and the JWKS open; /health shows internals only to an authenticated caller", async () => {
    const anon = await http(app.url, "GET", "/health");
    expect(anon.status).to.equal(200);
    expect(anon.body).to.have.keys("status", "ready", "notReady");
    expect(anon.body).to.include({ status: "ok" });
    const known = await http(app.url, "GET", "/health", undefined, bearer(viewer));
    expect(known.body).to.have.keys("status", "ready", "notReady", "checks", "store");
    const jwks = await http(app.url, "GET", "/.well-known/jwks.json");
    expect(jwks.status).to.equal(200);
    const keys = (jwks.body as { keys: Record<string, string>[] }).keys;
    expect(keys).to.have.length(1);
    expect(keys[0]).to.include({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
    expect(keys[0]).to.not.have.property("d");
  });

  it("lets a viewer read every face and refuses its writes with 403", async () => {
    const cams = await http(app.url, "GET", "/v1/cameras", undefined, bearer(viewer));
    expect(cams.status, cams.text).to.equal(200);
    expect(cams.body).to.include({ total: 0 });
    expect(
      (await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing", undefined, bearer(viewer))).status,
    ).to.equal(200);
    const ask = await http(app.url, "POST", "/sparql", "ASK { ?s ?p ?o }", { ...SPARQL, ...bearer(viewer) });
    expect(ask.status).to.equal(200);
    const w = await http(app.url, "POST", "/ngsi-ld/v1/entities", entity("urn:ngsi-ld:Thing:v1"), {
      ...LD,
      ...bearer(viewer),
    });
    expect(w.status).to.equal(403);
    expect(w.body).to.include({ type: "https://uri.etsi.org/ngsi-ld/errors/AccessDenied" });
    expect((w.body as { detail: string }).detail).to.equal("Role viewer may not write");
    const ctx = await http(app.url, "POST", "/ngsi-ld/v1/jsonldContexts", { "@context": {} }, bearer(viewer));
    expect(ctx.status).to.equal(403);
    const admin403 = await http(app.url, "GET", "/v1/admin/users", undefined, bearer(viewer));
    expect(admin403.status).to.equal(403);
    expect((admin403.body as { error: { code: string } }).error.code).to.equal("FORBIDDEN");
    // the permission table lets a viewer report and keep its alert subscriptions: past the gate, the
    // empty body is the route's 400
    for (const p of ["/v1/citizen-reports", "/api/v1/citizen-reports", "/v1/alerts/subscriptions"]) {
      expect((await http(app.url, "POST", p, {}, bearer(viewer))).status, p).to.equal(400);
    }
    expect((await http(app.url, "GET", "/v1/reviews", undefined, bearer(viewer))).status).to.equal(403);
    expect((await http(app.url, "PATCH", "/v1/accidents/a1", {}, bearer(viewer))).status).to.equal(403);
    // subscriptions show their receivers' secrets: not to viewers
    expect(
      (await http(app.url, "GET", "/ngsi-ld/v1/subscriptions", undefined, bearer(viewer))).status,
    ).to.equal(403);
    expect(
      (await http(app.url, "GET", "/ngsi-ld/v1/subscriptions", undefined, bearer(operator))).status,
    ).to.equal(200);
  });

  it("lets an operator write, and not administer", async () => {
    const w = await http(app.url, "POST", "/ngsi-ld/v1/entities", entity("urn:ngsi-ld:Thing:o1"), {
      ...LD,
      ...bearer(operator),
    });
    expect(w.status, w.text).to.equal(201);
    const r = await http(
      app.url,
      "GET",
      "/ngsi-ld/v1/entities/urn:ngsi-ld:Thing:o1",
      undefined,
      bearer(viewer),
    );
    expect(r.status).to.equal(200);
    expect((r.body as { name: { value: string } }).name.value).to.equal("x");
    expect((await http(app.url, "POST", "/v1/admin/users", {}, bearer(operator))).status).to.equal(403);
    const purge = await http(
      app.url,
      "DELETE",
      "/ngsi-ld/v1/entities?type=Thing",
      undefined,
      bearer(operator),
    );
    expect(purge.status).to.equal(403);
    expect((purge.body as { detail: string }).detail).to.equal("Role operator may not administer");
  });

  it("lets an admin list and delete users; a deleted user's token stops working", async () => {
    const list = await http(app.url, "GET", "/v1/admin/users", undefined, bearer(admin));
    const users = (list.body as { users: { id: string; username: string; role: string }[] }).users;
    expect(users.map((u) => u.username)).to.deep.equal(["admin", "vera", "otto", "rita"]);
    expect(JSON.stringify(list.body)).to.not.match(/scrypt|password/i);
    const gone = await userToken(app.url, admin, { username: "gone", role: "viewer" });
    const id = (await http(app.url, "GET", "/v1/admin/users", undefined, bearer(admin))).body as {
      users: { id: string; username: string }[];
    };
    const del = await http(
      app.url,
      "DELETE",
      `/v1/admin/users/${id.users.find((u) => u.username === "gone")!.id}`,
      undefined,
      bearer(admin),
    );
    expect(del.status).to.equal(204);
    const after = await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing", undefined, bearer(gone));
    expect(after.status).to.equal(401);
    expect((after.body as { detail: string }).detail).to.equal("Token of a deleted user");
    expect(
      (await http(app.url, "DELETE", "/v1/admin/users/nobody", undefined, bearer(admin))).status,
    ).to.equal(404);
    const dup = await http(
      app.url,
      "POST",
      "/v1/admin/users",
      { username: "VERA", password: "long-enough" },
      bearer(admin),
    );
    expect(dup.status).to.equal(409);
  });

  it("restricts a user to its tenants on every face, SPARQL included (403)", async () => {
    const other = { "NGSILD-Tenant": "cityB", ...bearer(restricted) };
    const own = { "NGSILD-Tenant": "cityA", ...bearer(restricted) };
    expect((await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing", undefined, other)).status).to.equal(
      403,
    );
    const sq = await http(app.url, "POST", "/sparql", "ASK {}", { ...SPARQL, ...other });
    expect(sq.status).to.equal(403);
    expect((sq.body as { detail: string }).detail).to.equal('Tenant "cityB" is not open to this user');
    expect(
      (await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing", undefined, bearer(restricted))).status,
    ).to.equal(403);
    expect((await http(app.url, "POST", "/sparql", "ASK {}", { ...SPARQL, ...own })).status).to.equal(200);
    const w = await http(app.url, "POST", "/ngsi-ld/v1/entities", entity("urn:ngsi-ld:Thing:a1"), {
      ...LD,
      ...own,
    });
    expect(w.status, w.text).to.equal(201);
  });

  it("scopes /notifications/queue: counts for admins only", async () => {
    const a = await http(app.url, "GET", "/notifications/queue", undefined, bearer(admin));
    expect(a.body).to.have.keys("durable", "counts", "dead");
    const v = await http(app.url, "GET", "/notifications/queue", undefined, bearer(viewer));
    expect(v.status).to.equal(200);
    expect(v.body).to.have.keys("durable", "dead");
  });

  it("issues API keys (shown once, X-API-Key), and revokes them", async () => {
    const made = await http(
      app.url,
      "POST",
      "/v1/admin/api-keys",
      { name: "kiosk", role: "viewer", tier: "basic" },
      bearer(admin),
    );
    expect(made.status).to.equal(201);
    const { id, key } = made.body as { id: string; key: string };
    expect(key).to.match(/^cgk_[A-Za-z0-9_-]{43}$/);
    const r = await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing", undefined, { "X-API-Key": key });
    expect(r.status).to.equal(200);
    expect(r.headers.get("x-ratelimit-limit")).to.equal("1000");
    const listed = await http(app.url, "GET", "/v1/admin/api-keys", undefined, bearer(admin));
    expect(JSON.stringify(listed.body)).to.include("kiosk").and.not.include(key);
    const w = await http(app.url, "POST", "/ngsi-ld/v1/entities", entity("urn:ngsi-ld:Thing:k1"), {
      ...LD,
      "X-API-Key": key,
    });
    expect(w.status).to.equal(403);
    expect(
      (await http(app.url, "DELETE", `/v1/admin/api-keys/${id}`, undefined, bearer(admin))).status,
    ).to.equal(204);
    const after = await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Thing", undefined, {
      "X-API-Key": key,
    });
    expect(after.status).to.equal(401);
    expect((after.body as { detail: string }).detail).to.equal("Unknown or revoked API key");
  });
});
