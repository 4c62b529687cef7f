import nodemailer, { type Transporter } from "nodemailer";
import type { AlertJob, ChannelSender } from "./alert-job";

/** Email alerts through the configured SMTP server (nodemailer; `SMTP_URL`, e.g. smtp://host:587). */
export class EmailSender implements ChannelSender {
  readonly channel = "email" as const;
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl, { pool: true, maxConnections: 4 } as never);
  }

  async send(job: AlertJob, timeoutMs: number): Promise<void> {
    const a = job.alert;
    const where = a.location.address ?? `${a.location.lat.toFixed(5)}, ${a.location.lon.toFixed(5)}`;
    const sending = this.transport.sendMail({
      from: this.from,
      to: job.uri.replace(/^mailto:/, ""),
      subject: `[citygraph] ${a.severity} ${a.type}: ${where}`,
      text: `${a.message}\n\nWhere: ${where}\nWhen: ${a.timestamp}\nSeverity: ${a.severity}\nAlert: ${a.id}\n`,
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from SMTP within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([sending, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    this.transport.close();
    return Promise.resolve();
  }
}
