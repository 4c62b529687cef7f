import type { ChangeEvent } from "../../events/change-event";
import type { DeliveryStage } from "../../events/commit-pipeline";
import type { JobQueue } from "../../jobs/job-queue";
import type { AlertJob, AlertMessage } from "../../jobs/senders/alert-job";
import { typesOf } from "../../ngsi-ld/model/entity";
import type { CityPlaces } from "../city-places";
import { GraphAccess } from "../graph-access";
import { TRAFFIC_ENTITY_CONTEXT, TRAFFIC_NS } from "../vocabulary";
import { alertFactOf, alertMessage, type AlertFact } from "./alert-facts";
import { reaches, ALERT_SEVERITIES } from "./alert-severity";
import type { AlertSubscription, AlertSubscriptions } from "./alert-subscriptions";

/** What the alert stage reads and where it queues. */
export interface AlertStageDeps {
  graph: GraphAccess;
  places: CityPlaces;
  subscriptions: AlertSubscriptions;
  queue: JobQueue<AlertJob>;
  log: (msg: string, fields?: object) => void;
}

/**
 * Alerts on the change feed (a delivery stage of the commit pipeline): a write that makes a new alert
 * fact (a new or worsened accident, congestion turning severe, severe weather) is matched against the
 * alert subscriptions (type, severity threshold, district by polygon: only the district's own and the
 * city-wide subscriptions are read) and one job per subscriber and channel is queued, in one batch. With Redis the write's acknowledgement waits for the enqueue (`settled`), so an
 * acknowledged accident has its alerts in Redis and a crash loses none. Each alert sent is also
 * written as an `Alert` entity (FIWARE Alert names).
 */
export class AlertStage implements DeliveryStage {
  private readonly pending = new Map<number, Promise<void>>();

  private readonly graph: GraphAccess;
  private readonly places: CityPlaces;
  private readonly subscriptions: AlertSubscriptions;
  private readonly queue: JobQueue<AlertJob>;
  private readonly log: (msg: string, fields?: object) => void;

  constructor(deps: AlertStageDeps) {
    this.graph = deps.graph;
    this.places = deps.places;
    this.subscriptions = deps.subscriptions;
    this.queue = deps.queue;
    this.log = deps.log;
  }

  onCommit(event: ChangeEvent): void {
    const change = event.change;
    if (!change || event.tenant !== this.graph.tenant) return;
    const facts: AlertFact[] = [];
    for (const [id, after] of change.after) {
      if (!after) {
        this.subscriptions.apply(id, null);
        continue;
      }
      const types = typesOf(after).map((t) => change.ctx.expandTerm(t));
      if (types.includes(`${TRAFFIC_NS}AlertSubscription`)) {
        void this.graph.read(id).then(
          (e) => this.subscriptions.apply(id, e ?? null),
          () => undefined,
        );
        continue;
      }
      if (this.subscriptions.size === 0) continue;
      const now = alertFactOf(after, types, change.ctx);
      if (!now) continue;
      const before = change.before.get(id);
      const was = before ? alertFactOf(before, types, change.ctx) : undefined;
      if (was && ALERT_SEVERITIES.indexOf(was.severity) >= ALERT_SEVERITIES.indexOf(now.severity)) continue;
      facts.push(now);
    }
    if (facts.length === 0 || this.subscriptions.size === 0) return;
    const p = this.deliver(facts);
    if (this.queue.durable) {
      this.pending.set(event.seq, p);
      void p.catch(() => undefined).finally(() => this.pending.delete(event.seq));
    } else p.catch((e: Error) => this.log("alert delivery failed", { error: e.message }));
  }

  settled(seq: number): Promise<void> | undefined {
    return this.pending.get(seq);
  }

  private async deliver(facts: AlertFact[]): Promise<void> {
    const jobs: AlertJob[] = [];
    const sent: { fact: AlertFact; alert: AlertMessage; count: number }[] = [];
    for (const f of facts) {
      const district = await this.places.districtAt(f.lon, f.lat);
      const matched = this.subscriptions
        .forDistrict(district?.entityId)
        .filter((s) => matches(s, f, district?.entityId));
      if (matched.length === 0) continue;
      const address = await this.places.addressOf(f.lon, f.lat);
      const alert: AlertMessage = {
        id: f.id,
        type: f.type,
        severity: f.severity,
        location: { lat: f.lat, lon: f.lon, ...(address ? { address } : {}) },
        message: alertMessage(f, address),
        timestamp: f.timestamp,
      };
      for (const s of matched) jobs.push(...jobsOf(s, alert));
      sent.push({ fact: f, alert, count: matched.length });
    }
    if (jobs.length) await this.queue.enqueue(jobs);
    for (const s of sent) void this.record(s.fact, s.alert).catch(() => undefined);
  }

  /** The Alert entity of an alert sent (created once per fact and severity). */
  private async record(f: AlertFact, a: AlertMessage): Promise<void> {
    await this.graph.create({
      id: `urn:ngsi-ld:Alert:${f.id}-${f.severity}`,
      type: "Alert",
      category: { type: "Property", value: "traffic" },
      subCategory: { type: "Property", value: f.type },
      severity: { type: "Property", value: f.severity },
      description: { type: "Property", value: a.message },
      location: { type: "GeoProperty", value: { type: "Point", coordinates: [f.lon, f.lat] } },
      dateIssued: { type: "Property", value: { "@type": "DateTime", "@value": new Date().toISOString() } },
      alertSource: { type: "Relationship", object: f.source },
      "@context": [...TRAFFIC_ENTITY_CONTEXT],
    });
  }
}

/** True when subscription `s` wants fact `f` (in district `district`). */
export function matches(s: AlertSubscription, f: AlertFact, district: string | undefined): boolean {
  if (!s.alertTypes.includes(f.type) || !reaches(f.severity, s.severityThreshold)) return false;
  return s.districts.length === 0 || (district !== undefined && s.districts.includes(district));
}

/** One job per channel of a subscription. */
function jobsOf(s: AlertSubscription, alert: AlertMessage): AlertJob[] {
  const out: AlertJob[] = [];
  for (const c of s.channels) {
    const base = { channel: c, subscriptionId: s.id, alert };
    if (c === "email" && s.targets.email) out.push({ ...base, uri: `mailto:${s.targets.email}` });
    else if (c === "sms" && s.targets.phone) out.push({ ...base, uri: `tel:${s.targets.phone}` });
    else if (c === "webhook" && s.targets.webhook_url) out.push({ ...base, uri: s.targets.webhook_url });
    else if (c === "push" && s.targets.push_subscription)
      out.push({ ...base, uri: s.targets.push_subscription.endpoint, push: s.targets.push_subscription });
  }
  return out;
}
