import type { NotifyConfig } from "../config/config";
import { BullMqQueue } from "./bullmq-queue";
import { InProcessQueue } from "./in-process-queue";
import type { DeliveryResult, NotificationJob, NotificationQueue } from "./notification-job";
import type { OutboundPolicy } from "./outbound-policy";
import { sendNotification } from "./send-notification";

/**
 * The notification queue of this configuration (docs/design.md "Parts that are real"): BullMQ on Redis when
 * `redisUrl` is set, the in-process queue otherwise; both deliver with {@link sendNotification}, to the
 * endpoints `policy` allows.
 */
export function createNotificationQueue(
  cfg: NotifyConfig,
  redisUrl: string | undefined,
  onResult: (r: DeliveryResult) => void,
  onError: (e: Error) => void,
  policy?: OutboundPolicy,
): NotificationQueue {
  // the policy is asked again at each delivery: a host name may resolve elsewhere than when subscribed
  const send = policy
    ? async (job: NotificationJob, timeoutMs: number) => {
        await policy.check(job.uri);
        return sendNotification(job, timeoutMs);
      }
    : sendNotification;
  if (!redisUrl) return new InProcessQueue(send, cfg, onResult);
  return new BullMqQueue(
    send,
    cfg,
    { redisUrl, name: cfg.queueName, stalledMs: cfg.stalledMs, keepDead: cfg.keepDead },
    onResult,
    onError,
  );
}
