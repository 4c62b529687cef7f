import { expect } from "chai";
import { http, linkTo, startTestApp, TEST_CONTEXT, type TestApp } from "../helpers/test-app";
import { Receiver } from "../helpers/receiver";

const SUBS = "/ngsi-ld/v1/subscriptions";
const ENTITIES = "/ngsi-ld/v1/entities";
const JSON_CT = { "Content-Type": "application/json" };

describe("NGSI-LD subscriptions (ETSI GS CIM 009 v1.8 §5.8, §6.10, §6.11)", function () {
  this.timeout(30_000);
  let app: TestApp;
  let rx: Receiver;
  const sub = (extra: Record<string, unknown> = {}, notification: Record<string, unknown> = {}) => ({
    type: "Subscription",
    entities: [{ type: "Camera" }],
    notification: { endpoint: { uri: rx.url }, ...notification },
    ...extra,
  });
  const camera = (id: string, speed: number, extra: Record<string, unknown> = {}) => ({
    id,
    type: "Camera",
    speed: { type: "Property", value: speed },
    location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7, 10.78] } },
    ...extra,
  });
  const forSub = (id: string) => rx.received.filter((r) => r.body.subscriptionId === id);

  before(async () => {
    rx = await new Receiver().start();
    app = await startTestApp({
      NOTIFY_BACKOFF: "20ms",
      NOTIFY_BACKOFF_MAX: "100ms",
      SUBSCRIPTION_STATUS_FLUSH: "50ms",
    });
  });
  after(async () => {
    await app.destroy();
    await rx.stop();
  });

  it("creates (201 + Location), retrieves, lists with count/limit/offset and Link, patches and deletes", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await http(
        app.url,
        "POST",
        SUBS,
        sub({ id: `urn:ngsi-ld:Subscription:crud${i}`, q: "speed>1" }),
      );
      expect(r.status).to.equal(201);
      expect(r.headers.get("location")).to.equal(
        `/ngsi-ld/v1/subscriptions/urn:ngsi-ld:Subscription:crud${i}`,
      );
      ids.push(`urn:ngsi-ld:Subscription:crud${i}`);
    }
    const auto = await http(app.url, "POST", SUBS, sub());
    expect(auto.status).to.equal(201);
    expect(auto.headers.get("location")).to.match(/\/subscriptions\/urn:ngsi-ld:Subscription:[0-9a-f-]{36}$/);
    const one = await http(app.url, "GET", `${SUBS}/${ids[0]}`);
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.include({
      id: ids[0],
      type: "Subscription",
      q: "speed>1",
      status: "active",
    });
    const page = await http(app.url, "GET", `${SUBS}?limit=2&offset=1&count=true`);
    expect(page.headers.get("ngsild-results-count")).to.equal("4");
    expect((page.body as { id: string }[]).map((s) => s.id)).to.deep.equal(ids.slice(1, 3));
    expect(page.headers.get("link")).to.contain('rel="next"').and.contain('rel="prev"');
    const patched = await http(app.url, "PATCH", `${SUBS}/${ids[0]}`, { isActive: false, q: "speed>9" });
    expect(patched.status).to.equal(204);
    const after = (await http(app.url, "GET", `${SUBS}/${ids[0]}?options=sysAttrs`)).body as Record<
      string,
      unknown
    >;
    expect(after).to.include({ q: "speed>9", isActive: false, status: "paused" });
    expect(after.modifiedAt).to.be.a("string");
    for (const id of [...ids, (auto.headers.get("location") as string).split("/").pop() as string]) {
      expect((await http(app.url, "DELETE", `${SUBS}/${id}`)).status).to.equal(204);
    }
    expect((await http(app.url, "GET", `${SUBS}/${ids[0]}`)).status).to.equal(404);
    expect((await http(app.url, "DELETE", `${SUBS}/${ids[0]}`)).status).to.equal(404);
  });

  it("refuses bad input with precise 400s and stores nothing; 409 for a taken id", async () => {
    const bad: Record<string, unknown>[] = [
      sub({}, { endpoint: { uri: "not-a-uri" } }),
      sub({}, { format: "xml" }),
      sub({ q: "speed>>1" }),
      sub({ geoQ: { georel: "within", geometry: "Point", coordinates: "[1,2" } }),
      sub({ timeInterval: 10, watchedAttributes: ["speed"] }),
      sub({ expiresAt: "2001-01-01T00:00:00Z" }),
    ];
    for (const b of bad) {
      const r = await http(app.url, "POST", SUBS, { id: "urn:ngsi-ld:Subscription:bad", ...b });
      expect(r.status, JSON.stringify(b)).to.equal(400);
      expect((r.body as { type: string }).type).to.equal(
        "https://uri.etsi.org/ngsi-ld/errors/BadRequestData",
      );
    }
    expect((await http(app.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:bad`)).status).to.equal(404);
    expect((await http(app.url, "POST", SUBS, sub({ id: "urn:ngsi-ld:Subscription:dup" }))).status).to.equal(
      201,
    );
    const dup = await http(app.url, "POST", SUBS, sub({ id: "urn:ngsi-ld:Subscription:dup" }));
    expect(dup.status).to.equal(409);
    expect((dup.body as { type: string }).type).to.equal("https://uri.etsi.org/ngsi-ld/errors/AlreadyExists");
    const patch = await http(app.url, "PATCH", `${SUBS}/urn:ngsi-ld:Subscription:dup`, {
      notification: { format: "x" },
    });
    expect(patch.status).to.equal(400);
    const kept = (await http(app.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:dup`)).body as {
      notification: object;
    };
    expect(kept.notification).to.deep.include({ format: "normalized" });
    await http(app.url, "DELETE", `${SUBS}/urn:ngsi-ld:Subscription:dup`);
  });

  it("keeps tenants apart", async () => {
    const t = { "NGSILD-Tenant": "other" };
    expect(
      (await http(app.url, "POST", SUBS, sub({ id: "urn:ngsi-ld:Subscription:tn" }), t)).status,
    ).to.equal(201);
    expect((await http(app.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:tn`)).status).to.equal(404);
    expect((await http(app.url, "GET", `${SUBS}/urn:ngsi-ld:Subscription:tn`, undefined, t)).status).to.equal(
      200,
    );
    expect(await http(app.url, "GET", SUBS)).to.have.nested.property("body.length", 0);
    // a write in the default tenant does not notify the other tenant's subscription
    await http(app.url, "POST", ENTITIES, camera("urn:ngsi-ld:Camera:tn", 1));
    await http(app.url, "POST", ENTITIES, camera("urn:ngsi-ld:Camera:tn", 1), t);
    await rx.until(() => forSub("urn:ngsi-ld:Subscription:tn").length > 0);
    await new Promise((r) => setTimeout(r, 200));
    const got = forSub("urn:ngsi-ld:Subscription:tn");
    expect(got).to.have.length(1);
    expect(got[0].headers["ngsild-tenant"]).to.equal("other");
    await http(app.url, "DELETE", `${SUBS}/urn:ngsi-ld:Subscription:tn`, undefined, t);
  });

  it("is never visible as an entity, in /types or in queries, and survives a restart", async () => {
    const id = "urn:ngsi-ld:Subscription:hidden";
    expect((await http(app.url, "POST", SUBS, sub({ id, description: "kept" }))).status).to.equal(201);
    const types = (await http(app.url, "GET", "/ngsi-ld/v1/types")).body as { typeList: string[] };
    expect(types.typeList).to.not.include("Subscription");
    expect(JSON.stringify(types)).to.not.contain("internal");
    expect((await http(app.url, "GET", `${ENTITIES}/${encodeURIComponent(id)}`)).status).to.equal(404);
    const attrs = await http(app.url, "GET", "/ngsi-ld/v1/attributes");
    expect(JSON.stringify(attrs.body)).to.not.contain("subscriptionState");
    const q = await http(app.url, "GET", `${ENTITIES}?idPattern=.*`);
    expect((q.body as { id: string }[]).map((e) => e.id).filter((x) => x.includes("internal"))).to.deep.equal(
      [],
    );
    const sparql = await http(
      app.url,
      "GET",
      `/sparql?query=${encodeURIComponent("SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")}`,
      undefined,
      { Accept: "application/sparql-results+json" },
    );
    expect(sparql.text).to.not.contain("internal");
    // restart on the same data dir
    await app.close();
    app = await startTestApp(
      { NOTIFY_BACKOFF: "20ms", NOTIFY_BACKOFF_MAX: "100ms", SUBSCRIPTION_STATUS_FLUSH: "50ms" },
      app.dataDir,
    );
    const back = await http(app.url, "GET", `${SUBS}/${id}`);
    expect(back.status).to.equal(200);
    expect(back.body).to.deep.include({ id, description: "kept", entities: [{ type: "Camera" }] });
    await http(app.url, "DELETE", `${SUBS}/${id}`);
  });

  it("notifies in normalized form with the Link header, receiverInfo headers and status fields", async () => {
    const id = "urn:ngsi-ld:Subscription:norm";
    const body = sub(
      { id, entities: [{ type: "Camera", id: "urn:ngsi-ld:Camera:n1" }] },
      {
        endpoint: { uri: rx.url, receiverInfo: [{ key: "X-Auth", value: "secret" }] },
        attributes: ["speed"],
      },
    );
    expect((await http(app.url, "POST", SUBS, body)).status).to.equal(201);
    await http(app.url, "POST", ENTITIES, camera("urn:ngsi-ld:Camera:n1", 10));
    await http(app.url, "POST", ENTITIES, camera("urn:ngsi-ld:Camera:n2", 10));
    expect(await rx.until(() => forSub(id).length === 1)).to.equal(true);
    const n = forSub(id)[0];
    expect(n.body).to.include({ type: "Notification", subscriptionId: id });
    expect(n.body.id).to.match(/^urn:ngsi-ld:Notification:/);
    expect(Date.parse(n.body.notifiedAt)).to.be.closeTo(Date.now(), 10_000);
    expect(n.body.data).to.deep.equal([
      { id: "urn:ngsi-ld:Camera:n1", type: "Camera", speed: { type: "Property", value: 10 } },
    ]);
    expect(n.headers["content-type"]).to.equal("application/json");
    expect(n.headers.link).to.contain("ngsi-ld-core-context");
    expect(n.headers["x-auth"]).to.equal("secret");
    await new Promise((r) => setTimeout(r, 150));
    const s = (await http(app.url, "GET", `${SUBS}/${id}`)).body as { notification: Record<string, unknown> };
    expect(s.notification).to.include({ timesSent: 1, status: "ok" });
    expect(s.notification.lastSuccess).to.be.a("string");
    await http(app.url, "DELETE", `${SUBS}/${id}`);
  });

  it("notifies keyValues with the @context in the body for application/ld+json, in the subscription's terms", async () => {
    const id = "urn:ngsi-ld:Subscription:kv";
    const body = {
      id,
      type: "Subscription",
      entities: [{ type: "Building" }],
      watchedAttributes: ["airQualityLevel"],
      notification: { endpoint: { uri: rx.url, accept: "application/ld+json" }, format: "keyValues" },
      "@context": TEST_CONTEXT,
    };
    const r = await http(app.url, "POST", SUBS, body, { "Content-Type": "application/ld+json" });
    expect(r.status).to.equal(201);
    const b = {
      id: "urn:ngsi-ld:Building:kv",
      type: "Building",
      airQualityLevel: { type: "Property", value: 4 },
      name: { type: "Property", value: "x" },
    };
    await http(app.url, "POST", ENTITIES, b, { ...JSON_CT, Link: linkTo(TEST_CONTEXT) });
    await http(
      app.url,
      "PATCH",
      `${ENTITIES}/urn:ngsi-ld:Building:kv/attrs`,
      { name: { type: "Property", value: "y" } },
      { ...JSON_CT, Link: linkTo(TEST_CONTEXT) },
    );
    await http(
      app.url,
      "PATCH",
      `${ENTITIES}/urn:ngsi-ld:Building:kv/attrs`,
      { airQualityLevel: { type: "Property", value: 7 } },
      { ...JSON_CT, Link: linkTo(TEST_CONTEXT) },
    );
    expect(await rx.until(() => forSub(id).length === 2)).to.equal(true);
    await new Promise((r) => setTimeout(r, 200));
    const got = forSub(id);
    expect(got, "the name change is not watched").to.have.length(2);
    expect(got[0].headers["content-type"]).to.equal("application/ld+json");
    expect(got[0].body["@context"]).to.equal(TEST_CONTEXT);
    expect(got.map((n) => n.body.data[0].airQualityLevel)).to.deep.equal([4, 7]);
    await http(app.url, "DELETE", `${SUBS}/${id}`);
  });

  it("q and geoQ filter notifications; entityDeleted and showChanges", async () => {
    const q = "urn:ngsi-ld:Subscription:q";
    const geo = "urn:ngsi-ld:Subscription:geo";
    const del = "urn:ngsi-ld:Subscription:del";
    await http(app.url, "POST", SUBS, sub({ id: q, q: "speed>50" }, { format: "concise" }));
    await http(
      app.url,
      "POST",
      SUBS,
      sub(
        {
          id: geo,
          geoQ: { georel: "near;maxDistance==1000", geometry: "Point", coordinates: [106.7, 10.781] },
        },
        { showChanges: true },
      ),
    );
    await http(app.url, "POST", SUBS, sub({ id: del, notificationTrigger: ["entityDeleted"] }));
    const e = "urn:ngsi-ld:Camera:qg";
    await http(app.url, "POST", ENTITIES, camera(e, 10));
    await http(app.url, "PATCH", `${ENTITIES}/${e}/attrs`, { speed: { type: "Property", value: 60 } });
    await http(app.url, "DELETE", `${ENTITIES}/${e}`);
    expect(
      await rx.until(() => forSub(del).length === 1 && forSub(geo).length === 2 && forSub(q).length === 1),
    ).to.equal(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(forSub(q).map((n) => n.body.data[0].speed)).to.deep.equal([60]);
    const g = forSub(geo).map((n) => n.body.data[0].speed);
    expect(g).to.deep.equal([
      { type: "Property", value: 10 },
      { type: "Property", value: 60, previousValue: 10 },
    ]);
    const d = forSub(del)[0].body.data[0];
    expect(Object.keys(d).sort()).to.deep.equal(["deletedAt", "id", "type"]);
    expect(d).to.include({ id: e, type: "Camera" });
    for (const id of [q, geo, del]) await http(app.url, "DELETE", `${SUBS}/${id}`);
  });

  it("throttling drops notifications closer than its period; timeInterval notifies periodically", async () => {
    const th = "urn:ngsi-ld:Subscription:th";
    await http(
      app.url,
      "POST",
      SUBS,
      sub({ id: th, throttling: 5, entities: [{ type: "Camera", id: "urn:ngsi-ld:Camera:th" }] }),
    );
    await http(app.url, "POST", ENTITIES, camera("urn:ngsi-ld:Camera:th", 1));
    for (let i = 2; i < 6; i++)
      await http(app.url, "PATCH", `${ENTITIES}/urn:ngsi-ld:Camera:th/attrs`, {
        speed: { type: "Property", value: i },
      });
    const per = "urn:ngsi-ld:Subscription:per";
    await http(
      app.url,
      "POST",
      SUBS,
      sub({ id: per, timeInterval: 1, entities: [{ type: "Camera", id: "urn:ngsi-ld:Camera:th" }] }),
    );
    expect(await rx.until(() => forSub(per).length >= 2, 5000)).to.equal(true);
    expect(forSub(th)).to.have.length(1);
    expect(forSub(per)[0].body.data[0]).to.deep.include({ id: "urn:ngsi-ld:Camera:th" });
    for (const id of [th, per]) await http(app.url, "DELETE", `${SUBS}/${id}`);
  });

  it("retries while the receiver is down and counts failures (in-process queue)", async () => {
    const down = await new Receiver().start();
    await down.stop();
    const id = "urn:ngsi-ld:Subscription:down";
    await http(
      app.url,
      "POST",
      SUBS,
      sub(
        { id, entities: [{ type: "Camera", id: "urn:ngsi-ld:Camera:down" }] },
        { endpoint: { uri: down.url } },
      ),
    );
    await http(app.url, "POST", ENTITIES, camera("urn:ngsi-ld:Camera:down", 1));
    await new Promise((r) => setTimeout(r, 300));
    const failed = (await http(app.url, "GET", `${SUBS}/${id}`)).body as {
      notification: Record<string, unknown>;
    };
    expect(failed.notification.status).to.equal("failed");
    expect(failed.notification.timesFailed).to.be.greaterThan(0);
    await down.start();
    expect(await down.until(() => down.received.length === 1)).to.equal(true);
    await down.stop();
    await http(app.url, "DELETE", `${SUBS}/${id}`);
  });
});
