import { randomUUID } from "node:crypto";
import { AppError, notFound } from "../../errors";
import type { NotificationJob } from "../../jobs/notification-job";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { nowIso } from "../model/datetime";
import { isAbsoluteUri } from "../model/uri";
import { checkIdLength } from "../model/limits";
import { badRequest } from "../../errors";
import { compileSubscription, type CompiledSubscription } from "./compile-subscription";
import { parseSubscription, patchSubscription } from "./parse-subscription";
import { inScope, type OwnerScope, type SubscriptionRecord } from "./subscription";
import { countDelivery, type DeliveryLine, type DeliveryLog } from "./delivery-log";
import type { SubscriptionIndex } from "./subscription-index";
import type { SubscriptionRepository } from "./subscription-repository";

/** Compiles an @context value (the request's, or a stored subscription's). */
export type ContextCompiler = (value: unknown) => Promise<CompiledContext>;

/** Told when a subscription is added, changed or removed (the periodic notifier listens). */
export type SubscriptionListener = (tenant: string, id: string, cs: CompiledSubscription | undefined) => void;

/**
 * Subscription management (ETSI GS CIM 009 v1.8 §5.8.1 create, §5.8.2 update, §5.8.3 retrieve, §5.8.4
 * query, §5.8.5 delete): validates, stores in the graph (durable before the answer), and keeps the
 * in-memory index the matcher reads. Nothing is stored when validation fails. Each subscription keeps the
 * principal that created it; reads and changes take an {@link OwnerScope}, and a subscription outside it
 * answers 404 like an unknown one, so its existence does not show.
 */
export class SubscriptionService {
  private readonly reserved = new Set<string>();
  private readonly listeners: SubscriptionListener[] = [];
  private readonly dirty = new Set<SubscriptionRecord>();
  private flushTimer?: NodeJS.Timeout;

  constructor(
    private readonly repo: SubscriptionRepository,
    readonly index: SubscriptionIndex,
    private readonly compile: ContextCompiler,
    private readonly log: (msg: string, fields?: object) => void = () => undefined,
    /** Why an endpoint URI may not be notified (the outbound policy), or undefined. */
    private readonly endpointRefusal: (
      uri: string,
    ) => Promise<string | undefined> | string | undefined = () => undefined,
    /** Where delivery attempts are logged as they end, so that their counts survive a kill. */
    private readonly deliveries?: DeliveryLog,
  ) {}

  /** Counts a delivery attempt of a subscription, logged first (delivery-log.ts). */
  countDelivery(record: SubscriptionRecord, ok: boolean, at: string): void {
    this.deliveries?.append(record.tenant, record.sub.id, ok, at);
    countDelivery(record.stats, ok, at);
  }

  /** 400 if the outbound policy refuses the endpoint (the broker itself, link-local, denied). */
  private async checkEndpoint(record: SubscriptionRecord): Promise<void> {
    const uri = record.sub.notification.endpoint.uri;
    const why = await this.endpointRefusal(uri);
    if (why) {
      throw badRequest(`notification.endpoint.uri ${uri} is not allowed: ${why}`, {
        member: "notification.endpoint.uri",
      });
    }
  }

  /** Loads the stored subscriptions (start-up); one that no longer compiles is logged and skipped. */
  async load(): Promise<number> {
    const skipped = (graph: string, error: string) =>
      this.log("stored subscription skipped", { graph, error });
    const records = await this.repo.loadAll(skipped);
    if (this.deliveries) addLoggedDeliveries(records, this.deliveries.read());
    for (const record of records) {
      try {
        const ctx = await this.compile(record.context);
        this.put(
          await this.compiled(record, ctx).catch((e: Error) => this.withoutJsonldContext(record, ctx, e)),
        );
      } catch (e) {
        this.log("stored subscription skipped", { id: record.sub.id, error: (e as Error).message });
      }
    }
    return this.index.size();
  }

  /** Compiles a subscription with its @context and its `jsonldContext` (503 if that cannot be fetched). */
  private async compiled(record: SubscriptionRecord, ctx: CompiledContext): Promise<CompiledSubscription> {
    const cs = compileSubscription(record, ctx);
    const j = record.sub.jsonldContext;
    return j === undefined ? cs : compileSubscription(record, ctx, await this.compile(j));
  }

  /**
   * A stored subscription whose `jsonldContext` no longer loads (deleted from this broker, say) keeps
   * working: its notifications are compacted with the @context it was made with.
   */
  private withoutJsonldContext(
    record: SubscriptionRecord,
    ctx: CompiledContext,
    e: Error,
  ): CompiledSubscription {
    this.log("jsonldContext of a stored subscription not loaded", { id: record.sub.id, error: e.message });
    return compileSubscription(record, ctx);
  }

  /** Listens to subscription changes. */
  onChange(l: SubscriptionListener): void {
    this.listeners.push(l);
  }

