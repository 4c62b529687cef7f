import { postJson, type PostAgents } from "../json-post";
import type { AlertJob, ChannelSender } from "./alert-job";

/** Webhook alerts: `{subscription_id, alert}` as JSON, POSTed to the subscriber's URL over keep-alive connections. */
export class WebhookSender implements ChannelSender {
  readonly channel = "webhook" as const;

  /** `agents`: the outbound policy's, so every connection is checked after name resolution. */
  constructor(private readonly agents?: PostAgents) {}

  send(job: AlertJob, timeoutMs: number): Promise<void> {
    return postJson(
      job.uri,
      JSON.stringify({ subscription_id: job.subscriptionId, alert: job.alert }),
      {
        "X-Citygraph-Subscription": job.subscriptionId,
        ...(job.traceparent ? { traceparent: job.traceparent } : {}),
      },
      timeoutMs,
      this.agents,
    );
  }
}
