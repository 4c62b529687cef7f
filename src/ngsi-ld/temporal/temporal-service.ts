import {
  DEFAULT_TEMPORAL_RETENTION_INTERVAL_MS,
  DEFAULT_TEMPORAL_SEAL_INTERVAL_MS,
  DEFAULT_TEMPORAL_SEAL_MAX_DEFER_MS,
} from "../../config/config";
import { notFound } from "../../errors";
import type { EntityChange } from "../../events/change-event";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import type { GraphStore } from "../../store/graph-store";
import { HistoryLog } from "../../store/history/history-log";
import { attributeNames, datasetIdOf, instancesOf, typesOf, type Entity } from "../model/entity";
import { deletedValueOf, valueMemberOf } from "../model/attribute-kinds";
import type { AttributeInstance } from "../model/normalize-attribute";
import type { WriteGuard } from "../model/write-guard";
import type { HistoryRecord, RowTuple } from "./history-record";
import { instanceNumber, instanceToTuple, rowToInstance } from "./instance-codec";
import { RetentionPass, type RetentionWindows } from "./retention-pass";
import { SCOPE_IRI, scopeDeletionRow, scopeRemoved } from "./scope-history";
import { SegmentSealer } from "./segment-sealer";
import { TemporalIndex } from "./temporal-index";

/** One change of an entity's history, as {@link TemporalService.onChange} reports it. */
export interface HistoryChange {
  tenant: string;
  entityId: string;
  op: HistoryRecord["op"];
}

/** Options of {@link TemporalService.open}. */
export interface TemporalOptions {
  /** Folder of the history log (`<DATA_DIR>/history`). */
  dir: string;
  /**
   * How long raw instances, hourly aggregates and anything at all are kept (ms; 0 = for ever): see
   * {@link RetentionPass}. Omitted: everything is kept raw.
   */
  retention?: RetentionWindows;
  /** How often the retention pass runs (ms; `TEMPORAL_RETENTION_INTERVAL_MS`, default: the setting's). */
  retentionEveryMs?: number;
  /** Log bytes that trigger a compaction. */
  compactBytes: number;
  /** The graph the history is sealed into (hourly segments, see SegmentSealer); none = log and index only. */
  graph?: Pick<GraphStore, "commit">;
  /** How often closed hours are sealed into the graph (ms; `TEMPORAL_SEAL_INTERVAL_MS`). */
  sealEveryMs?: number;
  /** How long after its end an hour whose entity went quiet stays open (ms). */
  sealGraceMs?: number;
  /**
   * Timed seals wait until no history write came for this long (ms; `TEMPORAL_SEAL_QUIET_MS`; 0 = seal on
   * time), for at most `sealMaxDeferMs` (`TEMPORAL_SEAL_MAX_DEFER_MS`): see WriteBurstDeferral.
   */
  sealQuietMs?: number;
  /** Longest time timed seals are put off by a write burst (ms). */
  sealMaxDeferMs?: number;
  log?: (level: "info" | "warn" | "error", msg: string, fields?: object) => void;
}

/**
 * The temporal history of the NGSI-LD API (ETSI GS CIM 009 v1.8 §5.6.11 to §5.6.16 writes):
 * every write goes to the in-memory {@link TemporalIndex} and the durable {@link HistoryLog}, and
 * resolves once it is on disk. Writes through the normal API arrive through {@link recordChange}, the
 * durable stage of the commit pipeline that each commit awaits, so one acknowledged entity write is one acknowledged
 * history write. The {@link RetentionPass} folds old instances into hourly then daily aggregates (and drops
 * what is past the total window), in memory and, at the compaction that follows, on disk. The
 * {@link SegmentSealer} copies closed hours (and aggregated days) into the graph for SPARQL.
 */
export class TemporalService {
  /** The retention pass, when any window is set. */
  readonly retention: RetentionPass | undefined;
  private sealer: SegmentSealer | undefined;
  /** Epoch ms of the latest history write that is not the sealer's own bookkeeping. */
  private lastWriteAt = 0;
  private readonly changeListeners: ((changed?: HistoryChange) => void)[] = [];
  private guard?: WriteGuard;