  /**
   * §5.8.1: creates a subscription owned by `owner` (none: no one's); returns its id. 409 AlreadyExists
   * for a taken id, whoever owns it (ids are unique in a tenant).
   */
  async create(
    tenant: string,
    body: unknown,
    context: unknown,
    ctx: CompiledContext,
    owner?: string,
  ): Promise<string> {
    const given = (body as { id?: unknown } | null)?.id;
    if (given !== undefined && !isAbsoluteUri(given)) {
      throw badRequest(`Subscription id ${JSON.stringify(given)} is not a URI`, { member: "id" });
    }
    if (given !== undefined) checkIdLength(given as string, "Subscription id");
    const id = (given as string | undefined) ?? `urn:ngsi-ld:Subscription:${randomUUID()}`;
    const key = `${tenant}\u0000${id}`;
    if (this.index.get(tenant, id) || this.reserved.has(key)) {
      throw new AppError("AlreadyExists", `Subscription ${id} already exists`, { id });
    }
    const record: SubscriptionRecord = {
      tenant,
      sub: parseSubscription(body, id, nowIso()),
      context,
      stats: { timesSent: 0, timesFailed: 0 },
      owner,
    };
    await this.checkEndpoint(record);
    const cs = await this.compiled(record, ctx);
    this.reserved.add(key);
    try {
      await this.repo.save(tenant, [record]);
    } finally {
      this.reserved.delete(key);
    }
    this.put(cs);
    return id;
  }

  /** §5.8.3: one subscription; 404 if unknown in this tenant or outside `scope`. */
  get(tenant: string, id: string, scope?: OwnerScope): SubscriptionRecord {
    const cs = this.index.get(tenant, id);
    if (!cs || !inScope(cs.record, scope)) throw notFound(`Subscription ${id} does not exist`, { id });
    return cs.record;
  }

  /** §5.8.4: the subscriptions of a tenant in `scope`, oldest first. */
  list(tenant: string, scope?: OwnerScope): SubscriptionRecord[] {
    return this.index
      .list(tenant)
      .map((cs) => cs.record)
      .filter((r) => inScope(r, scope));
  }

  /**
   * §5.8.2: applies a fragment. The names of the result are read with the fragment's @context when the
   * request named one, else with the subscription's own.
   */
  async update(
    tenant: string,
    id: string,
    fragment: unknown,
    context: unknown,
    ctx: CompiledContext,
    scope?: OwnerScope,
  ): Promise<void> {
    const current = this.get(tenant, id, scope);
    const sub = patchSubscription(current.sub, fragment, nowIso());
    const useNew = context !== undefined;
    const record: SubscriptionRecord = {
      tenant,
      sub,
      context: useNew ? context : current.context,
      stats: current.stats,
      owner: current.owner,
    };
    await this.checkEndpoint(record);
    const cs = await this.compiled(record, useNew ? ctx : await this.compile(current.context));
    if (this.deliveries) record.stats.logGen = this.deliveries.rotate();
    await this.repo.save(tenant, [record]);
    this.dirty.delete(current);
    this.put(cs);
  }

  /**
   * True while the subscription a notification job was made for exists (the same one: not deleted, nor
   * deleted and made again under its id). Deletion takes it out before the DELETE is answered.
   */
  holds(job: Pick<NotificationJob, "tenant" | "subscriptionId" | "subscriptionCreatedAt">): boolean {
    const cs = this.index.get(job.tenant, job.subscriptionId);
    return (
      cs !== undefined && (job.subscriptionCreatedAt ?? cs.record.sub.createdAt) === cs.record.sub.createdAt
    );
  }

  /** §5.8.5: deletes a subscription; 404 if unknown or outside `scope`. */
  async delete(tenant: string, id: string, scope?: OwnerScope): Promise<void> {
    const current = this.get(tenant, id, scope);
    await this.repo.remove(tenant, id);
    this.dirty.delete(current);
    this.index.remove(tenant, id);
    for (const l of this.listeners) l(tenant, id, undefined);
  }

  /**
   * Marks a subscription's delivery status as changed; changed ones are written to the graph at most
   * every `flushMs` (one commit per tenant), so the status survives a restart without a write per
   * notification.
   */
  statsChanged(record: SubscriptionRecord, flushMs: number): void {
    this.dirty.add(record);
    this.flushTimer ??= setTimeout(() => void this.flush(), flushMs);
  }

  /** Writes the changed delivery statuses now. */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const byTenant = new Map<string, SubscriptionRecord[]>();
    for (const r of this.dirty) {
      if (this.index.get(r.tenant, r.sub.id)?.record !== r) continue;
      const list = byTenant.get(r.tenant) ?? [];
      list.push(r);
      byTenant.set(r.tenant, list);
    }
    this.dirty.clear();
    const gen = this.deliveries?.rotate();
    let saved = true;
    for (const [tenant, records] of byTenant) {
      if (gen !== undefined) for (const r of records) r.stats.logGen = gen;
      await this.repo.save(tenant, records).catch((e: Error) => {
        saved = false;
        this.log("subscription status not saved", { error: e.message });
      });
    }
    // the older delivery files are counted in the graph now (or belong to no live subscription)
    if (gen !== undefined && saved) this.deliveries?.drop(gen);
  }

  private put(cs: CompiledSubscription): void {
    this.index.put(cs);
    for (const l of this.listeners) l(cs.record.tenant, cs.record.sub.id, cs);
  }
}

/** Adds to loaded statuses the logged deliveries they do not count yet (files after their `logGen`). */
function addLoggedDeliveries(
  records: SubscriptionRecord[],
  lines: { gen: number; line: DeliveryLine }[],
): void {
  const byKey = new Map(records.map((r) => [`${r.tenant}\u0000${r.sub.id}`, r]));
  for (const { gen, line } of lines) {
    const r = byKey.get(`${line[0]}\u0000${line[1]}`);
    if (r && gen > (r.stats.logGen ?? 0)) countDelivery(r.stats, line[2] === 1, line[3]);
  }
}
