import { stamped } from "./job-stamp";
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
import { readPendingJobs, removePendingJobs, writePendingJobs, type PendingJob } from "./pending-jobs-file";

/** How many dead jobs are kept in memory. */
const DEAD_KEPT = 1000;

/**
 * The job queue without Redis (docs/design.md "Parts that are real": in-process queue with retries):
 * the same retry behaviour as the BullMQ queue (attempts, exponential backoff with a cap, a timeout per
 * request, bounded concurrency per endpoint and overall), kept in memory. With a `pendingFile`, a clean
 * close writes the jobs still queued, waiting for a retry or in flight there, and the next start puts them
 * back (docs/operations.md "Restart and upgrade"); a crash loses them: use REDIS_URL where that matters.
 */
export class InProcessJobQueue<J extends QueuedJob> implements JobQueue<J> {
  readonly durable = false;
  private readonly perEndpoint: EndpointLimiter;
  private readonly overall: EndpointLimiter;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly deadJobs: DeadJob<J>[] = [];
  /** Every job not yet delivered, dead or dropped, with the attempts it has had. */
  private readonly pending = new Set<PendingJob<J>>();
  private waiting = 0;
  private active = 0;
  private closed = false;

  constructor(
    private readonly send: (job: J, timeoutMs: number) => Promise<void>,
    private readonly settings: DeliverySettings,
    private readonly onResult: (r: DeliveryResult<J>) => void,
    private readonly wanted: StillWanted<J> = () => true,
    private readonly pendingFile?: string,
  ) {
    this.perEndpoint = new EndpointLimiter(settings.perEndpoint);
    this.overall = new EndpointLimiter(settings.concurrency);
  }

  enqueue(jobs: J[]): Promise<void> {
    for (const job of stamped(jobs)) this.start({ job, attempts: 0 });
    return Promise.resolve();
  }

  resume(): void {
    if (this.pendingFile) this.restoreFrom(this.pendingFile);
  }

  /**
   * Puts back the jobs a clean close wrote to `file`, each with its attempts so far, then removes the file;
   * a job no longer wanted is dropped when its turn comes, as any other.
   */
  restoreFrom(file: string): void {
    for (const p of readPendingJobs<J>(file)) this.start({ job: p.job, attempts: p.attempts });
    removePendingJobs(file);
  }

  /** Writes the jobs still queued, waiting for a retry or in flight to `file` (none: no file). */
  drainTo(file: string): void {
    writePendingJobs(
      file,
      [...this.pending].map((p) => ({ job: p.job, attempts: p.attempts })),
    );
  }

  private start(p: PendingJob<J>): void {
    if (this.closed) return;
    this.pending.add(p);
    void this.attempt(p);
  }

  private async attempt(p: PendingJob<J>): Promise<void> {
    if (this.closed) return;
    const { job } = p;
    const n = p.attempts + 1;
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
    if (dropped) return void this.pending.delete(p);
    const final = error === undefined || n >= this.settings.attempts;
    p.attempts = n;
    if (final) this.pending.delete(p);
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
        void this.attempt(p);
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

  /** Stops; with a `pendingFile`, the jobs not yet delivered are written there for the next start. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.pendingFile) this.drainTo(this.pendingFile);
    return Promise.resolve();
  }
}
