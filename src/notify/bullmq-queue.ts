import { Queue, Worker, type Job } from "bullmq";
import IORedis from "ioredis";
import { EndpointLimiter } from "./endpoint-limiter";
import {
  endpointKey,
  retryDelay,
  type DeadJob,
  type DeliveryResult,
  type DeliverySettings,
  type NotificationJob,
  type NotificationQueue,
  type QueueCounts,
} from "./notification-job";

/** Options of {@link BullMqQueue}. */
export interface BullMqOptions {
  redisUrl: string;
  /** Queue name (and Redis key prefix part); one per deployment, or per test run. */
  name: string;
  /** How often a job left active by a dead process is taken back, ms (BullMQ stalledInterval). */
  stalledMs: number;
  /** Failed jobs kept in Redis for inspection. */
  keepDead: number;
}

/**
 * The notification queue on Redis with BullMQ (issue 4 item 3): a job is stored in Redis before
 * `enqueue` resolves, so it outlives this process (at-least-once: a job active when the process died is
 * stalled and taken back after `stalledMs`); failed attempts are retried with capped exponential backoff;
 * each request has a timeout; deliveries in flight are bounded overall (worker concurrency) and per
 * endpoint (in this process); jobs that ran out of attempts stay in BullMQ's failed set (`dead`).
 */
export class BullMqQueue implements NotificationQueue {
  readonly durable = true;
  private readonly queue: Queue;
  private readonly worker: Worker;
  private readonly connections: IORedis[] = [];
  private readonly limiter: EndpointLimiter;

  constructor(
    send: (job: NotificationJob, timeoutMs: number) => Promise<void>,
    private readonly settings: DeliverySettings,
    opts: BullMqOptions,
    onResult: (r: DeliveryResult) => void,
    onError: (e: Error) => void,
  ) {
    const connection = () => {
      const c = new IORedis(opts.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: true });
      c.on("error", onError);
      this.connections.push(c);
      return c;
    };
    this.limiter = new EndpointLimiter(settings.perEndpoint);
    this.queue = new Queue(opts.name, {
      connection: connection(),
      defaultJobOptions: {
        attempts: settings.attempts,
        backoff: { type: "capped-exponential" },
        removeOnComplete: true,
        removeOnFail: { count: opts.keepDead },
      },
    });
    this.queue.on("error", onError);
    this.worker = new Worker<NotificationJob>(
      opts.name,
      (job: Job<NotificationJob>) =>
        this.limiter.run(endpointKey(job.data.uri), () => send(job.data, settings.timeoutMs)),
      {
        connection: connection(),
        concurrency: settings.concurrency,
        stalledInterval: opts.stalledMs,
        lockDuration: opts.stalledMs,
        maxStalledCount: settings.attempts,
        settings: { backoffStrategy: (attemptsMade: number) => retryDelay(attemptsMade, settings) },
      },
    );
    this.worker.on("error", onError);
    this.worker.on("completed", (job: Job<NotificationJob>) =>
      onResult({ job: job.data, ok: true, final: true, at: new Date().toISOString() }),
    );
    this.worker.on("failed", (job: Job<NotificationJob> | undefined, err: Error) => {
      if (!job) return;
      const final = job.attemptsMade >= (job.opts.attempts ?? 1);
      onResult({ job: job.data, ok: false, error: err.message, final, at: new Date().toISOString() });
    });
  }

  async enqueue(jobs: NotificationJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue.addBulk(jobs.map((data) => ({ name: "notify", data })));
  }

  async dead(limit: number): Promise<DeadJob[]> {
    const failed = await this.queue.getFailed(0, Math.max(0, limit - 1));
    return failed.map((j) => ({
      job: j.data as NotificationJob,
      error: j.failedReason,
      attempts: j.attemptsMade,
      failedAt: new Date(j.finishedOn ?? j.timestamp).toISOString(),
    }));
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
