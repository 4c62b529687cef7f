import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApp, RunningApp } from "../../../src/app/start-app";
import { loadConfig } from "../../../src/config/config";
import { createLogger } from "../../../src/log/logger";

/** A service started in process on a temporary DATA_DIR and a free port, for integration tests. */
export interface TestApp extends RunningApp {
  dataDir: string;
  /** Stops the service and deletes its data directory. */
  destroy(): Promise<void>;
}

/**
 * Starts the app in process (real store, real HTTP) with test defaults: no seed, no feed, quiet logs, AUTH=off,
 * the temporal history kept raw.
 */
export async function startTestApp(env: Record<string, string> = {}, dataDir?: string): Promise<TestApp> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-test-"));
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dir,
    SEED: "off",
    FEED: "off",
    LOG_LEVEL: "error",
    AUTH: "off",
    // tests' receivers and context servers listen on 127.0.0.1
    OUTBOUND_ALLOW_LOOPBACK: "on",
    // tests write histories dated years ago: kept raw unless a test sets the retention windows
    TEMPORAL_RAW_RETENTION: "0",
    TEMPORAL_HOURLY_RETENTION: "0",
    ...env,
  });
  const app = await startApp(config, createLogger(config.server.logLevel));
  return {
    ...app,
    dataDir: dir,
    destroy: async () => {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Link header naming the ETSI test-suite context (resolved locally by the broker). */
export const TEST_CONTEXT =
  "https://forge.etsi.org/rep/cim/ngsi-ld-test-suite/-/raw/develop/resources/jsonld-contexts/ngsi-ld-test-suite-compound.jsonld";

/** A Link header value for `url`. */
export const linkTo = (url: string) =>
  `<${url}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`;

/** Small JSON HTTP client over fetch. */
export async function http(
  base: string,
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const h: Record<string, string> = { ...headers };
  if (body !== undefined && !h["Content-Type"]) h["Content-Type"] = "application/json";
  const res = await fetch(base + p, {
    method,
    headers: h,
    body:
      body === undefined
        ? undefined
        : typeof body === "string" || body instanceof Uint8Array
          ? body
          : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
