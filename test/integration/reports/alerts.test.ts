import { expect } from "chai";
import { RestAClient } from "../helpers/rest-a-client";
import { RestBClient } from "../helpers/rest-b-client";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { accidentDoc, startReceiver, startSmtp, until } from "../helpers/report-fixtures";

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const D1 = [106.7009, 10.7769] as const; // Quận 1
const D7 = [106.719, 10.7295] as const; // Quận 7 (Phú Mỹ Hưng)

/** Alerts by email on a real SMTP server and by webhook, only for what was asked. */
describe("alerts: subscriptions, matching on the change feed, email and webhook delivery", function () {
  this.timeout(60_000);
  let app: TestApp;
  // every REST answer below is held to the service's OpenAPI documents
  let apiA: RestAClient;
  let apiB: RestBClient;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  const write = (doc: Obj) =>
    http(app.url, "POST", "/ngsi-ld/v1/entities", doc, { "Content-Type": "application/ld+json" });

  before(async () => {
    smtp = await startSmtp();
    hook = await startReceiver();
    app = await startTestApp({ SEED: "on", SMTP_URL: smtp.url, NOTIFY_BACKOFF: "100" });
    apiA = new RestAClient(app.url);
    apiB = new RestBClient(app.url);
    await Promise.all([apiA.init(), apiB.init()]);
  });
  after(async () => {
    await app?.destroy();
    await smtp?.close();
    await hook?.close();
  });

  it("refuses an unconfigured channel, an unknown district and a bad severity with 400", async () => {
    const base = {
      user_id: "u1",
      alert_types: ["accident"],
      locations: ["District 1"],
      severity_threshold: "severe",
    };
    const sms = await apiA.call("POST", "/v1/alerts/subscriptions", {
      ...base,
      channels: ["sms"],
      phone: "+84901234567",
    });
    expect(sms.status).to.equal(400);
    expect((sms.body as Obj).error.message).to.match(/sms channel is not configured/);
    const district = await apiA.call("POST", "/v1/alerts/subscriptions", {
      ...base,
      locations: ["Atlantis"],
      channels: ["webhook"],
      webhook_url: hook.url,
    });
    expect(district.status).to.equal(400);
    expect((district.body as Obj).error.details.parameter).to.equal("locations");
    const sev = await apiA.call("POST", "/v1/alerts/subscriptions", {
      ...base,
      severity_threshold: "apocalyptic",
      channels: ["webhook"],
      webhook_url: hook.url,
    });
    expect(sev.status).to.equal(400);
    const noEmail = await apiA.call("POST", "/v1/alerts/subscriptions", { ...base, channels: ["email"] });
    expect(noEmail.status).to.equal(400);
  });

  it("sends a severe accident in a subscribed district by email and webhook, and nothing for a minor one or another district", async () => {
    const email = await apiA.call("POST", "/v1/alerts/subscriptions", {
      user_id: "lan",
      alert_types: ["accident"],
      locations: ["Quận 1"],
      severity_threshold: "severe",
      channels: ["email"],
      email: "lan@example.com",
    });
    expect(email.status).to.equal(201);
    expect(email.body).to.include({ status: "active" });
    expect((email.body as Obj).subscription_id).to.be.a("string");
    const webhook = await apiB.call("POST", "/api/v1/alerts/subscriptions", {
      user_id: "ops",
      alert_types: ["accident", "weather"],
      locations: ["district 1"],
      severity_threshold: "moderate",
      channels: ["webhook"],
      webhook_url: hook.url,
    });
    expect(webhook.status).to.equal(201);

    expect((await write(accidentDoc("minor-d1", D1[0], D1[1], "minor"))).status).to.equal(201);
    expect((await write(accidentDoc("severe-d7", D7[0], D7[1], "critical"))).status).to.equal(201);
    expect((await write(accidentDoc("severe-d1", D1[0] + 0.001, D1[1], "severe"))).status).to.equal(201);

    await until(() => smtp.mails.length >= 1 && hook.bodies.length >= 1, 10_000, "email and webhook");
    await new Promise((r) => setTimeout(r, 700)); // anything wrongly sent would have arrived by now
    expect(smtp.mails).to.have.length(1);
    expect(smtp.mails[0].to).to.deep.equal(["lan@example.com"]);
    expect(smtp.mails[0].text)
      .to.match(/Severe accident/)
      .and.match(/District 1/);
    expect(hook.bodies).to.have.length(1);
    const alert = (hook.bodies[0] as Obj).alert;
    expect(alert).to.include({ id: "accident-severe-d1", type: "accident", severity: "severe" });
    expect(alert.location.lat).to.equal(D1[1]);
    expect(alert.location.address).to.match(/District 1/);
    expect(alert.message).to.be.a("string");
    expect(alert.timestamp).to.be.a("string");
  });

  it("counts alert deliveries and report verifications in the delivery metrics, by queue and outcome", async () => {
    const report = await apiA.call("POST", "/v1/citizen-reports", {
      category: "road_damage",
      location: { lat: 10.78, lon: 106.695 },
      description: "A deep pothole in the right lane",
      images: [],
      reporter: { name: "Lan", phone: "0901111222" },
    });
    expect(report.status, JSON.stringify(report.body)).to.equal(201);
    const count = async (queue: string) => {
      const text = (await http(app.url, "GET", "/metrics")).text;
      const line = text
        .split("\n")
        .find(
          (l) =>
            l.startsWith("citygraph_delivery_duration_seconds_count{") &&
            l.includes(`queue="${queue}"`) &&
            l.includes('outcome="notified"'),
        );
      return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1));
    };
    // the email and the webhook of the severe accident above, and this report's verification
    await until(async () => (await count("verification")) >= 1, 10_000, "a verification in the metrics");
    expect(await count("alerts")).to.equal(2);
  });

  it("lists the caller's subscriptions, deletes one, and derives the active alerts from the graph", async () => {
    const list = (await apiA.call("GET", "/v1/alerts/subscriptions")).body as Obj;
    expect(list.subscriptions.length).to.be.greaterThanOrEqual(2);
    const one = list.subscriptions.find((s: Obj) => s.user_id === "lan");
    expect(one).to.include({ severity_threshold: "severe", status: "active" });
    expect((await apiA.call("DELETE", `/v1/alerts/subscriptions/${one.subscription_id}`)).status).to.equal(
      204,
    );
    expect((await apiA.call("DELETE", `/v1/alerts/subscriptions/${one.subscription_id}`)).status).to.equal(
      404,
    );
    const active = ((await apiA.call("GET", "/v1/alerts/active")).body as Obj).alerts as Obj[];
    const ids = active.map((a) => a.id);
    expect(ids).to.include.members(["accident-severe-d1", "accident-severe-d7", "accident-minor-d1"]);
    expect(active[0].severity).to.equal("critical");
    for (const a of active)
      expect(Object.keys(a).sort()).to.deep.equal([
        "id",
        "location",
        "message",
        "severity",
        "timestamp",
        "type",
      ]);
    const alerts = await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Alert", undefined, {
      Link: '<https://w3id.org/citygraph/contexts/traffic.jsonld>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"',
    });
    expect((alerts.body as Obj[]).map((a) => a.alertSource.object)).to.include(
      "urn:ngsi-ld:TrafficAccident:severe-d1",
    );
  });

  it("answers the push key and B's lists in the documented shapes", async () => {
    const key = await apiA.call("GET", "/v1/alerts/push-key");
    expect((key.body as Obj).vapid_public_key).to.match(/^[A-Za-z0-9_-]{80,}$/);
    expect((await apiB.call("GET", "/api/v1/alerts/push-key")).body).to.deep.equal(key.body);
    const mine = (await apiB.call("GET", "/api/v1/alerts/subscriptions")).body as Obj;
    expect(mine.subscriptions.map((x: Obj) => x.user_id)).to.include("ops");
    const active = (await apiB.call("GET", "/api/v1/alerts/active")).body as Obj;
    expect(active.alerts.map((x: Obj) => x.id)).to.include("accident-severe-d1");
    const gone = await apiB.call(
      "DELETE",
      `/api/v1/alerts/subscriptions/${mine.subscriptions[0].subscription_id}`,
    );
    expect(gone.status).to.equal(204);
  });

  it("has checked a success of every alert operation of both documents", () => {
    for (const api of [apiA, apiB]) {
      const ops = Object.entries(api.doc.paths).flatMap(([p, m]) =>
        Object.entries(m as Record<string, { tags: string[]; responses: Record<string, unknown> }>)
          .filter(([, op]) => op.tags[0] === "alerts")
          .map(([x, op]) => `${x} ${p} ${Object.keys(op.responses).find((st) => st.startsWith("2"))}`),
      );
      expect(ops.length).to.equal(5);
      expect(ops.filter((o) => !api.checked.has(o))).to.deep.equal([]);
    }
  });
});
