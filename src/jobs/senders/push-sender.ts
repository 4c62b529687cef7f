import fs from "node:fs";
import type https from "node:https";
import path from "node:path";
import webpush from "web-push";
import type { AlertJob, ChannelSender } from "./alert-job";

/** VAPID keys of this service (RFC 8292). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The VAPID keys kept in `DATA_DIR/vapid.json` (mode 0600), made on first start. */
export function loadOrMakeVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, "vapid.json");
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as VapidKeys;
  const keys = webpush.generateVAPIDKeys();
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/** Web Push alerts (RFC 8030 with VAPID): the alert JSON, encrypted to the browser's subscription keys. */
export class PushSender implements ChannelSender {
  readonly channel = "push" as const;

  constructor(
    private readonly keys: VapidKeys,
    private readonly subject: string,
    /** The outbound policy's HTTPS agent: every connection to a push service is checked. */
    private readonly agent?: https.Agent,
  ) {}

  async send(job: AlertJob, timeoutMs: number): Promise<void> {
    if (!job.push) throw new Error("push job without a subscription");
    const res = await webpush.sendNotification(job.push, JSON.stringify(job.alert), {
      vapidDetails: {
        subject: this.subject,
        publicKey: this.keys.publicKey,
        privateKey: this.keys.privateKey,
      },
      timeout: timeoutMs,
      TTL: 3600,
      ...(this.agent ? { agent: this.agent } : {}),
    });
    if (res.statusCode < 200 || res.statusCode > 299)
      throw new Error(`push service answered ${res.statusCode}`);
  }
}
