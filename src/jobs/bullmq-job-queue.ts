import { stamped } from "./job-stamp";
import { Queue, Worker, type Job } from "bullmq";
import IORedis from "ioredis";
import { EndpointLimiter, endpointKey } from "./endpoint-limiter";
import {
  retryDelay,
  type DeadJob,
  type DeliveryResult,
  type DeliverySettings,
  type JobQueue,
  type QueueCounts,
  type QueuedJob,
  type StillWanted,
} from "./job-queue";

/** Options of {@link BullMqJobQueue}. */
export interface BullMqOptions {
  redisUrl: string;
  /** Queue name (and Redis key prefix part); one per deployment, or per test run. */
  name: string;
  /** How often a job left active by a dead process is taken back, ms (BullMQ stalledInterval). */
  stalledMs: number;
  /** Failed jobs kept in Redis for inspection. */
  keepDead: number;
  /** BullMQ priority of a job (1 = highest); jobs of different priorities go in different batches. */
  priorityOf?: (job: QueuedJob) => number | undefined;
}

/** What one BullMQ job holds: notifications to one endpoint, sent together, retried together. */
interface DeliveryBatch<J> {
  jobs: J[];
}

/** Most notifications in one BullMQ job. */
const BATCH_MAX = 200;

/**
 * The job queue on Redis with BullMQ (NGSI-LD notifications, alert deliveries, verifications): jobs are stored in Redis before
 * `enqueue` resolves, so they outlive this process (at-least-once: a job active when the process died is
 * stalled and taken back after `stalledMs`); failed attempts are retried with capped exponential backoff;
 * each request has a timeout; deliveries in flight are bounded overall (worker concurrency) and per
 * endpoint (in this process); notifications that ran out of attempts stay in BullMQ's failed set (`dead`).
 *
 * One BullMQ job carries up to {@link BATCH_MAX} notifications to one endpoint: the notifications of the
 * commits that arrive while an `addBulk` is on its way to Redis are added with the next one, so Redis sees
 * one job per endpoint and round trip instead of one per notification. A retry re-sends only the
 * notifications of the job that failed (the job's data is cut down to them first).
 */
export class BullMqJobQueue<J extends QueuedJob> implements JobQueue<J> {
  readonly durable = true;
  private readonly queue: Queue<DeliveryBatch<J>>;
  private readonly worker: Worker<DeliveryBatch<J>>;
  private readonly connections: IORedis[] = [];
  private readonly limiter: EndpointLimiter;
  private waiting: { jobs: J[]; done: (e?: Error) => void }[] = [];
  private readonly priorityOf?: (job: QueuedJob) => number | undefined;
  private adding = false;

  constructor(
    private readonly send: (job: J, timeoutMs: number) => Promise<void>,
    private readonly settings: DeliverySettings,
    opts: BullMqOptions,
    private readonly onResult: (r: DeliveryResult<J>) => void,
    onError: (e: Error) => void,
    private readonly wanted: StillWanted<J> = () => true,
  ) {
    const connection = () => {
      const c = new IORedis(opts.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: true });
      c.on("error", onError);
      this.connections.push(c);
      return c;
    };
    this.limiter = new EndpointLimiter(settings.perEndpoint);
    this.priorityOf = opts.priorityOf;
    this.queue = new Queue<DeliveryBatch<J>>(opts.name, {
      connection: connection(),
      defaultJobOptions: {
        attempts: settings.attempts,
        backoff: { type: "capped-exponential" },
        removeOnComplete: true,
        removeOnFail: { count: opts.keepDead },
      },
    });
    this.queue.on("error", onError);
    this.worker = new Worker<DeliveryBatch<J>>(opts.name, (job: Job<DeliveryBatch<J>>) => this.deliver(job), {
      connection: connection(),
      concurrency: settings.concurrency,
      stalledInterval: opts.stalledMs,
      lockDuration: opts.stalledMs,
      maxStalledCount: settings.attempts,
      settings: { backoffStrategy: (attemptsMade: number) => retryDelay(attemptsMade, settings) },
    });
    this.worker.on("error", onError);
  }

  /**
   * Sends the notifications of one job that are still wanted (asked when the turn comes, after any
   * backoff: a deleted subscription gets nothing); the failed ones stay in the job, which then throws (retry).
   */
  private async deliver(job: Job<DeliveryBatch<J>>): Promise<void> {
    const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const failed: J[] = [];
    let firstError = "";
    await Promise.all(
      job.data.jobs.map(async (n) => {
        try {
          let sent = false;
          await this.limiter.run(endpointKey(n.uri), async () => {
            if (!this.wanted(n)) return;
            sent = true;
            await this.send(n, this.settings.timeoutMs);
          });
          if (!sent) return;
          this.onResult({ job: n, ok: true, final: true, at: new Date().toISOString() });
        } catch (e) {
          const error = e instanceof Error ? e.message : String(e);
          firstError ||= error;
          failed.push(n);
          this.onResult({ job: n, ok: false, error, final, at: new Date().toISOString() });
        }
      }),
    );
    if (failed.length === 0) return;
    if (failed.length < job.data.jobs.length) await job.updateData({ jobs: failed });
    throw new Error(firstError);
  }

  enqueue(jobs: J[]): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ jobs: stamped(jobs), done: (e) => (e ? reject(e) : resolve()) });
      if (!this.adding) void this.addWaiting();
    });
  }

  /** Adds what waits as one addBulk (one job per endpoint and BATCH_MAX), again while more arrived. */
  private async addWaiting(): Promise<void> {
    this.adding = true;
    while (this.waiting.length > 0) {
      const taken = this.waiting;
      this.waiting = [];
      const byEndpoint = new Map<string, J[]>();
      for (const { jobs } of taken) {
        for (const j of jobs) {
          const k = `${this.priorityOf?.(j) ?? 0} ${endpointKey(j.uri)}`;
          const list = byEndpoint.get(k);
          if (list) list.push(j);
          else byEndpoint.set(k, [j]);
        }
      }
      const batches: { name: string; data: DeliveryBatch<J>; opts?: { priority: number } }[] = [];
      for (const list of byEndpoint.values()) {
        const priority = this.priorityOf?.(list[0]);
        for (let i = 0; i < list.length; i += BATCH_MAX)
          batches.push({
            name: "notify",
            data: { jobs: list.slice(i, i + BATCH_MAX) },
            ...(priority ? { opts: { priority } } : {}),
          });
      }
      try {
        await this.queue.addBulk(batches);
        for (const t of taken) t.done();
      } catch (e) {
        for (const t of taken) t.done(e as Error);
      }
    }
    this.adding = false;
  }

  async dead(limit: number): Promise<DeadJob<J>[]> {
    const out: DeadJob<J>[] = [];
    for (let start = 0; out.length < limit; start += limit) {
      const failed = await this.queue.getFailed(start, start + limit - 1);
      if (failed.length === 0) break;
      for (const j of failed) {
        for (const job of j.data.jobs) {
          out.push({
            job,
            error: j.failedReason,
            attempts: j.attemptsMade,
            failedAt: new Date(j.finishedOn ?? j.timestamp).toISOString(),
          });
        }
      }
    }
    return out.slice(0, limit);
  }

  async counts(): Promise<QueueCounts> {
    const c = await this.queue.getJobCounts("waiting", "active", "delayed", "failed");
    return { waiting: c.waiting ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0, dead: c.failed ?? 0 };
  }

  async close(): Promise<void> {
    await this.worker.close();
    await this.queue.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => undefined)));
  }
}
