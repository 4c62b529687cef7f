import { randomUUID } from "node:crypto";
import { expect } from "chai";
import { startTestApp, type TestApp } from "../helpers/test-app";
import { accidentDoc, QUAN_1, upsert, WsProbe } from "../helpers/live-clients";

describe("live events across processes through Redis pub/sub (REDIS_URL)", function () {
  this.timeout(60_000);
  let a: TestApp;
  let b: TestApp;

  before(async () => {
    // two services on one Redis, as behind a load balancer; channel and queue names unique to this run
    const env = {
      REDIS_URL: "redis://127.0.0.1:6379",
      LIVE_CHANNEL: `test-live-${randomUUID()}`,
      NOTIFY_QUEUE: `test-live-notify-${randomUUID()}`,
    };
    try {
      [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
    } catch (e) {
      throw new Error(`Redis at 127.0.0.1:6379 is needed for this test: ${String(e)}`);
    }
  });
  after(async () => {
    await a?.destroy();
    await b?.destroy();
  });

  it("an accident written through one service reaches a socket of the other, once", async () => {
    const onB = await WsProbe.open(`${b.url}/ws`);
    const onA = await WsProbe.open(`${a.url}/ws`);
    for (const p of [onA, onB])
      p.send({ type: "subscribe", channels: ["accidents"], severity: ["critical"] });
    await onB.next((m) => m.type === "subscribed");
    await onA.next((m) => m.type === "subscribed");
    await upsert(a.url, [accidentDoc("redis-1", "critical", QUAN_1.lat, QUAN_1.lon)]);
    const got = await onB.next((m) => m.channel === "accidents");
    expect(got.data).to.include({ id: "redis-1", severity: "critical", change: "created" });
    await onA.next((m) => m.channel === "accidents");
    await new Promise((r) => setTimeout(r, 300));
    expect(onB.matching((m) => m.channel === "accidents")).to.have.length(1);
    expect(onA.matching((m) => m.channel === "accidents")).to.have.length(1);
    onA.close();
    onB.close();
  });
});
