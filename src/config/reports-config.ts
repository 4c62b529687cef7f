import { intVar, urlVar } from "./env-readers";

/** Citizen reports and alerts (docs/reports-and-alerts.md). */
export interface ReportsConfig {
  /** SMTP server of the email alert channel, e.g. smtp://user:pass@mail:587. Env `SMTP_URL`; unset = no email channel. */
  smtpUrl?: string;
  /** Sender of alert emails. Env `ALERT_EMAIL_FROM`, default "citygraph alerts <alerts@citygraph.local>". */
  emailFrom: string;
  /** HTTP gateway of the sms alert channel (JSON POST {to, message}). Env `SMS_GATEWAY_URL`; unset = no sms channel. */
  smsGatewayUrl?: string;
  /** VAPID subject of Web Push (a mailto: or https: URL). Env `VAPID_SUBJECT`, default mailto:alerts@citygraph.local. */
  vapidSubject: string;
  /**
   * Wait before a report's first verification, ms, so camera detections and other reports arriving just
   * after it count. Env `VERIFY_DELAY_MS`, default 0, at most a day (86,400,000).
   */
  verifyDelayMs: number;
}

/** Reads the reports and alerts settings from `env`. */
export function reportsConfig(env: NodeJS.ProcessEnv): ReportsConfig {
  return {
    smtpUrl: urlVar(env, "SMTP_URL", ["smtp:", "smtps:"]),
    emailFrom: env.ALERT_EMAIL_FROM?.trim() || "citygraph alerts <alerts@citygraph.local>",
    smsGatewayUrl: urlVar(env, "SMS_GATEWAY_URL", ["http:", "https:"]),
    vapidSubject: env.VAPID_SUBJECT?.trim() || "mailto:alerts@citygraph.local",
    verifyDelayMs: intVar(env, "VERIFY_DELAY_MS", 0, 0, 86_400_000),
  };
}
