import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startChild, waitFor200, type Child } from "./child";

/**
 * The service under test: `node dist/src/main.js` as a child process on a free loopback port,
 * with a data directory of its own, no seed data and no live feed, warnings only in the log.
 */

/**
 * Compiled entry of the service: this build's, or another build's named by `BENCH_MAIN_JS` (to
 * compare two commits' services under the same bench).
 */
export const MAIN_JS = process.env.BENCH_MAIN_JS
  ? path.resolve(process.env.BENCH_MAIN_JS)
  : path.resolve(__dirname, "..", "..", "src", "main.js");

/** Lines that count as the service logging that it is ready. */
export const READY_LOG = /listening/i;

/** A fresh, empty data directory under the OS temp folder. */
export function freshDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "citygraph-bench-"));
}

/** Options of {@link startServer}. */
export interface ServerOptions {
  dataDir: string;
  logLevel?: string;
  nodeArgs?: string[];
  /** ms to wait for GET /health = 200. */
  timeoutMs?: number;
  /** More environment for the service (e.g. SEED=on). */
  env?: Record<string, string>;
}

/** A started service and the times it took (ms since spawn). */
export interface StartedServer {
  child: Child;
  healthMs: number;
  readyLogMs: number | undefined;
}

/**
 * Extra Node arguments for every service the benches start, from `BENCH_SERVER_ARGS` (space-separated,
 * e.g. `--trace-gc`); with `BENCH_SERVER_LOG=<file>` the service's output is appended to that file, at
 * `BENCH_SERVER_LOG_LEVEL` (default `warn`) unless a scenario sets its own.
 */
function serverNodeArgs(): string[] {
  // the V8 heap limit `npm start` gives the service (docs/configuration.md HEAP_MB)
  const heap = `--max-old-space-size=${process.env.HEAP_MB ?? "8192"}`;
  return [heap, ...(process.env.BENCH_SERVER_ARGS ?? "").split(" ").filter((a) => a !== "")];
}

/** Starts the service and waits until GET /health answers 200. */
export async function startServer(o: ServerOptions): Promise<StartedServer> {
  const port = await freePort();
  const child = startChild(MAIN_JS, {
    port,
    nodeArgs: [...serverNodeArgs(), ...(o.nodeArgs ?? [])],
    readyPattern: READY_LOG,
    logFile: process.env.BENCH_SERVER_LOG || undefined,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: o.dataDir,
      SEED: "off",
      FEED: "off",
      LOG_LEVEL: o.logLevel ?? process.env.BENCH_SERVER_LOG_LEVEL ?? "warn",
      AUTH: "off",
      // the benches' receivers (webhooks, notification endpoints, context sources) listen on loopback
      OUTBOUND_ALLOW_LOOPBACK: "on",
      ...o.env,
    },
  });
  const healthAt = await waitFor200(child, "/health", o.timeoutMs ?? 300000);
  return {
    child,
    healthMs: healthAt - child.spawnedAt,
    readyLogMs: child.readyLogAt === undefined ? undefined : child.readyLogAt - child.spawnedAt,
  };
}

/** The store figures GET /health reports (quad count and so on), if it reports them. */
export async function storeStats(child: Child): Promise<Record<string, unknown> | undefined> {
  const res = await fetch(`${child.url}/health`);
  const body = (await res.json()) as { store?: Record<string, unknown> };
  return body.store;
}
