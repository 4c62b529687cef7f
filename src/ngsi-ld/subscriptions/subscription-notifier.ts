import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { ChangeEvent, EntityChange } from "../../events/change-event";
import type { DeliveryResult } from "../../jobs/job-queue";
import type { NotificationJob, NotificationQueue } from "../../jobs/notification-job";
import { typesOf, type Entity } from "../model/entity";
import type { EntityFilter } from "../query/query-filter";
import { renderJoinedList } from "../render/linked-entities";
import { renderEntity } from "../render/render-entity";
import type { CompiledSubscription } from "./compile-subscription";
import { diffEntity, entityDeletedAsAttributes, notifiedEntity, type EntityDiff } from "./entity-diff";
import { matchChange } from "./match-change";
import { notificationData, notificationJob } from "./notification-message";
import { subscriptionStatus } from "./subscription";
import type { SubscriptionService } from "./subscription-service";

/** What the notifier needs from the rest of the broker. */
export interface NotifierDeps {
  service: SubscriptionService;
  /** The entity `e`, compacted with `from`, compacted with `to` instead. */
  recompact(e: Entity, from: CompiledContext, to: CompiledContext): Entity;
  /** Entities of a tenant by id, compacted with `ctx` (linked entities of `join`, §4.5.23). */
  read(tenant: string, ids: string[], ctx: CompiledContext): Promise<Entity[]>;
  /** The entities of a tenant matching a filter (periodic notifications), compacted with `ctx`. */
  query(tenant: string, filter: EntityFilter, ctx: CompiledContext): Promise<Entity[]>;
  /** How often changed delivery statuses are written to the graph, ms. */
  statsFlushMs: number;
  /** Most notifications of one subscription per second (NOTIFY_MAX_RATE); more are dropped. Default unlimited. */
  maxPerSecond?: number;
  log(level: "info" | "warn" | "error", msg: string, fields?: object): void;
}

/**
 * What makes the data of two subscriptions' notifications of one change the same text: @contexts, the
 * rendering, showChanges, what a deletion shows, and the endpoint's accept with the @context it embeds.
 */
function textKey(cs: CompiledSubscription, deletedAsAttributes: boolean): string {
  let keys = textKeys.get(cs);
  if (!keys) textKeys.set(cs, (keys = [textKeyOf(cs, false), textKeyOf(cs, true)]));
  return keys[deletedAsAttributes ? 1 : 0];
}

/** {@link textKey} per compiled subscription (a subscription change compiles a new one). */
const textKeys = new WeakMap<CompiledSubscription, [string, string]>();

function textKeyOf(cs: CompiledSubscription, deletedAsAttributes: boolean): string {
  const { sub, context } = cs.record;
  const n = sub.notification;
  return JSON.stringify([
    cs.ctx.key,
    cs.notifyCtx?.key,
    cs.renderKey,
    n.showChanges ?? false,
    n.sysAttrs ?? false,
    deletedAsAttributes && (cs.watched ? [...cs.watched] : null),
    n.endpoint.accept === "application/ld+json" ? (sub.jsonldContext ?? context ?? null) : null,
  ]);
}

/**
 * Turns the change feed into notifications (ETSI GS CIM 009 v1.8 §5.8.6, §5.8.7 periodic): for each
 * entity a commit touched, the subscriptions indexed under its types are matched (matchChange), and one
 * job per match is handed to the queue. With a durable queue the enqueue of a commit's jobs is recorded
 * under its seq: the writer's acknowledgement waits for it (`settled`), so an acknowledged write has its
 * notifications in Redis.
 */
export class SubscriptionNotifier {
  private queue?: NotificationQueue;
  private readonly pending = new Map<number, Promise<void>>();
  private readonly lastSent = new WeakMap<CompiledSubscription, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Notifications per subscription in the current one-second window (the rate cap). */
  private readonly rate = new Map<string, { second: number; sent: number; dropped: number }>();

