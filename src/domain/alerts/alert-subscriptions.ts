import { randomUUID } from "node:crypto";
import { AppError, badRequest, notFound } from "../../errors";
import type { Entity } from "../../ngsi-ld/model/entity";
import { ALERT_CHANNELS, type AlertChannel } from "../../jobs/senders/alert-job";
import type { CityPlaces } from "../city-places";
import { GraphAccess, objectsOf, valueOf } from "../graph-access";
import { TRAFFIC_ENTITY_CONTEXT } from "../vocabulary";
import { ALERT_SEVERITIES, ALERT_TYPES, type AlertSeverity, type AlertType } from "./alert-severity";
import { SubscriptionIndex } from "./subscription-index";

/** Where each channel of a subscription delivers. */
export interface ChannelTargets {
  email?: string;
  phone?: string;
  webhook_url?: string;
  push_subscription?: { endpoint: string; keys: { p256dh: string; auth: string } };
}

/** An alert subscription, listed and deleted by its owner (docs/reports-and-alerts.md "Alerts"). */
export interface AlertSubscription {
  id: string;
  entityId: string;
  userId: string;
  /** Who created it (the principal), for "the caller's own". */
  owner: string;
  alertTypes: AlertType[];
  /** District entity ids; empty = the whole city. */
  districts: string[];
  /** The names as given. */
  locations: string[];
  severityThreshold: AlertSeverity;
  channels: AlertChannel[];
  targets: ChannelTargets;
  status: "active";
  createdAt?: string;
}

const subEntityId = (id: string) => `urn:ngsi-ld:AlertSubscription:${id}`;
const prop = (value: unknown) => ({ type: "Property", value });

function strings(
  b: Record<string, unknown>,
  name: string,
  allowed?: readonly string[],
  required = true,
): string[] {
  const v = b[name];
  if (v === undefined || v === null) {
    if (required)
      throw new AppError("InvalidRequest", `The field '${name}' is required`, { parameter: name });
    return [];
  }
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string") || v.length > 50)
    throw badRequest(`The field '${name}' must be an array of strings`, {
      parameter: name,
      value: v,
      expected: "array of string",
    });
  const out = [...new Set((v as string[]).map((s) => (allowed ? s.toLowerCase() : s.trim())))];
  if (allowed) {
    const bad = out.find((s) => !allowed.includes(s));
    if (bad !== undefined)
      throw badRequest(`Unknown value in '${name}': ${bad}`, {
        parameter: name,
        value: bad,
        expected: allowed.join(", "),
      });
  }
  if (required && out.length === 0)
    throw badRequest(`'${name}' must not be empty`, {
      parameter: name,
      value: v,
      expected: "at least one value",
    });
  return out;
}

/**
 * Alert subscriptions: validated requests become AlertSubscription entities in the graph; an index of
 * them (kept current from the change feed, so NGSI-LD writes count too) answers the matcher.
 */
export class AlertSubscriptions {
  private readonly index = new SubscriptionIndex<AlertSubscription>();

  constructor(
    private readonly graph: GraphAccess,
    private readonly places: CityPlaces,
    private readonly configured: (c: AlertChannel) => boolean,
    /** Why a URL may not be requested (the outbound policy, without resolving names), or undefined. */
    private readonly urlRefusal: (url: string) => string | undefined = () => undefined,
  ) {}

  /** 400 if the outbound policy refuses a URL the subscriber gave (link-local, the broker itself, denied). */
  private checkUrl(url: string, parameter: string): void {
    const why = this.urlRefusal(url);
    if (why)
      throw badRequest(`The '${parameter}' ${url} is not allowed: ${why}`, {
        parameter,
        value: url,
        expected: "a URL the service may send to",
      });
  }

  /** Loads the index from the graph (start-up). */
  async load(): Promise<void> {
    for (const e of await this.graph.select({ type: "AlertSubscription" })) this.apply(e.id, e);
  }

  /** Updates the index with one entity (null = deleted). */
  apply(entityId: string, e: Entity | null): void {
    this.index.set(entityId, e ? subscriptionOf(e) : null);
  }

  /** How many subscriptions there are. */
  get size(): number {
    return this.index.size;
  }

  /** Every active subscription. */
  all(): AlertSubscription[] {
    return this.index.all();
  }

  /** The subscriptions that may want a fact in `district` (entity id): its own and the city-wide ones. */
  forDistrict(district: string | undefined): AlertSubscription[] {
    return this.index.forDistrict(district);
  }

