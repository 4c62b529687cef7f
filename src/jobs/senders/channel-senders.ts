import type { AlertChannel, AlertJob, ChannelSender } from "./alert-job";

/** Channels whose job `uri` is a URL a subscriber chose (webhook URL, Web Push endpoint). */
const URL_CHANNELS: ReadonlySet<AlertChannel> = new Set(["webhook", "push"]);

/**
 * The configured channels' senders behind one interface; a job for a missing channel fails. A job whose
 * `uri` a subscriber chose is sent only if `allowed` (the outbound policy notifications obey, asked with
 * the addresses the host resolves to now) lets it through; a refusal fails the job like a network error.
 */
export class ChannelSenders {
  private readonly byChannel = new Map<AlertChannel, ChannelSender>();

  constructor(
    senders: ChannelSender[],
    private readonly allowed: (url: string) => Promise<void> = async () => undefined,
  ) {
    for (const s of senders) this.byChannel.set(s.channel, s);
  }

  /** True when `channel` can deliver (email needs SMTP_URL, sms SMS_GATEWAY_URL). */
  configured(channel: AlertChannel): boolean {
    return this.byChannel.has(channel);
  }

  async send(job: AlertJob, timeoutMs: number): Promise<void> {
    const s = this.byChannel.get(job.channel);
    if (!s) throw new Error(`channel ${job.channel} is not configured`);
    if (URL_CHANNELS.has(job.channel)) await this.allowed(job.uri);
    return s.send(job, timeoutMs);
  }

  async close(): Promise<void> {
    for (const s of this.byChannel.values()) await s.close?.();
  }
}
