import { sendHttp } from "./http-sender";
import type { PostAgents } from "./json-post";
import { sendMqtt } from "./mqtt-sender";
import type { NotificationJob } from "./notification-job";

/**
 * Delivers one notification by the binding its endpoint URI names (http, https, mqtt, mqtts); throws on
 * failure. HTTP goes through `agents` (the outbound policy's, when given).
 */
export function sendNotification(
  job: NotificationJob,
  timeoutMs: number,
  agents?: PostAgents,
): Promise<void> {
  return job.uri.startsWith("mqtt") ? sendMqtt(job, timeoutMs) : sendHttp(job, timeoutMs, agents);
}
