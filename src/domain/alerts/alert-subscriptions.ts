import { randomUUID } from "node:crypto";
import { AppError, badRequest, notFound } from "../../errors";
import type { Entity } from "../../ngsi-ld/model/entity";
import { ALERT_CHANNELS, type AlertChannel } from "../../jobs/senders/alert-job";
import type { CityPlaces } from "../city-places";
import { GraphAccess, objectsOf, valueOf } from "../graph-access";
import { TRAFFIC_ENTITY_CONTEXT } from "../vocabulary";
import type { AlertSeverity, AlertType } from "./alert-severity";
import { SubscriptionIndex } from "./subscription-index";
import { checkSubscription, type ChannelTargets, type SubscriptionRequest } from "./subscription-request";

export type { ChannelTargets, SubscriptionRequest } from "./subscription-request";

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

/** What the alert subscriptions are kept with. */
export interface AlertSubscriptionsDeps {
  graph: GraphAccess;
  places: CityPlaces;
  /** Whether a channel can be sent (email needs SMTP_URL, SMS a gateway). */
  configured: (c: AlertChannel) => boolean;
  /** Why a URL may not be requested (the outbound policy, without resolving names), or undefined. */
  urlRefusal?: (url: string) => string | undefined;
}

/**
 * Alert subscriptions: validated requests become AlertSubscription entities in the graph; an index of
 * them (kept current from the change feed, so NGSI-LD writes count too) answers the matcher.
 */
export class AlertSubscriptions {
  private readonly index = new SubscriptionIndex<AlertSubscription>();

  private readonly graph: GraphAccess;
  private readonly places: CityPlaces;
  private readonly configured: (c: AlertChannel) => boolean;
  private readonly urlRefusal: (url: string) => string | undefined;

  constructor(deps: AlertSubscriptionsDeps) {
    this.graph = deps.graph;
    this.places = deps.places;
    this.configured = deps.configured;
    this.urlRefusal = deps.urlRefusal ?? (() => undefined);
  }

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
   * A new subscription (`POST /alerts/subscriptions`): 400 when a rule of the request is broken
   * (subscription-request.ts), a district is unknown, a channel is not configured or the outbound policy
   * refuses a webhook or push URL.
   */
  async create(req: SubscriptionRequest, owner: string): Promise<AlertSubscription> {
    const r = checkSubscription(req, owner);
    for (const c of r.channels)
      if (!this.configured(c))
        throw badRequest(`The ${c} channel is not configured on this service`, {
          parameter: "channels",
          value: c,
          expected: ALERT_CHANNELS.filter((x) => this.configured(x)).join(", "),
        });
    if (r.targets.webhook_url) this.checkUrl(r.targets.webhook_url, "webhook_url");
    if (r.targets.push_subscription) this.checkUrl(r.targets.push_subscription.endpoint, "push_subscription");
    const districts: string[] = [];
    for (const name of r.locations) {
      const d = await this.places.districtNamed(name);
      if (!d)
        throw badRequest(`Unknown district: ${name}`, {
          parameter: "locations",
          value: name,
          expected: (await this.places.all()).map((p) => p.englishName),
        });
      districts.push(d.entityId);
    }
    const id = randomUUID();
    const doc: Record<string, unknown> = {
      id: subEntityId(id),
      type: "AlertSubscription",
      userId: prop(r.userId),
      reporterId: prop(owner),
      alertTypes: prop(r.alertTypes),
      severityThreshold: prop(r.severityThreshold),
      channels: prop(r.channels),
      channelTargets: prop(r.targets),
      status: prop("active"),
      "@context": [...TRAFFIC_ENTITY_CONTEXT],
    };
    if (r.locations.length) doc.name = prop(r.locations);
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
