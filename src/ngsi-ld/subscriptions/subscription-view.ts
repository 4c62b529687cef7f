import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { DEFAULT_TRIGGERS, subscriptionStatus, type SubscriptionRecord } from "./subscription";

/**
 * A subscription as the API shows it (ETSI GS CIM 009 v1.8 §5.2.12, §5.8.3): its members with the names
 * (entity types, watchedAttributes, notification.attributes) compacted with the request's @context,
 * `status` (active, paused, expired), and the delivery status in `notification` (§5.2.14: timesSent,
 * timesFailed, lastNotification, lastSuccess, lastFailure, status ok/failed). createdAt and modifiedAt
 * only with `sysAttrs`. `notificationTrigger` is shown with its default when the subscription names none.
 */
export function subscriptionView(
  record: SubscriptionRecord,
  stored: CompiledContext,
  request: CompiledContext,
  sysAttrs: boolean,
  showDefaultTrigger = true,
): Record<string, unknown> {
  const { sub, stats } = record;
  const name = (n: string) => (stored.key === request.key ? n : request.compactIri(stored.expandTerm(n)));
  const { createdAt, modifiedAt, notification, ...rest } = sub;
  const out: Record<string, unknown> = { ...rest };
  // its default, §5.2.12 (context source subscriptions, §5.11, show only what was given)
  if (showDefaultTrigger || sub.notificationTrigger)
    out.notificationTrigger = sub.notificationTrigger ?? DEFAULT_TRIGGERS;
  if (sub.entities) out.entities = sub.entities.map((e) => ({ ...e, type: name(e.type) }));
  if (sub.watchedAttributes) out.watchedAttributes = sub.watchedAttributes.map(name);
  const n: Record<string, unknown> = { ...notification };
  if (notification.attributes) n.attributes = notification.attributes.map(name);
  n.format ??= "normalized";
  n.endpoint = { accept: "application/json", ...notification.endpoint };
  if (stats.timesSent > 0) n.timesSent = stats.timesSent;
  if (stats.timesFailed > 0) n.timesFailed = stats.timesFailed;
  for (const k of ["lastNotification", "lastSuccess", "lastFailure"] as const) if (stats[k]) n[k] = stats[k];
  if (stats.lastNotification) n.status = stats.lastNotification === stats.lastSuccess ? "ok" : "failed";
  out.notification = n;
  out.status = subscriptionStatus(sub);
  if (sysAttrs) {
    out.createdAt = createdAt;
    out.modifiedAt = modifiedAt;
  }
  return out;
}
