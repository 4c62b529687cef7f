import type { Entity } from "../../ngsi-ld/model/entity";
import { GraphAccess, valueOf } from "../graph-access";
import { reportOf } from "./report-entity";
import type { CitizenReport, ReportType } from "./report-model";

/** Verification looks 500 m and 30 minutes around a report for evidence (docs/reports-and-alerts.md). */
export const EVIDENCE_METRES = 500;
export const EVIDENCE_WINDOW_MS = 30 * 60_000;
/** A report this close in space and time to an open one of the same kind is its duplicate (200 m, 30 min). */
export const DUPLICATE_METRES = 200;
export const DUPLICATE_WINDOW_MS = 30 * 60_000;

const timeOf = (e: Entity, name: string): number => {
  const v = valueOf(e, name);
  return typeof v === "string" ? Date.parse(v) : NaN;
};

/** What lies near a report in space and time: accidents and other reports, from the geo index. */
export class ReportNeighbours {
  constructor(private readonly graph: GraphAccess) {}

  /** TrafficAccidents within `metres` whose `timestamp` is within `windowMs` of `at`. */
  async accidents(lon: number, lat: number, at: number, metres: number, windowMs: number): Promise<Entity[]> {
    const near = await this.graph.select({ type: "TrafficAccident", near: { lon, lat, metres } });
    return near.filter((a) => Math.abs(timeOf(a, "timestamp") - at) <= windowMs);
  }

  /** Accidents seen by a camera (not made from citizen reports). */
  async cameraDetections(lon: number, lat: number, at: number): Promise<Entity[]> {
    const list = await this.accidents(lon, lat, at, EVIDENCE_METRES, EVIDENCE_WINDOW_MS);
    return list.filter((a) => valueOf(a, "detectionMethod") !== "citizen_report");
  }

  /** CitizenReports within `metres` reported within `windowMs` of `at`, of `type` when given. */
  async reports(
    lon: number,
    lat: number,
    at: number,
    metres: number,
    windowMs: number,
    type?: ReportType,
  ): Promise<CitizenReport[]> {
    const near = await this.graph.select({ type: "CitizenReport", near: { lon, lat, metres } });
    return near
      .map(reportOf)
      .filter((r) => Math.abs(Date.parse(r.reportedAt) - at) <= windowMs && (!type || r.type === type));
  }

  /**
   * The open report or active accident a new report of `type` at (lon, lat, at) repeats: the nearest
   * within 200 m and 30 minutes (a report that is itself a duplicate points at its original). Undefined
   * when there is none.
   */
  async duplicateOf(type: ReportType, lon: number, lat: number, at: number): Promise<string | undefined> {
    if (type === "accident") {
      const acc = await this.accidents(lon, lat, at, DUPLICATE_METRES, DUPLICATE_WINDOW_MS);
      const open = acc.find((a) => valueOf(a, "status") !== "resolved");
      if (open) return open.id;
    }
    const reports = await this.reports(lon, lat, at, DUPLICATE_METRES, DUPLICATE_WINDOW_MS, type);
    const open = reports
      .filter((r) => r.status === "pending" || r.status === "verified")
      .sort((a, b) => Date.parse(a.reportedAt) - Date.parse(b.reportedAt))[0];
    return open ? (open.duplicateOf ?? open.entityId) : undefined;
  }
}
