import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, login } from "./auth-client";

const SPARQL = { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" };

describe("auth: credentials live in the service's own storage", function () {
  this.timeout(90_000);
  let app: TestApp;
  let dataDir: string;
  let password: string;
  const env = { AUTH: "on", RATE_LIMIT_PREFIX: `t-${process.pid}-store` };

  before(async () => {
    app = await startTestApp(env);
    dataDir = app.dataDir;
  });
  after(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("makes user admin on first start with a random password in DATA_DIR/initial-admin-password (0600)", () => {
    const file = path.join(dataDir, "initial-admin-password");
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
    password = fs.readFileSync(file, "utf8").trim();
    expect(password).to.match(/^[A-Za-z0-9_-]{24}$/);
    expect(fs.statSync(path.join(dataDir, "auth", "signing-keys.json")).mode & 0o777).to.equal(0o600);
  });

  let refresh: string;
  let access: string;
  let key: string;

  it("never shows users, keys or refresh tokens through SPARQL or NGSI-LD", async () => {
    const pair = await login(app.url, "admin", password);
    access = pair.access_token;
    refresh = pair.refresh_token;
    const made = await http(
      app.url,
      "POST",
      "/v1/admin/api-keys",
      { name: "probe", role: "viewer" },
      bearer(access),
    );
    key = (made.body as { key: string }).key;
    const created = await http(
      app.url,
      "POST",
      "/v1/admin/users",
      { username: "sam", password: "sams-password", role: "viewer" },
      bearer(access),
    );
    expect(created.status).to.equal(201);
    const all = await http(
      app.url,
      "POST",
      "/sparql",
      "SELECT ?g ?s ?p ?o WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }",
      {
        ...SPARQL,
        ...bearer(access),
      },
    );
    expect(all.status).to.equal(200);
    expect(all.text).to.not.match(/internal:auth|scrypt|sam|probe/);
    expect((all.body as { results: { bindings: unknown[] } }).results.bindings).to.have.length(0);
    const graphs = await http(
      app.url,
      "GET",
      `/sparql?query=${encodeURIComponent("ASK { GRAPH ?g { ?s ?p ?o } }")}`,
      undefined,
      {
        Accept: "application/sparql-results+json",
        ...bearer(access),
      },
    );
    expect(graphs.body).to.include({ boolean: false });
    const types = await http(app.url, "GET", "/ngsi-ld/v1/types", undefined, bearer(access));
    expect(types.text).to.not.match(/auth|user/i);
    const attrs = await http(app.url, "GET", "/ngsi-ld/v1/attributes", undefined, bearer(access));
    expect(attrs.text).to.not.match(/authState/);
    // every file of the store: journal, snapshots and the RocksDB stores
    const store = fs
      .readdirSync(path.join(dataDir, "store"), { recursive: true, encoding: "utf8" })
      .map((f) => path.join(dataDir, "store", f))
      .filter((f) => fs.statSync(f).isFile())
      .map((f) => fs.readFileSync(f));
    const raw = Buffer.concat(store).toString("latin1");
    expect(raw).to.include("internal:auth:user:");
    expect(raw).to.not.include(key);
    expect(raw).to.not.include(refresh.split(".")[1]);
    expect(raw).to.not.include("sams-password");
  });

  it("keeps users, API keys, refresh tokens and the signing key over a restart", async () => {
    await app.close();
    app = await startTestApp(env, dataDir);
    expect((await http(app.url, "GET", "/ngsi-ld/v1/types", undefined, bearer(access))).status).to.equal(200);
    expect(
      (await http(app.url, "GET", "/ngsi-ld/v1/types", undefined, { "X-API-Key": key })).status,
    ).to.equal(200);
    const r = await http(app.url, "POST", "/v1/auth/refresh", { refresh_token: refresh });
    expect(r.status).to.equal(200);
    await login(app.url, "sam", "sams-password");
    const users = await http(app.url, "GET", "/v1/admin/users", undefined, bearer(access));
    expect((users.body as { users: { username: string }[] }).users.map((u) => u.username)).to.deep.equal([
      "admin",
      "sam",
    ]);
    // the reused token is still detected after the restart
    expect((await http(app.url, "POST", "/v1/auth/refresh", { refresh_token: refresh })).status).to.equal(
      401,
    );
  });
});
