import { badRequest } from "../../errors";
import { isObject } from "../model/normalize-attribute";
import { isDateTime } from "../model/datetime";
import { entitySelectors } from "../model/entity-selectors";
import { isAbsoluteUri, isValidName } from "../model/uri";
import {
  NOTIFICATION_FORMATS,
  NOTIFICATION_TRIGGERS,
  type Endpoint,
  type KeyValuePair,
  type NotificationParams,
  type Subscription,
  type SubscriptionGeoQ,
} from "./subscription";
import { parseSubscriptionTemporalQ } from "./subscription-temporal-q";

type Obj = Record<string, unknown>;

const fail = (member: string, message: string) => badRequest(message, { member });

const str = (o: Obj, m: string, path = m): string | undefined => {
  const v = o[m];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v === "") throw fail(path, `${path} must be a non-empty string`);
  return v;
};

const bool = (o: Obj, m: string, path = m): boolean | undefined => {
  const v = o[m];
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") throw fail(path, `${path} must be true or false`);
  return v;
};

const positive = (o: Obj, m: string, path = m): number | undefined => {
  const v = o[m];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0)
    throw fail(path, `${path} must be a number > 0`);
  return v;
};

/** Shortest `timeInterval` (§5.2.12), seconds: a shorter one floods its endpoint (docs/configuration.md "Limits"). */
export const MIN_TIME_INTERVAL_S = 1;
/** Shortest `throttling` (§5.2.12), seconds. */
export const MIN_THROTTLING_S = 0.1;

const atLeast = (v: number | undefined, min: number, path: string): number | undefined => {
  if (v !== undefined && v < min) throw fail(path, `${path} must be at least ${min} seconds`);
  return v;
};

const names = (o: Obj, m: string, path = m): string[] | undefined => {
  const v = o[m];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length === 0 || v.some((n) => typeof n !== "string" || !isValidName(n))) {
    throw fail(path, `${path} must be a non-empty array of attribute names`);
  }
  return v as string[];
};

function keyValues(o: Obj, m: string, path: string): KeyValuePair[] | undefined {
  const v = o[m];
  if (v === undefined) return undefined;
  const ok = (x: unknown) =>
    isObject(x) && typeof x.key === "string" && x.key !== "" && typeof x.value === "string";
  if (!Array.isArray(v) || !v.every(ok)) throw fail(path, `${path} must be an array of {key, value} strings`);
  return v.map((x: Obj) => ({ key: x.key as string, value: x.value as string }));
}

const ENDPOINT_SCHEMES = new Set(["http:", "https:", "mqtt:", "mqtts:"]);

function endpoint(raw: unknown): Endpoint {
  if (!isObject(raw)) throw fail("notification.endpoint", "notification.endpoint must be an object");
  const uri = raw.uri;
  let scheme = "";
  try {
    scheme = typeof uri === "string" && isAbsoluteUri(uri) ? new URL(uri).protocol : "";
  } catch {
    scheme = "";
  }
  if (!ENDPOINT_SCHEMES.has(scheme)) {
    throw fail(
      "notification.endpoint.uri",
      `notification.endpoint.uri must be an http, https, mqtt or mqtts URI, got ${JSON.stringify(uri)}`,
    );
  }
  const accept = raw.accept;
  if (accept !== undefined && accept !== "application/json" && accept !== "application/ld+json") {
    throw fail(
      "notification.endpoint.accept",
      "notification.endpoint.accept must be application/json or application/ld+json",
    );
  }
  const out: Endpoint = { uri: uri as string };
  if (accept !== undefined) out.accept = accept;
  const ri = keyValues(raw, "receiverInfo", "notification.endpoint.receiverInfo");
  if (ri) out.receiverInfo = ri;
  const ni = keyValues(raw, "notifierInfo", "notification.endpoint.notifierInfo");
  if (ni) out.notifierInfo = ni;
  return out;
}

