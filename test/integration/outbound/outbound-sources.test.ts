import { expect } from "chai";
import fs from "node:fs";
import nodeHttp from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { accidentDoc, until } from "../helpers/report-fixtures";

const REGS = "/ngsi-ld/v1/csourceRegistrations";
const CSUBS = "/ngsi-ld/v1/csourceSubscriptions";
const ALERT_SUBS = "/v1/alerts/subscriptions";
type Json = Record<string, unknown>;

const registration = (id: string, endpoint: string) => ({
  id,
  type: "ContextSourceRegistration",
  information: [{ entities: [{ type: "Vehicle" }] }],
  endpoint,
});
const webhookSub = (url: string) => ({
  user_id: "ops",
  alert_types: ["accident"],
  severity_threshold: "minor",
  channels: ["webhook"],
  webhook_url: url,
});

/** A context source and webhook receiver on `host`: answers GETs with one Vehicle, counts every request. */
async function source(host: string, vehicle: string) {
  const got: { method: string; body: string }[] = [];
  const server = nodeHttp.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      got.push({ method: req.method ?? "", body });
      if (req.method !== "GET") return void res.writeHead(204).end();
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify([{ id: vehicle, type: "Vehicle", speed: { type: "Property", value: 1 } }]));
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    got,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * Hardening: requests to registered context sources (distributed operations) and alert webhooks obey the
 * outbound policy of notifications: a refused endpoint is 400 when it is named, and a request to a refused
 * address is not sent, however the endpoint came to be stored.
 */
describe("outbound policy: context sources and alert webhooks", function () {
  this.timeout(60_000);

  describe("by default (loopback not allowed)", () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ OUTBOUND_ALLOW_LOOPBACK: "off" });
    });
    after(async () => app.destroy());

    it("refuses a registration, a csource subscription and an alert webhook at a refused address with 400, storing nothing", async () => {
      const port = new URL(app.url).port;
      for (const endpoint of [
        "http://127.0.0.1:9999",
        "http://169.254.169.254",
        `http://localhost:${port}`,
      ]) {
        const r = await http(
          app.url,
          "POST",
          REGS,
          registration("urn:ngsi-ld:ContextSourceRegistration:x", endpoint),
        );
        expect(r.status, endpoint).to.equal(400);
        expect((r.body as Json).detail).to.match(/endpoint .* is not allowed/);
        const hook = await http(app.url, "POST", ALERT_SUBS, webhookSub(`${endpoint}/hook`));
        expect(hook.status, endpoint).to.equal(400);
        expect((hook.body as { error: Json }).error.details).to.include({ parameter: "webhook_url" });
      }
      const csub = await http(app.url, "POST", CSUBS, {
        type: "Subscription",
        entities: [{ type: "Vehicle" }],
        notification: { endpoint: { uri: "http://169.254.169.254/latest" } },
      });
      expect(csub.status).to.equal(400);
      expect((await http(app.url, "GET", `${REGS}?type=Vehicle`)).body).to.deep.equal([]);
      expect((await http(app.url, "GET", CSUBS)).body).to.deep.equal([]);
      const alerts = (await http(app.url, "GET", ALERT_SUBS)).body as { subscriptions: unknown[] };
      expect(alerts.subscriptions).to.deep.equal([]);
    });
  });

  it("does not send to a stored source or webhook whose address the policy refuses now", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-outbound-"));
    const refused = await source("127.0.0.1", "urn:ngsi-ld:Vehicle:refused");
    const allowed = await source("127.0.0.2", "urn:ngsi-ld:Vehicle:allowed");
    let app: TestApp | undefined;
    try {
      // stored while 127.0.0.1 was allowed
      app = await startTestApp({ OUTBOUND_ALLOW_LOOPBACK: "on" }, dataDir);
      const stale = "urn:ngsi-ld:ContextSourceRegistration:stale";
      expect((await http(app.url, "POST", REGS, registration(stale, refused.url))).status).to.equal(201);
      expect((await http(app.url, "POST", ALERT_SUBS, webhookSub(`${refused.url}/hook`))).status).to.equal(
        201,
      );
      await app.close();

      // the operator now denies 127.0.0.1; 127.0.0.2 stays reachable (the control)
      app = await startTestApp({ OUTBOUND_ALLOW_LOOPBACK: "on", OUTBOUND_DENY: "127.0.0.1" }, dataDir);
      const fresh = "urn:ngsi-ld:ContextSourceRegistration:fresh";
      expect((await http(app.url, "POST", REGS, registration(fresh, allowed.url))).status).to.equal(201);
      expect((await http(app.url, "POST", ALERT_SUBS, webhookSub(`${allowed.url}/hook`))).status).to.equal(
        201,
      );

      const q = await http(app.url, "GET", "/ngsi-ld/v1/entities?type=Vehicle");
      expect(q.status).to.equal(200);
      expect((q.body as Json[]).map((e) => e.id)).to.deep.equal(["urn:ngsi-ld:Vehicle:allowed"]);
      const warning = q.headers.get("ngsild-warning") ?? "";
      expect(warning)
        .to.contain(stale)
        .and.match(/not allowed/);

      const doc = accidentDoc("outbound", 106.7009, 10.7769, "severe");
      const w = await http(app.url, "POST", "/ngsi-ld/v1/entities", doc, {
        "Content-Type": "application/ld+json",
      });
      expect(w.status).to.equal(201);
      await until(() => allowed.got.some((g) => g.method === "POST"), 10_000, "the allowed webhook");
      await new Promise((r) => setTimeout(r, 500)); // a refused delivery would have been sent by now
      expect(refused.got.map((g) => g.method)).to.deep.equal([]);
      expect(allowed.got.filter((g) => g.method === "GET")).to.have.length(1);
      expect(JSON.parse(allowed.got.find((g) => g.method === "POST")?.body ?? "{}").alert).to.include({
        type: "accident",
      });
    } finally {
      await app?.close();
      await refused.close();
      await allowed.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
