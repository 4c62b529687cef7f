/**
 * What every queued job carries: the URI whose scheme, host and port the per-endpoint limit counts
 * (an http(s) or mqtt endpoint, `mailto:`, `tel:`, or a name such as `verify:<report>`).
 */
export interface QueuedJob extends JobStamp {
  uri: string;
}

/**
 * Whether a job is still wanted just before it is sent (its subscription still exists); a job that is
 * not is dropped: not sent, not retried, no result.
 */
export type StillWanted<J> = (job: J) => boolean;

/** What the queue adds to a job when it is queued (job-stamp.ts). */
export interface JobStamp {
  /** The W3C `traceparent` of the request whose write queued the job; its outbound request carries it. */
  traceparent?: string;
  /** When the job was queued (epoch ms), for the delivery latency. */
  enqueuedAt?: number;
}

/** The outcome of one delivery attempt. */
export interface DeliveryResult<J extends QueuedJob> {
  job: J;
  ok: boolean;
  /** Why it failed. */
  error?: string;
  /** True when no retry follows (success, or the last attempt failed: the job is dead). */
  final: boolean;
  /** When the attempt ended (ISO 8601). */
  at: string;
}

/** A failed job kept for inspection. */
export interface DeadJob<J extends QueuedJob> {
  job: J;
  error: string;
  attempts: number;
  failedAt: string;
}

/** Counts of a job queue. */
export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  dead: number;
}

/**
 * A job queue: BullMQ on Redis when REDIS_URL is set, in process otherwise; both retry a failed job
 * with exponential backoff, bound the concurrency per endpoint, and keep the jobs that ran out of
 * attempts visible. NGSI-LD notifications, alert deliveries and report verifications use it.
 */
export interface JobQueue<J extends QueuedJob> {
  /** True when enqueued jobs survive a crash of this process (Redis). */
  readonly durable: boolean;
  /** Accepts jobs; resolves once they are stored in the queue (in Redis, when durable). */
  enqueue(jobs: J[]): Promise<void>;
  /** Jobs that ran out of attempts, newest first. */
  dead(limit: number): Promise<DeadJob<J>[]>;
  /** Current counts. */
  counts(): Promise<QueueCounts>;
  /**
   * Puts back the jobs a clean close left in the data directory (in process; Redis keeps its own), once
   * everything that says whether a job is still wanted is loaded.
   */
  resume?(): void;
  /**
   * Stops taking jobs; what is not yet delivered is left for the next start (in Redis, or in process in a
   * file of the data directory when the queue has one).
   */
  close(): Promise<void>;
}

/** Delivery settings shared by both queues (config: NOTIFY_*). */
export interface DeliverySettings {
  /** Attempts per notification, the first included. */
  attempts: number;
  /** Delay before the first retry, ms; doubles at each retry. */
  backoffMs: number;
  /** Longest delay between two attempts, ms. */
  backoffMaxMs: number;
  /** Timeout of one delivery request, ms. */
  timeoutMs: number;
  /** Deliveries in flight to one endpoint (scheme + host + port) at once. */
  perEndpoint: number;
  /** Deliveries in flight over all endpoints at once. */
  concurrency: number;
}

/** The delay before retry number `retry` (1 = the first retry): exponential, capped. */
export function retryDelay(retry: number, s: Pick<DeliverySettings, "backoffMs" | "backoffMaxMs">): number {
  return Math.min(s.backoffMaxMs, s.backoffMs * 2 ** Math.max(0, retry - 1));
}