  private constructor(
    readonly index: TemporalIndex,
    private readonly log: HistoryLog<HistoryRecord>,
    private readonly opts: TemporalOptions,
  ) {
    const w = opts.retention;
    if (w && (w.rawMs > 0 || w.hourlyMs > 0 || w.totalMs > 0)) {
      this.retention = new RetentionPass(index, {
        windows: w,
        record: (r) => this.write(r),
        changed: () => void this.compact(),
        everyMs: opts.retentionEveryMs ?? DEFAULT_TEMPORAL_RETENTION_INTERVAL_MS,
        log: opts.log,
      });
    }
  }

  /**
   * Opens the history log, rebuilds the index from it, applies retention and starts its timer; with
   * `opts.graph`, starts sealing into it ({@link attachGraph}). It needs no graph store to read the
   * history, so app.ts opens it while the store worker recovers, which shortens start-up
   * (docs/decisions/0007-lenient-trusted-loads.md).
   */
  static open(opts: TemporalOptions): TemporalService {
    const index = new TemporalIndex();
    const { log, scan } = HistoryLog.open<HistoryRecord>(opts.dir, (r) => index.apply(r));
    const svc = new TemporalService(index, log, opts);
    opts.log?.("info", "temporal history ready", { ...scan, ...index.stats(), unsealed: index.ledger.size });
    if (opts.graph) svc.attachGraph(opts.graph);
    svc.retention?.start();
    return svc;
  }

  /**
   * Starts sealing the closed hours into `graph` (the {@link SegmentSealer}, every `sealEveryMs`); once
   * only: the graph store opened after the history.
   */
  attachGraph(graph: Pick<GraphStore, "commit">): void {
    if (this.sealer) throw new Error("the temporal history already seals into a graph");
    const opts = this.opts;
    this.sealer = new SegmentSealer(this.index, {
      store: graph,
      record: (r) => this.write(r),
      everyMs: opts.sealEveryMs ?? DEFAULT_TEMPORAL_SEAL_INTERVAL_MS,
      graceMs: opts.sealGraceMs ?? 300_000,
      burst: {
        lastWriteAt: () => this.lastWriteAt,
        quietMs: opts.sealQuietMs ?? 0,
        maxDeferMs: opts.sealMaxDeferMs ?? DEFAULT_TEMPORAL_SEAL_MAX_DEFER_MS,
      },
      log: opts.log,
    });
    this.sealer.start();
  }

  /**
   * Start-up after the store recovered its journal up to commit `seq`: drops the instances of entity writes
   * after it (a damaged journal recovered to an earlier commit, so the store no longer has them), then
   * rewrites the log without them before any new write, since new commits take those seqs again. Nothing
   * to do, and nothing read, when the history holds no later write. Returns what was dropped.
   */
  async alignTo(seq: number): Promise<{ instances: number; entities: number }> {
    const after = this.index.lastJournalSeq;
    const dropped = this.index.dropJournaledAfter(seq);
    if (after <= seq) return dropped;
    this.opts.log?.(
      "warn",
      "temporal history: instances of writes the recovered store does not hold dropped",
      {
        ...dropped,
        storeSeq: seq,
        historySeq: after,
      },
    );
    await this.log.idle(); // a compaction begun before the drop (retention at open) would not include it
    await this.compact();
    for (const l of this.changeListeners) l();
    return dropped;
  }

  /** Instances held (all tenants) and the retention passes done, for the metrics (walks the whole index). */
  stats(): { instances: number; retentionPasses: number } {
    return { instances: this.index.stats().instances, retentionPasses: this.retention?.passes ?? 0 };
  }

  /**
   * Calls `l` after every change of an entity's history is applied to the index (with its tenant and id),
   * and with nothing when the start-up alignment dropped instances of any entity: what is derived from the
   * history (answers cached per entity) knows when to drop what it holds. `op` names the record: `put` adds
   * instances, `roll` is retention, the others remove or change instances (the temporal API's edits).
   * Not a feed of commits: the temporal API and retention change the history without one
   * (docs/architecture.md "Temporal history").
   */
  onChange(l: (changed?: HistoryChange) => void): void {
    this.changeListeners.push(l);
  }

