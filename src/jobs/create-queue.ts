import type { NotifyConfig } from "../config/config";
import { BullMqQueue } from "./bullmq-queue";
import { InProcessQueue } from "./in-process-queue";
import type { DeliveryResult, NotificationJob, NotificationQueue, StillWanted } from "./notification-job";
import { outboundAgents } from "./outbound-agents";
import { pendingJobsFile } from "./pending-jobs-file";
import type { OutboundPolicy } from "./outbound-policy";
import { sendNotification } from "./send-notification";

/**
 * The notification queue of this configuration (docs/design.md "Parts that are real"): BullMQ on Redis when
 * `redisUrl` is set, the in-process queue otherwise; both deliver with {@link sendNotification}, to the
 * endpoints `policy` allows, the jobs that are still `wanted` when their turn comes. In process, the jobs
 * pending at a clean close are kept in a file of `dataDir` for the next start.
 */
export function createNotificationQueue(
  cfg: NotifyConfig,
  redisUrl: string | undefined,
  onResult: (r: DeliveryResult) => void,
  onError: (e: Error) => void,
  policy?: OutboundPolicy,
  wanted?: StillWanted<NotificationJob>,
  dataDir?: string,
): NotificationQueue {
  // the policy is asked again at each delivery, after name resolution: HTTP through its agents, which
  // check the address each connection is made to; MQTT before it connects
  const send = policy
    ? async (job: NotificationJob, timeoutMs: number) => {
        if (job.uri.startsWith("mqtt")) await policy.check(job.uri);
        return sendNotification(job, timeoutMs, outboundAgents(policy));
      }
    : sendNotification;
  if (!redisUrl)
    return new InProcessQueue(
      send,
      cfg,
      onResult,
      wanted,
      dataDir === undefined ? undefined : pendingJobsFile(dataDir, cfg.queueName),
    );
  return new BullMqQueue(
    send,
    cfg,
    { redisUrl, name: cfg.queueName, stalledMs: cfg.stalledMs, keepDead: cfg.keepDead },
    onResult,
    onError,
    wanted,
  );
}
