import type { AlertChannel, AlertJob, ChannelSender } from "./alert-job";

/** The configured channels' senders behind one interface; a job for a missing channel fails. */
export class ChannelSenders {
  private readonly byChannel = new Map<AlertChannel, ChannelSender>();

  constructor(senders: ChannelSender[]) {
    for (const s of senders) this.byChannel.set(s.channel, s);
  }

  /** True when `channel` can deliver (email needs SMTP_URL, sms SMS_GATEWAY_URL). */
  configured(channel: AlertChannel): boolean {
    return this.byChannel.has(channel);
  }

  send(job: AlertJob, timeoutMs: number): Promise<void> {
    const s = this.byChannel.get(job.channel);
    if (!s) return Promise.reject(new Error(`channel ${job.channel} is not configured`));
    return s.send(job, timeoutMs);
  }

  async close(): Promise<void> {
    for (const s of this.byChannel.values()) await s.close?.();
  }
}
