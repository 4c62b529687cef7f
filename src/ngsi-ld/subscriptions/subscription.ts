/**
 * The Subscription data type as the broker keeps it (ETSI GS CIM 009 v1.8 §5.2.12 Subscription,
 * §5.2.14 NotificationParams, §5.2.15 Endpoint). Names are kept as the client wrote them, with the
 * @context of the request that created or last changed the subscription beside them.
 */
import type { SubscriptionTemporalQ } from "./subscription-temporal-q";

/** Notification triggers (§5.2.12 `notificationTrigger`). */
export const NOTIFICATION_TRIGGERS = [
  "entityCreated",
  "entityUpdated",
  "entityDeleted",
  "attributeCreated",
  "attributeUpdated",
  "attributeDeleted",
] as const;
/** One notification trigger. */
export type NotificationTrigger = (typeof NOTIFICATION_TRIGGERS)[number];
/** The triggers of a subscription that names none (§5.2.12). */
export const DEFAULT_TRIGGERS: NotificationTrigger[] = ["attributeCreated", "attributeUpdated"];

/** Formats of the notified entities (§5.2.14 `format`; `simplified` is the §4.5.3 name of keyValues). */
export const NOTIFICATION_FORMATS = ["normalized", "keyValues", "simplified", "concise"] as const;
/** One notification format. */
export type NotificationFormat = (typeof NOTIFICATION_FORMATS)[number];

/** A key-value pair of `receiverInfo` / `notifierInfo` (§5.2.15, KeyValuePair §5.2.33). */
export interface KeyValuePair {
  key: string;
  value: string;
}

/** Endpoint (§5.2.15). */
export interface Endpoint {
  uri: string;
  accept?: "application/json" | "application/ld+json";
  receiverInfo?: KeyValuePair[];
  notifierInfo?: KeyValuePair[];
}

/** NotificationParams (§5.2.14), without the status members (kept apart, see NotificationStats). */
export interface NotificationParams {
  attributes?: string[];
  format?: NotificationFormat;
  sysAttrs?: boolean;
  showChanges?: boolean;
  endpoint: Endpoint;
  pick?: string[];
  omit?: string[];
  join?: "flat" | "inline";
  joinLevel?: number;
}

/** An EntitySelector of a subscription (§5.2.33). */
export interface SubscriptionEntity {
  id?: string;
  idPattern?: string;
  type: string;
}

/** A geo-query of a subscription (§5.2.13). */
export interface SubscriptionGeoQ {
  geometry: string;
  coordinates: unknown;
  georel: string;
  geoproperty?: string;
}

/** A subscription as stored (§5.2.12), status members excluded. */
export interface Subscription {
  id: string;
  type: "Subscription";
  subscriptionName?: string;
  description?: string;
  entities?: SubscriptionEntity[];
  watchedAttributes?: string[];
  notificationTrigger?: NotificationTrigger[];
  timeInterval?: number;
  q?: string;
  geoQ?: SubscriptionGeoQ;
  scopeQ?: string;
  lang?: string;
  /** Absent = true (kept absent so it is shown as the client wrote it). */
  isActive?: boolean;
  expiresAt?: string;
  /** Only these attribute instances are notified (`@none` = the default instance). */
  datasetId?: string[];
  throttling?: number;
  /** Evaluated by context source registration subscriptions only (§5.11.7). */
  temporalQ?: SubscriptionTemporalQ;
  notification: NotificationParams;
  jsonldContext?: string;
  createdAt: string;
  modifiedAt: string;
}

/** The delivery status of a subscription's notifications (§5.2.14 status members). */
export interface NotificationStats {
  timesSent: number;
  timesFailed: number;
  lastNotification?: string;
  lastSuccess?: string;
  lastFailure?: string;
  /** The delivery log's files up to this generation are counted here (delivery-log.ts); internal. */
  logGen?: number;
}

/** One stored subscription: the data, the @context its names are in, its tenant, owner and delivery status. */
export interface SubscriptionRecord {
  tenant: string;
  sub: Subscription;
  /** The @context value of the request (a URL, an array, an object) or undefined for the core context. */
  context: unknown;
  stats: NotificationStats;
  /**
   * The principal (user or API key id) that created it; internal, never shown in the NGSI-LD
   * representation. Absent: no one's (made with authentication off, or before owners were kept).
   */
  owner?: string;
}

/**
 * Whose subscriptions a caller may see and change: `undefined` = every one (admins, authentication off),
 * else only those whose `owner` is this id (so an owner-less subscription is an admin's business only).
 */
export type OwnerScope = string | undefined;

/** True when `record` is visible in `scope`. */
export function inScope(record: SubscriptionRecord, scope: OwnerScope): boolean {
  return scope === undefined || record.owner === scope;
}

/** §5.2.12 `status`: expired past expiresAt, paused when not active, else active. */
export function subscriptionStatus(sub: Subscription, now = Date.now()): "active" | "paused" | "expired" {
  if (sub.expiresAt !== undefined && Date.parse(sub.expiresAt) <= now) return "expired";
  return sub.isActive === false ? "paused" : "active";
}
