import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { InProcessJobQueue } from "../../../src/jobs/in-process-job-queue";
import { retryDelay, type DeliveryResult } from "../../../src/jobs/job-queue";
import type { NotificationJob } from "../../../src/jobs/notification-job";

const settings = {
  attempts: 4,
  backoffMs: 10,
  backoffMaxMs: 40,
  timeoutMs: 1000,
  perEndpoint: 2,
  concurrency: 10,
};
const job = (n: number): NotificationJob => ({
  tenant: "",
  subscriptionId: "urn:s:1",
  uri: `http://h${n % 2}.example/notify`,
  headers: {},
  body: String(n),
});
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("in-process notification queue", () => {
  it("backs off exponentially up to the cap", () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, settings))).to.deep.equal([10, 20, 40, 40, 40]);
  });

  it("drops a job no longer wanted when its retry comes: not sent, no result, not dead", async () => {
    let wanted = true;
    const sent: string[] = [];
    const results: DeliveryResult<NotificationJob>[] = [];
    const q = new InProcessJobQueue<NotificationJob>(
      async (j) => {
        sent.push(j.body);
        throw new Error("down");
      },
      { ...settings, backoffMs: 30 },
      (r) => results.push(r),
      () => wanted,
    );
    await q.enqueue([job(1)]);
    await until(() => results.length === 1);
    wanted = false; // its subscription is deleted while the retry waits
    await new Promise((r) => setTimeout(r, 150));
    expect(sent).to.deep.equal(["1"]);
    expect(results).to.have.length(1);
    expect(await q.counts()).to.deep.include({ delayed: 0, dead: 0, waiting: 0, active: 0 });
    await q.close();
  });

  it("retries a failing delivery until it succeeds, and reports each attempt", async () => {
    const tries = new Map<string, number>();
    const results: DeliveryResult<NotificationJob>[] = [];
    const q = new InProcessJobQueue<NotificationJob>(
      async (j) => {
        const n = (tries.get(j.body) ?? 0) + 1;
        tries.set(j.body, n);
        if (n < 3) throw new Error("down");
      },
      settings,
      (r) => results.push(r),
    );
    await q.enqueue([job(1), job(2)]);
    await until(() => results.filter((r) => r.ok).length === 2);
    expect(results.filter((r) => !r.ok)).to.have.length(4);
    expect(
      results
        .filter((r) => r.ok)
        .map((r) => r.job.body)
        .sort(),
    ).to.deep.equal(["1", "2"]);
    expect((await q.counts()).dead).to.equal(0);
    await q.close();
  });

  it("keeps a job that ran out of attempts as dead", async () => {
    const results: DeliveryResult<NotificationJob>[] = [];
    const q = new InProcessJobQueue<NotificationJob>(
      () => Promise.reject(new Error("refused")),
      settings,
      (r) => results.push(r),
    );
    await q.enqueue([job(1)]);
    await until(() => results.some((r) => r.final));
    expect(results).to.have.length(4);
    const dead = await q.dead(10);
    expect(dead).to.have.length(1);
    expect(dead[0]).to.include({ error: "refused", attempts: 4 });
    await q.close();
  });

  it("never has more than perEndpoint deliveries in flight to one endpoint", async () => {
    const inFlight = new Map<string, number>();
    let worst = 0;
    const done: DeliveryResult<NotificationJob>[] = [];
    const q = new InProcessJobQueue<NotificationJob>(
      async (j) => {
        const n = (inFlight.get(j.uri) ?? 0) + 1;
        inFlight.set(j.uri, n);
        worst = Math.max(worst, n);
        await new Promise((r) => setTimeout(r, 5));
        inFlight.set(j.uri, n - 1);
      },
      settings,
      (r) => done.push(r),
    );
    await q.enqueue(Array.from({ length: 20 }, (_, i) => job(i)));
    await until(() => done.length === 20);
    expect(done).to.have.length(20);
    expect(worst).to.equal(2);
    await q.close();
  });

  it("a close keeps the queued, retrying and in-flight jobs in its file; the next queue sends them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-pending-"));
    const file = path.join(dir, "q-pending.json");
    try {
      const tries: string[] = [];
      let hold!: () => void;
      const held = new Promise<void>((r) => (hold = r));
      const results: DeliveryResult<NotificationJob>[] = [];
      const q = new InProcessJobQueue<NotificationJob>(
        async (j) => {
          tries.push(j.body);
          if (j.body === "2") return held; // in flight at the close
          throw new Error("down");
        },
        { ...settings, backoffMs: 60_000, backoffMaxMs: 60_000, perEndpoint: 1, concurrency: 2 },
        (r) => results.push(r),
        () => true,
        file,
      );
      // "1" fails and waits for its retry, "2" stays in flight, "4" waits for its endpoint (that of "2")
      await q.enqueue([job(1), job(2), job(4)]);
      await until(() => results.length === 1 && tries.includes("2"));
      await q.close();
      hold();
      const kept = JSON.parse(fs.readFileSync(file, "utf8")) as {
        jobs: { job: NotificationJob; attempts: number }[];
      };
      expect(kept.jobs.map((p) => [p.job.body, p.attempts]).sort()).to.deep.equal([
        ["1", 1],
        ["2", 0],
        ["4", 0],
      ]);

      const sent: string[] = [];
      const again = new InProcessJobQueue<NotificationJob>(
        async (j) => void sent.push(j.body),
        settings,
        () => undefined,
        (j) => j.body !== "4", // its subscription is gone
        file,
      );
      again.resume();
      await until(() => sent.length === 2);
      await new Promise((r) => setTimeout(r, 30));
      expect(sent.sort()).to.deep.equal(["1", "2"]);
      expect(fs.existsSync(file), "the file is removed").to.equal(false);
      await again.close();
      expect(fs.existsSync(file), "nothing pending: no file").to.equal(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("moves a damaged file of pending jobs aside and starts empty", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citygraph-pending-"));
    const file = path.join(dir, "q-pending.json");
    try {
      fs.writeFileSync(file, "{not json");
      const sent: string[] = [];
      const q = new InProcessJobQueue<NotificationJob>(
        async (j) => void sent.push(j.body),
        settings,
        () => undefined,
        () => true,
        file,
      );
      q.resume();
      expect(fs.existsSync(file)).to.equal(false);
      expect(fs.readFileSync(`${file}.damaged`, "utf8")).to.equal("{not json");
      await q.close();
      expect(sent).to.deep.equal([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
