import { postJson, type PostAgents } from "../json-post";
import type { AlertJob, ChannelSender } from "./alert-job";

/**
 * SMS alerts through an HTTP gateway (`SMS_GATEWAY_URL`): a JSON POST `{to, message}`; any 2xx is
 * taken as accepted. Most SMS providers (and self-hosted gateways) take such a request or sit
 * behind a small adapter that does.
 */
export class SmsSender implements ChannelSender {
  readonly channel = "sms" as const;

  constructor(
    private readonly gatewayUrl: string,
    private readonly agents?: PostAgents,
  ) {}

  send(job: AlertJob, timeoutMs: number): Promise<void> {
    const a = job.alert;
    const text = `${a.severity.toUpperCase()} ${a.type}: ${a.message}`.slice(0, 320);
    return postJson(
      this.gatewayUrl,
      JSON.stringify({ to: job.uri.replace(/^tel:/, ""), message: text }),
      {},
      timeoutMs,
      this.agents,
    );
  }
}