function notification(raw: unknown): NotificationParams {
  if (!isObject(raw)) throw fail("notification", "A subscription needs a notification object");
  const p = (m: string) => `notification.${m}`;
  const out: NotificationParams = { endpoint: endpoint(raw.endpoint) };
  const attributes = names(raw, "attributes", p("attributes"));
  if (attributes) out.attributes = attributes;
  const format = raw.format;
  if (format !== undefined) {
    if (!(NOTIFICATION_FORMATS as readonly unknown[]).includes(format)) {
      throw fail(
        p("format"),
        `Unknown notification.format ${JSON.stringify(format)}: normalized, keyValues, simplified or concise`,
      );
    }
    out.format = format as NotificationParams["format"];
  }
  const sysAttrs = bool(raw, "sysAttrs", p("sysAttrs"));
  if (sysAttrs !== undefined) out.sysAttrs = sysAttrs;
  const showChanges = bool(raw, "showChanges", p("showChanges"));
  if (showChanges !== undefined) out.showChanges = showChanges;
  const pick = projectionList(raw, "pick");
  const omit = projectionList(raw, "omit");
  if ((pick || omit) && attributes)
    throw fail(p("attributes"), "notification.attributes excludes pick and omit");
  if (pick && omit) throw fail(p("pick"), "notification.pick and notification.omit exclude each other");
  if (pick) out.pick = pick;
  if (omit) out.omit = omit;
  if (raw.join !== undefined) {
    if (raw.join !== "flat" && raw.join !== "inline")
      throw fail(p("join"), "notification.join must be flat or inline");
    out.join = raw.join;
  }
  if (raw.joinLevel !== undefined) {
    if (!Number.isInteger(raw.joinLevel) || (raw.joinLevel as number) < 1)
      throw fail(p("joinLevel"), "notification.joinLevel must be a whole number >= 1");
    out.joinLevel = raw.joinLevel as number;
  }
  return out;
}

function projectionList(raw: Obj, m: string): string[] | undefined {
  const v = raw[m];
  if (v === undefined) return undefined;
  const list = typeof v === "string" ? v.split(",").map((s) => s.trim()) : v;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.some((n) => typeof n !== "string" || !isValidName(n))
  ) {
    throw fail(`notification.${m}`, `notification.${m} must be a list of member names`);
  }
  return list as string[];
}

function geoQ(raw: unknown): SubscriptionGeoQ | undefined {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) throw fail("geoQ", "geoQ must be an object");
  return raw as unknown as SubscriptionGeoQ;
}

function triggers(raw: unknown): Subscription["notificationTrigger"] {
  if (raw === undefined) return undefined;
  if (
    !Array.isArray(raw) ||
    raw.length === 0 ||
    raw.some((t) => !(NOTIFICATION_TRIGGERS as readonly unknown[]).includes(t))
  ) {
    throw fail(
      "notificationTrigger",
      `notificationTrigger must be a non-empty array of ${NOTIFICATION_TRIGGERS.join(", ")}`,
    );
  }
  return [...new Set(raw)] as Subscription["notificationTrigger"];
}

function datasetIds(raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(list) || list.length === 0 || list.some((x) => x !== "@none" && !isAbsoluteUri(x))) {
    throw fail("datasetId", "datasetId must be a URI, @none, or a non-empty array of them");
  }
  return list as string[];
}

/** Members a client may not set, and members this broker reads. */
const KNOWN = new Set([
  "id",
  "type",
  "subscriptionName",
  "description",
  "entities",
  "watchedAttributes",
  "notificationTrigger",
  "timeInterval",
  "q",
  "geoQ",
  "csf",
  "scopeQ",
  "lang",
  "isActive",
  "expiresAt",
  "throttling",
  "notification",
  "jsonldContext",
  "datasetId",
  "temporalQ",
  "@context",
  "status",
  "createdAt",
  "modifiedAt",
]);

/**
 * Checks a subscription's members one by one and builds the stored form (ETSI GS CIM 009 v1.8 §5.2.12,
 * §5.8.1 "If the data types and restrictions expressed by clause 5.2.12 are not met, an error of type
 * BadRequestData shall be raised"). `now` decides whether `expiresAt` is in the past. The names in
 * q/geoQ/scopeQ are checked later, with the @context (see compileSubscription).
 */
