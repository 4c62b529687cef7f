import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, login, userToken } from "./auth-client";

const ADMIN_PASSWORD = "admin-secret-paths";
const LD = { "Content-Type": "application/ld+json" };
const CORE = "https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld";

/** Spellings of one path that a client may send: case, trailing and doubled slashes, escaped letters. */
function spellings(path: string, word: string): string[] {
  const at = path.lastIndexOf(word);
  const swap = (w: string) => path.slice(0, at) + w + path.slice(at + word.length);
  const escapeFirst = `%${word.charCodeAt(0).toString(16).toUpperCase()}${word.slice(1)}`;
  const escapeLower = `%${word.charCodeAt(0).toString(16).toLowerCase()}${word.slice(1)}`;
  return [
    swap(word[0].toUpperCase() + word.slice(1)),
    swap(word.toUpperCase()),
    `${path}/`,
    `${path}//`,
    swap(escapeFirst),
    swap(escapeLower),
    `/${path}`,
    path.replace(/\/([^/]+)$/, "//$1"),
    swap(escapeFirst) + "/",
  ];
}

/**
 * The auth gate and the routers see one path: no spelling of a path (letter case, trailing or doubled
 * slashes, percent-encoded letters) reaches a route with less than the route's permission, on NGSI-LD,
 * REST A and B, the admin routes and SPARQL. A path with a malformed escape is a 400 before the gate.
 */
