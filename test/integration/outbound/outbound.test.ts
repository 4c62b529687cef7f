import { expect } from "chai";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { http as call, linkTo, startTestApp, type TestApp } from "../helpers/test-app";
import { Receiver } from "../helpers/receiver";

const ENTITIES = "/ngsi-ld/v1/entities";
const SUBS = "/ngsi-ld/v1/subscriptions";
type Json = Record<string, unknown>;
const sub = (uri: string, extra: Json = {}) => ({
  type: "Subscription",
  entities: [{ type: "N" }],
  notification: { endpoint: { uri } },
  ...extra,
});

/** A local server of @context documents, counting the requests it gets. */
async function contextServer(): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    res.setHeader("Content-Type", "application/ld+json");
    res.end(JSON.stringify({ "@context": { [`t${req.url?.length}`]: `https://example.org${req.url}` } }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Hardening: notification loops and floods, and where the broker's own requests may go. */
describe("outbound requests: notification loops, floods, the outbound policy, the context cache", function () {
  this.timeout(30_000);

  describe("with loopback allowed (as the conformance run)", () => {
    let app: TestApp;
    let rx: Receiver;
    before(async () => {
      rx = await new Receiver().start();
      app = await startTestApp({
        OUTBOUND_ALLOW_LOOPBACK: "on",
        NOTIFY_MAX_RATE: "5",
        CONTEXT_CACHE_MAX: "3",
      });
    });
    after(async () => {
      await app.destroy();
      await rx.stop();
    });

    it("refuses the broker's own address as a notification endpoint (400)", async () => {
      const port = new URL(app.url).port;
      for (const host of ["127.0.0.1", "localhost", "[::1]", "0.0.0.0", "127.9.9.9"]) {
        const uri = `http://${host}:${port}/ngsi-ld/v1/entityOperations/upsert`;
        const r = await call(app.url, "POST", SUBS, sub(uri));
        expect(r.status, uri).to.equal(400);
        expect((r.body as Json).detail).to.match(/not allowed/);
      }
      const mqtt = await call(app.url, "POST", SUBS, sub(`mqtt://127.0.0.1:${port}/t`));
      expect(mqtt.status).to.equal(400);
      expect((await call(app.url, "GET", SUBS)).body).to.deep.equal([]);
    });

    it("refuses link-local endpoints (cloud metadata) with 400", async () => {
      const r = await call(app.url, "POST", SUBS, sub("http://169.254.169.254/latest/meta-data"));
      expect(r.status).to.equal(400);
    });

    it("gives timeInterval a floor of 1 s and throttling one of 0.1 s (400 below)", async () => {
      expect((await call(app.url, "POST", SUBS, sub(rx.url, { timeInterval: 0.001 }))).status).to.equal(400);
      expect((await call(app.url, "POST", SUBS, sub(rx.url, { throttling: 0.001 }))).status).to.equal(400);
      const ok = await call(
        app.url,
        "POST",
        SUBS,
        sub(rx.url, { id: "urn:ngsi-ld:Subscription:t1", throttling: 1 }),
      );
      expect(ok.status).to.equal(201);
      expect((await call(app.url, "DELETE", `${SUBS}/urn:ngsi-ld:Subscription:t1`)).status).to.equal(204);
    });

    it("caps the notifications of one subscription per second (NOTIFY_MAX_RATE)", async () => {
      const id = "urn:ngsi-ld:Subscription:flood";
      expect((await call(app.url, "POST", SUBS, sub(rx.url, { id }))).status).to.equal(201);
      const batch = Array.from({ length: 40 }, (_, i) => ({
        id: `urn:ngsi-ld:N:${i}`,
        type: "N",
        a: { type: "Property", value: i },
      }));
      expect((await call(app.url, "POST", "/ngsi-ld/v1/entityOperations/upsert", batch)).status).to.equal(
        201,
      );
      await new Promise((r) => setTimeout(r, 700));
      const got = rx.received.filter((n) => n.body.subscriptionId === id).length;
      expect(got).to.be.at.least(1).and.at.most(5);
      expect((await call(app.url, "DELETE", `${SUBS}/${id}`)).status).to.equal(204);
    });

    it("keeps at most CONTEXT_CACHE_MAX fetched @contexts on disk", async () => {
      const srv = await contextServer();
      try {
        for (let i = 0; i < 8; i++) {
          const r = await call(app.url, "GET", `${ENTITIES}?type=N`, undefined, {
            Link: linkTo(`${srv.url}/c${i}.jsonld?token=s${i}`),
          });
          expect(r.status).to.equal(200);
        }
        const closed = await call(app.url, "GET", `${ENTITIES}?type=N`, undefined, {
          Link: linkTo("http://127.0.0.1:9/x.jsonld"),
        });
        expect(closed.status).to.equal(503);
        expect(closed.text).to.not.match(/ECONNREFUSED|socket|hang up|refused/);
        const dir = path.join(app.dataDir, "context-cache");
        expect(fs.readdirSync(dir).filter((f) => f.endsWith(".json")).length).to.be.at.most(3);
      } finally {
        await srv.close();
      }
    });

    it("lists fetched @contexts only to the tenant that used them", async () => {
      const srv = await contextServer();
      try {
        const url = `${srv.url}/tenant-a.jsonld?token=secret`;
        const r = await call(app.url, "GET", `${ENTITIES}?type=N`, undefined, {
          Link: linkTo(url),
          "NGSILD-Tenant": "a",
        });
        expect(r.status).to.equal(200);
        const mine = (
          await call(app.url, "GET", "/ngsi-ld/v1/jsonldContexts", undefined, { "NGSILD-Tenant": "a" })
        ).body;
        const theirs = (
          await call(app.url, "GET", "/ngsi-ld/v1/jsonldContexts", undefined, { "NGSILD-Tenant": "b" })
        ).body;
        expect(mine).to.include(url);
        expect(theirs).to.not.include(url);
        expect(JSON.stringify(theirs)).to.not.contain("secret");
      } finally {
        await srv.close();
      }
    });
  });

  describe("by default", () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ OUTBOUND_ALLOW_LOOPBACK: "off" });
    });
    after(async () => app.destroy());

    it("refuses loopback endpoints and @contexts, with a generic 503 that maps no port", async () => {
      const rx = await new Receiver().start();
      try {
        expect((await call(app.url, "POST", SUBS, sub(rx.url))).status).to.equal(400);
      } finally {
        await rx.stop();
      }
      const srv = await contextServer();
      try {
        const r = await call(app.url, "GET", `${ENTITIES}?type=N`, undefined, {
          Link: linkTo(`${srv.url}/x.jsonld`),
        });
        expect(r.status).to.equal(503);
        expect(srv.hits()).to.equal(0);
      } finally {
        await srv.close();
      }
      const closed = await call(app.url, "GET", `${ENTITIES}?type=N`, undefined, {
        Link: linkTo("http://127.0.0.1:9/x.jsonld"),
      });
      expect(closed.status).to.equal(503);
      expect(closed.text).to.not.match(/ECONNREFUSED|socket|hang up|refused/);
      const meta = await call(app.url, "GET", `${ENTITIES}?type=N`, undefined, {
        Link: linkTo("http://169.254.169.254/ctx"),
      });
      expect(meta.status).to.equal(503);
    });
  });
});