export function parseSubscription(body: unknown, id: string, now: string, createdAt = now): Subscription {
  if (!isObject(body)) throw badRequest("A subscription must be a JSON object");
  if (body.type !== "Subscription") throw fail("type", 'A subscription needs "type": "Subscription"');
  for (const k of Object.keys(body)) if (!KNOWN.has(k)) throw fail(k, `Unknown subscription member ${k}`);
  const sub: Subscription = {
    id,
    type: "Subscription",
    notification: notification(body.notification),
    createdAt,
    modifiedAt: now,
  };
  const set = <K extends keyof Subscription>(k: K, v: Subscription[K] | undefined) => {
    if (v !== undefined) sub[k] = v;
  };
  set("isActive", bool(body, "isActive"));
  set("datasetId", datasetIds(body.datasetId));
  set("subscriptionName", str(body, "subscriptionName"));
  set("description", str(body, "description"));
  set("entities", entitySelectors(body.entities));
  set("watchedAttributes", names(body, "watchedAttributes"));
  set("notificationTrigger", triggers(body.notificationTrigger));
  set("timeInterval", atLeast(positive(body, "timeInterval"), MIN_TIME_INTERVAL_S, "timeInterval"));
  set("q", str(body, "q"));
  set("geoQ", geoQ(body.geoQ));
  set("scopeQ", str(body, "scopeQ"));
  set("lang", str(body, "lang"));
  set("temporalQ", parseSubscriptionTemporalQ(body.temporalQ));
  set("throttling", atLeast(positive(body, "throttling"), MIN_THROTTLING_S, "throttling"));
  if (body.jsonldContext !== undefined && !isAbsoluteUri(body.jsonldContext)) {
    throw fail("jsonldContext", "jsonldContext must be a URI");
  }
  set("jsonldContext", body.jsonldContext as string | undefined);
  if (body.expiresAt !== undefined) {
    if (!isDateTime(body.expiresAt)) throw fail("expiresAt", "expiresAt must be a DateTime");
    if (Date.parse(body.expiresAt) <= Date.parse(now)) throw fail("expiresAt", "expiresAt is in the past");
    sub.expiresAt = body.expiresAt;
  }
  if (!sub.entities && !sub.watchedAttributes && sub.timeInterval === undefined) {
    throw fail("entities", "A subscription needs entities or watchedAttributes");
  }
  if (sub.timeInterval !== undefined && sub.watchedAttributes) {
    throw fail("timeInterval", "timeInterval and watchedAttributes exclude each other");
  }
  if (sub.timeInterval !== undefined && sub.throttling !== undefined) {
    throw fail("timeInterval", "timeInterval and throttling exclude each other");
  }
  return sub;
}

/**
 * The subscription after a PATCH (ETSI GS CIM 009 v1.8 §5.8.2): each member of the fragment replaces the
 * stored one, `notification` included (so it needs its endpoint: ETSI suite 029_03), then the result is
 * checked whole; a member set to null is removed.
 * A fragment without any subscription member is a 400.
 */
export function patchSubscription(current: Subscription, fragment: unknown, now: string): Subscription {
  if (!isObject(fragment)) throw badRequest("A subscription fragment must be a JSON object");
  const members = Object.keys(fragment).filter((k) => k !== "@context" && k !== "id" && k !== "type");
  if (members.length === 0) throw badRequest("The fragment changes no subscription member");
  if (fragment.id !== undefined && fragment.id !== current.id)
    throw fail("id", "The id of a subscription cannot change");
  if (fragment.type !== undefined && fragment.type !== "Subscription")
    throw fail("type", 'The type of a subscription is "Subscription"');
  const merged: Obj = { ...(current as unknown as Obj) };
  for (const k of members) {
    const v = fragment[k];
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  const keepExpiry = merged.expiresAt === current.expiresAt && fragment.expiresAt === undefined;
  const expiresAt = merged.expiresAt;
  if (keepExpiry) delete merged.expiresAt;
  const next = parseSubscription(merged, current.id, now, current.createdAt);
  if (keepExpiry && expiresAt !== undefined) next.expiresAt = expiresAt as string;
  return next;
}
