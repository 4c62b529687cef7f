import type { LiveBus } from "../../events/live-bus";
import type { LiveEvent, ZoneTrafficEventData } from "../../events/live-event";
import type { ChangeEvent } from "../../events/change-event";
import type { AccidentState, LiveModel } from "./live-model";

/**
 * Turns committed entity changes into live events (docs/design.md "One change feed"), as a derived stage of the commit pipeline that runs after the traffic model's own stage:
 * - an accident created, or its severity or status changed -> `accidents`;
 * - a new weather observation -> `weather`;
 * - a flow observation (or an accident) touching a zone -> that zone's state is recomputed from its
 *   cameras (not the city's) and published on `traffic` when it differs from the last one published.
 */
export class LiveProducer {
  private readonly lastZone = new Map<string, string>();

  constructor(
    private readonly model: LiveModel,
    private readonly bus: LiveBus,
    private readonly tenant = "",
  ) {}

  /** The change-feed listener. */
  apply(event: ChangeEvent): void {
    if (event.tenant !== this.tenant) return;
    const change = event.change;
    if (!change) return;
    const zones = new Set<string>();
    for (const [id, after] of change.after) {
      if (after === null) continue;
      const before = change.before.get(id);
      const acc = this.model.accident(after, change.ctx);
      if (acc) {
        this.accident(acc, before ? this.model.accident(before, change.ctx) : undefined);
        if (acc.zoneId) zones.add(acc.zoneId);
        continue;
      }
      const w = this.model.weather(after, change.ctx);
      if (w) {
        const old = before ? this.model.weather(before, change.ctx) : undefined;
        if (!old || old.at !== w.at)
          this.publish({ channel: "weather", tenant: this.tenant, at: iso(w.at), data: w.data });
        continue;
      }
      const zone = this.model.flowZone(after, change.ctx);
      if (zone) zones.add(zone);
    }
    for (const z of zones) this.zone(z);
  }

  private accident(now: AccidentState, before: AccidentState | undefined): void {
    const at = new Date().toISOString();
    const base = { channel: "accidents" as const, tenant: this.tenant, at };
    if (!before) return this.publish({ ...base, data: { ...now, change: "created" } });
    if (before.severity !== now.severity) {
      this.publish({
        ...base,
        data: { ...now, change: "severity_changed", previousSeverity: before.severity },
      });
    }
    if (before.status !== now.status) {
      this.publish({ ...base, data: { ...now, change: "status_changed", previousStatus: before.status } });
    }
  }

  private zone(zoneId: string): void {
    const s = this.model.zoneState(zoneId);
    if (!s) return;
    const sig = signature(s.data);
    if (this.lastZone.get(zoneId) === sig) return;
    this.lastZone.set(zoneId, sig);
    this.publish({ channel: "traffic", tenant: this.tenant, at: iso(s.at), data: s.data });
  }

  private publish(e: LiveEvent): void {
    this.bus.publish(e);
  }
}

/** What makes a zone's state different for its subscribers. */
function signature(d: ZoneTrafficEventData): string {
  return `${d.congestionLevel}|${d.congestionIndex}|${d.avgSpeed.toFixed(1)}|${d.vehicleCount}|${d.incidentCount}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
