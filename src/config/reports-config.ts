import { ConfigError as ReportsConfigError } from "./config-error";

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
   * after it count. Env `VERIFY_DELAY_MS`, default 0.
   */
  verifyDelayMs: number;
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ReportsConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(u.protocol))
    throw new ReportsConfigError(`${name} must use ${protocols.join(" or ")}, got "${u.protocol}"`);
  return raw;
}

/** Reads the reports and alerts settings from `env`. */
export function reportsConfig(env: NodeJS.ProcessEnv): ReportsConfig {
  const delay = (env.VERIFY_DELAY_MS ?? "").trim();
  if (delay && !/^\d+$/.test(delay))
    throw new ReportsConfigError(`VERIFY_DELAY_MS must be a whole number, got "${delay}"`);
  return {
    smtpUrl: url(env, "SMTP_URL", ["smtp:", "smtps:"]),
    emailFrom: env.ALERT_EMAIL_FROM?.trim() || "citygraph alerts <alerts@citygraph.local>",
    smsGatewayUrl: url(env, "SMS_GATEWAY_URL", ["http:", "https:"]),
    vapidSubject: env.VAPID_SUBJECT?.trim() || "mailto:alerts@citygraph.local",
    verifyDelayMs: delay ? Math.min(Number(delay), 86_400_000) : 0,
  };
}
