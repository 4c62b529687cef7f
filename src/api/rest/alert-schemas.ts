import { ALERT_SEVERITIES, ALERT_TYPES } from "../../domain/alerts/alert-severity";
import {
  EMAIL_PATTERN,
  MAX_SUBSCRIPTION_LIST,
  MAX_SUBSCRIPTION_TEXT,
  PHONE_PATTERN,
} from "../../domain/alerts/subscription-request";
import { ALERT_CHANNELS } from "../../jobs/senders/alert-job";
import { arr, closed, input, nullable, num, oneOfStrings, str, time } from "./json-schema";

/**
 * The alert bodies of both REST variants (docs/reports-and-alerts.md "Alerts"): the subscription request,
 * which the routes validate with, and the answers as closed schemas.
 */

const TYPES = arr(oneOfStrings(ALERT_TYPES));
const SEVERITY = oneOfStrings(ALERT_SEVERITIES);
const CHANNELS = arr(oneOfStrings(ALERT_CHANNELS));

/** POST /alerts/subscriptions: what to be warned of, where, and where each channel delivers. */
export const SUBSCRIPTION_REQUEST = input(
  {
    user_id: { ...str, maxLength: MAX_SUBSCRIPTION_TEXT, description: "defaults to the caller" },
    alert_types: { ...arr(oneOfStrings(ALERT_TYPES), MAX_SUBSCRIPTION_LIST), minItems: 1 },
    locations: arr(
      { ...str, description: "a district name or id; none = the whole city" },
      MAX_SUBSCRIPTION_LIST,
    ),
    severity_threshold: { ...SEVERITY, default: "minor" },
    channels: { ...arr(oneOfStrings(ALERT_CHANNELS), MAX_SUBSCRIPTION_LIST), minItems: 1 },
    email: {
      ...str,
      maxLength: MAX_SUBSCRIPTION_TEXT,
      pattern: EMAIL_PATTERN,
      description: "target of the email channel",
    },
    phone: { ...str, pattern: PHONE_PATTERN, description: "target of the sms channel" },
    webhook_url: {
      ...str,
      format: "uri",
      pattern: "^https?://",
      description: "target of the webhook channel (http or https)",
    },
    push_subscription: input(
      {
        endpoint: { ...str, pattern: "^https://" },
        keys: input({ p256dh: str, auth: str }, ["p256dh", "auth"]),
      },
      ["endpoint", "keys"],
    ),
  },
  ["alert_types", "channels"],
);

/** The answer to POST /alerts/subscriptions. */
export const SUBSCRIBED = closed({ subscription_id: str, status: { const: "active" }, message: str });

/**
 * GET /alerts/subscriptions: the caller's own (an admin's: everyone's), with where each channel delivers
 * (personal data, shown to its owner and admins only: docs/auth.md).
 */
export const SUBSCRIPTION_LIST = closed({
  subscriptions: arr(
    closed(
      {
        subscription_id: str,
        user_id: str,
        alert_types: TYPES,
        locations: arr(str),
        severity_threshold: SEVERITY,
        channels: CHANNELS,
        status: { const: "active" },
        created_at: nullable(time),
        email: str,
        phone: str,
        webhook_url: str,
        push_subscription: closed({ endpoint: str, keys: closed({ p256dh: str, auth: str }) }),
      },
      ["email", "phone", "webhook_url", "push_subscription"],
    ),
  ),
});

/** One alert (GET /alerts/active items, and what a delivery carries). */
export const ALERT = closed({
  id: str,
  type: oneOfStrings(ALERT_TYPES),
  severity: SEVERITY,
  location: closed({ lat: num, lon: num, address: str }, ["address"]),
  message: str,
  timestamp: time,
});

/** GET /alerts/active, most severe first. */
export const ACTIVE_ALERTS = closed({ alerts: arr(ALERT) });

/** GET /alerts/push-key. */
export const PUSH_KEY = closed({ vapid_public_key: str });
