import { clustersDbscan, featureCollection, point } from "@turf/turf";
import { sampleCorrelation } from "simple-statistics";
import { subIndex } from "../traffic/environment/aqi";
import { CITY, type FlowRollup } from "../traffic/flow/flow-rollup";
import type { HistoryReader } from "../traffic/projection/history-reader";
import type { TrafficProjection } from "../traffic/projection/traffic-projection";
import { correlationPValue, significance } from "./student-t";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LOCAL = 7 * HOUR;

/** Metrics of the summary (docs/rest.md "Analytics"). */
export const SUMMARY_METRICS = [
  "total_vehicles",
  "avg_speed",
  "total_accidents",
  "avg_congestion",
  "peak_hours",
] as const;
export type SummaryMetric = (typeof SUMMARY_METRICS)[number];

/** A pattern found in the data. */
export interface Pattern {
  pattern: string;
  timeRange: string;
  frequency: number;
  confidence: number;
  description: string;
  location?: { lat: number; lon: number };
}

/** A correlation between two factors. */
export interface Correlation {
  factor1: string;
  factor2: string;
  r: number;
  p: number;
  significance: "high" | "medium" | "low" | "none";
  n: number;
}

const hh = (h: number) => `${String(h).padStart(2, "0")}:00`;
const localHour = (t: number) => Math.floor(((t + LOCAL) % DAY) / HOUR);
const localDay = (t: number) => Math.floor((t + LOCAL) / DAY);
const isWeekend = (t: number) => [0, 6].includes(new Date(t + LOCAL).getUTCDay());

/**
 * Analytics (docs/rest.md "Analytics") over the pre-aggregated flow (FlowRollup), the
 * accidents and the weather and air-quality history: every figure computed from the graph's data.
 */
export class AnalyticsService {
  constructor(
    private readonly projection: TrafficProjection,
    private readonly rollup: FlowRollup,
    private readonly history: HistoryReader,
  ) {}

  /** summary over [from, to). */
  summary(
    from: number,
    to: number,
    metrics: readonly SummaryMetric[],
  ): Partial<Record<SummaryMetric, unknown>> {
    const buckets = this.rollup.buckets(CITY, from, to);
    let vehicles = 0;
    let speed = 0;
    let ratio = 0;
    let n = 0;
    const byHour = new Array<number>(24).fill(0);
    for (const b of buckets) {
      vehicles += b.vehicles;
      speed += b.speedSum;
      ratio += b.ratioSum;
      n += b.n;
      byHour[localHour(b.start)] += b.vehicles;
    }
    const out: Partial<Record<SummaryMetric, unknown>> = {};
    const want = new Set(metrics);
    if (want.has("total_vehicles")) out.total_vehicles = Math.round(vehicles);
    if (want.has("avg_speed")) out.avg_speed = n ? round(speed / n, 1) : 0;
    if (want.has("avg_congestion")) out.avg_congestion = n ? round(100 * (1 - ratio / n), 1) : 0;
    if (want.has("total_accidents")) {
      out.total_accidents = this.projection
        .accidentList()
        .filter((a) => a.timestamp >= from && a.timestamp < to).length;
    }
    if (want.has("peak_hours")) {
      out.peak_hours = byHour
        .map((v, h) => ({ v, h }))
        .filter((x) => x.v > 0)
        .sort((a, b) => b.v - a.v)
        .slice(0, 3)
        .sort((a, b) => a.h - b.h)
        .map((x) => `${hh(x.h)}-${hh((x.h + 1) % 24)}`);
    }
    return out;
  }

  /** temporal patterns: peak hours of weekdays and weekends. */
  temporal(from: number, to: number): Pattern[] {
    const perDay = new Map<number, { weekend: boolean; hours: number[] }>();
    for (const b of this.rollup.buckets(CITY, from, to)) {
      const d = localDay(b.start);
      let x = perDay.get(d);
      if (!x) perDay.set(d, (x = { weekend: isWeekend(b.start), hours: new Array<number>(24).fill(0) }));
      x.hours[localHour(b.start)] += b.vehicles;
    }
    const out: Pattern[] = [];
    for (const weekend of [false, true]) {
      const days = [...perDay.values()].filter(
        (x) => x.weekend === weekend && x.hours.filter((v) => v > 0).length >= 20,
      );
      if (days.length === 0) continue;
      const mean = new Array<number>(24)
        .fill(0)
        .map((_, h) => days.reduce((a, d) => a + d.hours[h], 0) / days.length);
      const daily = mean.reduce((a, b) => a + b, 0) / 24;
      const peak = mean.map((v) => v > 1.3 * daily);
      for (let h = 0; h < 24; h++) {
        if (!peak[h] || (h > 0 && peak[h - 1])) continue;
        let e = h;
        while (e + 1 < 24 && peak[e + 1]) e++;
        // how often the range was a peak on a single day, and how steady its volume was
        const hits = days.filter((d) => {
          const dm = d.hours.reduce((a, b) => a + b, 0) / 24;
          let s = 0;
          for (let k = h; k <= e; k++) s += d.hours[k];
          return s / (e - h + 1) > 1.3 * dm;
        }).length;
        const vals = days.map((d) => d.hours.slice(h, e + 1).reduce((a, b) => a + b, 0));
        const m = vals.reduce((a, b) => a + b, 0) / vals.length;
        const sd = Math.sqrt(vals.reduce((a, v) => a + (v - m) ** 2, 0) / vals.length);
        const ratio = mean.slice(h, e + 1).reduce((a, b) => a + b, 0) / (e - h + 1) / daily;
        out.push({
          pattern: weekend ? "weekend_peak" : "weekday_peak",
          timeRange: `${hh(h)}-${hh((e + 1) % 24)}`,
          frequency: round(hits / days.length, 2),
          confidence: round(Math.max(0, Math.min(1, 1 - sd / (m || 1))) * Math.min(1, days.length / 5), 2),
          description: `${weekend ? "Weekend" : "Weekday"} traffic ${hh(h)}-${hh((e + 1) % 24)} is ${ratio.toFixed(1)}x the daily hourly mean (${days.length} days)`,
        });
      }
    }
    return out;
  }

