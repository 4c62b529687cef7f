import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { expect } from "chai";
import { freePort, startServer } from "../helpers/child-server";
import { Receiver } from "../helpers/receiver";
import { dropQueue, REDIS_URL, requireRedis, uniqueQueueName } from "../helpers/redis-queue";
import { http } from "../helpers/test-app";

const WRITES = 20;
const ENTITY = "urn:ngsi-ld:Camera:restart";

/** Waits for `child` to exit; its exit code. */
const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((r) =>
    child.exitCode !== null ? r(child.exitCode) : child.once("exit", (code) => r(code)),
  );

/**
 * A subscription whose receiver answers 500, so its notifications wait for a retry; `WRITES` acknowledged
 * writes, a SIGTERM (exit 0), then a restart on the same data directory with the receiver answering again.
 * Calls `stopped` between the stop and the restart; answers the values the receiver got before the restart.
 */
async function writeStopRestart(
  dataDir: string,
  env: Record<string, string>,
  rx: Receiver,
  stopped: () => void,
): Promise<{ acked: number[]; beforeRestart: number; restarted: ChildProcess }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await startServer(dataDir, port, env);
  try {
    rx.status = 500;
    const e = await http(base, "POST", "/ngsi-ld/v1/entities", {
      id: ENTITY,
      type: "Camera",
      speed: { type: "Property", value: 0 },
    });
    expect(e.status).to.equal(201);
    const sub = await http(base, "POST", "/ngsi-ld/v1/subscriptions", {
      id: "urn:ngsi-ld:Subscription:restart",
      type: "Subscription",
      entities: [{ type: "Camera" }],
      notification: { endpoint: { uri: rx.url }, format: "keyValues" },
    });
    expect(sub.status, sub.text).to.equal(201);
    const acked: number[] = [];
    for (let v = 1; v <= WRITES; v++) {
      const r = await http(base, "PATCH", `/ngsi-ld/v1/entities/${ENTITY}/attrs`, {
        speed: { type: "Property", value: v },
      });
      expect(r.status, r.text).to.equal(204);
      acked.push(v);
    }
    // the first attempts fail: the jobs wait for their retry
    await new Promise((r) => setTimeout(r, 500));
    const exited = exitOf(child);
    child.kill("SIGTERM");
    expect(await exited, "exit code").to.equal(0);
    stopped();
    const beforeRestart = rx.received.length;
    rx.status = 204;
    const restarted = await startServer(dataDir, port, env);
    return { acked, beforeRestart, restarted };
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
}

/** The speed values the receiver was notified of. */
const notified = (rx: Receiver) => new Set(rx.received.map((n) => n.body.data[0].speed as number));

const env = {
  SHUTDOWN_GRACE_MS: "3000",
  NOTIFY_BACKOFF: "2s",
  NOTIFY_BACKOFF_MAX: "2s",
  NOTIFY_ATTEMPTS: "50",
};

describe("queued notifications across a clean restart", function () {
  this.timeout(120_000);
  let rx: Receiver;
  let child: ChildProcess | undefined;
  let dataDir: string;
  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-queued-restart-"));
    rx = await new Receiver().start();
  });
  afterEach(async () => {
    child?.kill("SIGKILL");
    if (child) await exitOf(child);
    child = undefined;
    await rx.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("in process: the jobs waiting for a retry are kept in the data directory and sent after the restart", async () => {
    const file = path.join(dataDir, "citygraph-notify-pending.json");
    let kept: { jobs: { job: { body: string }; attempts: number }[] } | undefined;
    const run = await writeStopRestart(dataDir, env, rx, () => {
      kept = JSON.parse(fs.readFileSync(file, "utf8")) as typeof kept;
    });
    child = run.restarted;
    const speeds = kept!.jobs.map(
      (j) => (JSON.parse(j.job.body) as { data: { speed: number }[] }).data[0].speed,
    );
    expect(
      speeds.sort((a, b) => a - b),
      "the kept jobs",
    ).to.deep.equal(run.acked);
    expect(
      kept!.jobs.every((j) => j.attempts >= 1),
      "each kept with its failed attempt",
    ).to.equal(true);
    expect(run.beforeRestart).to.equal(0);
    await rx.until(() => run.acked.every((v) => notified(rx).has(v)), 20_000);
    const missing = run.acked.filter((v) => !notified(rx).has(v));
    expect(missing, "acknowledged writes never notified").to.deep.equal([]);
    expect(fs.existsSync(file), "the file is removed once its jobs are queued again").to.equal(false);
  });

  it("with Redis: the jobs stay in Redis and are sent after the restart", async () => {
    await requireRedis();
    const queue = uniqueQueueName("restart");
    try {
      const run = await writeStopRestart(dataDir, { ...env, REDIS_URL, NOTIFY_QUEUE: queue }, rx, () => {
        expect(fs.existsSync(path.join(dataDir, `${queue}-pending.json`)), "no file with Redis").to.equal(
          false,
        );
      });
      child = run.restarted;
      expect(run.beforeRestart).to.equal(0);
      await rx.until(() => run.acked.every((v) => notified(rx).has(v)), 20_000);
      const missing = run.acked.filter((v) => !notified(rx).has(v));
      expect(missing, "acknowledged writes never notified").to.deep.equal([]);
    } finally {
      child?.kill("SIGKILL");
      if (child) await exitOf(child);
      child = undefined;
      await dropQueue(queue);
    }
  });
});
