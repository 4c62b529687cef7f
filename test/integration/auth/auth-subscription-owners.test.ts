import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { Receiver } from "../helpers/receiver";
import { bearer, login, userToken } from "./auth-client";

const SUBS = "/ngsi-ld/v1/subscriptions";
const CSUBS = "/ngsi-ld/v1/csourceSubscriptions";
const ADMIN_PASSWORD = "admin-secret-owners";
const NOT_FOUND = "https://uri.etsi.org/ngsi-ld/errors/ResourceNotFound";

/** A subscription body with a receiverInfo secret, as an owner would keep it. */
const subscription = (id: string, uri = "http://127.0.0.1:9/notify") => ({
  id,
  type: "Subscription",
  entities: [{ type: "Road" }],
  notification: { endpoint: { uri, receiverInfo: [{ key: "Authorization", value: `secret-of-${id}` }] } },
});

/** A context source registration subscription body. */
const csourceSubscription = (id: string) => ({
  id,
  type: "Subscription",
  entities: [{ type: "Road" }],
  notification: { endpoint: { uri: "http://127.0.0.1:9/notify" } },
});

type Auth = Record<string, string>;

async function ids(app: TestApp, base: string, who: Auth): Promise<string[]> {
  const r = await http(app.url, "GET", base, undefined, who);
  expect(r.status, r.text).to.equal(200);
  return (r.body as { id: string }[]).map((s) => s.id).sort();
}

async function create(app: TestApp, base: string, body: unknown, who: Auth): Promise<void> {
  const r = await http(app.url, "POST", base, body, who);
  expect(r.status, r.text).to.equal(201);
}

/** The 404 a foreign id gets is the 404 of an id that does not exist, but for the id itself. */
function expectNotFound(r: { status: number; body: unknown; text: string }, id: string): void {
  expect(r.status, r.text).to.equal(404);
  expect(r.body).to.include({ type: NOT_FOUND, status: 404, detail: `Subscription ${id} does not exist` });
  expect(r.text).to.not.match(/secret-of|owner/);
}

async function operatorKey(app: TestApp, admin: string): Promise<Auth> {
  const made = await http(
    app.url,
    "POST",
    "/v1/admin/api-keys",
    { name: "ops-key", role: "operator", tier: "premium" },
    bearer(admin),
  );
  expect(made.status, made.text).to.equal(201);
  return { "X-API-Key": (made.body as { key: string }).key };
}

