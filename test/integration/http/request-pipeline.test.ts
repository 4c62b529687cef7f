import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { startApp, type RunningApp } from "../../../src/app/start-app";
import { loadConfig } from "../../../src/config/config";
import type { Logger } from "../../../src/log/logger";

/** A logger that keeps every event, for asserting on what a request left in the log. */
function capturingLogger(): Logger & {
  lines: { level: string; msg: string; fields: Record<string, unknown> }[];
} {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const log = (level: string, msg: string, fields?: object) =>
    void lines.push({ level, msg, fields: { ...(fields as Record<string, unknown>) } });
  return {
    lines,
    log,
    debug: (m, f) => log("debug", m, f),
    info: (m, f) => log("info", m, f),
    warn: (m, f) => log("warn", m, f),
    error: (m, f) => log("error", m, f),
  };
}

describe("request pipeline: request ids, access log, face error rendering", () => {
  let app: RunningApp;
  let dir: string;
  const log = capturingLogger();

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-pipeline-"));
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      SEED: "off",
      FEED: "off",
      AUTH: "off",
    });
    app = await startApp(config, log);
  });
  after(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it("gives every response a fresh random X-Request-Id, logged in the access line of that request", async () => {
    const ids = new Set<string>();
    for (const p of ["/health", "/ngsi-ld/v1/entities?type=T", "/no/such/path"]) {
      const res = await fetch(app.url + p);
      await res.text();
      const id = res.headers.get("x-request-id") ?? "";
      expect(id).to.match(UUID);
      ids.add(id);
      const line = log.lines.find((l) => l.msg === "request" && l.fields.requestId === id);
      expect(line, `access log line of ${p}`).to.not.equal(undefined);
      expect(line?.fields).to.include({ method: "GET", path: p.split("?")[0], status: res.status });
      expect(line?.fields.ms).to.be.a("number");
    }
    expect(ids.size).to.equal(3);
  });

  it("puts the request id in NGSI-LD ProblemDetails and marks the face of the request", async () => {
    const res = await fetch(`${app.url}/ngsi-ld/v1/entities/urn:ngsi-ld:T:none`);
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).to.equal(404);
    expect(body.type).to.equal("https://uri.etsi.org/ngsi-ld/errors/ResourceNotFound");
    expect(body.requestId).to.equal(res.headers.get("x-request-id"));
    const line = log.lines.find((l) => l.msg === "request" && l.fields.requestId === body.requestId);
    expect(line?.fields.face).to.equal("ngsi-ld");
  });

  it("shows no internal text in a 5xx caused inside the store worker; the log keeps it under the same id", async () => {
    await app.store.close(); // the worker is gone: the next commit fails inside the store
    const res = await fetch(`${app.url}/ngsi-ld/v1/entities`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id: "urn:ngsi-ld:T:1", type: "T", a: { type: "Property", value: 1 } }),
    });
    const text = await res.text();
    const id = res.headers.get("x-request-id");
    expect(res.status).to.equal(500);
    expect(JSON.parse(text)).to.deep.equal({
      type: "https://uri.etsi.org/ngsi-ld/errors/InternalError",
      title: "Internal error",
      status: 500,
      detail: "Internal error",
      requestId: id,
    });
    expect(text).to.not.match(/worker|exited|stack|\.js/i);
    const failed = log.lines.find((l) => l.msg === "request failed" && l.fields.requestId === id);
    expect(String(failed?.fields.error)).to.match(/store worker/);
  });
});
