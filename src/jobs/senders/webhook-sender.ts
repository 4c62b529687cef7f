import { sendHttp } from "../http-sender";
import type { AlertJob, ChannelSender } from "./alert-job";

/** Webhook alerts: the alert as JSON, POSTed to the subscriber's URL over the notifications' HTTP client. */
export class WebhookSender implements ChannelSender {
  readonly channel = "webhook" as const;

  send(job: AlertJob, timeoutMs: number): Promise<void> {
    return sendHttp(
      {
        tenant: "",
        subscriptionId: job.subscriptionId,
        uri: job.uri,
        headers: { "Content-Type": "application/json", "X-Citygraph-Subscription": job.subscriptionId },
        body: JSON.stringify({ subscription_id: job.subscriptionId, alert: job.alert }),
      },
      timeoutMs,
    );
  }
}
