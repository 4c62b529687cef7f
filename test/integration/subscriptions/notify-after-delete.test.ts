import { expect } from "chai";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { Receiver } from "../helpers/receiver";
import { dropQueue, REDIS_URL, requireRedis, uniqueQueueName } from "../helpers/redis-queue";

const SUBS = "/ngsi-ld/v1/subscriptions";
const CSUBS = "/ngsi-ld/v1/csourceSubscriptions";
type Json = Record<string, unknown>;

const subscription = (id: string, uri: string) => ({
  id,
  type: "Subscription",
  entities: [{ type: "Vehicle" }],
  notification: { endpoint: { uri } },
});

/** Waits until the subscription at `path` has a failed delivery. */
async function failedOnce(app: TestApp, path: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    const s = (await http(app.url, "GET", path)).body as { notification?: Json };
    if (s.notification?.lastFailure) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no failed delivery of ${path}`);
}

/**
 * ETSI GS CIM 009 v1.8 §5.8.5 / §5.11.6: a deleted subscription gets no notification after the DELETE is
 * answered, a retry of a failed one included, with either queue. A subscription that stays (the control)
 * gets its retry.
 */
for (const mode of ["in-process", "BullMQ"] as const) {
  describe(`notifications of deleted subscriptions (${mode} queue)`, function () {
    this.timeout(60_000);
    let app: TestApp;
    let rx: Receiver;
    const queue = uniqueQueueName("deleted");

    before(async () => {
      if (mode === "BullMQ") await requireRedis();
      rx = await new Receiver().start();
      await rx.stop(); // the port stays known: deliveries fail until it starts again
      app = await startTestApp({
        NOTIFY_ATTEMPTS: "50",
        NOTIFY_BACKOFF: "200ms",
        NOTIFY_BACKOFF_MAX: "400ms",
        NOTIFY_TIMEOUT: "2s",
        ...(mode === "BullMQ" ? { REDIS_URL, NOTIFY_QUEUE: queue } : {}),
      });
    });
    after(async () => {
      await app?.destroy();
      await rx?.stop();
      if (mode === "BullMQ") await dropQueue(queue);
    });

    it("sends no retry of an entity or csource subscription deleted after a failed delivery", async () => {
      const gone = "urn:ngsi-ld:Subscription:gone";
      const kept = "urn:ngsi-ld:Subscription:kept";
      const csource = "urn:ngsi-ld:Subscription:csource-gone";
      expect((await http(app.url, "POST", SUBS, subscription(gone, rx.url))).status).to.equal(201);
      expect((await http(app.url, "POST", SUBS, subscription(kept, rx.url))).status).to.equal(201);
      const reg = await http(app.url, "POST", "/ngsi-ld/v1/csourceRegistrations", {
        type: "ContextSourceRegistration",
        information: [{ entities: [{ type: "Vehicle" }] }],
        endpoint: "http://127.0.0.1:9",
      });
      expect(reg.status).to.equal(201);
      // a new csource subscription is told at once of the registration: that delivery fails
      expect((await http(app.url, "POST", CSUBS, subscription(csource, rx.url))).status).to.equal(201);
      const e = { id: "urn:ngsi-ld:Vehicle:v1", type: "Vehicle", speed: { type: "Property", value: 1 } };
      expect((await http(app.url, "POST", "/ngsi-ld/v1/entities?local=true", e)).status).to.equal(201);
      await failedOnce(app, `${SUBS}/${gone}`);
      await failedOnce(app, `${SUBS}/${kept}`);
      await failedOnce(app, `${CSUBS}/${csource}`);

      expect((await http(app.url, "DELETE", `${SUBS}/${gone}`)).status).to.equal(204);
      expect((await http(app.url, "DELETE", `${CSUBS}/${csource}`)).status).to.equal(204);
      await rx.start();
      const ids = () => rx.received.map((n) => n.body.subscriptionId);
      expect(await rx.until(() => ids().includes(kept)), "the retry of the kept subscription").to.equal(true);
      await new Promise((r) => setTimeout(r, 1200)); // two more backoff periods
      expect(ids()).to.not.include(gone);
      expect(ids()).to.not.include(csource);
    });
  });
}
