import { CITY, BUCKET_MS, type FlowRollup } from "./flow-rollup";
import type { HistoryReader } from "../projection/history-reader";
import type { TrafficProjection } from "../projection/traffic-projection";

const HOUR = 3_600_000;
/** Ho Chi Minh City is UTC+7 all year: peak hours are named in local time. */
const LOCAL_OFFSET_MS = 7 * HOUR;
/**
 * Below this ratio of speed to free-flow speed a period counts as congested: the `moderate` band and
 * worse of {@link congestionLevel} (the same threshold as the congested areas).
 */
export const CONGESTED_RATIO = 0.7;

/** A camera's figures over a period (variant B camera stats). */
export interface CameraPeriodStats {
  totalVehicles: number;
  avgSpeed: number;
  /** Local hour ("HH:00-HH:00") with the most vehicles; null without observations. */
  peakHour: string | null;
  /** Minutes observed below {@link CONGESTED_RATIO} of the camera's free-flow speed. */
  congestionMinutes: number;
  accidents: number;
}

/** A zone's figures over a period (variant B zone analytics). */
export interface ZonePeriodStats {
  totalVehicles: number;
  avgSpeed: number;
  /** The busiest hour: its start and the vehicles counted in it; null without observations. */
  peakTraffic: { time: number; intensity: number } | null;
  accidents: number;
  /** Hours whose 15-minute buckets averaged below {@link CONGESTED_RATIO} of free flow. */
  congestionHours: number;
}

const hh = (h: number) => `${String(h).padStart(2, "0")}:00`;
const localHour = (t: number) =>
  Math.floor(((((t + LOCAL_OFFSET_MS) % 86_400_000) + 86_400_000) % 86_400_000) / HOUR);
const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Figures over a period for one camera (from its temporal history) or one zone (from the 15-minute
 * flow rollup, so a month costs a few thousand buckets, not a scan of every observation).
 */
export class PeriodStats {
  constructor(
    private readonly projection: TrafficProjection,
    private readonly history: HistoryReader,
    private readonly rollup: FlowRollup,
  ) {}

  /** §2 Camera stats (B) over [from, to). */
  camera(cameraId: string, from: number, to: number): CameraPeriodStats {
    const flowId = this.projection.flowEntities.get(cameraId);
    let vehicles = 0;
    let speedSum = 0;
    let speedN = 0;
    let congestedMs = 0;
    const byHour = new Array<number>(24).fill(0);
    if (flowId) {
      const freeFlow = this.rollup.freeFlow.get(cameraId) ?? 0;
      this.history.forEach(flowId, "intensity", from, to, (t, v) => {
        vehicles += v;
        byHour[localHour(t - 1)] += v;
      });
      let prev: number | undefined;
      this.history.forEach(flowId, "averageVehicleSpeed", from, to, (t, v) => {
        speedSum += v;
        speedN++;
        // an observation covers the time since the one before it (a minute for the first)
        const span = prev === undefined ? 60_000 : Math.min(t - prev, BUCKET_MS);
        if (freeFlow > 0 && v / freeFlow < CONGESTED_RATIO) congestedMs += span;
        prev = t;
      });
    }
    const peak = Math.max(...byHour);
    const h = byHour.indexOf(peak);
    let accidents = 0;
    for (const a of this.projection.accidentList()) {
      if (a.cameraId === cameraId && a.timestamp >= from && a.timestamp < to) accidents++;
    }
    return {
      totalVehicles: Math.round(vehicles),
      avgSpeed: speedN ? round1(speedSum / speedN) : 0,
      peakHour: peak > 0 ? `${hh(h)}-${hh((h + 1) % 24)}` : null,
      congestionMinutes: Math.round(congestedMs / 60_000),
      accidents,
    };
  }

  /** §2 Zone analytics (B) over [from, to); `zoneId` undefined = the whole city. */
  zone(zoneId: string | undefined, from: number, to: number): ZonePeriodStats {
    const buckets = this.rollup.buckets(zoneId ?? CITY, from, to);
    let vehicles = 0;
    let speedSum = 0;
    let speedN = 0;
    let congestedBuckets = 0;
    const hours = new Map<number, number>();
    for (const b of buckets) {
      vehicles += b.vehicles;
      speedSum += b.speedSum;
      speedN += b.n;
      if (b.n > 0 && b.ratioSum / b.n < CONGESTED_RATIO) congestedBuckets++;
      const h = Math.floor(b.start / HOUR) * HOUR;
      hours.set(h, (hours.get(h) ?? 0) + b.vehicles);
    }
    let peak: { time: number; intensity: number } | null = null;
    for (const [time, v] of hours) {
      if (!peak || v > peak.intensity || (v === peak.intensity && time < peak.time))
        peak = { time, intensity: v };
    }
    let accidents = 0;
    for (const a of this.projection.accidentList()) {
      if ((zoneId === undefined || a.zoneId === zoneId) && a.timestamp >= from && a.timestamp < to)
        accidents++;
    }
    return {
      totalVehicles: Math.round(vehicles),
      avgSpeed: speedN ? round1(speedSum / speedN) : 0,
      peakTraffic:
        peak && peak.intensity > 0 ? { time: peak.time, intensity: Math.round(peak.intensity) } : null,
      accidents,
      congestionHours: (congestedBuckets * BUCKET_MS) / HOUR,
    };
  }
}
