import type { NotifyConfig } from "../config/config";
import { createJobQueue } from "./create-job-queue";
import type { DeliveryResult, StillWanted } from "./job-queue";
import type { NotificationJob, NotificationQueue } from "./notification-job";
import { outboundAgents } from "./outbound-agents";
import type { OutboundPolicy } from "./outbound-policy";
import { sendNotification } from "./send-notification";

/** What {@link createNotificationQueue} builds the queue from. */
export interface NotificationQueueDeps {
  config: NotifyConfig;
  /** BullMQ on this Redis when set, in process otherwise. */
  redisUrl?: string;
  /** In process: where the jobs pending at a clean close are kept for the next start. */
  dataDir?: string;
  /** Where notifications may go (none: anywhere). */
  policy?: OutboundPolicy;
  /** Whether a notification is still wanted when its turn comes (its subscription still exists). */
  wanted?: StillWanted<NotificationJob>;
  onResult: (r: DeliveryResult<NotificationJob>) => void;
  /** Errors of the queue itself (Redis). */
  onError: (e: Error) => void;
}

/**
 * The queue of NGSI-LD notifications (createJobQueue, with the NOTIFY_* settings): it delivers with
 * {@link sendNotification}, to the endpoints `policy` allows, the jobs that are still `wanted`.
 */
export function createNotificationQueue(deps: NotificationQueueDeps): NotificationQueue {
  const { config, policy } = deps;
  // the policy is asked again at each delivery, after name resolution: HTTP through its agents, which
  // check the address each connection is made to; MQTT before it connects
  const run = policy
    ? async (job: NotificationJob, timeoutMs: number) => {
        if (job.uri.startsWith("mqtt")) await policy.check(job.uri);
        return sendNotification(job, timeoutMs, outboundAgents(policy));
      }
    : sendNotification;
  return createJobQueue<NotificationJob>({
    run,
    settings: config,
    place: {
      redisUrl: deps.redisUrl,
      name: config.queueName,
      dataDir: deps.dataDir,
      stalledMs: config.stalledMs,
      keepDead: config.keepDead,
    },
    onResult: deps.onResult,
    onError: deps.onError,
    wanted: deps.wanted,
  });
}
