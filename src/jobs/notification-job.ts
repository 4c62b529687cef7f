import type { JobQueue, QueuedJob } from "./job-queue";

/**
 * One notification to deliver. It carries everything
 * the sender needs, already rendered, so a job read back from Redis after a restart is sent as it was
 * enqueued, without the store.
 */
export interface NotificationJob extends QueuedJob {
  tenant: string;
  subscriptionId: string;
  /**
   * The subscription's `createdAt`: a job of a subscription that was deleted (and perhaps made again
   * under the same id) is not sent.
   */
  subscriptionCreatedAt?: string;
  /** Endpoint URI: http(s):// or mqtt(s):// (ETSI GS CIM 009 v1.8 §5.2.15). */
  uri: string;
  /** Headers: Content-Type, Link (application/json), NGSILD-Tenant, and the receiverInfo pairs. */
  headers: Record<string, string>;
  /** The Notification (§5.3.1) as JSON text. */
  body: string;
  /** notifierInfo pairs (MQTT-Version, MQTT-QoS for MQTT endpoints, §7.3). */
  notifierInfo?: { key: string; value: string }[];
}

/** The queue of NGSI-LD notifications. */
export type NotificationQueue = JobQueue<NotificationJob>;
