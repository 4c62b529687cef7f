import { randomBytes } from "node:crypto";
import { expect } from "chai";
import IORedis from "ioredis";
import { REDIS_URL, dropQueue, requireRedis } from "../helpers/redis-queue";
import { RestBClient } from "../helpers/rest-b-client";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, login } from "./auth-client";

const CAMERAS = "/api/v1/cameras";
const ADMIN_PASSWORD = "admin-secret-burst";
type Answer = Awaited<ReturnType<typeof http>>;

/** An API key of tier premium (10,000 an hour elsewhere; B's own 1,000 an hour and 20 a second on /api/v1). */
async function newKey(app: TestApp, admin: string): Promise<{ id: string; key: string }> {
  const made = await http(
    app.url,
    "POST",
    "/v1/admin/api-keys",
    { name: "b-client", tier: "premium" },
    bearer(admin),
  );
  expect(made.status, made.text).to.equal(201);
  return made.body as { id: string; key: string };
}

/**
 * Sends 21 requests to variant B with one fresh key, one after another. The burst window is one second
 * from the key's first request, so the 21st is over the limit only if all 21 were counted within that
 * second: a run slower than that (a loaded machine) proves nothing and is tried again with a new key.
 */
async function burstOf21(app: TestApp, admin: string, b: RestBClient) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { id, key } = await newKey(app, admin);
    const headers = { "X-API-Key": key };
    const started = Date.now();
    const answers: Answer[] = [];
    for (let i = 0; i < 21; i++) answers.push(await b.call("GET", CAMERAS, undefined, headers));
    if (Date.now() - started < 1000) return { id, headers, answers };
  }
  throw new Error("21 requests never fitted within one second: the machine is too slow for this test");
}

/** The first 20 pass with B's hourly figures counting down; the 21st is 429 in B's error format. */
function expectBurstRefused(answers: Answer[]): void {
  const remaining = answers.slice(0, 20).map((r) => {
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get("x-ratelimit-limit")).to.equal("1000");
    expect(r.headers.get("ratelimit-policy")).to.equal(null);
    const reset = Number(r.headers.get("x-ratelimit-reset"));
    expect(reset).to.be.within(Date.now() / 1000, Date.now() / 1000 + 3601);
    return Number(r.headers.get("x-ratelimit-remaining"));
  });
  expect(remaining).to.deep.equal(Array.from({ length: 20 }, (_, i) => 999 - i));
  const over = answers[20];
  expect(over.status, over.text).to.equal(429);
  expect(over.headers.get("retry-after")).to.equal("1");
  expect(over.headers.get("x-ratelimit-limit")).to.equal("20");
  expect(over.headers.get("x-ratelimit-remaining")).to.equal("0");
  expect(over.headers.get("ratelimit-policy")).to.equal('"b-api-key-burst";q=20;w=1');
  expect(over.body).to.deep.equal({
    error: {
      code: "RATE_LIMIT_EXCEEDED",
      message: "Rate limit of 20 requests exceeded, retry in 1 seconds",
      details: {},
      retry_after: 1,
    },
  });
}

/** After Retry-After the key passes again; the refused request did not count against the hour. */
async function passesAfterRetry(
  b: RestBClient,
  headers: Record<string, string>,
  remaining: number,
): Promise<void> {
  await new Promise((r) => setTimeout(r, 1100));
  const again = await b.call("GET", CAMERAS, undefined, headers);
  expect(again.status, again.text).to.equal(200);
  expect(again.headers.get("x-ratelimit-remaining")).to.equal(String(remaining));
}

describe("auth: variant B's burst of 20 requests a second per API key, over HTTP", function () {
  this.timeout(120_000);

  describe("in memory", () => {
    let app: TestApp;
    let admin: string;
    let b: RestBClient;
    before(async () => {
      app = await startTestApp({ AUTH: "on", ADMIN_PASSWORD, RATE_LIMIT_PREFIX: `t-${process.pid}-burst` });
      admin = (await login(app.url, "admin", ADMIN_PASSWORD)).access_token;
      b = new RestBClient(app.url);
      await b.init();
    });
    after(() => app.destroy());

    it("counts down, refuses the 21st request within a second with 429 and Retry-After, then lets it pass", async () => {
      const { headers, answers } = await burstOf21(app, admin, b);
      expectBurstRefused(answers);
      // the burst is variant B's: the same key is not held back on variant A meanwhile, where its
      // tier's hour counts the same 20 requests (the refused one not among them) and this one
      const a = await http(app.url, "GET", "/v1/cameras", undefined, headers);
      expect(a.status, a.text).to.equal(200);
      expect(a.headers.get("x-ratelimit-limit")).to.equal("10000");
      expect(a.headers.get("x-ratelimit-remaining")).to.equal(String(10000 - 21));
      await passesAfterRetry(b, headers, 1000 - 22);
    });

    it("counts each key apart: another key is not held back by one key's burst", async () => {
      const { answers } = await burstOf21(app, admin, b);
      expect(answers[20].status).to.equal(429);
      const other = await newKey(app, admin);
      const r = await b.call("GET", CAMERAS, undefined, { "X-API-Key": other.key });
      expect(r.status, r.text).to.equal(200);
      expect(r.headers.get("x-ratelimit-remaining")).to.equal("999");
    });
  });

  describe("in Redis", () => {
    let app: TestApp;
    let admin: string;
    let b: RestBClient;
    const prefix = `citygraph-test-burst-${randomBytes(4).toString("hex")}`;
    const queue = `${prefix}-notify`;
    const redis = new IORedis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    before(async () => {
      await requireRedis();
      await redis.connect();
      app = await startTestApp({
        AUTH: "on",
        ADMIN_PASSWORD,
        REDIS_URL,
        RATE_LIMIT_PREFIX: prefix,
        NOTIFY_QUEUE: queue,
      });
      admin = (await login(app.url, "admin", ADMIN_PASSWORD)).access_token;
      b = new RestBClient(app.url);
      await b.init();
    });
    after(async () => {
      await app?.destroy();
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
      // the service's queues: notifications, and its report verification and alert deliveries beside them
      for (const q of [queue, `${queue}-verify`, `${queue}-alerts`]) await dropQueue(q);
    });

    it("keeps both counters in Redis: 429 on the 21st request within a second, the hour counts 20", async () => {
      const { id, headers, answers } = await burstOf21(app, admin, b);
      expectBurstRefused(answers);
      expect(await redis.get(`${prefix}:hour:${id}`)).to.equal("20");
      await passesAfterRetry(b, headers, 1000 - 21);
      expect(await redis.get(`${prefix}:hour:${id}`)).to.equal("21");
    });

    it("holds a key back on the count another replica left in Redis", async () => {
      const { id, key } = await newKey(app, admin);
      // a replica has counted 20 requests of this key in the current second (here: five seconds long)
      await redis.set(`${prefix}:burst:${id}`, "20", "PX", 5000);
      const r = await b.call("GET", CAMERAS, undefined, { "X-API-Key": key });
      expect(r.status, r.text).to.equal(429);
      const retry = Number(r.headers.get("retry-after"));
      expect(retry).to.be.within(1, 5);
      expect((r.body as { error: { retry_after: number } }).error.retry_after).to.equal(retry);
      expect(await redis.get(`${prefix}:burst:${id}`)).to.equal("21");
    });
  });
});
