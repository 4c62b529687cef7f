import { stamped } from "./job-stamp";
import { EndpointLimiter } from "./endpoint-limiter";
import {
  endpointKey,
  retryDelay,
  type DeadJob,
  type DeliveryResult,
  type DeliverySettings,
  type JobQueue,
  type NotificationJob,
  type QueueCounts,
  type QueuedJob,
  type StillWanted,
} from "./notification-job";

/** How many dead jobs are kept in memory. */
const DEAD_KEPT = 1000;

/**
 * The job queue without Redis (docs/design.md "Parts that are real": in-process queue with retries):
 * the same retry behaviour as the BullMQ queue (attempts, exponential backoff with a cap, a timeout per
 * request, bounded concurrency per endpoint and overall), kept in memory, so pending jobs are lost if
 * the process dies; use REDIS_URL where that matters.
 */
export class InProcessQueue<J extends QueuedJob = NotificationJob> implements JobQueue<J> {
  readonly durable = false;
  private readonly perEndpoint: EndpointLimiter;
  private readonly overall: EndpointLimiter;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly deadJobs: DeadJob<J>[] = [];
  private waiting = 0;
  private active = 0;
  private closed = false;

  constructor(
    private readonly send: (job: J, timeoutMs: number) => Promise<void>,
    private readonly settings: DeliverySettings,
    private readonly onResult: (r: DeliveryResult<J>) => void,
    private readonly wanted: StillWanted<J> = () => true,
  ) {
    this.perEndpoint = new EndpointLimiter(settings.perEndpoint);
    this.overall = new EndpointLimiter(settings.concurrency);
  }

  enqueue(jobs: J[]): Promise<void> {
    for (const job of stamped(jobs)) void this.attempt(job, 1);
    return Promise.resolve();
  }

  private async attempt(job: J, n: number): Promise<void> {
    if (this.closed) return;
    this.waiting++;
    let error: string | undefined;
    let dropped = false;
    await this.overall.run("", () =>
      this.perEndpoint.run(endpointKey(job.uri), async () => {
        this.waiting--;
        // asked when the turn comes, after any backoff and wait: a deleted subscription gets nothing
        if (this.closed || !this.wanted(job)) return void (dropped = true);
        this.active++;
        try {
          await this.send(job, this.settings.timeoutMs);
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
        } finally {
          this.active--;
        }
      }),
    );
    if (dropped) return;
    const final = error === undefined || n >= this.settings.attempts;
    this.onResult({ job, ok: error === undefined, error, final, at: new Date().toISOString() });
    if (error === undefined || this.closed) return;
    if (final) {
      this.deadJobs.unshift({ job, error, attempts: n, failedAt: new Date().toISOString() });
      this.deadJobs.length = Math.min(this.deadJobs.length, DEAD_KEPT);
      return;
    }
    const t = setTimeout(
      () => {
        this.timers.delete(t);
        void this.attempt(job, n + 1);
      },
      retryDelay(n, this.settings),
    );
    this.timers.add(t);
  }

  dead(limit: number): Promise<DeadJob<J>[]> {
    return Promise.resolve(this.deadJobs.slice(0, limit));
  }

  counts(): Promise<QueueCounts> {
    return Promise.resolve({
      waiting: this.waiting,
      active: this.active,
      delayed: this.timers.size,
      dead: this.deadJobs.length,
    });
  }

  close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    return Promise.resolve();
  }
}
