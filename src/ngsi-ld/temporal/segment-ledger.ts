/** Length of one history segment: an hour. */
export const SEGMENT_MS = 3_600_000;

/** Start (epoch ms) of the segment holding time `t`. */
export const segmentOf = (t: number): number => Math.floor(t / SEGMENT_MS) * SEGMENT_MS;

/** One segment whose graph copy may differ from the history: `v` counts the changes it saw. */
export interface DirtySegment {
  tenant: string;
  entity: string;
  /** Segment start (epoch ms). */
  start: number;
  v: number;
  /** Wall-clock time (ms) of its last change. */
  touched: number;
}

/** The dirty segments of one entity: segment start -> version and wall-clock time (ms) of its last change. */
export type DirtyHours = ReadonlyMap<number, { readonly v: number; readonly touched: number }>;

/**
 * The segments of the temporal history whose sealed graph copy is not current (layout in
 * docs/architecture.md "Temporal history in the graph"). Every change of the history {@link touch}es the
 * segment of each instance it adds, changes or removes, counting up its version; sealing the segment into
 * the graph records the version it read, and the segment is clean again only if nothing touched it
 * meanwhile ({@link sealed}). The counts are a function of the history log's records, so replaying the
 * log rebuilds the same ledger and a seal recorded before a later change never hides that change.
 * Clean segments are not kept: only what still needs sealing costs memory.
 */
export class SegmentLedger {
  private readonly tenants = new Map<string, Map<string, Map<number, { v: number; touched: number }>>>();

  /** Marks the segment holding time `t` of entity `e` changed. */
  touch(tenant: string, e: string, t: number, now = Date.now()): void {
    this.touchKey(tenant, e, segmentOf(t), now);
  }

  /** Marks the segment of key `h` changed: an hour's start, or a day graph's key (rollup.ts `dayKey`). */
  touchKey(tenant: string, e: string, h: number, now = Date.now()): void {
    const hours = this.hours(tenant, e);
    const s = hours.get(h);
    if (s) {
      s.v++;
      s.touched = now;
    } else hours.set(h, { v: 1, touched: now });
  }

  /** The segment was sealed as of version `v`: clean unless touched since. */
  sealed(tenant: string, e: string, start: number, v: number): void {
    const hours = this.tenants.get(tenant)?.get(e);
    if (hours?.get(start)?.v !== v) return;
    hours.delete(start);
    if (hours.size === 0) this.tenants.get(tenant)?.delete(e);
  }

  /** Sets the dirty segments of `e` to exactly `hs` ([start, version] pairs; from a log snapshot). */
  set(tenant: string, e: string, hs: [number, number][], now = Date.now()): void {
    const map = this.tenants.get(tenant);
    if (hs.length === 0) {
      map?.delete(e);
      return;
    }
    this.tenants.set(tenant, map ?? new Map());
    this.tenants.get(tenant)!.set(e, new Map(hs.map(([h, v]) => [h, { v, touched: now }])));
  }

  /** The dirty segments of `e` as [start, version] pairs. */
  of(tenant: string, e: string): [number, number][] {
    return [...(this.tenants.get(tenant)?.get(e) ?? [])].map(([h, s]) => [h, s.v]);
  }

  /** Entities with dirty segments, per tenant. */
  *entities(): Generator<[string, string]> {
    for (const [t, m] of this.tenants) for (const e of m.keys()) yield [t, e];
  }

  /**
   * Every entity with dirty segments, with its segments (hour start -> version and wall-clock time of the
   * last change). The map is the ledger's own, read it before yielding to other work; one small tuple per
   * entity and none per segment, so a sweep over every entity allocates little (docs/decisions/0009-query-tail.md).
   */
  *byEntity(): Generator<[tenant: string, entity: string, hours: DirtyHours]> {
    for (const [tenant, m] of this.tenants) for (const [entity, hours] of m) yield [tenant, entity, hours];
  }

  /** Every dirty segment. */
  *dirty(): Generator<DirtySegment> {
    for (const [tenant, m] of this.tenants) {
      for (const [entity, hours] of m) {
        for (const [start, s] of hours) yield { tenant, entity, start, v: s.v, touched: s.touched };
      }
    }
  }

  /** Number of dirty segments. */
  get size(): number {
    let n = 0;
    for (const m of this.tenants.values()) for (const h of m.values()) n += h.size;
    return n;
  }

  private hours(tenant: string, e: string): Map<number, { v: number; touched: number }> {
    let m = this.tenants.get(tenant);
    if (!m) this.tenants.set(tenant, (m = new Map()));
    let h = m.get(e);
    if (!h) m.set(e, (h = new Map()));
    return h;
  }
}
