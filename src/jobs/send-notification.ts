import { sendHttp } from "./http-sender";
import { sendMqtt } from "./mqtt-sender";
import type { NotificationJob } from "./notification-job";

/** Delivers one notification by the binding its endpoint URI names (http, https, mqtt, mqtts); throws on failure. */
export function sendNotification(job: NotificationJob, timeoutMs: number): Promise<void> {
  return job.uri.startsWith("mqtt") ? sendMqtt(job, timeoutMs) : sendHttp(job, timeoutMs);
}
