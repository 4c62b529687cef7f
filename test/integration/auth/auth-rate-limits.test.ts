import { expect } from "chai";
import IORedis from "ioredis";
import { http, startTestApp, type TestApp } from "../helpers/test-app";
import { bearer, login } from "./auth-client";

const REDIS_URL = "redis://127.0.0.1:6379";
const ENTITIES = "/ngsi-ld/v1/entities?type=Thing";

async function freeKey(app: TestApp, admin: string, role = "viewer"): Promise<string> {
  const made = await http(
    app.url,
    "POST",
    "/v1/admin/api-keys",
    { name: "meter", role, tier: "free" },
    bearer(admin),
  );
  expect(made.status).to.equal(201);
  return (made.body as { key: string }).key;
}

/** Five requests count down, the sixth is 429 with Retry-After, in each face's format. */
async function countsDown(app: TestApp, key: string): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await http(app.url, "GET", ENTITIES, undefined, { "X-API-Key": key });
    expect(r.status).to.equal(200);
    expect(r.headers.get("x-ratelimit-limit")).to.equal("5");
    seen.push(r.headers.get("x-ratelimit-remaining")!);
    const reset = Number(r.headers.get("x-ratelimit-reset"));
    expect(reset).to.be.within(Date.now() / 1000, Date.now() / 1000 + 3601);
    // the IETF draft's fields only on a refusal (they name the policy that refused)
    expect(r.headers.get("ratelimit-policy")).to.equal(null);
    expect(r.headers.get("ratelimit")).to.equal(null);
  }
  expect(seen).to.deep.equal(["4", "3", "2", "1", "0"]);
  const over = await http(app.url, "GET", ENTITIES, undefined, { "X-API-Key": key });
  expect(over.status).to.equal(429);
  const retry = Number(over.headers.get("retry-after"));
  expect(retry).to.be.within(1, 3600);
  expect(over.headers.get("ratelimit-policy")).to.equal('"free";q=5;w=3600');
  expect(over.headers.get("ratelimit")).to.match(/^"free";r=0;t=\d+$/);
  expect(over.body).to.include({ type: "https://uri.etsi.org/ngsi-ld/errors/TooManyRequests" });
  expect((over.body as { details: { retry_after: number } }).details.retry_after).to.equal(retry);
  // the same counter on another face, rendered in that face's format
  const rest = await http(app.url, "GET", "/v1/cameras", undefined, { "X-API-Key": key });
  expect(rest.status).to.equal(429);
  const sparql = await http(app.url, "POST", "/sparql", "ASK {}", {
    "Content-Type": "application/sparql-query",
    "X-API-Key": key,
  });
  expect(sparql.status).to.equal(429);
}

describe("auth: rate limits per user or key across faces", function () {
  this.timeout(60_000);

  describe("in memory", () => {
    let app: TestApp;
    let admin: string;
    before(async () => {
      app = await startTestApp({ AUTH: "on", ADMIN_PASSWORD: "admin-secret-3", RATE_LIMIT_FREE: "5" });
      admin = (await login(app.url, "admin", "admin-secret-3")).access_token;
    });
    after(() => app.destroy());

    it("counts down X-RateLimit-Remaining and answers 429 with Retry-After and retry_after", async () => {
      await countsDown(app, await freeKey(app, admin));
    });

    it("renders 429 on REST faces with retry_after beside the error", async () => {
      const key = await freeKey(app, admin, "admin");
      for (let i = 0; i < 5; i++)
        await http(app.url, "GET", "/v1/admin/users", undefined, { "X-API-Key": key });
      const r = await http(app.url, "GET", "/v1/admin/users", undefined, { "X-API-Key": key });
      expect(r.status).to.equal(429);
      const e = (r.body as { error: { code: string; message: string; retry_after: number } }).error;
      expect(e.code).to.equal("RATE_LIMIT_EXCEEDED");
      expect(e.message).to.match(/^Rate limit of 5 requests exceeded, retry in \d+ seconds$/);
      expect(e.retry_after).to.equal(Number(r.headers.get("retry-after")));
    });

    it("counts API keys on variant B against B's 1,000 per hour", async () => {
      const made = await http(
        app.url,
        "POST",
        "/v1/admin/api-keys",
        { name: "b", tier: "premium" },
        bearer(admin),
      );
      const key = (made.body as { key: string }).key;
      const b = await http(app.url, "GET", "/api/v1/cameras", undefined, { "X-API-Key": key });
      expect(b.headers.get("x-ratelimit-limit")).to.equal("1000");
      const a = await http(app.url, "GET", "/v1/cameras", undefined, { "X-API-Key": key });
      expect(a.headers.get("x-ratelimit-limit")).to.equal("10000");
    });

    it("does not limit the admin's enterprise tier (no headers)", async () => {
      const r = await http(app.url, "GET", ENTITIES, undefined, bearer(admin));
      expect(r.status).to.equal(200);
      expect(r.headers.get("x-ratelimit-limit")).to.equal(null);
    });
  });

  describe("in Redis (shared by replicas)", () => {
    let app: TestApp;
    let admin: string;
    const prefix = `citygraph-test-rl-${process.pid}-${Date.now()}`;
    const redis = new IORedis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    before(async () => {
      await redis.connect().catch((e: Error) => {
        throw new Error(`Redis at ${REDIS_URL} is required for this test: ${e.message}`);
      });
      app = await startTestApp({
        AUTH: "on",
        ADMIN_PASSWORD: "admin-secret-4",
        RATE_LIMIT_FREE: "5",
        REDIS_URL,
        RATE_LIMIT_PREFIX: prefix,
        NOTIFY_QUEUE: `${prefix}-notify`,
      });
      admin = (await login(app.url, "admin", "admin-secret-4")).access_token;
    });
    after(async () => {
      await app.destroy();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    });

    it("keeps the counter in Redis and answers 429 past it", async () => {
      const key = await freeKey(app, admin);
      await countsDown(app, key);
      const keys = await redis.keys(`${prefix}:hour*`);
      expect(keys.length).to.equal(1);
      expect(Number(await redis.get(keys[0]))).to.equal(8);
    });
  });
});
