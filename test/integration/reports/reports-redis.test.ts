import { expect } from "chai";
import type { Queue } from "bullmq";
import { dropQueue, openQueue, REDIS_URL, requireRedis, uniqueQueueName } from "../helpers/redis-queue";
import { accidentDoc, startReceiver, until } from "../helpers/report-fixtures";
import { http, startTestApp, type TestApp } from "../helpers/test-app";

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LINK =
  '<https://w3id.org/citygraph/contexts/traffic.jsonld>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"';
const D1 = [106.7009, 10.7769] as const; // Quận 1

/** The items of the jobs waiting in a queue (one BullMQ job carries a batch). */
async function waitingItems(q: Queue): Promise<Obj[]> {
  return (await q.getWaiting()).flatMap((j) => (j.data as { jobs: Obj[] }).jobs);
}

/**
 * Verification and alert deliveries on BullMQ (REDIS_URL set): each job is in Redis before the write is
 * acknowledged (the test pauses the queue to see it there), runs through a worker, and outlives a stop
 * of the service.
 */
describe("citizen reports and alerts through BullMQ on Redis", function () {
  this.timeout(120_000);
  const name = uniqueQueueName("reports");
  const names = [name, `${name}-verify`, `${name}-alerts`];
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  let app: TestApp | undefined;
  let verify: Awaited<ReturnType<typeof openQueue>>;
  let alerts: Awaited<ReturnType<typeof openQueue>>;
  const env = () => ({ SEED: "on", REDIS_URL, NOTIFY_QUEUE: name, NOTIFY_BACKOFF: "100" });
  const write = (doc: Obj) =>
    http(app!.url, "POST", "/ngsi-ld/v1/entities", doc, { "Content-Type": "application/ld+json" });

  before(async () => {
    await requireRedis();
    hook = await startReceiver();
    app = await startTestApp(env());
    verify = await openQueue(`${name}-verify`);
    alerts = await openQueue(`${name}-alerts`);
  });
  after(async () => {
    await app?.destroy();
    await hook?.close();
    await verify?.close();
    await alerts?.close();
    for (const n of names) await dropQueue(n);
  });

  it("verifies a submitted report through the BullMQ queue", async () => {
    await verify.queue.pause();
    const r = await http(app!.url, "POST", "/v1/citizen-reports", {
      category: "congestion",
      location: { lat: 10.7769, lon: 106.7009 },
      description: "Traffic has not moved for twenty minutes here",
      reporter: { name: "Lan", phone: "0901111222" },
    });
    expect(r.status).to.equal(201);
    const id = (r.body as Obj).id as string;
    const jobs = await waitingItems(verify.queue);
    expect(jobs.map((j) => j.reportId)).to.include(`urn:ngsi-ld:CitizenReport:${id}`);
    const entity = async () =>
      (
        await http(app!.url, "GET", `/ngsi-ld/v1/entities/urn:ngsi-ld:CitizenReport:${id}`, undefined, {
          Link: LINK,
        })
      ).body as Obj;
    await new Promise((r) => setTimeout(r, 300));
    expect((await entity()).confidence, "not scored while the queue is paused").to.equal(undefined);
    await verify.queue.resume();
    await until(async () => (await entity()).confidence !== undefined, 10_000, "the report scored");
    expect((await entity()).confidence.value).to.be.within(0, 1);
    expect(await verify.queue.getWaitingCount()).to.equal(0);
  });

  it("delivers an alert to a webhook through the BullMQ queue", async () => {
    const s = await http(app!.url, "POST", "/v1/alerts/subscriptions", {
      user_id: "ops",
      alert_types: ["accident"],
      locations: ["District 1"],
      severity_threshold: "severe",
      channels: ["webhook"],
      webhook_url: hook.url,
    });
    expect(s.status).to.equal(201);
    await alerts.queue.pause();
    expect((await write(accidentDoc("redis-1", D1[0], D1[1], "severe"))).status).to.equal(201);
    // acknowledged only once the delivery is in Redis
    const jobs = await waitingItems(alerts.queue);
    expect(jobs).to.have.length(1);
    expect(jobs[0]).to.include({ channel: "webhook", uri: hook.url });
    expect(jobs[0].alert).to.include({ id: "accident-redis-1", severity: "severe" });
    expect(hook.bodies).to.have.length(0);
    await alerts.queue.resume();
    await until(() => hook.bodies.length === 1, 10_000, "the webhook");
    expect((hook.bodies[0] as Obj).alert).to.include({ id: "accident-redis-1", type: "accident" });
    expect((hook.bodies[0] as Obj).subscription_id).to.equal((s.body as Obj).subscription_id);
  });

  it("completes an acknowledged alert job after the service is stopped and started again", async () => {
    const before = hook.bodies.length;
    await alerts.queue.pause();
    expect((await write(accidentDoc("redis-2", D1[0] + 0.002, D1[1], "critical"))).status).to.equal(201);
    expect((await waitingItems(alerts.queue)).map((j) => j.alert.id)).to.deep.equal(["accident-redis-2"]);
    const dataDir = app!.dataDir;
    await app!.close(); // the service stops with the job still waiting in Redis
    app = undefined;
    await alerts.queue.resume();
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.bodies.length, "nobody delivers while the service is down").to.equal(before);
    app = await startTestApp(env(), dataDir);
    await until(() => hook.bodies.length === before + 1, 15_000, "the webhook after the restart");
    expect((hook.bodies[before] as Obj).alert).to.include({ id: "accident-redis-2", severity: "critical" });
    await new Promise((r) => setTimeout(r, 500));
    expect(hook.bodies.length, "delivered once").to.equal(before + 1);
  });
});
