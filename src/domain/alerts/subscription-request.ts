import { badRequest } from "../../errors";
import { ALERT_CHANNELS, type AlertChannel } from "../../jobs/senders/alert-job";
import { ALERT_SEVERITIES, ALERT_TYPES, type AlertSeverity, type AlertType } from "./alert-severity";

/** Where each channel of a subscription delivers. */
export interface ChannelTargets {
  email?: string;
  phone?: string;
  webhook_url?: string;
  push_subscription?: { endpoint: string; keys: { p256dh: string; auth: string } };
}

/** A request for alerts, as a face gives it once its own input rules passed. */
export interface SubscriptionRequest {
  /** Who the alerts are for (default: the caller). */
  userId?: string;
  alertTypes: readonly AlertType[];
  /** District names or ids; none = the whole city. */
  locations?: readonly string[];
  /** Default: minor. */
  severityThreshold?: AlertSeverity;
  channels: readonly AlertChannel[];
  targets: ChannelTargets;
}

/** An email address a channel can deliver to. */
export const EMAIL_PATTERN = "^[^\\s@<>]+@[^\\s@<>]+\\.[^\\s@<>]+$";
/** A phone number an SMS gateway takes (spaces allowed). */
export const PHONE_PATTERN = "^\\+?[0-9 ]{6,20}$";
/** The most alert types, channels or locations of one subscription. */
export const MAX_SUBSCRIPTION_LIST = 50;
/** The longest user id or email address. */
export const MAX_SUBSCRIPTION_TEXT = 200;

/** The distinct values of a list of the domain's `allowed` values, at least one. */
function someOf<T extends string>(name: string, values: readonly T[], allowed: readonly T[]): T[] {
  const out = [...new Set(values)];
  const bad = out.find((s) => !allowed.includes(s));
  if (bad !== undefined)
    throw badRequest(`Unknown value in '${name}': ${bad}`, {
      parameter: name,
      value: bad,
      expected: allowed.join(", "),
    });
  if (out.length === 0 || out.length > MAX_SUBSCRIPTION_LIST)
    throw badRequest(`'${name}' must hold 1 to ${MAX_SUBSCRIPTION_LIST} values`, {
      parameter: name,
      value: values,
      expected: `1 to ${MAX_SUBSCRIPTION_LIST} values`,
    });
  return out;
}

const refused = (parameter: string, value: unknown, message: string, expected: string) =>
  badRequest(message, { parameter, value, expected });

/** The target of `channel` in `t`, made ready for delivery; 400 when it is missing or malformed. */
function targetOf(channel: AlertChannel, t: ChannelTargets): ChannelTargets {
  if (channel === "email") {
    const e = t.email;
    if (!e || !new RegExp(EMAIL_PATTERN).test(e) || e.length > MAX_SUBSCRIPTION_TEXT)
      throw refused("email", e, "The email channel needs an 'email' address", "an email address");
    return { email: e };
  }
  if (channel === "sms") {
    if (!t.phone || !new RegExp(PHONE_PATTERN).test(t.phone))
      throw refused("phone", t.phone, "The sms channel needs a 'phone' number", "a phone number");
    return { phone: t.phone.replace(/\s+/g, "") };
  }
  if (channel === "webhook") {
    const u = t.webhook_url && URL.canParse(t.webhook_url) ? new URL(t.webhook_url) : undefined;
    if (!u || (u.protocol !== "http:" && u.protocol !== "https:"))
      throw refused(
        "webhook_url",
        t.webhook_url,
        "The webhook channel needs a 'webhook_url' (http or https)",
        "an http(s) URL",
      );
    return { webhook_url: u.toString() };
  }
  const p = t.push_subscription;
  if (!p || !/^https:\/\//.test(p.endpoint))
    throw refused(
      "push_subscription",
      p,
      "The push channel needs a 'push_subscription' {endpoint, keys{p256dh, auth}}",
      "a Web Push subscription",
    );
  return { push_subscription: { endpoint: p.endpoint, keys: { p256dh: p.keys.p256dh, auth: p.keys.auth } } };
}

/**
 * The domain's rules of a subscription request (docs/reports-and-alerts.md "Alerts"): known alert types,
 * channels and severity, each channel with a target it can deliver to. The request comes back with
 * duplicates dropped, the defaults filled and only the chosen channels' targets, ready for delivery.
 */
export function checkSubscription(req: SubscriptionRequest, owner: string): Required<SubscriptionRequest> {
  const alertTypes = someOf("alert_types", req.alertTypes, ALERT_TYPES);
  const channels = someOf("channels", req.channels, ALERT_CHANNELS);
  const locations = [...new Set((req.locations ?? []).map((s) => s.trim()))];
  if (locations.length > MAX_SUBSCRIPTION_LIST)
    throw refused("locations", locations.length, "Too many locations", `at most ${MAX_SUBSCRIPTION_LIST}`);
  const severityThreshold = req.severityThreshold ?? "minor";
  if (!ALERT_SEVERITIES.includes(severityThreshold))
    throw refused(
      "severity_threshold",
      severityThreshold,
      "Unknown severity_threshold",
      ALERT_SEVERITIES.join(", "),
    );
  const targets: ChannelTargets = {};
  for (const c of channels) Object.assign(targets, targetOf(c, req.targets));
  const userId = req.userId?.trim().slice(0, MAX_SUBSCRIPTION_TEXT) || owner;
  return { userId, alertTypes, locations, severityThreshold, channels, targets };
}
