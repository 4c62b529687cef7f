import type { HistoryReader } from "../projection/history-reader";
import type { TrafficProjection } from "../projection/traffic-projection";

/** Width of a rollup bucket: 15 minutes (the forecast's step and the finest statistic). */
export const BUCKET_MS = 15 * 60_000;
/** The key of the city-wide rollup. */
export const CITY = "*";

/** Sums of the flow observations of one bucket. */
export interface Bucket {
  start: number;
  /** Vehicles counted. */
  vehicles: number;
  /** Sum and number of the observations' average speeds. */
  speedSum: number;
  n: number;
  /** Sum of speed / free-flow speed. */
  ratioSum: number;
}

/**
 * Pre-aggregated flow, fed by the change feed rather than a scan per request:
 * 15-minute buckets of vehicle counts and speeds per zone and city-wide, filled once from the temporal
 * history at start, then by every new flow observation the projection sees. Like the projection, a
 * cache of the graph's history: rebuilt the same way after a restart. Also keeps each camera's
 * free-flow speed (the fastest speed it has observed), against which congestion is measured.
 */
export class FlowRollup {
  private readonly zones = new Map<string, Map<number, Bucket>>();
  private readonly lastRolled = new Map<string, number>();
  readonly freeFlow = new Map<string, number>();

  constructor(private readonly projection: TrafficProjection) {
    projection.onFlow((f) => this.add(f.cameraId, f.observedAt, f.intensity, f.averageSpeed));
  }

  /**
   * Rolls up the history of every camera with a flow entity (start-up): first the hourly and daily
   * aggregates retention kept of the instances past the raw window (each in the 15-minute bucket of its
   * start: totals over a period stay exact, the shape inside an hour or a day is not kept), then the raw
   * instances.
   */
  fillFrom(history: HistoryReader, until = Date.now()): void {
    for (const [cam, entity] of this.projection.flowEntities) {
      const speedAggs = history.aggregates(entity, "averageVehicleSpeed");
      for (const a of speedAggs) this.freeFlow.set(cam, Math.max(this.freeFlow.get(cam) ?? 0, a.max));
      const bySpeed = new Map(speedAggs.map((a) => [`${a.start}/${a.len}`, a]));
      for (const c of history.aggregates(entity, "intensity")) {
        const sp = bySpeed.get(`${c.start}/${c.len}`);
        this.addSums(cam, c.start + 1, c.sum, sp?.sum ?? 0, sp?.n ?? 0);
      }
    }
    for (const [cam, entity] of this.projection.flowEntities) {
      const speeds = history.samples(entity, "averageVehicleSpeed", 0, until + 1);
      for (const s of speeds) this.freeFlow.set(cam, Math.max(this.freeFlow.get(cam) ?? 0, s.v));
      const counts = history.samples(entity, "intensity", 0, until + 1);
      let j = 0;
      for (const c of counts) {
        while (j < speeds.length && speeds[j].t < c.t) j++;
        const sp = j < speeds.length && speeds[j].t === c.t ? speeds[j].v : NaN;
        this.add(cam, c.t, c.v, sp);
      }
    }
  }

  /** Adds one observation (ignored when not newer than the camera's last one rolled up). */
  add(cameraId: string, t: number, vehicles: number, speed: number): void {
    if (t <= (this.lastRolled.get(cameraId) ?? -Infinity)) return;
    this.lastRolled.set(cameraId, t);
    if (Number.isFinite(speed))
      this.freeFlow.set(cameraId, Math.max(this.freeFlow.get(cameraId) ?? 0, speed));
    this.addSums(cameraId, t, vehicles, Number.isFinite(speed) ? speed : 0, Number.isFinite(speed) ? 1 : 0);
  }

  /** Adds `vehicles` and `n` speeds summing to `speedSum` to the bucket ending at or after `t`. */
  private addSums(cameraId: string, t: number, vehicles: number, speedSum: number, n: number): void {
    const ff = this.freeFlow.get(cameraId) ?? 0;
    const start = Math.floor((t - 1) / BUCKET_MS) * BUCKET_MS; // an observation ending at :15 belongs to :00-:15
    const zone = this.projection.cameras.get(cameraId)?.zoneId;
    for (const key of zone ? [CITY, zone] : [CITY]) {
      let m = this.zones.get(key);
      if (!m) this.zones.set(key, (m = new Map()));
      let b = m.get(start);
      if (!b) m.set(start, (b = { start, vehicles: 0, speedSum: 0, n: 0, ratioSum: 0 }));
      b.vehicles += vehicles;
      if (n > 0) {
        b.speedSum += speedSum;
        b.n += n;
        b.ratioSum += n * (ff > 0 ? Math.min(1, speedSum / n / ff) : 1);
      }
    }
  }

  /** Buckets of `zone` (or CITY) with from <= start < to, in time order. */
  buckets(zone: string, from: number, to: number): Bucket[] {
    const m = this.zones.get(zone);
    if (!m) return [];
    const out: Bucket[] = [];
    const first = Math.floor(from / BUCKET_MS) * BUCKET_MS;
    // walk the bucket grid when it is shorter than the map, else filter the map
    if ((to - first) / BUCKET_MS < m.size) {
      for (let s = first; s < to; s += BUCKET_MS) {
        const b = m.get(s);
        if (b && s >= from) out.push(b);
      }
    } else {
      for (const b of m.values()) if (b.start >= from && b.start < to) out.push(b);
      out.sort((a, b) => a.start - b.start);
    }
    return out;
  }

  /** The mean speed per bucket of `zone` as a regular series from `from` to `to` (NaN where empty). */
  speedSeries(zone: string, from: number, to: number): { start: number; values: number[] } {
    const first = Math.floor(from / BUCKET_MS) * BUCKET_MS;
    const values: number[] = [];
    const m = this.zones.get(zone);
    for (let s = first; s < to; s += BUCKET_MS) {
      const b = m?.get(s);
      values.push(b && b.n > 0 ? b.speedSum / b.n : NaN);
    }
    return { start: first, values };
  }

  /** Free-flow speed of a zone: the mean of its cameras' free-flow speeds. */
  zoneFreeFlow(cameraIds: readonly string[]): number {
    let s = 0;
    let n = 0;
    for (const id of cameraIds) {
      const f = this.freeFlow.get(id);
      if (f) {
        s += f;
        n++;
      }
    }
    return n ? s / n : 0;
  }

  /** The first bucket start held for `zone`, or undefined. */
  firstBucket(zone: string): number | undefined {
    const m = this.zones.get(zone);
    if (!m) return undefined;
    let min = Infinity;
    for (const k of m.keys()) if (k < min) min = k;
    return Number.isFinite(min) ? min : undefined;
  }
}