describe("auth: NGSI-LD subscriptions belong to the principal that created them", function () {
  this.timeout(90_000);
  let app: TestApp;
  let admin: Auth;
  let otto: Auth; // an operator user
  let key: Auth; // an operator API key
  let viewer: Auth;

  before(async () => {
    app = await startTestApp({
      AUTH: "on",
      ADMIN_PASSWORD,
      RATE_LIMIT_PREFIX: `t-${process.pid}-owners`,
      NOTIFY_ATTEMPTS: "1",
    });
    const adminToken = (await login(app.url, "admin", ADMIN_PASSWORD)).access_token;
    admin = bearer(adminToken);
    otto = bearer(await userToken(app.url, adminToken, { username: "otto", role: "operator" }));
    viewer = bearer(await userToken(app.url, adminToken, { username: "vic", role: "viewer" }));
    key = await operatorKey(app, adminToken);
    await create(app, SUBS, subscription("urn:ngsi-ld:Subscription:otto"), otto);
    await create(app, SUBS, subscription("urn:ngsi-ld:Subscription:key"), key);
  });
  after(() => app.destroy());

  it("lists only the caller's own subscriptions, and every one to an admin", async () => {
    expect(await ids(app, SUBS, otto)).to.deep.equal(["urn:ngsi-ld:Subscription:otto"]);
    expect(await ids(app, SUBS, key)).to.deep.equal(["urn:ngsi-ld:Subscription:key"]);
    expect(await ids(app, SUBS, admin)).to.deep.equal([
      "urn:ngsi-ld:Subscription:key",
      "urn:ngsi-ld:Subscription:otto",
    ]);
    const counted = await http(app.url, "GET", `${SUBS}?count=true&limit=0`, undefined, otto);
    expect(counted.headers.get("ngsild-results-count")).to.equal("1");
    expect((await http(app.url, "GET", SUBS, undefined, viewer)).status).to.equal(403);
  });

  it("shows the owner's subscription with its secrets to it, and no owner in the representation", async () => {
    const own = await http(app.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:otto`, undefined, otto);
    expect(own.status, own.text).to.equal(200);
    const body = own.body as { notification: { endpoint: { receiverInfo: unknown } } };
    expect(body.notification.endpoint.receiverInfo).to.deep.equal([
      { key: "Authorization", value: "secret-of-urn:ngsi-ld:Subscription:otto" },
    ]);
    const seenByAdmin = await http(app.url, "GET", `${SUBS}?options=sysAttrs`, undefined, admin);
    expect(seenByAdmin.text).to.not.include("owner");
    for (const s of seenByAdmin.body as Record<string, unknown>[]) {
      expect(s).to.have.keys(
        "id",
        "type",
        "entities",
        "notification",
        "notificationTrigger",
        "status",
        "createdAt",
        "modifiedAt",
      );
    }
  });

  it("answers 404 for another's subscription on GET, PATCH and DELETE, and changes nothing", async () => {
    const foreign = "urn:ngsi-ld:Subscription:key";
    const target = `${SUBS}/${foreign}`;
    const unknown = await http(app.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:none`, undefined, otto);
    expectNotFound(unknown, "urn:ngsi-ld:Subscription:none");
    expectNotFound(await http(app.url, "GET", target, undefined, otto), foreign);
    const patch = { notification: { endpoint: { uri: "http://127.0.0.1:9/stolen" } } };
    expectNotFound(await http(app.url, "PATCH", target, patch, otto), foreign);
    expectNotFound(await http(app.url, "DELETE", target, undefined, otto), foreign);
    const still = await http(app.url, "GET", target, undefined, key);
    expect(still.status).to.equal(200);
    expect(still.body).to.nested.include({ "notification.endpoint.uri": "http://127.0.0.1:9/notify" });
    expectNotFound(
      await http(app.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:otto`, undefined, key),
      "urn:ngsi-ld:Subscription:otto",
    );
  });

  it("lets the owner and an admin change and delete; a PATCH keeps the owner", async () => {
    await create(app, SUBS, subscription("urn:ngsi-ld:Subscription:otto-2"), otto);
    const own = `${SUBS}/urn:ngsi-ld:Subscription:otto-2`;
    const patched = await http(app.url, "PATCH", own, { description: "mine" }, otto);
    expect(patched.status, patched.text).to.equal(204);
    expect(await ids(app, SUBS, otto)).to.include("urn:ngsi-ld:Subscription:otto-2");
    expect(await ids(app, SUBS, key)).to.not.include("urn:ngsi-ld:Subscription:otto-2");
    // an admin's change does not make the subscription the admin's
    expect((await http(app.url, "PATCH", own, { description: "by admin" }, admin)).status).to.equal(204);
    const after = await http(app.url, "GET", own, undefined, otto);
    expect(after.body).to.include({ description: "by admin" });
    expect((await http(app.url, "DELETE", own, undefined, otto)).status).to.equal(204);
    await create(app, SUBS, subscription("urn:ngsi-ld:Subscription:key-2"), key);
    const keyOwn = `${SUBS}/urn:ngsi-ld:Subscription:key-2`;
    expect((await http(app.url, "DELETE", keyOwn, undefined, admin)).status).to.equal(204);
    expect((await http(app.url, "GET", keyOwn, undefined, key)).status).to.equal(404);
  });

  it("keeps a taken id taken: 409 whoever owns it", async () => {
    const r = await http(app.url, "POST", SUBS, subscription("urn:ngsi-ld:Subscription:key"), otto);
    expect(r.status).to.equal(409);
    expect(r.text).to.not.include("secret-of");
  });

  it("scopes context source registration subscriptions the same way", async () => {
    await create(app, CSUBS, csourceSubscription("urn:ngsi-ld:Subscription:c-otto"), otto);
    await create(app, CSUBS, csourceSubscription("urn:ngsi-ld:Subscription:c-key"), key);
    expect(await ids(app, CSUBS, otto)).to.deep.equal(["urn:ngsi-ld:Subscription:c-otto"]);
    expect(await ids(app, CSUBS, admin)).to.deep.equal([
      "urn:ngsi-ld:Subscription:c-key",
      "urn:ngsi-ld:Subscription:c-otto",
    ]);
    const foreign = `${CSUBS}/urn:ngsi-ld:Subscription:c-key`;
    expectNotFound(await http(app.url, "GET", foreign, undefined, otto), "urn:ngsi-ld:Subscription:c-key");
    expectNotFound(await http(app.url, "DELETE", foreign, undefined, otto), "urn:ngsi-ld:Subscription:c-key");
    expect((await http(app.url, "GET", CSUBS, undefined, viewer)).status).to.equal(403);
  });

  it("shows a dead notification in /notifications/queue to its subscription's owner only", async () => {
    const down = await new Receiver().start();
    await down.stop();
    await create(app, SUBS, subscription("urn:ngsi-ld:Subscription:otto-dead", down.url), otto);
    const road = { id: "urn:ngsi-ld:Road:1", type: "Road", n: { type: "Property", value: 1 } };
    expect((await http(app.url, "POST", "/ngsi-ld/v1/entities", road, otto)).status).to.equal(201);
    type Dead = { dead: { subscriptionId: string; uri: string }[] };
    const deadOf = async (who: Auth) =>
      ((await http(app.url, "GET", "/notifications/queue", undefined, who)).body as Dead).dead;
    let seen: Dead["dead"] = [];
    for (let i = 0; i < 200 && seen.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await deadOf(otto);
    }
    expect(seen.map((d) => d.subscriptionId)).to.include("urn:ngsi-ld:Subscription:otto-dead");
    // the key's own subscriptions fail too (their endpoint is closed): it sees those, not otto's
    const keyOwn = await ids(app, SUBS, key);
    for (const d of await deadOf(key)) expect(keyOwn).to.include(d.subscriptionId);
    expect(await deadOf(viewer)).to.deep.equal([]);
    const all = await deadOf(admin);
    expect(all.map((d) => d.subscriptionId)).to.include("urn:ngsi-ld:Subscription:otto-dead");
  });
});

describe("auth: subscriptions made with AUTH=off, and owners across a restart", function () {
  this.timeout(90_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-owners-"));
  const env = { AUTH: "on", ADMIN_PASSWORD, RATE_LIMIT_PREFIX: `t-${process.pid}-owners-restart` };
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("gives no one an AUTH=off subscription (admins see it), and keeps owners over a restart", async () => {
    const open = await startTestApp({ AUTH: "off" }, dir);
    await create(open, SUBS, subscription("urn:ngsi-ld:Subscription:anon"), {});
    await open.close();

    const first = await startTestApp(env, dir);
    const adminToken = (await login(first.url, "admin", ADMIN_PASSWORD)).access_token;
    const ana = { username: "ana", role: "operator" };
    const anaToken = await userToken(first.url, adminToken, ana);
    expect(await ids(first, SUBS, bearer(anaToken))).to.deep.equal([]);
    expectNotFound(
      await http(first.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:anon`, undefined, bearer(anaToken)),
      "urn:ngsi-ld:Subscription:anon",
    );
    await create(first, SUBS, subscription("urn:ngsi-ld:Subscription:ana"), bearer(anaToken));
    await first.close();

    const second = await startTestApp(env, dir);
    try {
      const adminAgain = bearer((await login(second.url, "admin", ADMIN_PASSWORD)).access_token);
      const anaAgain = bearer((await login(second.url, "ana", `pw-ana-123`)).access_token);
      expect(await ids(second, SUBS, anaAgain)).to.deep.equal(["urn:ngsi-ld:Subscription:ana"]);
      expect(await ids(second, SUBS, adminAgain)).to.deep.equal([
        "urn:ngsi-ld:Subscription:ana",
        "urn:ngsi-ld:Subscription:anon",
      ]);
    } finally {
      await second.close();
    }
  });
});
