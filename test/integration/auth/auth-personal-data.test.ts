import { expect } from "chai";
import { PERSONAL_STATE } from "../../../src/domain/personal-data";
import { TRAFFIC_NS } from "../../../src/domain/vocabulary";
import { startReceiver, TRAFFIC_CTX, until } from "../helpers/report-fixtures";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, login, userToken } from "./auth-client";

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ENV = {
  AUTH: "on",
  ADMIN_PASSWORD: "admin-secret-1",
  RATE_LIMIT_PREFIX: `t-${process.pid}-personal`,
  SMTP_URL: "smtp://127.0.0.1:9",
  SMS_GATEWAY_URL: "http://127.0.0.1:9/sms",
};
const SPARQL = { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" };
/** What the owner gave: none of it may reach another viewer. */
const SECRETS = {
  email: "olga.private@example.com",
  phone: "+84901112233",
  webhook_url: "http://127.0.0.1:9/olga-secret-hook",
  push_subscription: {
    endpoint: "https://push.example.com/olga-endpoint",
    keys: { p256dh: "olga-p256dh-key", auth: "olga-auth-key" },
  },
};
const REPORTER = { name: "Olga Reporter", phone: "0909123456", email: "olga.reporter@example.com" };
const LEAKS = [
  SECRETS.email,
  SECRETS.phone,
  "olga-secret-hook",
  "olga-endpoint",
  "olga-p256dh-key",
  "olga-auth-key",
  REPORTER.name,
  REPORTER.phone,
  REPORTER.email,
  "Paul Patch",
  "0901234999",
  "Tina Temporal",
  "0907777111",
];
const LINK = {
  Link: `<${TRAFFIC_CTX[0]}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`,
};

function expectNoPersonalData(what: string, text: string): void {
  for (const s of LEAKS) expect(text, `${what} shows ${s}`).not.to.include(s);
}

describe("auth: personal data readable only by its owner, operators and admins (AUTH=on)", function () {
  this.timeout(90_000);
  let app: TestApp;
  let admin: string;
  let owner: string;
  let other: string;
  let operator: string;
  let subscription: string;
  let report: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    receiver = await startReceiver();
    app = await startTestApp(ENV);
    admin = (await login(app.url, "admin", "admin-secret-1")).access_token;
    owner = await userToken(app.url, admin, { username: "olga", role: "viewer" });
    other = await userToken(app.url, admin, { username: "vlad", role: "viewer" });
    operator = await userToken(app.url, admin, { username: "oleg", role: "operator" });
    const sub = await http(
      app.url,
      "POST",
      "/ngsi-ld/v1/subscriptions",
      {
        type: "Subscription",
        entities: [{ type: `${TRAFFIC_NS}CitizenReport` }, { type: `${TRAFFIC_NS}AlertSubscription` }],
        notification: { endpoint: { uri: receiver.url, accept: "application/json" } },
      },
      bearer(operator),
    );
    expect(sub.status, sub.text).to.equal(201);
    const s = await http(
      app.url,
      "POST",
      "/v1/alerts/subscriptions",
      { alert_types: ["accident"], channels: ["email", "sms", "webhook", "push"], ...SECRETS },
      bearer(owner),
    );
    expect(s.status, s.text).to.equal(201);
    subscription = `urn:ngsi-ld:AlertSubscription:${(s.body as Obj).subscription_id}`;
    const r = await http(
      app.url,
      "POST",
      "/v1/accidents/report",
      {
        location: { lat: 10.78, lon: 106.7 },
        severity: "minor",
        description: "Two motorbikes touched at the corner, nobody hurt",
        reporter: REPORTER,
      },
      bearer(owner),
    );
    expect(r.status, r.text).to.equal(201);
    report = `urn:ngsi-ld:CitizenReport:${(r.body as Obj).report_id ?? (r.body as Obj).id}`;
  });
  after(async () => {
    await app.destroy();
    await receiver.close();
  });

  it("keeps alert targets and reporters' contacts out of NGSI-LD: GET by id, query by type, temporal", async () => {
    for (const [id, type] of [
      [subscription, "AlertSubscription"],
      [report, "CitizenReport"],
    ]) {
      for (const token of [other, operator, admin]) {
        const one = await http(app.url, "GET", `/ngsi-ld/v1/entities/${encodeURIComponent(id)}`, undefined, {
          ...bearer(token),
        });
        expect(one.status, one.text).to.equal(200);
        expect((one.body as Obj).id).to.equal(id);
        expectNoPersonalData(`GET ${id}`, one.text);
        const q = `/ngsi-ld/v1/entities?type=${encodeURIComponent(TRAFFIC_NS + type)}`;
        const list = await http(app.url, "GET", q, undefined, bearer(token));
        expect(list.status, list.text).to.equal(200);
        expect((list.body as Obj[]).map((e) => e.id)).to.include(id);
        expectNoPersonalData(`GET ${q}`, list.text);
        const t = `/ngsi-ld/v1/temporal/entities/${encodeURIComponent(id)}`;
        const hist = await http(app.url, "GET", t, undefined, bearer(token));
        expect(hist.status, hist.text).to.equal(200);
        expectNoPersonalData(`GET ${t}`, hist.text);
      }
    }
  });

  it("keeps them out of NGSI-LD notifications", async () => {
    const seen = () => JSON.stringify(receiver.bodies);
    await until(
      async () => seen().includes(report) && seen().includes(subscription),
      10_000,
      "notifications of both entities",
    );
    expectNoPersonalData("notifications", seen());
  });

  it("keeps them out of SPARQL, even a SELECT over every graph", async () => {
    for (const query of [
      "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }",
      "SELECT * WHERE { ?s ?p ?o }",
      "CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }",
    ]) {
      const accept = query.startsWith("CONSTRUCT") ? { Accept: "application/n-triples" } : {};
      const r = await http(app.url, "POST", "/sparql", query, { ...SPARQL, ...accept, ...bearer(other) });
      expect(r.status, r.text).to.equal(200);
      if (query.startsWith("SELECT * WHERE { GRAPH"))
        expect(r.text).to.include(report).and.include(subscription);
      expectNoPersonalData(query, r.text);
    }
  });

  it("shows alert targets to their owner and to admins, not to another viewer", async () => {
    const mine = await http(app.url, "GET", "/v1/alerts/subscriptions", undefined, bearer(owner));
    expect(mine.status, mine.text).to.equal(200);
    expect((mine.body as Obj).subscriptions).to.have.length(1);
    expect((mine.body as Obj).subscriptions[0]).to.deep.include(SECRETS);
    const all = await http(app.url, "GET", "/v1/alerts/subscriptions", undefined, bearer(admin));
    expect((all.body as Obj).subscriptions.map((s: Obj) => s.webhook_url)).to.include(SECRETS.webhook_url);
    const theirs = await http(app.url, "GET", "/v1/alerts/subscriptions", undefined, bearer(other));
    expect((theirs.body as Obj).subscriptions).to.deep.equal([]);
  });

  it("shows reporters' contacts to operators in the review queue, not to viewers", async () => {
    const localId = report.replace("urn:ngsi-ld:CitizenReport:", "");
    await until(
      async () =>
        ((await http(app.url, "GET", "/v1/reviews", undefined, bearer(operator))).body as Obj).reviews.some(
          (r: Obj) => r.report_id === localId,
        ),
      10_000,
      "the report in the review queue",
    );
    const q = await http(app.url, "GET", "/v1/reviews", undefined, bearer(operator));
    const item = (q.body as Obj).reviews.find((r: Obj) => r.report_id === localId);
    expect(item.reporter).to.deep.equal({ is_anonymous: false, ...REPORTER });
    expect((await http(app.url, "GET", "/v1/reviews", undefined, bearer(other))).status).to.equal(403);
    const status = await http(app.url, "GET", `/v1/citizen-reports/${localId}`, undefined, bearer(other));
    expect(status.status).to.equal(200);
    expectNoPersonalData("GET /v1/citizen-reports/{id}", status.text);
  });

  it("keeps a reporter apart when an operator writes it through NGSI-LD: PATCH, and the temporal API", async () => {
    const path = `/ngsi-ld/v1/entities/${encodeURIComponent(report)}/attrs`;
    const patched = { isAnonymous: false, name: "Paul Patch", phone: "0901234999" };
    const before = receiver.bodies.length;
    const p = await http(
      app.url,
      "PATCH",
      path,
      { reporter: { type: "Property", value: patched } },
      {
        ...LINK,
        ...bearer(operator),
      },
    );
    expect(p.status, p.text).to.equal(204);
    const t = `/ngsi-ld/v1/temporal/entities/${encodeURIComponent(report)}/attrs`;
    const instance = {
      type: "Property",
      value: { isAnonymous: false, name: "Tina Temporal", phone: "0907777111" },
      observedAt: new Date().toISOString(),
    };
    const a = await http(app.url, "POST", t, { reporter: [instance] }, { ...LINK, ...bearer(operator) });
    expect(a.status, a.text).to.equal(204);
    // the PATCH changes nothing the shared graph shows, so a notification may not come; any that does is clean
    await until(async () => receiver.bodies.length > before, 2000).catch(() => undefined);
    for (const token of [other, operator]) {
      const one = await http(
        app.url,
        "GET",
        `/ngsi-ld/v1/entities/${encodeURIComponent(report)}`,
        undefined,
        {
          ...LINK,
          ...bearer(token),
        },
      );
      expect(one.status, one.text).to.equal(200);
      expect(one.body as Obj).to.not.have.property("reporter");
      expectNoPersonalData("GET after the PATCH", one.text);
      const hist = await http(
        app.url,
        "GET",
        `/ngsi-ld/v1/temporal/entities/${encodeURIComponent(report)}`,
        undefined,
        {
          ...LINK,
          ...bearer(token),
        },
      );
      expect(hist.status, hist.text).to.equal(200);
      expect(hist.body as Obj).to.not.have.property("reporter");
      expectNoPersonalData("the temporal history", hist.text);
    }
    const sq = await http(app.url, "POST", "/sparql", `SELECT * WHERE { GRAPH <${report}> { ?s ?p ?o } }`, {
      ...SPARQL,
      ...bearer(other),
    });
    expect(sq.text).to.include(report);
    expectNoPersonalData("SPARQL after the PATCH", sq.text);
    expectNoPersonalData("notifications of the PATCH", JSON.stringify(receiver.bodies));
    // kept apart, for operators: the latest reporter written
    const localId = report.replace("urn:ngsi-ld:CitizenReport:", "");
    const q = await http(app.url, "GET", "/v1/reviews", undefined, bearer(operator));
    const item = (q.body as Obj).reviews.find((r: Obj) => r.report_id === localId);
    expect(item?.reporter).to.deep.equal({ is_anonymous: false, name: "Tina Temporal", phone: "0907777111" });
  });

  it("keeps the personal data across a restart, and drops it with an entity deleted through NGSI-LD", async () => {
    // an entity created through NGSI-LD with personal data: kept apart as it is written, and after a restart
    const legacy = "urn:ngsi-ld:CitizenReport:legacy-1";
    const contact = { isAnonymous: false, name: "Lena Legacy", phone: "0907654321" };
    const doc = {
      id: legacy,
      type: "CitizenReport",
      reportType: { type: "Property", value: "other" },
      description: { type: "Property", value: "A report written before contacts were kept apart" },
      location: { type: "GeoProperty", value: { type: "Point", coordinates: [106.7, 10.78] } },
      status: { type: "Property", value: "pending" },
      verificationStatus: { type: "Property", value: "pending" },
      reporter: { type: "Property", value: contact },
      "@context": TRAFFIC_CTX,
    };
    const w = await http(app.url, "POST", "/ngsi-ld/v1/entities", doc, {
      "Content-Type": "application/ld+json",
      ...bearer(operator),
    });
    expect(w.status, w.text).to.equal(201);
    const written = await http(app.url, "GET", `/ngsi-ld/v1/entities/${legacy}`, undefined, bearer(other));
    expect(written.text).to.include("A report written before").and.not.include("Lena Legacy");
    const dataDir = app.dataDir;
    await app.close();
    app = await startTestApp(ENV, dataDir);
    const kept = async () =>
      (await app.store.select("", `SELECT ?g WHERE { GRAPH ?g { ?g <${PERSONAL_STATE}> ?s } }`)).map(
        (r) => r.g,
      );
    expect(await kept()).to.have.length(3);
    const moved = await http(app.url, "GET", `/ngsi-ld/v1/entities/${legacy}`, undefined, bearer(other));
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.text).to.include("A report written before").and.not.include("Lena Legacy");
    const hist = await http(
      app.url,
      "GET",
      `/ngsi-ld/v1/temporal/entities/${legacy}`,
      undefined,
      bearer(other),
    );
    expect(hist.status, hist.text).to.equal(200);
    expect(hist.text).not.to.include("Lena Legacy");
    const sq = await http(app.url, "POST", "/sparql", `SELECT * WHERE { GRAPH <${legacy}> { ?s ?p ?o } }`, {
      ...SPARQL,
      ...bearer(other),
    });
    expect(sq.text).to.include("A report written before").and.not.include("0907654321");
    const queue = await http(app.url, "GET", "/v1/reviews", undefined, bearer(operator));
    const item = (queue.body as Obj).reviews.find((r: Obj) => r.report_id === "legacy-1");
    expect(item.reporter).to.deep.equal({ is_anonymous: false, name: contact.name, phone: contact.phone });

    const mine = await http(app.url, "GET", "/v1/alerts/subscriptions", undefined, bearer(owner));
    expect((mine.body as Obj).subscriptions[0]).to.deep.include(SECRETS);
    const url = `/ngsi-ld/v1/entities/${encodeURIComponent(subscription)}`;
    const del = await http(app.url, "DELETE", url, undefined, bearer(operator));
    expect(del.status, del.text).to.equal(204);
    await until(async () => (await kept()).length === 2, 5000, "the subscription's personal data dropped");
    expect((await kept()).join(" "))
      .to.include(encodeURIComponent(report))
      .and.include("legacy-1");
    const none = await http(app.url, "GET", "/v1/alerts/subscriptions", undefined, bearer(owner));
    expect((none.body as Obj).subscriptions).to.deep.equal([]);
  });
});
