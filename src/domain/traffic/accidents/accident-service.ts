import { notFound } from "../../../errors";
import type { AlertLog } from "./alert-log";
import type { HistoryReader } from "../projection/history-reader";
import type { Accident, AccidentStatus, Severity, TimelineEvent } from "../models";
import type { TrafficProjection } from "../projection/traffic-projection";

/** Filters of the accident list. */
export interface AccidentFilter {
  from?: number;
  to?: number;
  severity?: Severity;
  zoneId?: string;
  status?: AccidentStatus;
}

/** Writes an accident's status back into the graph (through the NGSI-LD entity service). */
export type AccidentStatusWriter = (entityId: string, status: AccidentStatus, at: number) => Promise<void>;

/**
 * Accidents (docs/rest.md "Accidents"): list with filters, detail with a timeline built from
 * the entity's temporal history and the delivered notifications, and the operators' status change
 * (docs/rest.md).
 */
export class AccidentService {
  constructor(
    private readonly projection: TrafficProjection,
    private readonly history: HistoryReader,
    private readonly writeStatus: AccidentStatusWriter,
    private readonly alerts: AlertLog,
    private readonly now: () => number = Date.now,
  ) {}

  /** GET /accidents: newest first. */
  list(filter: AccidentFilter, limit: number, offset: number): { total: number; items: Accident[] } {
    const items: Accident[] = [];
    let total = 0;
    for (const a of this.projection.accidentList()) {
      if (!matches(a, filter)) continue;
      if (total >= offset && items.length < limit) items.push(a);
      total++;
    }
    return { total, items };
  }

  /** Accidents matching `filter` (unpaged, newest first). */
  all(filter: AccidentFilter = {}): Accident[] {
    return this.projection.accidentList().filter((a) => matches(a, filter));
  }

  /** One accident; 404 NOT_FOUND if unknown. */
  get(id: string): Accident {
    const a = this.projection.accidents.get(id.replace(/^urn:ngsi-ld:TrafficAccident:/, ""));
    if (!a) throw notFound(`Accident ${id} does not exist`, { accident_id: id });
    return a;
  }

  /**
   * The timeline of an accident: `detected` at its timestamp, then every status it took (from the
   * history of its `status` attribute), `resolved` when it was resolved.
   */
  timeline(a: Accident): TimelineEvent[] {
    const events: TimelineEvent[] = [
      {
        timestamp: a.timestamp,
        event: "detected",
        description: `Detected by ${a.detectionMethod}${a.cameraId ? ` at camera ${a.cameraId}` : ""} (confidence ${a.confidence})`,
        source: a.detectionMethod,
      },
    ];
    let last: unknown = undefined;
    for (const i of this.history.instances(a.entityId, "status")) {
      if (i.deleted || i.value === last) continue;
      const first = last === undefined;
      last = i.value;
      if (first && i.value === "active") continue;
      const status = String(i.value);
      events.push({
        timestamp: i.modified,
        event:
          status === "resolved"
            ? "resolved"
            : status === "investigating"
              ? "investigating"
              : status === "active"
                ? "active"
                : "status_changed",
        description: status === "resolved" ? "Accident resolved" : `Status changed to ${status}`,
        source: "status",
      });
    }
    const alert = this.alerts.firstAlert(a.entityId);
    if (alert) {
      events.push({
        timestamp: alert.at,
        event: "alert_sent",
        description: `Alert sent (subscription ${alert.via})`,
        source: "notification",
      });
    }
    if (a.status === "resolved" && !events.some((e) => e.event === "resolved")) {
      events.push({
        timestamp: a.resolvedAt ?? a.timestamp,
        event: "resolved",
        description: "Accident resolved",
        source: "status",
      });
    }
    return events.sort((x, y) => x.timestamp - y.timestamp);
  }

  /** docs/rest.md: operators set `status`; each change adds a timeline event. Returns the accident after. */
  async setStatus(id: string, status: AccidentStatus): Promise<Accident> {
    const a = this.get(id);
    if (a.status !== status) await this.writeStatus(a.entityId, status, this.now());
    return this.get(id);
  }
}

function matches(a: Accident, f: AccidentFilter): boolean {
  if (f.from !== undefined && a.timestamp < f.from) return false;
  if (f.to !== undefined && a.timestamp > f.to) return false;
  if (f.severity && a.severity !== f.severity) return false;
  if (f.zoneId && a.zoneId !== f.zoneId) return false;
  if (f.status && a.status !== f.status) return false;
  return true;
}