  /** spatial patterns: accident hotspots (DBSCAN, 500 m, at least 3 accidents). */
  spatial(from: number, to: number): Pattern[] {
    const acc = this.projection.accidentList().filter((a) => a.timestamp >= from && a.timestamp < to);
    if (acc.length < 3) return [];
    const fc = clustersDbscan(
      featureCollection(
        acc.map((a) => point([a.location.lon, a.location.lat], { zone: a.zoneId, t: a.timestamp })),
      ),
      0.5,
      { minPoints: 3 },
    );
    const groups = new Map<number, { lon: number; lat: number; zone?: string; t: number }[]>();
    for (const f of fc.features) {
      const p = f.properties as { cluster?: number; dbscan?: string; zone?: string; t: number };
      if (p.cluster === undefined || p.dbscan === "noise") continue;
      const g = groups.get(p.cluster) ?? [];
      const [lon, lat] = f.geometry.coordinates;
      g.push({ lon, lat, zone: p.zone, t: p.t });
      groups.set(p.cluster, g);
    }
    const days = Math.max(1, (to - from) / DAY);
    return [...groups.values()]
      .sort((a, b) => b.length - a.length)
      .map((g) => {
        const lat = g.reduce((s, x) => s + x.lat, 0) / g.length;
        const lon = g.reduce((s, x) => s + x.lon, 0) / g.length;
        const zone = g[0].zone ? this.projection.zones.get(g[0].zone)?.name : undefined;
        const hours = new Array<number>(24).fill(0);
        for (const x of g) hours[localHour(x.t)]++;
        const top = hours.indexOf(Math.max(...hours));
        return {
          pattern: "accident_hotspot",
          timeRange: `${hh(top)}-${hh((top + 1) % 24)}`,
          frequency: round(g.length / days, 3),
          confidence: round(1 - Math.exp(-g.length / 5), 2),
          description: `${g.length} accidents within 500 m${zone ? ` in ${zone}` : ""}; most at ${hh(top)}`,
          location: { lat: round(lat, 6), lon: round(lon, 6) },
        };
      });
  }

  /** correlations between hourly factors over [from, to). */
  correlations(from: number, to: number): Correlation[] {
    const hours = Math.max(0, Math.floor((to - from) / HOUR));
    const start = Math.floor(from / HOUR) * HOUR;
    const f: Record<string, number[]> = {
      rain: this.stationMean("weather", "precipitation", start, hours),
      temperature: this.stationMean("weather", "temperature", start, hours),
      aqi: this.stationMean("air", "pm25", start, hours).map((v) =>
        Number.isFinite(v) ? subIndex("pm25", v) : NaN,
      ),
      speed: new Array<number>(hours).fill(NaN),
      vehicle_count: new Array<number>(hours).fill(NaN),
      accidents: new Array<number>(hours).fill(0),
    };
    const sp = new Array<[number, number]>(hours).fill([0, 0]).map(() => [0, 0] as [number, number]);
    for (const b of this.rollup.buckets(CITY, start, start + hours * HOUR)) {
      const i = Math.floor((b.start - start) / HOUR);
      f.vehicle_count[i] = (Number.isFinite(f.vehicle_count[i]) ? f.vehicle_count[i] : 0) + b.vehicles;
      sp[i][0] += b.speedSum;
      sp[i][1] += b.n;
    }
    sp.forEach(([s, n], i) => (f.speed[i] = n ? s / n : NaN));
    for (const a of this.projection.accidentList()) {
      const i = Math.floor((a.timestamp - start) / HOUR);
      if (i >= 0 && i < hours) f.accidents[i]++;
    }
    const names = Object.keys(f);
    const out: Correlation[] = [];
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const x: number[] = [];
        const y: number[] = [];
        for (let k = 0; k < hours; k++) {
          const a = f[names[i]][k];
          const b = f[names[j]][k];
          if (Number.isFinite(a) && Number.isFinite(b) && Number.isFinite(f.vehicle_count[k])) {
            x.push(a);
            y.push(b);
          }
        }
        let r = x.length >= 3 ? sampleCorrelation(x, y) : NaN;
        if (!Number.isFinite(r)) r = 0;
        const p = x.length >= 3 ? correlationPValue(r, x.length) : 1;
        out.push({
          factor1: names[i],
          factor2: names[j],
          r: round(r, 3),
          p: roundSig(p),
          significance: significance(p),
          n: x.length,
        });
      }
    }
    return out;
  }

  /** Hourly mean of `term` over every weather or air-quality station. */
  private stationMean(kind: "weather" | "air", term: string, start: number, hours: number): number[] {
    const sum = new Float64Array(hours);
    const n = new Float64Array(hours);
    const ids =
      kind === "weather"
        ? [...this.projection.weather.keys()]
        : [...this.projection.airQuality.values()].map((s) => s.entityId);
    for (const id of ids) {
      this.history.forEach(id, term, start, start + hours * HOUR, (t, v) => {
        const i = Math.floor((t - start) / HOUR);
        sum[i] += v;
        n[i]++;
      });
    }
    return Array.from(sum, (s, i) => (n[i] ? s / n[i] : NaN));
  }
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
const roundSig = (p: number) => (p === 0 ? 0 : Number(p.toPrecision(4)));
