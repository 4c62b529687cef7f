import { notFound } from "../../../errors";
import type { HistoryReader } from "../projection/history-reader";
import type { HistoryVersions } from "../projection/history-versions";
import type { Camera, CameraStatBucket, CameraStatus, FlowObservation } from "../models";
import type { TrafficProjection } from "../projection/traffic-projection";

/** docs/rest.md: a camera with no observation for this long shows `inactive` (`CAMERA_STALE_AFTER`). */
export const CAMERA_STALE_AFTER_MS = 15 * 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Local midnight offset of Ho Chi Minh City (UTC+7). */
const LOCAL_OFFSET_MS = 7 * HOUR;

/** Statistics interval (docs/rest.md "Cameras"). */
export type StatInterval = "hour" | "day" | "week";

/** Filters of the camera list. */
export interface CameraFilter {
  zoneId?: string;
  status?: CameraStatus;
}

/** A camera as the faces show it: the stored entity, its effective status and its latest observation. */
export interface CameraView {
  camera: Camera;
  status: CameraStatus;
  lastUpdate: number;
  flow?: FlowObservation;
}

/** The detail statistics of a camera (Camera `statistics`). */
export interface CameraDetailStats {
  /** Share of the last 24 hours (0..100) with observations, in 15-minute slots. */
  uptime24h: number;
  /** Vehicles detected since local midnight. */
  detectionsToday: number;
  /** Mean vehicles per hour over the last 24 hours. */
  avgVehicleCount: number;
}

/**
 * Cameras (docs/rest.md "Cameras"): list by zone (polygon containment) and status, detail
 * with statistics from the temporal history, statistics by hour/day/week.
 */
export class CameraService {
  /** detailStats per flow entity, kept while its history and the minute are the same. */
  private readonly statsMemo = new Map<string, { key: string; stats: CameraDetailStats }>();

  constructor(
    private readonly projection: TrafficProjection,
    private readonly history: HistoryReader,
    private readonly now: () => number = Date.now,
    private readonly versions?: HistoryVersions,
  ) {}

  /** The effective status (docs/rest.md): `error` as stored; an `active` camera silent for 15 min is `inactive`. */
  view(c: Camera, now = this.now()): CameraView {
    const flow = this.projection.flows.get(c.id);
    const lastUpdate = Math.max(c.lastUpdate, flow?.observedAt ?? 0);
    let status = c.storedStatus;
    if (status === "active" && flow && now - lastUpdate > CAMERA_STALE_AFTER_MS) status = "inactive";
    return { camera: c, status, lastUpdate, flow };
  }

  /** GET /cameras: the cameras matching `filter`, a page of them and the total. */
  list(filter: CameraFilter, limit: number, offset: number): { total: number; items: CameraView[] } {
    const now = this.now();
    const all = this.projection.cameraList();
    if (!filter.zoneId && !filter.status) {
      return { total: all.length, items: all.slice(offset, offset + limit).map((c) => this.view(c, now)) };
    }
    const items: CameraView[] = [];
    let total = 0;
    for (const c of all) {
      if (filter.zoneId && c.zoneId !== filter.zoneId) continue;
      const v = this.view(c, now);
      if (filter.status && v.status !== filter.status) continue;
      if (total >= offset && items.length < limit) items.push(v);
      total++;
    }
    return { total, items };
  }

  /** One camera; 404 NOT_FOUND if unknown (its local id or its entity id). */
  get(id: string): CameraView {
    const c =
      this.projection.cameras.get(id) ??
      this.projection.cameras.get(id.replace(/^urn:ngsi-ld:TrafficCamera:/, ""));
    if (!c) throw notFound(`Camera ${id} does not exist`, { camera_id: id });
    return this.view(c);
  }

  /** Camera `statistics` of the detail. */
  detailStats(cameraId: string): CameraDetailStats {
    const now = this.now();
    const flowId = this.projection.flowEntities.get(cameraId);
    if (!flowId) return { uptime24h: 0, detectionsToday: 0, avgVehicleCount: 0 };
    if (!this.versions) return this.computeStats(flowId, now);
    // a new observation changes the version at once; the 24 h window slides by the minute
    const key = `${this.versions.of(flowId)}|${Math.floor(now / 60_000)}`;
    const hit = this.statsMemo.get(flowId);
    if (hit?.key === key) return hit.stats;
    const stats = this.computeStats(flowId, now);
    this.statsMemo.set(flowId, { key, stats });
    return stats;
  }

  private computeStats(flowId: string, now: number): CameraDetailStats {
    const slots = new Set<number>();
    let day = 0;
    this.history.forEach(flowId, "intensity", now - DAY, now + 1, (t, v) => {
      slots.add(Math.floor((t - 1) / 900_000));
      day += v;
    });
    const midnight = Math.floor((now + LOCAL_OFFSET_MS) / DAY) * DAY - LOCAL_OFFSET_MS;
    let today = 0;
    this.history.forEach(flowId, "intensity", midnight, now + 1, (_t, v) => (today += v));
    return {
      uptime24h: Math.round((Math.min(96, slots.size) / 96) * 1000) / 10,
      detectionsToday: Math.round(today),
      avgVehicleCount: Math.round(day / 24),
    };
  }

  /** GET /cameras/{id}/statistics: vehicles, mean speed and accidents per interval. */
  statistics(cameraId: string, from: number, to: number, interval: StatInterval): CameraStatBucket[] {
    const step = interval === "hour" ? HOUR : interval === "day" ? DAY : 7 * DAY;
    const align = (t: number) => Math.floor((t + LOCAL_OFFSET_MS) / step) * step - LOCAL_OFFSET_MS;
    const buckets = new Map<number, { v: number; s: number; n: number; a: number }>();
    const bucket = (t: number) => {
      const k = Math.max(align(t), from);
      let b = buckets.get(k);
      if (!b) buckets.set(k, (b = { v: 0, s: 0, n: 0, a: 0 }));
      return b;
    };
    const flowId = this.projection.flowEntities.get(cameraId);
    if (flowId) {
      this.history.forEach(flowId, "intensity", from, to, (t, v) => (bucket(t).v += v));
      this.history.forEach(flowId, "averageVehicleSpeed", from, to, (t, v) => {
        const b = bucket(t);
        b.s += v;
        b.n++;
      });
    }
    for (const a of this.projection.accidentList()) {
      if (a.cameraId === cameraId && a.timestamp >= from && a.timestamp < to) bucket(a.timestamp).a++;
    }
    const out: CameraStatBucket[] = [];
    for (let k = Math.max(align(from), from); k < to; k = align(k) + step) {
      const b = buckets.get(k);
      out.push({
        start: k,
        vehicleCount: Math.round(b?.v ?? 0),
        avgSpeed: b && b.n ? Math.round((b.s / b.n) * 10) / 10 : 0,
        accidents: b?.a ?? 0,
      });
      if (out.length > 10_000) break;
    }
    return out;
  }
}
