import type { DeliveryResult } from "../../jobs/job-queue";
import type { NotificationJob, NotificationQueue } from "../../jobs/notification-job";
import type { EntityFilter } from "../query/query-filter";
import { matchesQ } from "../query/q/q-evaluate";
import type { CompiledSubscription } from "../subscriptions/compile-subscription";
import { notificationData, notificationJob } from "../subscriptions/notification-message";
import { subscriptionStatus } from "../subscriptions/subscription";
import type { SubscriptionService } from "../subscriptions/subscription-service";
import { matchingInfos, registrationMatches, type CompiledRegistration } from "./registration-match";
import { propertiesOf, timeCheck } from "./registration-query";
import type { RegistrationService } from "./registration-service";
import { registrationView } from "./registration-view";

/** Why a context source notification is sent (§5.3.2 CsourceNotification `triggerReason`). */
export type TriggerReason = "newlyMatching" | "updated" | "noLongerMatching";

/** What the context source notifier needs. */
export interface CsourceNotifierDeps {
  subs: SubscriptionService;
  regs: RegistrationService;
  /** How often changed delivery statuses are written to the graph, ms. */
  statsFlushMs: number;
  log(level: "info" | "warn" | "error", msg: string, fields?: object): void;
}

/** The entity part of a subscription that a registration must meet, watchedAttributes as `attrs`. */
function entityPart(cs: CompiledSubscription): EntityFilter {
  const f: EntityFilter = {};
  if (cs.filter.selectors) f.selectors = cs.filter.selectors;
  if (cs.watched) {
    const names = [...cs.watched];
    f.attrs = { names, iris: names.map((n) => cs.ctx.expandTerm(n)) };
  }
  return f;
}

/**
 * True if a registration is one a context source registration subscription asks about (§5.11.7): its
 * entities, watched attributes, geoQ, `temporalQ` on the registration's intervals and q on its properties.
 */
export function subscriptionMatches(cs: CompiledSubscription, cr: CompiledRegistration): boolean {
  if (cs.record.tenant !== cr.record.tenant) return false;
  if (!registrationMatches(cr, entityPart(cs), { geo: cs.filter.geo })) return false;
  const tq = cs.record.sub.temporalQ;
  if (tq && !timeCheck(tq)?.(cr)) return false;
  return !cs.filter.q || matchesQ(propertiesOf(cr, cs.ctx), cs.filter.q);
}

/**
 * Context source registration notifications (ETSI GS CIM 009 v1.8 §5.11.7, §5.3.2): when a registration
 * appears, changes or goes, every active csource subscription of its tenant that it matches before or
 * after is told, with `triggerReason` newlyMatching, updated or noLongerMatching and the registration
 * showing only its matching RegistrationInfo. A new subscription is told at once of the registrations
 * that match it; one with `timeInterval` is told of them periodically. The notifications go through
 * the broker's one notification queue, as entity notifications do.
 */
export class CsourceNotifier {
  private queue?: NotificationQueue;
  private readonly known = new Map<string, CompiledSubscription>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly deps: CsourceNotifierDeps) {
    deps.regs.onChange((tenant, before, after) => this.onRegistration(tenant, before, after));
    deps.subs.onChange((tenant, id, cs) => this.onSubscription(tenant, id, cs));
  }

  /** Sets the queue; the subscriptions loaded so far are not notified again. */
  attach(queue: NotificationQueue): void {
    this.queue = queue;
    for (const cs of this.deps.subs.index.all()) {
      this.known.set(key(cs.record.tenant, cs.record.sub.id), cs);
      this.schedule(cs);
    }
  }

  private onRegistration(
    tenant: string,
    before: CompiledRegistration | undefined,
    after: CompiledRegistration | undefined,
  ): void {
    const jobs: NotificationJob[] = [];
    for (const cs of this.deps.subs.index.list(tenant)) {
      if (subscriptionStatus(cs.record.sub) !== "active") continue;
      const was = before !== undefined && subscriptionMatches(cs, before);
      const is = after !== undefined && subscriptionMatches(cs, after);
      if (!was && !is) continue;
      const reason: TriggerReason = was && is ? "updated" : is ? "newlyMatching" : "noLongerMatching";
      jobs.push(this.job(cs, [(is ? after : before)!], reason));
    }
    this.enqueue(jobs);
  }

  private onSubscription(tenant: string, id: string, cs: CompiledSubscription | undefined): void {
    const k = key(tenant, id);
    if (!cs) {
      this.known.delete(k);
      this.unschedule(k);
      return;
    }
    if (!this.queue) return;
    this.schedule(cs);
    const before = this.known.get(k);
    this.known.set(k, cs);
    this.notifyMatching(cs, before);
  }

  /**
   * Tells a subscription of every registration that matches it now (creation, timeInterval); after an
   * update, of those that match it now and did not match it `before`.
   */
  private notifyMatching(cs: CompiledSubscription, before?: CompiledSubscription): void {
    if (subscriptionStatus(cs.record.sub) !== "active") return;
    const regs = this.deps.regs
      .list(cs.record.tenant)
      .filter((cr) => subscriptionMatches(cs, cr) && !(before && subscriptionMatches(before, cr)));
    if (regs.length) this.enqueue([this.job(cs, regs, "newlyMatching")]);
  }

  private job(
    cs: CompiledSubscription,
    regs: CompiledRegistration[],
    reason: TriggerReason,
  ): NotificationJob {
    const f = entityPart(cs);
    const data = regs.map((cr) => {
      const only = matchingInfos(cr, f);
      return registrationView(cr, cs.ctx, false, only.length ? only : undefined);
    });
    const job = notificationJob(cs.record, notificationData(cs.record, data), new Date().toISOString());
    // §5.3.2: a CsourceNotification is of type ContextSourceNotification and says why it was sent
    job.body = `${job.body.slice(0, -1).replace('"type":"Notification"', '"type":"ContextSourceNotification"')},"triggerReason":"${reason}"}`;
    return job;
  }

  private enqueue(jobs: NotificationJob[]): void {
    if (jobs.length === 0 || !this.queue) return;
    this.queue
      .enqueue(jobs)
      .catch((e: Error) => this.deps.log("error", "csource notification failed", { error: e.message }));
  }

  private schedule(cs: CompiledSubscription): void {
    const k = key(cs.record.tenant, cs.record.sub.id);
    this.unschedule(k);
    const every = cs.record.sub.timeInterval;
    if (every === undefined) return;
    const t = setInterval(() => {
      const current = this.deps.subs.index.get(cs.record.tenant, cs.record.sub.id);
      if (current) this.notifyMatching(current);
    }, every * 1000);
    t.unref();
    this.timers.set(k, t);
  }

  private unschedule(k: string): void {
    clearInterval(this.timers.get(k));
    this.timers.delete(k);
  }

  /** Records a delivery attempt on its csource subscription (§5.2.14 status members); others are ignored. */
  onResult(r: DeliveryResult<NotificationJob>): void {
    const cs = this.deps.subs.index.get(r.job.tenant, r.job.subscriptionId);
    if (!cs) return;
    const s = cs.record.stats;
    s.lastNotification = r.at;
    if (r.ok) {
      s.timesSent++;
      s.lastSuccess = r.at;
    } else {
      s.timesFailed++;
      s.lastFailure = r.at;
    }
    this.deps.subs.statsChanged(cs.record, this.deps.statsFlushMs);
  }

  /** Stops the periodic timers. */
  close(): void {
    for (const t of this.timers.values()) clearInterval(t);
    this.timers.clear();
  }
}

const key = (tenant: string, id: string) => `${tenant}\u0000${id}`;
