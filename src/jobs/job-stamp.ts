import type { Metrics } from "../observability/metrics";
import { outboundTraceparent } from "../observability/trace-context";
import type { DeliveryResult, QueuedJob } from "./job-queue";

/**
 * The jobs with their stamp (docs/operations.md "Traces"): the trace of the write that queues them, so that
 * their outbound request carries a `traceparent` of that trace, and the time they were queued. A job read back
 * from a queue (a retry, a restart) keeps the stamp it had.
 */
export function stamped<J extends QueuedJob>(jobs: J[]): J[] {
  const traceparent = outboundTraceparent();
  const now = Date.now();
  return jobs.map((j) =>
    j.enqueuedAt !== undefined
      ? j
      : traceparent
        ? { ...j, traceparent, enqueuedAt: now }
        : { ...j, enqueuedAt: now },
  );
}

/** Reports one delivery attempt of `queue` to the metrics: its outcome and the time since the job was queued. */
export function reportDelivery(metrics: Metrics, queue: string, r: DeliveryResult<QueuedJob>): void {
  const outcome = r.ok ? "notified" : r.final ? "failed" : "retrying";
  const at = Date.parse(r.at);
  const seconds =
    r.job.enqueuedAt !== undefined && !Number.isNaN(at) ? Math.max(0, at - r.job.enqueuedAt) / 1000 : 0;
  metrics.delivery(queue, outcome, seconds);
}
