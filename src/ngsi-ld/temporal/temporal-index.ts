import type { BucketTuple, HistoryRecord, RowTuple } from "./history-record";
import { Interner } from "./interner";
import { dayKey, rollEntity, type RollCounts } from "./rollup";
import { DAY_MS, RollupSeries, type Bucket } from "./rollup-series";
import { SegmentLedger, segmentOf } from "./segment-ledger";
import { Series, type InstanceRow } from "./series";
import type { TemporalEntity } from "./temporal-entity";

export type { TemporalEntity };

/**
 * The in-memory columnar index of the temporal history: per tenant, per entity, per attribute
 * a {@link Series}. It is the state the history log's records build (src/store/history): applying the
 * records of the log in order, from empty, gives the same index, which is how start-up rebuilds it.
 * Every change also touches the {@link SegmentLedger}, which says which hours the graph copy lacks.
 */
export class TemporalIndex {
  readonly interner = new Interner();
  readonly ledger = new SegmentLedger();
  private readonly tenants = new Map<string, Map<string, TemporalEntity>>();
  private nextIid = 1;
  private maxJs = 0;
  /**
   * One copy of each attribute IRI and type list: records decoded from the log bring fresh strings, whose
   * duplicates add up at scale (docs/decisions/0002-memory-at-scale.md).
   */
  private readonly names = new Map<string, string>();
  private readonly typeLists = new Map<string, string[]>();
  /** Template id of an instance -> template id of its aggregate bucket's shape. */
  private readonly bucketTemplates = new Map<number, number>();
  /** What the `roll` records applied so far changed (retention-pass.ts reads the difference). */
  readonly rolled: RollCounts = { instances: 0, hours: 0, dropped: 0 };

  /** A fresh instance number, never handed out before (also after a restart: replay moves it past the log's). */
  newIid(): number {
    return this.nextIid++;
  }

  /** The highest journal seq of an instance held (0 when none came from an entity write). */
  get lastJournalSeq(): number {
    return this.maxJs;
  }

  /**
   * Drops every instance that an entity write with a journal seq after `seq` made, and the entities left
   * without history by that: what the store lost in a journal recovery, the history must not show.
   * Types and scope of an entity stay as last written. Returns the instances and entities dropped.
   */
  dropJournaledAfter(seq: number): { instances: number; entities: number } {
    let instances = 0;
    let entities = 0;
    if (this.maxJs <= seq) return { instances, entities };
    for (const [tenant, map] of this.tenants) {
      for (const [id, e] of map) {
        let touched = false;
        for (const [a, s] of e.attrs) {
          for (let i = s.length - 1; i >= 0; i--) {
            if (s.js(i) <= seq) continue;
            this.touchRows(tenant, id, s, i, i + 1);
            s.removeRange(i, i + 1);
            instances++;
            touched = true;
          }
          if (s.length === 0) e.attrs.delete(a);
        }
        if (touched && e.attrs.size === 0) {
          map.delete(id);
          entities++;
        }
      }
    }
    this.maxJs = seq;
    return { instances, entities };
  }

