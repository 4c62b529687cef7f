import type { NotifyConfig } from "../config/config";
import { BullMqQueue } from "./bullmq-queue";
import { InProcessQueue } from "./in-process-queue";
import type { DeliveryResult, NotificationQueue } from "./notification-job";
import { sendNotification } from "./send-notification";

/**
 * The notification queue of this configuration (docs/design.md "Parts that are real"): BullMQ on Redis when
 * `redisUrl` is set, the in-process queue otherwise; both deliver with {@link sendNotification}.
 */
export function createNotificationQueue(
  cfg: NotifyConfig,
  redisUrl: string | undefined,
  onResult: (r: DeliveryResult) => void,
  onError: (e: Error) => void,
): NotificationQueue {
  if (!redisUrl) return new InProcessQueue(sendNotification, cfg, onResult);
  return new BullMqQueue(
    sendNotification,
    cfg,
    { redisUrl, name: cfg.queueName, stalledMs: cfg.stalledMs, keepDead: cfg.keepDead },
    onResult,
    onError,
  );
}