  /** Rewrites the log as the current state (drops what retention and deletions removed). */
  compact(): Promise<void> {
    return this.log.compact(this.index.snapshot()).catch((e: Error) => {
      this.opts.log?.("error", "history compaction failed", { error: e.message });
    });
  }

  /** The history log's files as of now, kept for a backup until `release` (HistoryLog.holdFiles). */
  holdFiles(): Promise<{ dir: string; files: string[]; release: () => void }> {
    return this.log.holdFiles();
  }

  /** Seals the closed hours into the graph now (every dirty hour with `force`); how many were written. */
  seal(force = false): Promise<number> {
    return this.sealer?.sweep(force) ?? Promise.resolve(0);
  }

  private async write(r: HistoryRecord): Promise<void> {
    if (r.op !== "seal" && r.op !== "hours" && r.op !== "roll") this.lastWriteAt = Date.now();
    this.index.apply(r); // before the append: a compaction snapshot taken meanwhile must include it
    if (r.op !== "seal" && r.op !== "hours")
      for (const l of this.changeListeners) l({ tenant: r.t, entityId: r.e, op: r.op });
    await this.log.append(r);
    if (this.log.size > this.opts.compactBytes) void this.compact();
  }

  /**
   * The durable stage of the commit pipeline: appends an instance for every attribute instance a
   * committed write created or changed (value, observedAt, createdAt, modifiedAt, datasetId), for the
   * entities it saved, and a deletion instance (ETSI GS CIM 009 v1.8 §4.5.0: the NGSI-LD null as value,
   * `deletedAt`) for every instance it removed, all of them when it deleted the entity. Deleted entities
   * keep their history. Each instance carries `seq`, the write's journal seq ({@link alignTo}).
   */
  async recordChange(tenant: string, change: EntityChange, seq: number): Promise<void> {
    const now = Date.now();
    const records: HistoryRecord[] = [];
    for (const [id, after] of change.after) {
      const before = change.before.get(id);
      const rows: RowTuple[] = [];
      for (const name of after ? attributeNames(after) : []) {
        const old = before ? instancesOf(before, name) : [];
        const attr = change.ctx.expandTerm(name);
        for (const inst of instancesOf(after as Entity, name)) {
          const prev = old.find((o) => datasetIdOf(o) === datasetIdOf(inst));
          if (prev && JSON.stringify(prev) === JSON.stringify(inst)) continue;
          rows.push(instanceToTuple(attr, inst, change.ctx, this.index.newIid(), now));
        }
      }
      if (before) rows.push(...this.deletionRows(before, after, change.ctx, now));
      for (const row of rows) row[7] = seq;
      const shown = after ?? before;
      if (!shown || (rows.length === 0 && (!after || this.index.entity(tenant, id)))) continue;
      const gone = after && before && scopeRemoved(before, after);
      records.push(this.putRecord(tenant, shown, change.ctx, rows, now, gone ? null : shown.scope));
    }
    await Promise.all(records.map((r) => this.write(r)));
  }

  /** Deletion instances (§4.5.0) for the instances (and the scope, §4.18) of `before` that `after` no longer has. */
  private deletionRows(
    before: Entity,
    after: Entity | null | undefined,
    ctx: CompiledContext,
    now: number,
  ): RowTuple[] {
    const rows: RowTuple[] = [];
    for (const name of attributeNames(before)) {
      const kept = after ? instancesOf(after, name).map(datasetIdOf) : [];
      const attr = ctx.expandTerm(name);
      for (const inst of instancesOf(before, name)) {
        if (kept.includes(datasetIdOf(inst))) continue;
        const member = valueMemberOf(inst.type);
        const gone: AttributeInstance = {
          type: inst.type,
          [member]: deletedValueOf(member),
          deletedAt: true,
        };
        if (inst.datasetId !== undefined) gone.datasetId = inst.datasetId;
        if (inst.createdAt !== undefined) gone.createdAt = inst.createdAt;
        gone.modifiedAt = new Date(now).toISOString();
        rows.push(instanceToTuple(attr, gone, ctx, this.index.newIid(), now));
      }
    }
    if (scopeRemoved(before, after)) rows.push(scopeDeletionRow(ctx, this.index.newIid(), now));
    return rows;
  }