  /** Applies one record (a write, or a record replayed from the log). */
  apply(r: HistoryRecord): void {
    if (r.op === "seal") return this.ledger.sealed(r.t, r.e, r.h, r.v);
    if (r.op === "hours") return this.ledger.set(r.t, r.e, r.hs);
    const map = this.tenant(r.t);
    if (r.op === "roll") {
      const e = map.get(r.e);
      if (!e) return;
      const c = rollEntity(this, r.t, e, r);
      this.rolled.instances += c.instances;
      this.rolled.hours += c.hours;
      this.rolled.dropped += c.dropped;
      if (e.attrs.size === 0 && !e.rollups?.size) map.delete(r.e);
      return;
    }
    if (r.op === "aggs") {
      const e = map.get(r.e);
      if (!e) return;
      e.rollups ??= new Map();
      const roll = new RollupSeries();
      for (const b of r.b) roll.add(this.fromTuple(b));
      e.rollups.set(this.name(r.a), roll);
      return;
    }
    if (r.op === "put") {
      let e = map.get(r.e);
      if (!e)
        map.set(
          r.e,
          (e = {
            id: r.e,
            types: this.types(r.ty ?? []),
            createdAt: r.at,
            modifiedAt: r.at,
            attrs: new Map(),
          }),
        );
      if (r.ty && r.ty.length) e.types = this.types(r.ty);
      if (r.sc === null) delete e.scope;
      else if (r.sc !== undefined) e.scope = r.sc;
      e.modifiedAt = Math.max(e.modifiedAt, r.at);
      for (const t of r.r) {
        let s = e.attrs.get(t[0]);
        if (!s) e.attrs.set(this.name(t[0]), (s = new Series()));
        s.insert(this.toRow(t));
        this.ledger.touch(r.t, r.e, t[2] ?? t[4]);
      }
      return;
    }
    const e = map.get(r.e);
    if (!e) return;
    if (r.op === "delEntity") {
      for (const s of e.attrs.values()) this.touchRows(r.t, r.e, s, 0, s.length);
      for (const roll of e.rollups?.values() ?? []) this.touchBuckets(r.t, r.e, roll);
      map.delete(r.e);
      return;
    }
    if (r.op === "delAttr" && r.all) {
      const roll = e.rollups?.get(r.a);
      if (roll) this.touchBuckets(r.t, r.e, roll);
      e.rollups?.delete(r.a);
    }
    const s = e.attrs.get(r.a);
    if (!s) return;
    if (r.op === "delAttr") {
      if (r.all) {
        this.touchRows(r.t, r.e, s, 0, s.length);
        e.attrs.delete(r.a);
      } else {
        for (let i = s.length - 1; i >= 0; i--) {
          if (this.datasetId(s.rest(i)) !== r.ds) continue;
          this.touchRows(r.t, r.e, s, i, i + 1);
          s.removeRange(i, i + 1);
        }
        if (s.length === 0) e.attrs.delete(r.a);
      }
      return;
    }
    const at = s.indexOf(r.n);
    if (at < 0) return;
    this.touchRows(r.t, r.e, s, at, at + 1);
    s.removeRange(at, at + 1);
    if (r.op === "modInst") {
      s.insert(this.toRow(r.r));
      this.ledger.touch(r.t, r.e, r.r[2] ?? r.r[4]);
    } else if (s.length === 0) e.attrs.delete(r.a);
  }

  /** The datasetId in a template, or undefined for the default instance. */
  datasetId(rest: number): string | undefined {
    const d = this.interner.object(rest).datasetId;
    return typeof d === "string" ? d : undefined;
  }

  /** True if template `rest` records a deletion (an instance with `deletedAt`, ETSI GS CIM 009 v1.8 §4.5.0). */
  isDeletion(rest: number): boolean {
    return this.interner.object(rest).deletedAt === true;
  }

  /** The history of entity `id`, or undefined. */
  entity(tenant: string, id: string): TemporalEntity | undefined {
    return this.tenants.get(tenant)?.get(id);
  }

  /** The tenants with a history. */
  tenantNames(): string[] {
    return [...this.tenants.keys()];
  }

  /** Every entity of `tenant` with a history. */
  entities(tenant: string): IterableIterator<TemporalEntity> {
    return this.tenant(tenant).values();
  }

  /** The log tuple of row `i` of `s` (attribute `attr`). */
  tuple(attr: string, s: Series, i: number): RowTuple {
    const obs = s.obs(i);
    const num = s.num(i);
    const t: RowTuple = [
      attr,
      s.iid(i),
      Number.isNaN(obs) ? null : obs,
      s.created(i),
      s.modified(i),
      Number.isNaN(num) ? null : num,
      this.interner.text(s.rest(i)),
    ];
    const js = s.js(i);
    if (js > 0) t[7] = js;
    return t;
  }

  /**
   * The whole state as `put` records (one per entity), for compaction of the log: replaying them from
   * empty rebuilds this index, instance numbers included.
   */
  *snapshot(): Generator<HistoryRecord> {
    for (const [t, map] of this.tenants) {
      for (const e of map.values()) {
        const r: RowTuple[] = [];
        for (const [a, s] of e.attrs) for (let i = 0; i < s.length; i++) r.push(this.tuple(a, s, i));
        yield { op: "put", t, e: e.id, ty: e.types, sc: e.scope, at: e.createdAt, r };
        if (e.modifiedAt !== e.createdAt) yield { op: "put", t, e: e.id, at: e.modifiedAt, r: [] };
        for (const [a, roll] of e.rollups ?? []) {
          const b: BucketTuple[] = [];
          for (let i = 0; i < roll.length; i++) b.push(this.toTuple(roll.bucket(i)));
          yield { op: "aggs", t, e: e.id, a, b };
        }
        yield { op: "hours", t, e: e.id, hs: this.ledger.of(t, e.id) };
      }
    }
    // segments of deleted entities whose graphs are still to be dropped
    for (const [t, id] of [...this.ledger.entities()]) {
      if (!this.entity(t, id)) yield { op: "hours", t, e: id, hs: this.ledger.of(t, id) };
    }
  }

