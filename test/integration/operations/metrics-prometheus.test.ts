import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { entity } from "../auth/auth-client";
import { freePort } from "../helpers/child-server";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

const METRICS_TOKEN = "prometheus-scrape-token-0123";
const REQUESTS = "citygraph_http_request_duration_seconds_count";

/** The prometheus binary (Debian's `prometheus` package); a missing one fails the test, it does not skip it. */
function prometheusBinary(): string {
  const found = spawnSync("sh", ["-c", "command -v prometheus"], { encoding: "utf8" }).stdout.trim();
  if (!found)
    throw new Error("prometheus is not installed: apt-get install -y prometheus (.ci/run installs it)");
  return found;
}

/** One instant query to Prometheus' HTTP API: the value of the first series, or undefined when none. */
async function query(base: string, q: string): Promise<number | undefined> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = (await res.json()) as { status: string; data: { result: { value: [number, string] }[] } };
  expect(body.status).to.equal("success");
  const first = body.data.result[0];
  return first ? Number(first.value[1]) : undefined;
}

/** Polls `q` until `ok` holds for its value; fails with the last value after `ms`. */
async function waitFor(base: string, q: string, ok: (v: number | undefined) => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  let v: number | undefined;
  while (Date.now() < deadline) {
    v = await query(base, q).catch(() => undefined);
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Prometheus: ${q} was ${v} after ${ms} ms`);
}

describe("a real Prometheus scrapes /metrics", function () {
  this.timeout(120_000);
  let app: TestApp;
  let prom: ChildProcess | undefined;
  let promUrl: string;
  let dir: string;
  let log = "";

  before(async () => {
    const binary = prometheusBinary();
    app = await startTestApp({ AUTH: "on", ADMIN_PASSWORD: "admin-secret-prom", METRICS_TOKEN });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-prometheus-"));
    const config = [
      "global:",
      "  scrape_interval: 1s",
      "  evaluation_interval: 1s",
      "scrape_configs:",
      "  - job_name: citygraph",
      "    authorization:",
      "      type: Bearer",
      `      credentials: ${METRICS_TOKEN}`,
      "    static_configs:",
      `      - targets: ["${new URL(app.url).host}"]`,
      "",
    ].join("\n");
    fs.writeFileSync(path.join(dir, "prometheus.yml"), config);
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prom = spawn(
      binary,
      [
        `--config.file=${path.join(dir, "prometheus.yml")}`,
        `--storage.tsdb.path=${path.join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    prom.stderr?.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  });

  after(async () => {
    if (prom && prom.exitCode === null) {
      const exited = new Promise((r) => prom?.once("exit", r));
      prom.kill("SIGTERM");
      await exited;
    }
    await app?.destroy();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("shows up == 1 and a request counter that grows with the requests sent", async () => {
    try {
      await waitFor(promUrl, 'up{job="citygraph"}', (v) => v === 1);
      const q = `sum(${REQUESTS}{job="citygraph",face="ngsi-ld",route="/ngsi-ld/v1/entities/:entityId"})`;
      const before = (await query(promUrl, q)) ?? 0;
      const created = await http(app.url, "POST", "/ngsi-ld/v1/entities", entity("urn:ngsi-ld:Thing:p1"), {
        "Content-Type": "application/ld+json",
        Authorization: `Bearer ${await adminToken(app.url)}`,
      });
      expect(created.status, created.text).to.equal(201);
      const token = await adminToken(app.url);
      for (let i = 0; i < 25; i++) {
        const r = await http(app.url, "GET", "/ngsi-ld/v1/entities/urn:ngsi-ld:Thing:p1", undefined, {
          Authorization: `Bearer ${token}`,
        });
        expect(r.status, r.text).to.equal(200);
      }
      const after = await waitFor(promUrl, q, (v) => v !== undefined && v >= before + 25);
      expect(after).to.be.at.least(before + 25);
      expect(await query(promUrl, 'citygraph_store_entities{job="citygraph"}')).to.equal(1);
    } catch (e) {
      throw new Error(`${(e as Error).message}\nprometheus log:\n${log}`);
    }
  });
});

/** An admin's access token. */
async function adminToken(base: string): Promise<string> {
  const r = await http(base, "POST", "/v1/auth/login", { username: "admin", password: "admin-secret-prom" });
  expect(r.status, r.text).to.equal(200);
  return (r.body as { access_token: string }).access_token;
}
