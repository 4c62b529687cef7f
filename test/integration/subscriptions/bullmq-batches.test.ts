import { expect } from "chai";
import IORedis from "ioredis";
import { BullMqJobQueue } from "../../../src/jobs/bullmq-job-queue";
import type { DeliveryResult } from "../../../src/jobs/job-queue";
import type { NotificationJob } from "../../../src/jobs/notification-job";
import { dropQueue, REDIS_URL, requireRedis, uniqueQueueName } from "../helpers/redis-queue";

const settings = {
  attempts: 3,
  backoffMs: 20,
  backoffMaxMs: 40,
  timeoutMs: 1000,
  perEndpoint: 4,
  concurrency: 8,
};
const job = (body: string, host = "a.example"): NotificationJob => ({
  tenant: "",
  subscriptionId: "urn:ngsi-ld:Subscription:b",
  uri: `http://${host}/notify`,
  headers: {},
  body,
});
const until = async (ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return ok();
};

/**
 * The BullMQ queue against the real Redis: notifications are carried in batches per
 * endpoint, the commits that arrive while an addBulk is in flight share the next one, and a retry sends
 * only what failed.
 */
describe("BullMQ notification batches", function () {
  this.timeout(30_000);
  const names: string[] = [];
  const open: BullMqJobQueue<NotificationJob>[] = [];
  const start = (send: (j: NotificationJob) => Promise<void>, results: DeliveryResult<NotificationJob>[]) => {
    const name = uniqueQueueName("batches");
    names.push(name);
    const q = new BullMqJobQueue(
      send,
      settings,
      { redisUrl: REDIS_URL, name, stalledMs: 5000, keepDead: 100 },
      (r) => results.push(r),
      (e) => {
        throw e;
      },
    );
    open.push(q);
    return { q, name };
  };

  before(requireRedis);
  after(async () => {
    for (const q of open) await q.close();
    for (const n of names) await dropQueue(n);
  });

  it("adds the notifications of many enqueues in few jobs, one endpoint per job, and delivers each once", async () => {
    const sent: string[] = [];
    const results: DeliveryResult<NotificationJob>[] = [];
    const { q, name } = start(async (j) => void sent.push(j.body), results);
    const all = Array.from({ length: 60 }, (_, i) => q.enqueue([job(`a${i}`), job(`b${i}`, "b.example")]));
    await Promise.all(all);
    expect(await until(() => sent.length === 120)).to.equal(true);
    expect(new Set(sent).size).to.equal(120);
    const redis = new IORedis(REDIS_URL);
    const jobsAdded = Number(await redis.get(`bull:${name}:id`));
    await redis.quit();
    // 60 enqueues of two endpoints in one tick: the first addBulk takes one, the next the 59 others
    expect(jobsAdded).to.be.within(2, 20);
    expect(results.filter((r) => r.ok && r.final)).to.have.length(120);
  });

  it("retries only the notifications of a job that failed, and reports each attempt", async () => {
    const tries = new Map<string, number>();
    const results: DeliveryResult<NotificationJob>[] = [];
    const { q } = start(async (j) => {
      const n = (tries.get(j.body) ?? 0) + 1;
      tries.set(j.body, n);
      if (j.body === "flaky" && n < 2) throw new Error("receiver answered HTTP 503");
    }, results);
    await q.enqueue([job("fine"), job("flaky")]);
    expect(await until(() => tries.get("flaky") === 2)).to.equal(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(Object.fromEntries(tries)).to.deep.equal({ fine: 1, flaky: 2 });
    const flaky = results.filter((r) => r.job.body === "flaky").map((r) => [r.ok, r.final]);
    expect(flaky).to.deep.equal([
      [false, false],
      [true, true],
    ]);
    expect(await q.counts()).to.deep.include({ waiting: 0, delayed: 0, dead: 0 });
  });
});