  /**
   * `POST /alerts/subscriptions`: 400 for a bad value, an unknown district, an unconfigured channel or a
   * webhook / push URL the outbound policy refuses.
   */
  async create(raw: unknown, owner: string): Promise<AlertSubscription> {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw))
      throw new AppError("InvalidRequest", "The body must be a JSON object");
    const b = raw as Record<string, unknown>;
    const userId = typeof b.user_id === "string" && b.user_id.trim() ? b.user_id.trim().slice(0, 200) : owner;
    const alertTypes = strings(b, "alert_types", ALERT_TYPES) as AlertType[];
    const channels = strings(b, "channels", ALERT_CHANNELS) as AlertChannel[];
    const locations = strings(b, "locations", undefined, false);
    const districts: string[] = [];
    for (const name of locations) {
      const d = await this.places.districtNamed(name);
      if (!d)
        throw badRequest(`Unknown district: ${name}`, {
          parameter: "locations",
          value: name,
          expected: (await this.places.all()).map((p) => p.englishName),
        });
      districts.push(d.entityId);
    }
    const sev = b.severity_threshold ?? "minor";
    if (typeof sev !== "string" || !(ALERT_SEVERITIES as readonly string[]).includes(sev.toLowerCase()))
      throw badRequest("Unknown severity_threshold", {
        parameter: "severity_threshold",
        value: sev,
        expected: ALERT_SEVERITIES.join(", "),
      });
    const targets = this.targets(b, channels);
    const id = randomUUID();
    const doc: Record<string, unknown> = {
      id: subEntityId(id),
      type: "AlertSubscription",
      userId: prop(userId),
      reporterId: prop(owner),
      alertTypes: prop(alertTypes),
      severityThreshold: prop(sev.toLowerCase()),
      channels: prop(channels),
      channelTargets: prop(targets),
      status: prop("active"),
      "@context": [...TRAFFIC_ENTITY_CONTEXT],
    };
    if (locations.length) doc.name = prop(locations);
    if (districts.length) doc.refDistrict = { type: "Relationship", object: districts };
    await this.graph.create(doc);
    const e = await this.graph.read(subEntityId(id));
    if (!e) throw new AppError("InternalError", "subscription not readable after its write");
    this.apply(e.id, e);
    return subscriptionOf(e);
  }

  /** The subscriptions of one owner (`undefined` = everyone's, for admins). */
  list(owner: string | undefined): AlertSubscription[] {
    return this.all().filter((s) => owner === undefined || s.owner === owner);
  }

  /** Deletes one; 404 when absent or not the caller's (unless `owner` is undefined). */
  async delete(id: string, owner: string | undefined): Promise<void> {
    const s = this.index.get(id.startsWith("urn:") ? id : subEntityId(id));
    if (!s || (owner !== undefined && s.owner !== owner))
      throw notFound(`Alert subscription ${id} does not exist`, { id });
    await this.graph.delete(s.entityId);
    this.apply(s.entityId, null);
  }

  private targets(b: Record<string, unknown>, channels: AlertChannel[]): ChannelTargets {
    const t: ChannelTargets = {};
    for (const c of channels) {
      if (!this.configured(c))
        throw badRequest(`The ${c} channel is not configured on this service`, {
          parameter: "channels",
          value: c,
          expected: ALERT_CHANNELS.filter((x) => this.configured(x)).join(", "),
        });
      if (c === "email") {
        if (
          typeof b.email !== "string" ||
          !/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(b.email) ||
          b.email.length > 200
        )
          throw badRequest("The email channel needs an 'email' address", {
            parameter: "email",
            value: b.email,
            expected: "an email address",
          });
        t.email = b.email;
      } else if (c === "sms") {
        if (typeof b.phone !== "string" || !/^\+?[0-9 ]{6,20}$/.test(b.phone))
          throw badRequest("The sms channel needs a 'phone' number", {
            parameter: "phone",
            value: b.phone,
            expected: "a phone number",
          });
        t.phone = b.phone.replace(/\s+/g, "");
      } else if (c === "webhook") {
        let u: URL | undefined;
        try {
          u = new URL(String(b.webhook_url));
        } catch {
          u = undefined;
        }
        if (!u || (u.protocol !== "http:" && u.protocol !== "https:"))
          throw badRequest("The webhook channel needs a 'webhook_url' (http or https)", {
            parameter: "webhook_url",
            value: b.webhook_url,
            expected: "an http(s) URL",
          });
        t.webhook_url = u.toString();
        this.checkUrl(t.webhook_url, "webhook_url");
      } else {
        const p = b.push_subscription as ChannelTargets["push_subscription"] | undefined;
        if (
          !p ||
          typeof p.endpoint !== "string" ||
          !/^https:\/\//.test(p.endpoint) ||
          typeof p.keys?.p256dh !== "string" ||
          typeof p.keys?.auth !== "string"
        )
          throw badRequest("The push channel needs a 'push_subscription' {endpoint, keys{p256dh, auth}}", {
            parameter: "push_subscription",
            value: p,
            expected: "a Web Push subscription",
          });
        this.checkUrl(p.endpoint, "push_subscription");
        t.push_subscription = { endpoint: p.endpoint, keys: { p256dh: p.keys.p256dh, auth: p.keys.auth } };
      }
    }
    return t;
  }
}

/** The subscription of an AlertSubscription entity. */
export function subscriptionOf(e: Entity): AlertSubscription {
  const arr = (v: unknown) => (Array.isArray(v) ? (v as string[]) : typeof v === "string" ? [v] : []);
  return {
    id: e.id.replace(/^urn:ngsi-ld:AlertSubscription:/, ""),
    entityId: e.id,
    userId: String(valueOf(e, "userId") ?? ""),
    owner: String(valueOf(e, "reporterId") ?? ""),
    alertTypes: arr(valueOf(e, "alertTypes")) as AlertType[],
    districts: objectsOf(e, "refDistrict"),
    locations: arr(valueOf(e, "name")),
    severityThreshold: String(valueOf(e, "severityThreshold") ?? "minor") as AlertSeverity,
    channels: arr(valueOf(e, "channels")) as AlertChannel[],
    targets: (valueOf(e, "channelTargets") ?? {}) as ChannelTargets,
    status: "active",
    createdAt: typeof e.createdAt === "string" ? e.createdAt : undefined,
  };
}
