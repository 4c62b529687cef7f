import { expect } from "chai";
import { bearer, entity, login, userToken } from "../auth/auth-client";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const METRICS_TOKEN = "scraper-token-0123456789";

/** The value of one sample of the exposition text (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

describe("GET /metrics", function () {
  this.timeout(60_000);

  describe("with AUTH=off", () => {
    let app: TestApp;
    before(async () => (app = await startTestApp()));
    after(() => app.destroy());

    it("counts requests by face and route template, never by id, with the store and process figures", async () => {
      for (let i = 0; i < 3; i++) {
        const id = `urn:ngsi-ld:Thing:m${i}`;
        const made = await http(app.url, "POST", "/ngsi-ld/v1/entities", entity(id), {
          "Content-Type": "application/ld+json",
        });
        expect(made.status, made.text).to.equal(201);
        const got = await http(app.url, "GET", `/ngsi-ld/v1/entities/${encodeURIComponent(id)}`);
        expect(got.status, got.text).to.equal(200);
      }
      expect((await http(app.url, "GET", "/no/such/path/urn:ngsi-ld:Thing:m0")).status).to.equal(404);
      const r = await http(app.url, "GET", "/metrics");
      expect(r.status, r.text).to.equal(200);
      expect(r.headers.get("content-type")).to.match(/^text\/plain; version=0\.0\.4/);
      const byId = {
        face: "ngsi-ld",
        route: "/ngsi-ld/v1/entities/:entityId",
        method: "GET",
        status: "200",
      };
      expect(sample(r.text, "citygraph_http_request_duration_seconds_count", byId)).to.equal(3);
      expect(
        sample(r.text, "citygraph_http_request_duration_seconds_count", {
          route: "/ngsi-ld/v1/entities",
          method: "POST",
          status: "201",
        }),
      ).to.equal(3);
      expect(
        sample(r.text, "citygraph_http_request_duration_seconds_count", {
          route: "unmatched",
          status: "404",
        }),
      ).to.equal(1);
      expect(r.text).not.to.include("urn:ngsi-ld:Thing:m"); // ids and raw paths never become labels
      expect(sample(r.text, "citygraph_http_requests_in_flight")).to.equal(1); // this scrape
      expect(sample(r.text, "citygraph_store_quads")).to.be.greaterThan(0);
      expect(sample(r.text, "citygraph_store_entities")).to.equal(3);
      expect(sample(r.text, "citygraph_store_capacity_used_ratio")).to.be.within(0, 1);
      expect(sample(r.text, "citygraph_store_commit_duration_seconds_count")).to.be.at.least(3);
      expect(sample(r.text, "citygraph_store_journal_syncs_total")).to.be.at.least(1);
      expect(sample(r.text, "citygraph_queue_jobs", { queue: "notifications", state: "waiting" })).to.equal(
        0,
      );
      expect(sample(r.text, "citygraph_ready", { check: "indexes filled" })).to.equal(1);
      expect(sample(r.text, "citygraph_sparql_queries", { state: "running" })).to.equal(0);
      expect(sample(r.text, "citygraph_store_disk_free_bytes")).to.be.greaterThan(0);
      expect(sample(r.text, "citygraph_live_connections", { kind: "ws" })).to.equal(0);
      expect(sample(r.text, "process_cpu_user_seconds_total")).to.be.greaterThan(0);
      expect(sample(r.text, "nodejs_eventloop_lag_seconds")).to.be.at.least(0);
    });

    it("counts methods outside HTTP's own as _OTHER, so a client cannot add series by inventing methods", async () => {
      const odd = ["PROPFIND", "MKCOL", "PURGE", "LOCK", "SEARCH"];
      for (const method of odd) await http(app.url, method, "/ngsi-ld/v1/entities");
      const r = await http(app.url, "GET", "/metrics");
      const other = sample(r.text, "citygraph_http_request_duration_seconds_count", {
        route: "/ngsi-ld/v1/entities",
        method: "_OTHER",
      });
      const unmatched = sample(r.text, "citygraph_http_request_duration_seconds_count", {
        route: "unmatched",
        method: "_OTHER",
      });
      expect((other ?? 0) + (unmatched ?? 0), r.text).to.equal(odd.length);
      for (const method of odd) expect(r.text).not.to.include(`method="${method}"`);
    });

    it("reports SPARQL queries by outcome", async () => {
      const q = await http(app.url, "POST", "/sparql", "SELECT * WHERE { ?s ?p ?o } LIMIT 1", {
        "Content-Type": "application/sparql-query",
        Accept: "application/sparql-results+json",
      });
      expect(q.status, q.text).to.equal(200);
      const r = await http(app.url, "GET", "/metrics");
      expect(sample(r.text, "citygraph_sparql_query_duration_seconds_count", { outcome: "ok" })).to.equal(1);
    });
  });

  describe("with AUTH=on", () => {
    let app: TestApp;
    let admin: string;
    before(async () => {
      app = await startTestApp({
        AUTH: "on",
        ADMIN_PASSWORD: "admin-secret-metrics",
        METRICS_TOKEN,
        RATE_LIMIT_PREFIX: `t-${process.pid}-metrics`,
      });
      admin = (await login(app.url, "admin", "admin-secret-metrics")).access_token;
    });
    after(() => app.destroy());

    it("is 401 without a credential and with a wrong token", async () => {
      for (const headers of [{}, bearer("not-the-scraper-token-at-all")]) {
        const r = await http(app.url, "GET", "/metrics", undefined, headers);
        expect(r.status, r.text).to.equal(401);
        expect(r.text).not.to.include("citygraph_");
      }
    });

    it("is 403 for a role other than admin", async () => {
      const viewer = await userToken(app.url, admin, { username: "metrics-viewer", role: "viewer" });
      const r = await http(app.url, "GET", "/metrics", undefined, bearer(viewer));
      expect(r.status, r.text).to.equal(403);
      expect(r.text).not.to.include("citygraph_");
    });

    it("answers the scrapers' token and an admin, with logins and refusals counted", async () => {
      const bad = await http(app.url, "POST", "/v1/auth/login", {
        username: "admin",
        password: "wrong-password",
      });
      expect(bad.status).to.equal(401);
      for (const token of [METRICS_TOKEN, admin]) {
        const r = await http(app.url, "GET", "/metrics", undefined, bearer(token));
        expect(r.status, r.text).to.equal(200);
        expect(sample(r.text, "citygraph_auth_logins_total", { outcome: "failed" })).to.equal(1);
        expect(sample(r.text, "citygraph_auth_logins_total", { outcome: "ok" })).to.be.at.least(2);
        expect(sample(r.text, "citygraph_auth_refusals_total", { status: "401" })).to.be.at.least(3);
        expect(sample(r.text, "citygraph_auth_refusals_total", { status: "403" })).to.equal(1);
      }
    });
  });

  it("is 404 and nothing is collected with METRICS=off", async () => {
    const app = await startTestApp({ METRICS: "off" });
    try {
      const r = await http(app.url, "GET", "/metrics");
      expect(r.status).to.equal(404);
    } finally {
      await app.destroy();
    }
  });
});
