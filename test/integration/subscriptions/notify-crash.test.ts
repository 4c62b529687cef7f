import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { expect } from "chai";
import { freePort, startServer } from "../helpers/child-server";
import { http } from "../helpers/test-app";
import { Receiver } from "../helpers/receiver";
import { dropQueue, REDIS_URL, requireRedis, uniqueQueueName } from "../helpers/redis-queue";

/**
 * Never lost: the broker runs as a child process with REDIS_URL and is SIGKILLed
 * during a stream of writes; after a restart on the same data dir, every write that was acknowledged
 * (answered 204) has been notified.
 */
describe("notifications survive a SIGKILL of the broker", function () {
  this.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-notify-crash-"));
  const queue = uniqueQueueName("crash");
  let rx: Receiver;
  let child: ChildProcess | undefined;
  const env = {
    REDIS_URL,
    NOTIFY_QUEUE: queue,
    NOTIFY_STALLED: "500ms",
    NOTIFY_BACKOFF: "50ms",
    NOTIFY_BACKOFF_MAX: "500ms",
    NOTIFY_ATTEMPTS: "100",
    NOTIFY_PER_ENDPOINT: "1",
  };

  before(async () => {
    await requireRedis();
    rx = await new Receiver(15).start();
  });
  after(async () => {
    child?.kill("SIGKILL");
    await rx?.stop();
    await dropQueue(queue);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("every acknowledged write is notified after a restart", async () => {
    const port = await freePort();
    child = await startServer(dir, port, env);
    const base = `http://127.0.0.1:${port}`;
    const e = "urn:ngsi-ld:Camera:crash";
    await http(base, "POST", "/ngsi-ld/v1/entities", {
      id: e,
      type: "Camera",
      speed: { type: "Property", value: 0 },
    });
    const sub = await http(base, "POST", "/ngsi-ld/v1/subscriptions", {
      id: "urn:ngsi-ld:Subscription:crash",
      type: "Subscription",
      entities: [{ type: "Camera" }],
      notification: { endpoint: { uri: rx.url }, format: "keyValues" },
    });
    expect(sub.status).to.equal(201);
    const acked: number[] = [];
    let next = 1;
    let killed = false;
    const writer = async () => {
      while (!killed) {
        const v = next++;
        try {
          const r = await http(base, "PATCH", `/ngsi-ld/v1/entities/${e}/attrs`, {
            speed: { type: "Property", value: v },
          });
          if (r.status === 204) acked.push(v);
        } catch {
          return; // connection cut by the kill: not acknowledged
        }
        if (acked.length >= 300 && !killed) {
          killed = true;
          child?.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, writer));
    await new Promise<void>((resolve) =>
      // a process killed by a signal has exitCode null and signalCode set; either means it is gone
      child?.exitCode !== null || child?.signalCode !== null
        ? resolve()
        : child.once("exit", () => resolve()),
    );
    const beforeRestart = rx.received.length;
    child = await startServer(dir, port, env);
    const got = () => new Set(rx.received.map((n) => n.body.data[0].speed as number));
    await rx.until(() => acked.every((v) => got().has(v)), 60_000);
    const missing = acked.filter((v) => !got().has(v));
    expect(acked.length).to.be.at.least(300);
    expect(beforeRestart, "the kill left notifications to deliver after the restart").to.be.below(
      acked.length,
    );
    expect(missing, `${missing.length} acknowledged writes never notified`).to.deep.equal([]);
    child.kill("SIGTERM");
  });
});