  /**
   * The template id of the shape of an aggregate bucket of instances with template `rest`: its `type`,
   * `datasetId` and `unitCode` (the value and sub-attributes are what the bucket aggregates away).
   */
  bucketTemplate(rest: number): number {
    let id = this.bucketTemplates.get(rest);
    if (id === undefined) {
      const o = this.interner.object(rest);
      const shape: Record<string, unknown> = { type: o.type ?? "Property" };
      if (o.datasetId !== undefined) shape.datasetId = o.datasetId;
      if (o.unitCode !== undefined) shape.unitCode = o.unitCode;
      this.bucketTemplates.set(rest, (id = this.interner.id(JSON.stringify(shape))));
    }
    return id;
  }

  private toTuple(b: Bucket): BucketTuple {
    const nums = b.numbers > 0;
    return [
      b.start,
      b.len,
      b.count,
      b.numbers,
      b.sum,
      b.sumsq,
      nums ? b.min : null,
      nums ? b.max : null,
      b.distinct,
      this.interner.text(b.tpl),
    ];
  }

  private fromTuple(t: BucketTuple): Bucket {
    return {
      start: t[0],
      len: t[1],
      count: t[2],
      numbers: t[3],
      sum: t[4],
      sumsq: t[5],
      min: t[6] ?? Infinity,
      max: t[7] ?? -Infinity,
      distinct: t[8],
      tpl: this.interner.id(t[9]),
    };
  }

  /** Instances held and bytes of their arrays. */
  stats(): { entities: number; instances: number; buckets: number; bytes: number; templates: number } {
    let entities = 0;
    let instances = 0;
    let buckets = 0;
    let bytes = 0;
    for (const map of this.tenants.values()) {
      entities += map.size;
      for (const e of map.values()) {
        for (const s of e.attrs.values()) {
          instances += s.length;
          bytes += s.bytes();
        }
        for (const r of e.rollups?.values() ?? []) {
          buckets += r.length;
          bytes += r.bytes();
        }
      }
    }
    return { entities, instances, buckets, bytes, templates: this.interner.size };
  }

  private name(iri: string): string {
    let n = this.names.get(iri);
    if (n === undefined) this.names.set(iri, (n = iri));
    return n;
  }

  /** The shared list equal to `types` (callers never modify an entity's types in place). */
  private types(types: string[]): string[] {
    const key = types.join("\u0000");
    let t = this.typeLists.get(key);
    if (t === undefined) this.typeLists.set(key, (t = types.map((x) => this.name(x))));
    return t;
  }

  /** Touches the segment of every row in [from, to) of `s` (each segment once). */
  private touchRows(tenant: string, e: string, s: Series, from: number, to: number): void {
    let last = NaN;
    for (let i = from; i < to; i++) {
      const h = segmentOf(s.time(i));
      if (h === last) continue;
      this.ledger.touch(tenant, e, h);
      last = h;
    }
  }

  /** Touches the hour or day graph of every bucket of `roll`. */
  private touchBuckets(tenant: string, e: string, roll: RollupSeries): void {
    for (let i = 0; i < roll.length; i++) {
      this.ledger.touchKey(tenant, e, roll.len(i) === DAY_MS ? dayKey(roll.start(i)) : roll.start(i));
    }
  }

  private toRow(t: RowTuple): InstanceRow {
    if (t[1] >= this.nextIid) this.nextIid = t[1] + 1;
    const js = t[7] ?? 0;
    if (js > this.maxJs) this.maxJs = js;
    return {
      iid: t[1],
      obs: t[2] ?? NaN,
      created: t[3],
      modified: t[4],
      num: t[5] ?? NaN,
      rest: this.interner.id(t[6]),
      js,
    };
  }

  private tenant(t: string): Map<string, TemporalEntity> {
    let m = this.tenants.get(t);
    if (!m) this.tenants.set(t, (m = new Map()));
    return m;
  }
}
