import { ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

const MAIN = path.resolve(__dirname, "../../../src/main.js");

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/**
 * Starts the service as a child process (its own process, as in production: nothing of the test's
 * heap or event loop is shared) and waits until /health answers 200. Defaults: no seed, no feed, the
 * temporal history kept raw.
 */
export async function startServer(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SEED: "off",
      FEED: "off",
      LOG_LEVEL: "warn",
      AUTH: "off",
      // tests' receivers listen on 127.0.0.1
      OUTBOUND_ALLOW_LOOPBACK: "on",
      // tests write histories dated years ago: kept raw unless a test sets the retention windows
      TEMPORAL_RAW_RETENTION: "0",
      TEMPORAL_HOURLY_RETENTION: "0",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${err}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`);
      if (r.status === 200) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not start: ${err}`);
}

/**
 * Lets `clients` write for a random time in [minMs, minMs + spanMs), then SIGKILLs `child` (a crash at
 * a random moment), calls `stop` so the clients end, and waits for the clients and the exit. The random
 * moment is counted from `after` (default: now).
 */
export async function killDuring(
  child: ChildProcess,
  clients: Promise<unknown>[],
  stop: () => void,
  minMs: number,
  spanMs: number,
  after: Promise<unknown> = Promise.resolve(),
): Promise<void> {
  await after;
  await new Promise((r) => setTimeout(r, minMs + Math.random() * spanMs));
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  stop();
  await Promise.all(clients);
  await exited;
}
