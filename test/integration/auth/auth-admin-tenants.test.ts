import { expect } from "chai";
import { gunzipSync } from "node:zlib";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, entity, login, userToken } from "./auth-client";

const LD = { "Content-Type": "application/ld+json" };

/** The names of the users an admin lists. */
async function usernames(base: string, token: string): Promise<string[]> {
  const r = await http(base, "GET", "/v1/admin/users", undefined, bearer(token));
  expect(r.status, r.text).to.equal(200);
  return (r.body as { users: { username: string }[] }).users.map((u) => u.username);
}

describe("auth: an admin limited to some tenants (docs/auth.md Tenants)", function () {
  this.timeout(60_000);
  let app: TestApp;
  let admin: string;
  let limited: string;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD: "admin-secret-tenants",
      RATE_LIMIT_PREFIX: `t-${process.pid}-admin-tenants`,
    });
    admin = (await login(app.url, "admin", "admin-secret-tenants")).access_token;
    limited = await userToken(app.url, admin, { username: "lim", role: "admin", tenants: [""] });
    await userToken(app.url, admin, { username: "t2-operator", role: "operator", tenants: ["t2"] });
    for (const [tenant, id] of [
      ["", "urn:ngsi-ld:Thing:home"],
      ["t2", "urn:ngsi-ld:Thing:t2-secret"],
    ]) {
      const made = await http(app.url, "POST", "/ngsi-ld/v1/entities", entity(id), {
        ...LD,
        ...bearer(admin),
        ...(tenant ? { "NGSILD-Tenant": tenant } : {}),
      });
      expect(made.status, made.text).to.equal(201);
    }
  });
  after(() => app.destroy());

  it("exports its own tenant, without a cache keeping it, and not another tenant's", async () => {
    const own = await fetch(`${app.url}/v1/admin/export`, { headers: bearer(limited) });
    expect(own.status).to.equal(200);
    expect(own.headers.get("cache-control")).to.equal("no-store");
    const text = gunzipSync(Buffer.from(await own.arrayBuffer())).toString("utf8");
    expect(text).to.include("urn:ngsi-ld:Thing:home").and.not.include("t2-secret");
    const other = await http(app.url, "GET", "/v1/admin/export?tenant=t2", undefined, bearer(limited));
    expect(other.status, other.text).to.equal(403);
    expect((other.body as { error: { code: string } }).error.code).to.equal("FORBIDDEN");
    expect(other.text).not.to.include("t2-secret");
    const all = await fetch(`${app.url}/v1/admin/export?tenant=t2`, { headers: bearer(admin) });
    expect(all.status).to.equal(200);
    expect(gunzipSync(Buffer.from(await all.arrayBuffer())).toString("utf8")).to.include("t2-secret");
  });

  it("takes no backup of the whole service; an admin of every tenant does, marked no-store", async () => {
    const refused = await http(app.url, "POST", "/v1/admin/backups", undefined, bearer(limited));
    expect(refused.status, refused.text).to.equal(403);
    expect(refused.text).to.include("admin of every tenant");
    const r = await fetch(`${app.url}/v1/admin/backups`, { method: "POST", headers: bearer(admin) });
    expect(r.status).to.equal(200);
    expect(r.headers.get("cache-control")).to.equal("no-store");
    expect(
      Buffer.from(await r.arrayBuffer())
        .subarray(257, 262)
        .toString(),
    ).to.equal("ustar");
  });

  it("gives no tenant it lacks: not every tenant, not another one, to a user or a key", async () => {
    const bodies = [
      { username: "root2", password: "a-long-password-1", role: "admin", tenants: [] },
      { username: "root3", password: "a-long-password-1", role: "admin" },
      { username: "t2-admin", password: "a-long-password-1", role: "admin", tenants: ["t2"] },
      { username: "mixed", password: "a-long-password-1", role: "viewer", tenants: ["", "t2"] },
    ];
    for (const b of bodies) {
      const r = await http(app.url, "POST", "/v1/admin/users", b, bearer(limited));
      expect(r.status, `${b.username}: ${r.text}`).to.equal(403);
      expect((r.body as { error: { details: { parameter: string } } }).error.details.parameter).to.equal(
        "tenants",
      );
    }
    for (const tenants of [[], ["t2"]]) {
      const r = await http(
        app.url,
        "POST",
        "/v1/admin/api-keys",
        { name: "k", role: "admin", tenants },
        bearer(limited),
      );
      expect(r.status, r.text).to.equal(403);
      expect(r.text).not.to.include("cgk_");
    }
    const names = await usernames(app.url, admin);
    expect(names).to.not.include.members(["root2", "root3", "t2-admin", "mixed"]);
    const mine = await http(
      app.url,
      "POST",
      "/v1/admin/users",
      { username: "home-viewer", password: "a-long-password-1", role: "viewer", tenants: [""] },
      bearer(limited),
    );
    expect(mine.status, mine.text).to.equal(201);
    const key = await http(
      app.url,
      "POST",
      "/v1/admin/api-keys",
      { name: "home-key", tenants: [""] },
      bearer(limited),
    );
    expect(key.status, key.text).to.equal(201);
  });

  it("sees and deletes only the users and keys within its tenants", async () => {
    const seen = await usernames(app.url, limited);
    expect(seen).to.include("lim").and.not.include("admin").and.not.include("t2-operator");
    const all = (await http(app.url, "GET", "/v1/admin/users", undefined, bearer(admin))).body as {
      users: { id: string; username: string }[];
    };
    const root = all.users.find((u) => u.username === "admin")!;
    const gone = await http(app.url, "DELETE", `/v1/admin/users/${root.id}`, undefined, bearer(limited));
    expect(gone.status, gone.text).to.equal(404);
    expect(await usernames(app.url, admin)).to.include("admin");
    const wide = await http(app.url, "POST", "/v1/admin/api-keys", { name: "wide" }, bearer(admin));
    const wideId = (wide.body as { id: string }).id;
    const keys = await http(app.url, "GET", "/v1/admin/api-keys", undefined, bearer(limited));
    expect(keys.text).not.to.include(wideId);
    const revoke = await http(app.url, "DELETE", `/v1/admin/api-keys/${wideId}`, undefined, bearer(limited));
    expect(revoke.status, revoke.text).to.equal(404);
  });

  it("leaves what spans every tenant to an admin of every tenant: signing keys, /metrics, queue counts", async () => {
    const rotate = await http(app.url, "POST", "/v1/admin/signing-keys/rotate", undefined, bearer(limited));
    expect(rotate.status, rotate.text).to.equal(403);
    const metrics = await http(app.url, "GET", "/metrics", undefined, bearer(limited));
    expect(metrics.status, metrics.text).to.equal(403);
    expect(metrics.text).not.to.include("citygraph_");
    const queue = await http(app.url, "GET", "/notifications/queue", undefined, bearer(limited));
    expect(queue.status, queue.text).to.equal(200);
    expect(queue.body).to.not.have.property("counts");
    const whole = await http(app.url, "GET", "/notifications/queue", undefined, bearer(admin));
    expect(whole.body).to.have.property("counts");
  });
});
