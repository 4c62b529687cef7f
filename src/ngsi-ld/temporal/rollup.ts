import type { RollupRecord } from "./history-record";
import { DAY_MS, emptyBucket, RollupSeries, type Bucket } from "./rollup-series";
import { SEGMENT_MS, segmentOf, type SegmentLedger } from "./segment-ledger";
import type { Interner } from "./interner";
import type { Series } from "./series";
import type { TemporalEntity } from "./temporal-entity";

/** What {@link rollEntity} needs of the temporal index. */
export interface RollTarget {
  readonly ledger: SegmentLedger;
  readonly interner: Interner;
  /** The template id of the shape of the bucket of instances with template `rest`. */
  bucketTemplate(rest: number): number;
}

/** Start of the UTC day holding `t`. */
export const dayOf = (t: number): number => Math.floor(t / DAY_MS) * DAY_MS;

/**
 * The ledger key of the daily aggregate graph of the day starting at `day`: its start + 1 ms, so it never
 * equals an hour's key (hour starts are whole hours).
 */
export const dayKey = (day: number): number => day + 1;

/** True if ledger key `k` names a day graph ({@link dayKey}). */
export const isDayKey = (k: number): boolean => k % SEGMENT_MS === 1;

/** What one {@link rollEntity} changed. */
export interface RollCounts {
  /** Raw instances folded into hourly aggregates. */
  instances: number;
  /** Hourly aggregates folded into daily ones. */
  hours: number;
  /** Aggregates and instances dropped by the total retention. */
  dropped: number;
}

/**
 * Applies one retention record to entity `e` (docs/architecture.md "Retention tiers"), in three steps that
 * are a function of the entity's history alone, so replaying the log gives the same state: raw instances
 * before `r.raw` become hourly buckets (per attribute and instance shape) and leave; hourly buckets before
 * `r.hour` merge into daily buckets; everything before `r.drop` (0 = nothing) is dropped. Each hour or day
 * whose graph copy changes is touched in the ledger, so the sealer rewrites it.
 */
export function rollEntity(
  index: RollTarget,
  tenant: string,
  e: TemporalEntity,
  r: RollupRecord,
): RollCounts {
  const counts: RollCounts = { instances: 0, hours: 0, dropped: 0 };
  const ledger = index.ledger;
  for (const [attr, s] of e.attrs) {
    const to = s.lowerBound(r.raw);
    if (to === 0) continue;
    const roll = rollupOf(e, attr);
    for (const b of hourBuckets(index, s, to)) {
      roll.add(b);
      ledger.touch(tenant, e.id, b.start);
    }
    s.removeRange(0, to);
    counts.instances += to;
    if (s.length === 0) e.attrs.delete(attr);
  }
  for (const roll of e.rollups?.values() ?? []) {
    for (const b of roll.takeAt(roll.before(r.hour, SEGMENT_MS))) {
      const day = dayOf(b.start);
      roll.add({ ...b, start: day, len: DAY_MS });
      ledger.touchKey(tenant, e.id, dayKey(day));
      counts.hours++;
    }
  }
  if (r.drop > 0) counts.dropped += dropBefore(index, tenant, e, r.drop);
  return counts;
}

/** Drops every instance and aggregate of `e` before `t`, touching the graphs it changes. */
function dropBefore(index: RollTarget, tenant: string, e: TemporalEntity, t: number): number {
  let n = 0;
  for (const [attr, s] of e.attrs) {
    const to = s.lowerBound(t);
    for (let i = 0; i < to; i++) index.ledger.touch(tenant, e.id, s.time(i));
    s.removeRange(0, to);
    n += to;
    if (s.length === 0) e.attrs.delete(attr);
  }
  for (const [attr, roll] of e.rollups ?? []) {
    const gone = roll.take(0, roll.lowerBound(t));
    for (const b of gone) index.ledger.touchKey(tenant, e.id, b.len === DAY_MS ? dayKey(b.start) : b.start);
    n += gone.length;
    if (roll.length === 0) e.rollups?.delete(attr);
  }
  return n;
}

function rollupOf(e: TemporalEntity, attr: string): RollupSeries {
  e.rollups ??= new Map();
  let roll = e.rollups.get(attr);
  if (!roll) e.rollups.set(attr, (roll = new RollupSeries()));
  return roll;
}

/** The hourly buckets of rows [0, to) of `s`, one per hour and instance shape, in time order. */
function hourBuckets(index: RollTarget, s: Series, to: number): Bucket[] {
  const out: Bucket[] = [];
  let hour = NaN;
  let open = new Map<number, { b: Bucket; seen: Set<number | string> }>();
  const flush = () => {
    for (const { b, seen } of open.values()) out.push({ ...b, distinct: seen.size });
    open = new Map();
  };
  for (let i = 0; i < to; i++) {
    const h = segmentOf(s.time(i));
    if (h !== hour) {
      flush();
      hour = h;
    }
    const tpl = index.bucketTemplate(s.rest(i));
    let g = open.get(tpl);
    if (!g) open.set(tpl, (g = { b: emptyBucket(h, SEGMENT_MS, tpl), seen: new Set() }));
    const num = s.num(i);
    g.b.count++;
    g.seen.add(Number.isNaN(num) ? index.interner.text(s.rest(i)) : num);
    if (Number.isNaN(num)) continue;
    g.b.numbers++;
    g.b.sum += num;
    g.b.sumsq += num * num;
    g.b.min = Math.min(g.b.min, num);
    g.b.max = Math.max(g.b.max, num);
  }
  flush();
  return out;
}
