import { BullMqJobQueue } from "./bullmq-job-queue";
import { InProcessJobQueue } from "./in-process-job-queue";
import { pendingJobsFile } from "./pending-jobs-file";
import type { DeliveryResult, DeliverySettings, JobQueue, QueuedJob, StillWanted } from "./job-queue";

/** Where a job queue lives. */
export interface QueuePlace {
  /** Redis URL: BullMQ when set, in process otherwise. */
  redisUrl?: string;
  /** BullMQ queue name; in process, the name of its file of pending jobs. */
  name: string;
  /** In process: where the jobs pending at a clean close are kept for the next start (none: not kept). */
  dataDir?: string;
  stalledMs: number;
  keepDead: number;
  /** BullMQ priority of a job (1 = first). */
  priorityOf?: (job: QueuedJob) => number | undefined;
}

/** What {@link createJobQueue} builds a queue from. */
export interface JobQueueSpec<J extends QueuedJob> {
  /** Runs one job; a throw is retried with backoff up to the settings' attempts. */
  run: (job: J, timeoutMs: number) => Promise<void>;
  settings: DeliverySettings;
  place: QueuePlace;
  /** Every attempt's outcome (a failure says whether it was the last). */
  onResult: (r: DeliveryResult<J>) => void;
  /** Errors of the queue itself (Redis), not of a job. */
  onError: (e: Error) => void;
  /** Whether a job is still wanted when its turn comes (default: always). */
  wanted?: StillWanted<J>;
}

/**
 * The job queue of this configuration (docs/design.md "Parts that are real": in-process queue with retries,
 * BullMQ on Redis when `REDIS_URL` is set), for any kind of job: NGSI-LD notifications
 * (create-notification-queue.ts), alert deliveries and report verifications.
 */
export function createJobQueue<J extends QueuedJob>({
  run,
  settings,
  place,
  onResult,
  onError,
  wanted,
}: JobQueueSpec<J>): JobQueue<J> {
  if (!place.redisUrl) {
    const file = place.dataDir === undefined ? undefined : pendingJobsFile(place.dataDir, place.name);
    return new InProcessJobQueue<J>(run, settings, onResult, wanted, file);
  }
  return new BullMqJobQueue<J>(
    run,
    settings,
    {
      redisUrl: place.redisUrl,
      name: place.name,
      stalledMs: place.stalledMs,
      keepDead: place.keepDead,
      priorityOf: place.priorityOf,
    },
    onResult,
    onError,
    wanted,
  );
}
