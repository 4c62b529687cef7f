import type { QueuedJob } from "../job-queue";

/** Alert channels (docs/reports-and-alerts.md "Alerts": email, push, sms; plus webhook). */
export const ALERT_CHANNELS = ["email", "push", "sms", "webhook"] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/** The alert a delivery carries (the shape of GET /alerts/active items). */
export interface AlertMessage {
  id: string;
  type: string;
  severity: string;
  location: { lat: number; lon: number; address?: string };
  message: string;
  timestamp: string;
}

/**
 * One alert to one subscriber on one channel. `uri` is where it goes: `mailto:<address>`,
 * `tel:<number>`, the webhook URL, or the Web Push endpoint; the per-endpoint limit counts by it.
 */
export interface AlertJob extends QueuedJob {
  uri: string;
  channel: AlertChannel;
  subscriptionId: string;
  alert: AlertMessage;
  /** Web Push subscription keys (push only). */
  push?: { endpoint: string; keys: { p256dh: string; auth: string } };
}

/** A channel's sender: delivers one job or throws (the queue retries with backoff). */
export interface ChannelSender {
  readonly channel: AlertChannel;
  send(job: AlertJob, timeoutMs: number): Promise<void>;
  close?(): Promise<void>;
}