  constructor(private readonly deps: NotifierDeps) {
    deps.service.onChange((tenant, id, cs) => this.schedulePeriodic(tenant, id, cs));
  }

  /** Sets the queue (it is built with this notifier's `onResult`). */
  attach(queue: NotificationQueue): void {
    this.queue = queue;
    for (const cs of this.deps.service.index.all())
      this.schedulePeriodic(cs.record.tenant, cs.record.sub.id, cs);
  }

  /** The change-feed listener. */
  onCommit(event: ChangeEvent): void {
    if (!event.change || !this.queue) return;
    const jobs = this.match(event.tenant, event.change);
    if (jobs.length === 0) return;
    const queue = this.queue;
    const p = jobs.every((j) => !(j instanceof Promise))
      ? queue.enqueue(jobs as NotificationJob[])
      : Promise.all(jobs).then((js) => queue.enqueue(js));
    if (!queue.durable)
      p.catch((e: Error) => this.deps.log("error", "notification failed", { error: e.message }));
    if (queue.durable) {
      this.pending.set(event.seq, p);
      void p.catch(() => undefined).finally(() => this.pending.delete(event.seq));
    }
  }

  /** Resolves once the notifications of commit `seq` are in the queue (undefined if nothing waits). */
  settled(seq: number): Promise<void> | undefined {
    return this.pending.get(seq);
  }

  /**
   * The jobs for one commit; a subscription with `join` (§5.2.14, §4.5.23) gives a promise, as its
   * linked entities are read from the store.
   */
  match(
    tenant: string,
    change: EntityChange,
    now = Date.now(),
  ): (NotificationJob | Promise<NotificationJob>)[] {
    const jobs: (NotificationJob | Promise<NotificationJob>)[] = [];
    const at = new Date(now).toISOString();
    for (const [id, after] of change.after) {
      const before = change.before.get(id);
      const types = typesOf(after ?? before ?? {}).map((t) => change.ctx.expandTerm(t));
      const candidates = this.deps.service.index.candidates(tenant, types);
      if (candidates.size === 0) continue;
      const diffs = new Map<string, EntityDiff>();
      const texts = new Map<string, string>(); // data text per way of showing it, shared by subscriptions
      for (const cs of candidates) {
        let diff = diffs.get(cs.ctx.key);
        if (!diff) {
          const re = (e: Entity | null | undefined) =>
            e ? (cs.ctx.key === change.ctx.key ? e : this.deps.recompact(e, change.ctx, cs.ctx)) : undefined;
          diff = diffEntity(id, re(before), re(after), (after?.modifiedAt as string | undefined) ?? at);
          diffs.set(cs.ctx.key, diff);
        }
        const trigger = matchChange(cs, diff, now);
        if (!trigger || this.throttled(cs, now) || this.overRate(cs, now)) continue;
        const n = cs.record.sub.notification;
        const show = { showChanges: n.showChanges ?? false, sysAttrs: n.sysAttrs ?? false };
        const asAttrs = !diff.after && trigger === "attributeDeleted";
        const key = n.join ? undefined : textKey(cs, asAttrs);
        const known = key === undefined ? undefined : texts.get(key);
        if (known !== undefined) {
          jobs.push(notificationJob(cs.record, known, at));
          continue;
        }
        const changed = asAttrs
          ? entityDeletedAsAttributes(diff, cs.watched, show)
          : notifiedEntity(diff, show);
        const entity = cs.notifyCtx ? this.deps.recompact(changed, cs.ctx, cs.notifyCtx) : changed;
        if (n.join) {
          const read = (ids: string[]) => this.deps.read(tenant, ids, cs.notifyCtx ?? cs.ctx);
          jobs.push(
            renderJoinedList([entity], n.join, n.joinLevel ?? 1, cs.render, read).then((data) => {
              if (!diff.after) data[0].deletedAt = at;
              return notificationJob(cs.record, notificationData(cs.record, data), at);
            }),
          );
          continue;
        }
        const shown = renderEntity(entity, cs.render);
        if (!diff.after) shown.deletedAt = at;
        const text = notificationData(cs.record, [shown]);
        if (key !== undefined) texts.set(key, text);
        jobs.push(notificationJob(cs.record, text, at));
      }
    }
    return jobs;
  }