  private putRecord(
    tenant: string,
    e: Entity,
    ctx: CompiledContext,
    r: RowTuple[],
    at: number,
    sc: unknown = e.scope,
  ): HistoryRecord {
    const ty = typesOf(e).map((t) => ctx.expandTerm(t));
    return { op: "put", t: tenant, e: e.id, ty: ty.length ? ty : undefined, sc, at, r };
  }

  private rowsOf(e: Entity, ctx: CompiledContext, now: number): RowTuple[] {
    const rows: RowTuple[] = [];
    for (const name of attributeNames(e)) {
      const attr = ctx.expandTerm(name);
      for (const inst of instancesOf(e, name)) {
        rows.push(instanceToTuple(attr, stamped(inst, now), ctx, this.index.newIid(), now));
      }
    }
    return rows;
  }

  /**
   * A deletion through the normal API (§5.6.5) of an attribute of an entity that exists only as a
   * temporal entity (made by POST /temporal/entities, §5.6.11, which creates no current state): the
   * history gets the deletion instance (§4.5.0, `deletedAt`) of the attribute's latest default instance
   * (or of `datasetId`'s), or of the entity's `scope` (§4.18). False, and nothing written, if the history
   * has no such attribute.
   */
  async recordHistoryOnlyDeletion(
    tenant: string,
    id: string,
    name: string,
    ctx: CompiledContext,
    datasetId?: string,
  ): Promise<boolean> {
    const e = this.index.entity(tenant, id);
    const iri = ctx.expandTerm(name);
    if (e && iri === SCOPE_IRI && datasetId === undefined) {
      if (e.scope === undefined) return false;
      const now = Date.now();
      const type = e.types.map((t) => ctx.compactIri(t));
      const rows = [scopeDeletionRow(ctx, this.index.newIid(), now)];
      await this.write(this.putRecord(tenant, { id, type }, ctx, rows, now, null));
      return true;
    }
    const s = e?.attrs.get(iri);
    if (!e || !s) return false;
    let last: AttributeInstance | undefined;
    for (let i = s.length - 1; i >= 0 && !last; i--) {
      if (this.index.datasetId(s.rest(i)) === datasetId) last = rowToInstance(this.index, s, i, ctx, true);
    }
    if (!last) return false;
    const type = e.types.map((t) => ctx.compactIri(t));
    const now = Date.now();
    const rows = this.deletionRows({ id, type, [name]: last }, { id, type }, ctx, now);
    await this.write(this.putRecord(tenant, { id, type }, ctx, rows, now));
    return true;
  }

  /** Runs every write of the temporal API through `guard` first (what it takes out is never recorded). */
  setWriteGuard(guard: WriteGuard): void {
    this.guard = guard;
  }

  /** §5.6.11: creates the temporal entity, or adds the instances to an existing one. True if created. */
  async upsert(tenant: string, given: Entity, ctx: CompiledContext): Promise<boolean> {
    const types = typesOf(given).map((t) => ctx.expandTerm(t));
    const e = this.guard ? await this.guard.apart(tenant, given, types, ctx) : given;
    const created = !this.index.entity(tenant, e.id);
    const now = Date.now();
    if (!created) await this.dropSameObservedAt(tenant, e, ctx);
    await this.write(this.putRecord(tenant, e, ctx, this.rowsOf(e, ctx, now), now));
    return created;
  }

  /** §5.6.12: appends attribute instances to an existing temporal entity (404 otherwise). */
  async append(tenant: string, id: string, given: Entity, ctx: CompiledContext): Promise<void> {
    const types = this.mustExist(tenant, id).types;
    const fragment = this.guard ? await this.guard.apart(tenant, { ...given, id }, types, ctx) : given;
    const now = Date.now();
    await this.dropSameObservedAt(tenant, { ...fragment, id }, ctx);
    await this.write({
      ...this.putRecord(tenant, { ...fragment, id }, ctx, this.rowsOf(fragment, ctx, now), now),
    });
  }

