import { randomUUID } from "node:crypto";
import { CORE_CONTEXT_URL } from "../../rdf/contexts/core";
import { contextLinkHeader } from "../../rdf/contexts/link";
import type { NotificationJob } from "../../jobs/notification-job";
import type { SubscriptionRecord } from "./subscription";

/**
 * The context URL a Link header can name: the context itself, or the only URL of a list (the core context
 * being implied); undefined for inline contexts.
 */
function linkable(context: unknown): string | undefined {
  if (typeof context === "string") return context;
  if (!Array.isArray(context)) return undefined;
  const urls = context.filter((c): c is string => typeof c === "string" && c !== CORE_CONTEXT_URL);
  return urls.length === 1 && urls.length === context.filter((c) => c !== CORE_CONTEXT_URL).length
    ? urls[0]
    : undefined;
}

/** The @context of a subscription's notifications: its `jsonldContext`, else the one it was made with. */
function contextOf(record: SubscriptionRecord): unknown {
  return record.sub.jsonldContext ?? record.context ?? CORE_CONTEXT_URL;
}

/**
 * The JSON text of a notification's `data` (ETSI GS CIM 009 v1.8 §5.3.1): for an endpoint that accepts
 * application/ld+json each entity carries the @context (§6.3.5). Subscriptions with the same endpoint
 * `accept`, @context and rendering share this text (one serialization for many notifications).
 */
export function notificationData(record: SubscriptionRecord, data: unknown[]): string {
  if (record.sub.notification.endpoint.accept !== "application/ld+json") return JSON.stringify(data);
  const context = contextOf(record);
  return JSON.stringify(
    data.map((d) => (typeof d === "object" && d !== null ? { ...d, "@context": context } : d)),
  );
}

/**
 * The notification job for some entities of one subscription (ETSI GS CIM 009 v1.8 §5.3.1 Notification:
 * `id`, `type: "Notification"`, `subscriptionId`, `notifiedAt`, `data`), `data` given as the text of
 * {@link notificationData}. The @context is the subscription's `jsonldContext`, else the one it was
 * created with: in the body for an endpoint that accepts application/ld+json, in a Link header for
 * application/json (§5.2.15, §6.3.5). The endpoint's `receiverInfo` pairs become headers (§5.2.15), and
 * the tenant is named (§6.3.14).
 */
export function notificationJob(
  record: SubscriptionRecord,
  dataText: string,
  notifiedAt: string,
): NotificationJob {
  const { sub, tenant } = record;
  const ep = sub.notification.endpoint;
  const accept = ep.accept ?? "application/json";
  const context = contextOf(record);
  const headers: Record<string, string> = { "Content-Type": accept };
  let body =
    `{"id":"urn:ngsi-ld:Notification:${randomUUID()}","type":"Notification","subscriptionId":` +
    `${JSON.stringify(sub.id)},"notifiedAt":"${notifiedAt}","data":${dataText}`;
  if (accept === "application/ld+json") body += `,"@context":${JSON.stringify(context)}`;
  else headers.Link = contextLinkHeader(linkable(context) ?? CORE_CONTEXT_URL);
  body += "}";
  if (tenant) headers["NGSILD-Tenant"] = tenant;
  for (const { key, value } of ep.receiverInfo ?? []) headers[key] = value;
  const job: NotificationJob = { tenant, subscriptionId: sub.id, uri: ep.uri, headers, body };
  if (sub.createdAt) job.subscriptionCreatedAt = sub.createdAt;
  if (ep.notifierInfo) job.notifierInfo = ep.notifierInfo;
  return job;
}