describe("auth: every spelling of a path gets the permission of the route that serves it", function () {
  this.timeout(90_000);
  let app: TestApp;
  let admin: Record<string, string>;
  let viewer: Record<string, string>;
  let operator: Record<string, string>;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD,
      RATE_LIMIT_PREFIX: `t-${process.pid}-paths`,
    });
    admin = bearer((await login(app.url, "admin", ADMIN_PASSWORD)).access_token);
    const token = admin.Authorization.slice("Bearer ".length);
    viewer = bearer(await userToken(app.url, token, { username: "pia", role: "viewer" }));
    operator = bearer(await userToken(app.url, token, { username: "oli", role: "operator" }));
    for (const n of [1, 2, 3]) {
      const e = { id: `urn:ngsi-ld:Purgeable:${n}`, type: "Purgeable", "@context": CORE };
      const r = await http(app.url, "POST", "/ngsi-ld/v1/entities", e, { ...LD, ...operator });
      expect(r.status, r.text).to.equal(201);
    }
    const sub = {
      id: "urn:ngsi-ld:Subscription:paths",
      type: "Subscription",
      entities: [{ type: "Purgeable" }],
      notification: { endpoint: { uri: "http://127.0.0.1:9/notify" } },
    };
    const s = await http(app.url, "POST", "/ngsi-ld/v1/subscriptions", sub, operator);
    expect(s.status, s.text).to.equal(201);
  });
  after(() => app.destroy());

  const purgeables = async (): Promise<number> => {
    const r = await http(
      app.url,
      "GET",
      "/ngsi-ld/v1/entities?type=Purgeable&count=true&limit=0",
      undefined,
      admin,
    );
    expect(r.status, r.text).to.equal(200);
    return Number(r.headers.get("ngsild-results-count"));
  };

  it("refuses a viewer the NGSI-LD subscriptions under every spelling", async () => {
    expect((await http(app.url, "GET", "/ngsi-ld/v1/subscriptions", undefined, viewer)).status).to.equal(403);
    for (const [path, word] of [
      ["/ngsi-ld/v1/subscriptions", "subscriptions"],
      ["/ngsi-ld/v1/csourceSubscriptions", "csourceSubscriptions"],
      ["/ngsi-ld/v1/subscriptions/urn:ngsi-ld:Subscription:paths", "subscriptions"],
    ] as const) {
      for (const p of spellings(path, word)) {
        const r = await http(app.url, "GET", p, undefined, viewer);
        expect(r.status, `GET ${p}: ${r.text}`).to.be.oneOf([400, 403, 404]);
        expect(r.text, p).to.not.include("127.0.0.1:9");
      }
    }
  });

  it("lets no operator purge a type under any spelling of /entities (admin only)", async () => {
    const denied = await http(app.url, "DELETE", "/ngsi-ld/v1/entities?type=Purgeable", undefined, operator);
    expect(denied.status, denied.text).to.equal(403);
    for (const p of spellings("/ngsi-ld/v1/entities", "entities")) {
      const r = await http(app.url, "DELETE", `${p}?type=Purgeable`, undefined, operator);
      expect(r.status, `DELETE ${p}: ${r.text}`).to.be.oneOf([400, 403, 404, 405]);
    }
    expect(await purgeables()).to.equal(3);
  });

  it("keeps the admin routes of REST A and B for admins under every spelling", async () => {
    expect((await http(app.url, "GET", "/v1/admin/users", undefined, operator)).status).to.equal(403);
    for (const p of [...spellings("/v1/admin/users", "admin"), ...spellings("/v1/admin/users", "users")]) {
      for (const who of [operator, viewer]) {
        const r = await http(app.url, "GET", p, undefined, who);
        expect(r.status, `GET ${p}: ${r.text}`).to.be.oneOf([400, 403, 404]);
        expect(r.text, p).to.not.include('"oli"');
        const made = await http(
          app.url,
          "POST",
          p,
          { username: "mallory", role: "admin", password: "pw-mallory-123" },
          who,
        );
        expect(made.status, `POST ${p}: ${made.text}`).to.be.oneOf([400, 403, 404, 405]);
      }
    }
    const users = await http(app.url, "GET", "/v1/admin/users", undefined, admin);
    expect(users.text).to.not.include("mallory");
  });

  it("keeps the review queue of REST A for operators under every spelling", async () => {
    for (const p of spellings("/v1/reviews", "reviews")) {
      const r = await http(app.url, "GET", p, undefined, viewer);
      expect(r.status, `GET ${p}: ${r.text}`).to.be.oneOf([400, 403, 404]);
    }
  });

  it("asks a credential for every spelling of a protected path on every face", async () => {
    const paths = [
      "/ngsi-ld/v1/entities?type=Purgeable",
      "/v1/cameras",
      "/api/v1/cameras",
      "/sparql?query=ASK%20%7B%7D",
      "/v1/admin/users",
      "/open311/v2/services.json",
      "/graphql?query=%7B__typename%7D",
      "/notifications/queue",
    ];
    for (const full of paths) {
      const [path, query] = full.split("?");
      const word = path.split("/").filter(Boolean)[0];
      for (const p of spellings(path, word)) {
        const r = await http(app.url, "GET", query ? `${p}?${query}` : p);
        expect(r.status, `GET ${p}: ${r.text}`).to.be.oneOf([400, 401, 404]);
      }
    }
  });

  it("answers the canonical spellings as before: an escaped letter is that letter", async () => {
    const r = await http(app.url, "GET", "/ngsi-ld/v1/%65ntities?type=Purgeable", undefined, viewer);
    expect(r.status, r.text).to.equal(200);
    expect((r.body as { id: string }[]).map((e) => e.id).sort()).to.deep.equal([
      "urn:ngsi-ld:Purgeable:1",
      "urn:ngsi-ld:Purgeable:2",
      "urn:ngsi-ld:Purgeable:3",
    ]);
    const s = await http(app.url, "GET", "/ngsi-ld/v1/subscriptions/", undefined, operator);
    expect(s.status, s.text).to.equal(200);
    expect((s.body as { id: string }[]).map((x) => x.id)).to.deep.equal(["urn:ngsi-ld:Subscription:paths"]);
    const sparql = await http(app.url, "GET", "/sparql/?query=ASK%20%7B%7D", undefined, {
      ...viewer,
      Accept: "application/sparql-results+json",
    });
    expect(sparql.status, sparql.text).to.equal(200);
    expect(sparql.body).to.deep.include({ boolean: true });
  });

  it("lets an admin purge through the canonical path", async () => {
    const r = await http(app.url, "DELETE", "/ngsi-ld/v1/entities/?type=Purgeable", undefined, admin);
    expect(r.status, r.text).to.be.oneOf([200, 204]);
    expect(await purgeables()).to.equal(0);
  });
});