  /** True if a notification of `cs` went out less than `throttling` seconds ago (§5.2.12); else notes now. */
  private throttled(cs: CompiledSubscription, now: number): boolean {
    const t = cs.record.sub.throttling;
    if (t === undefined) return false;
    const last = this.lastSent.get(cs);
    if (last !== undefined && now - last < t * 1000) return true;
    this.lastSent.set(cs, now);
    return false;
  }

  /**
   * True if `cs` already had NOTIFY_MAX_RATE notifications in this second: a loop through an endpoint that
   * writes back, or a flood of changes, cannot grow without bound. Drops are logged once per second.
   */
  private overRate(cs: CompiledSubscription, now: number): boolean {
    const max = this.deps.maxPerSecond;
    if (max === undefined) return false;
    const key = `${cs.record.tenant}\u0000${cs.record.sub.id}`;
    const second = Math.floor(now / 1000);
    let r = this.rate.get(key);
    if (!r || r.second !== second) {
      if (r && r.dropped > 0) {
        this.deps.log("warn", "notifications dropped over NOTIFY_MAX_RATE", {
          subscription: cs.record.sub.id,
          dropped: r.dropped,
        });
      }
      this.rate.set(key, (r = { second, sent: 0, dropped: 0 }));
    }
    if (r.sent < max) {
      r.sent++;
      return false;
    }
    r.dropped++;
    return true;
  }

  /** Records a delivery attempt on the subscription (§5.2.14 timesSent, timesFailed, last*, status). */
  onResult(r: DeliveryResult<NotificationJob>): void {
    const cs = this.deps.service.index.get(r.job.tenant, r.job.subscriptionId);
    if (!cs) return;
    this.deps.service.countDelivery(cs.record, r.ok, r.at);
    if (!r.ok) {
      this.deps.log("warn", "notification failed", {
        subscription: r.job.subscriptionId,
        uri: r.job.uri,
        error: r.error,
        dead: r.final,
      });
    }
    this.deps.service.statsChanged(cs.record, this.deps.statsFlushMs);
  }

  /** (Re)starts the timer of a periodic subscription (§5.8.7 timeInterval). */
  private schedulePeriodic(tenant: string, id: string, cs: CompiledSubscription | undefined): void {
    const key = `${tenant}\u0000${id}`;
    if (!cs) this.rate.delete(key);
    clearInterval(this.timers.get(key));
    this.timers.delete(key);
    const every = cs?.record.sub.timeInterval;
    if (!cs || every === undefined || !this.queue) return;
    const timer = setInterval(() => void this.periodic(cs), every * 1000);
    timer.unref();
    this.timers.set(key, timer);
  }

  private async periodic(cs: CompiledSubscription): Promise<void> {
    if (subscriptionStatus(cs.record.sub) !== "active" || !this.queue) return;
    try {
      const entities = await this.deps.query(cs.record.tenant, cs.filter, cs.ctx);
      if (entities.length === 0) return;
      const shown = (e: Entity) => (cs.notifyCtx ? this.deps.recompact(e, cs.ctx, cs.notifyCtx) : e);
      const data = entities.map((e) => renderEntity(shown(e), cs.render));
      const text = notificationData(cs.record, data);
      if (this.overRate(cs, Date.now())) return;
      await this.queue.enqueue([notificationJob(cs.record, text, new Date().toISOString())]);
    } catch (e) {
      this.deps.log("error", "periodic notification failed", {
        id: cs.record.sub.id,
        error: (e as Error).message,
      });
    }
  }

  /** Stops the periodic timers. */
  close(): void {
    for (const t of this.timers.values()) clearInterval(t);
    this.timers.clear();
  }
}
