import type { LiveEvent, LiveSeverity } from "../../events/live-event";
import type { LiveReplay, ReplayResult } from "../../events/live-replay";
import type { LiveFilter } from "../../events/subscriber-index";
import type { Entity } from "../../ngsi-ld/model/entity";
import type { Series } from "../../ngsi-ld/temporal/series";
import type { TemporalIndex } from "../../ngsi-ld/temporal/temporal-index";
import type { CompiledContext } from "../../rdf/contexts/compiled-context";
import { TRAFFIC_NS } from "../vocabulary";
import type { AccidentState, LiveModel } from "./live-model";

const ACCIDENT_TYPE = `${TRAFFIC_NS}TrafficAccident`;
const SEVERITY = `${TRAFFIC_NS}severity`;
const STATUS = "https://uri.etsi.org/ngsi-ld/status";

/** Reads current entities by id (the traffic context). */
export type ReadEntities = (
  tenant: string,
  ids: string[],
) => Promise<{ entities: Entity[]; ctx: CompiledContext }>;

/**
 * The replay of a resuming subscriber (`since`), from the graph's temporal history:
 * - accidents are events: each creation and each change of severity or status after `since` is
 *   rebuilt from the history of the accident's `severity` and `status` attributes, in time order;
 * - traffic and weather are states: the current state of each zone or station that changed after
 *   `since` stands for everything missed (newest wins, as for a slow reader).
 */
export function historyReplay(model: LiveModel, history: TemporalIndex, read: ReadEntities): LiveReplay {
  return async (filter: LiveFilter, since: number, limit: number): Promise<ReplayResult> => {
    let events: LiveEvent[] = [];
    if (filter.channel === "traffic") {
      for (const z of filter.keys ?? model.zoneIds()) {
        const s = model.zoneState(z);
        if (s && s.at > since)
          events.push({ channel: "traffic", tenant: filter.tenant, at: iso(s.at), data: s.data });
      }
    } else if (filter.channel === "weather") {
      for (const w of model.latestWeather()) {
        if (w.at > since)
          events.push({ channel: "weather", tenant: filter.tenant, at: iso(w.at), data: w.data });
      }
    } else {
      events = await accidentEvents(model, history, read, filter, since);
    }
    events.sort((a, b) => a.at.localeCompare(b.at));
    const truncated = events.length > limit;
    return { events: truncated ? events.slice(events.length - limit) : events, truncated };
  };
}

async function accidentEvents(
  model: LiveModel,
  history: TemporalIndex,
  read: ReadEntities,
  filter: LiveFilter,
  since: number,
): Promise<LiveEvent[]> {
  const changed = [...history.entities(filter.tenant)].filter(
    (h) => h.modifiedAt > since && h.types.includes(ACCIDENT_TYPE),
  );
  if (changed.length === 0) return [];
  const { entities, ctx } = await read(
    filter.tenant,
    changed.map((h) => h.id),
  );
  const current = new Map<string, AccidentState>();
  for (const e of entities) {
    const a = model.accident(e, ctx);
    if (a) current.set(e.id, a);
  }
  const keys = filter.keys ? new Set(filter.keys) : undefined;
  const out: LiveEvent[] = [];
  for (const h of changed) {
    const now = current.get(h.id);
    if (!now) continue;
    const steps = merge(history, h.attrs.get(SEVERITY), h.attrs.get(STATUS));
    let severity: string | undefined;
    let status: string | undefined;
    for (const step of steps) {
      const prevSeverity = severity;
      const prevStatus = status;
      if (step.severity !== undefined) severity = step.severity;
      if (step.status !== undefined) status = step.status;
      if (step.t <= since || severity === undefined) continue;
      const state = { ...now, severity: severity as LiveSeverity, status: status ?? now.status };
      const base = { channel: "accidents" as const, tenant: filter.tenant, at: iso(step.t) };
      if (prevSeverity === undefined) out.push({ ...base, data: { ...state, change: "created" } });
      else {
        if (prevSeverity !== severity)
          out.push({
            ...base,
            data: { ...state, change: "severity_changed", previousSeverity: prevSeverity as LiveSeverity },
          });
        if (prevStatus !== status)
          out.push({ ...base, data: { ...state, change: "status_changed", previousStatus: prevStatus } });
      }
    }
  }
  return keys ? out.filter((e) => e.channel === "accidents" && keys.has(e.data.severity)) : out;
}

/** The rows of both series as one time-ordered list of value changes (one step per instant). */
function merge(
  history: TemporalIndex,
  severity: Series | undefined,
  status: Series | undefined,
): { t: number; severity?: string; status?: string }[] {
  const steps = new Map<number, { t: number; severity?: string; status?: string }>();
  const add = (s: Series | undefined, field: "severity" | "status") => {
    if (!s) return;
    for (let i = 0; i < s.length; i++) {
      const v = history.interner.object(s.rest(i)).value;
      if (typeof v !== "string") continue;
      const t = s.modified(i);
      let step = steps.get(t);
      if (!step) steps.set(t, (step = { t }));
      step[field] = v;
    }
  };
  add(severity, "severity");
  add(status, "status");
  return [...steps.values()].sort((a, b) => a.t - b.t);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