  /**
   * Drops the stored instances that an update's instances replace: those of the same attribute and
   * datasetId observed at the same time (one observation per attribute and instant; ETSI suite 008_01_01).
   */
  private async dropSameObservedAt(tenant: string, e: Entity, ctx: CompiledContext): Promise<void> {
    const te = this.index.entity(tenant, e.id);
    if (!te) return;
    for (const name of attributeNames(e)) {
      const attr = ctx.expandTerm(name);
      const s = te.attrs.get(attr);
      if (!s) continue;
      const gone = new Set<number>();
      for (const inst of instancesOf(e, name)) {
        const t = typeof inst.observedAt === "string" ? Date.parse(inst.observedAt) : NaN;
        if (Number.isNaN(t)) continue;
        for (let i = 0; i < s.length; i++) {
          if (s.obs(i) === t && this.index.datasetId(s.rest(i)) === datasetIdOf(inst)) gone.add(s.iid(i));
        }
      }
      for (const n of gone) await this.write({ op: "delInst", t: tenant, e: e.id, a: attr, n });
    }
  }

  /** §5.6.13: deletes the temporal entity (404 if absent). */
  async deleteEntity(tenant: string, id: string): Promise<void> {
    this.mustExist(tenant, id);
    await this.write({ op: "delEntity", t: tenant, e: id });
  }

  /**
   * §5.6.14: deletes the instances of an attribute: the default ones, those of `datasetId`, or with
   * `all` every instance. 404 if the entity or the attribute (or that dataset) has none.
   */
  async deleteAttribute(
    tenant: string,
    id: string,
    attr: string,
    datasetId?: string,
    all = false,
  ): Promise<void> {
    const s = this.mustExist(tenant, id).attrs.get(attr);
    let found = !!s && all;
    for (let i = 0; !found && s && i < s.length; i++) found = this.index.datasetId(s.rest(i)) === datasetId;
    if (!found) throw notFound(`Entity ${id} has no such instances of attribute ${attr}`, { id, attr });
    await this.write({ op: "delAttr", t: tenant, e: id, a: attr, ds: datasetId, all: all || undefined });
  }

  /** §5.6.15: replaces the content of one instance, keeping its instanceId and createdAt. */
  async modifyInstance(
    tenant: string,
    id: string,
    attr: string,
    instanceId: string,
    inst: AttributeInstance,
    ctx: CompiledContext,
  ): Promise<void> {
    const { s, at, n } = this.findInstance(tenant, id, attr, instanceId);
    const now = Date.now();
    const old = s.row(at);
    const merged: AttributeInstance = { ...inst };
    if (merged.observedAt === undefined && !Number.isNaN(old.obs))
      merged.observedAt = new Date(old.obs).toISOString();
    const t = instanceToTuple(attr, merged, ctx, n, now);
    t[3] = old.created;
    t[4] = now;
    if (old.js) t[7] = old.js; // still the instance that entity write made
    await this.write({ op: "modInst", t: tenant, e: id, a: attr, n, r: t });
  }

  /** §5.6.16: deletes one instance. */
  async deleteInstance(tenant: string, id: string, attr: string, instanceId: string): Promise<void> {
    const { n } = this.findInstance(tenant, id, attr, instanceId);
    await this.write({ op: "delInst", t: tenant, e: id, a: attr, n });
  }

  private findInstance(tenant: string, id: string, attr: string, instanceId: string) {
    const s = this.mustExist(tenant, id).attrs.get(attr);
    const n = instanceNumber(instanceId);
    const at = s && n !== undefined ? s.indexOf(n) : -1;
    if (!s || at < 0 || n === undefined) {
      throw notFound(`Attribute ${attr} of entity ${id} has no instance ${instanceId}`, {
        id,
        attr,
        instanceId,
      });
    }
    return { s, at, n };
  }

  private mustExist(tenant: string, id: string) {
    const e = this.index.entity(tenant, id);
    if (!e) throw notFound(`Temporal entity ${id} does not exist`, { id });
    return e;
  }

  /** Stops the retention pass, seals every dirty hour, finishes a compaction and closes the log. */
  async close(): Promise<void> {
    this.retention?.stop();
    await this.retention?.idle();
    await this.sealer?.close();
    await this.log.close();
  }
}

/** An instance written through the temporal API gets createdAt = modifiedAt = now (§4.8). */
function stamped(inst: AttributeInstance, now: number): AttributeInstance {
  const iso = new Date(now).toISOString();
  return { ...inst, createdAt: iso, modifiedAt: iso };
}
