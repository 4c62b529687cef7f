import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { Receiver } from "../helpers/receiver";
import { dropQueue, REDIS_URL, requireRedis, uniqueQueueName } from "../helpers/redis-queue";

const SUBS = "/ngsi-ld/v1/subscriptions";
const ENTITIES = "/ngsi-ld/v1/entities";

/** Runs `n` tasks with at most `width` at once. */
async function pool(n: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

describe("notifications through BullMQ on Redis", function () {
  this.timeout(120_000);
  let app: TestApp;
  let rx: Receiver;
  const queue = uniqueQueueName("rx");

  before(async () => {
    await requireRedis();
    rx = await new Receiver().start();
    app = await startTestApp({
      REDIS_URL,
      NOTIFY_QUEUE: queue,
      NOTIFY_ATTEMPTS: "200",
      NOTIFY_BACKOFF: "50ms",
      NOTIFY_BACKOFF_MAX: "400ms",
      NOTIFY_TIMEOUT: "2s",
    });
  });
  after(async () => {
    await app?.destroy();
    await rx?.stop();
    await dropQueue(queue);
  });

  it("a receiver stopped during a stream of 1,000 updates receives all 1,000 once it is back", async () => {
    const id = "urn:ngsi-ld:Subscription:stream";
    const e = "urn:ngsi-ld:Camera:stream";
    await http(app.url, "POST", ENTITIES, { id: e, type: "Camera", speed: { type: "Property", value: 0 } });
    const r = await http(app.url, "POST", SUBS, {
      id,
      type: "Subscription",
      entities: [{ type: "Camera" }],
      watchedAttributes: ["speed"],
      notification: { endpoint: { uri: rx.url }, format: "keyValues" },
    });
    expect(r.status).to.equal(201);
    let done = 0;
    await pool(1000, 4, async (i) => {
      const w = await http(app.url, "PATCH", `${ENTITIES}/${e}/attrs`, {
        speed: { type: "Property", value: i + 1 },
      });
      expect(w.status).to.equal(204);
      done++;
      if (done === 200) await rx.stop();
      if (done === 700) await rx.start();
    });
    const speeds = () =>
      new Set(rx.received.filter((n) => n.body.subscriptionId === id).map((n) => n.body.data[0].speed));
    const all = await rx.until(() => speeds().size === 1000, 60_000);
    const missing = Array.from({ length: 1000 }, (_, i) => i + 1).filter((v) => !speeds().has(v));
    expect(missing, `missing ${missing.length}: ${missing.slice(0, 10).join(",")}`).to.deep.equal([]);
    expect(all).to.equal(true);
    await new Promise((res) => setTimeout(res, 2500));
    const s = (await http(app.url, "GET", `${SUBS}/${id}`)).body as { notification: Record<string, number> };
    expect(s.notification.timesSent).to.be.at.least(1000);
    expect(s.notification.timesFailed).to.be.greaterThan(0);
    const q = (await http(app.url, "GET", "/notifications/queue")).body as {
      durable: boolean;
      counts: object;
    };
    expect(q.durable).to.equal(true);
    expect(q.counts).to.deep.include({ waiting: 0, dead: 0 });
  });

  it("keeps a job that ran out of attempts in the dead list", async () => {
    const down = await new Receiver().start();
    await down.stop();
    const id = "urn:ngsi-ld:Subscription:dead";
    const shortQueue = uniqueQueueName("dead");
    const short = await startTestApp({
      REDIS_URL,
      NOTIFY_QUEUE: shortQueue,
      NOTIFY_ATTEMPTS: "2",
      NOTIFY_BACKOFF: "10ms",
    });
    try {
      await http(short.url, "POST", SUBS, {
        id,
        type: "Subscription",
        entities: [{ type: "Road" }],
        notification: { endpoint: { uri: down.url } },
      });
      await http(short.url, "POST", ENTITIES, {
        id: "urn:ngsi-ld:Road:1",
        type: "Road",
        n: { type: "Property", value: 1 },
      });
      let dead: { subscriptionId: string; attempts: number; error: string }[] = [];
      for (let i = 0; i < 100 && dead.length === 0; i++) {
        await new Promise((res) => setTimeout(res, 50));
        dead = ((await http(short.url, "GET", "/notifications/queue")).body as { dead: typeof dead }).dead;
      }
      expect(dead).to.have.length(1);
      expect(dead[0]).to.include({ subscriptionId: id, attempts: 2 });
      expect(dead[0].error).to.match(/ECONNREFUSED|refused/i);
    } finally {
      await short.destroy();
      await dropQueue(shortQueue);
    }
  });
});
