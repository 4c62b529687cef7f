import { dateTime, getEntity, queryAll, type DateTimeValue } from "./ngsi";

/** Accident severity, least to most (interface spec §2 Accident). */
export const SEVERITIES = ["minor", "moderate", "severe", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** An accident as the map and its panel show it. */
export interface Accident {
  id: string;
  timestamp?: string;
  severity: Severity;
  status: string;
  lat: number;
  lon: number;
  vehiclesInvolved?: number;
  injuries?: number;
  fatalities?: number;
  camera?: string;
  district?: string;
  resolvedAt?: string;
}

interface AccidentEntity {
  id: string;
  timestamp?: DateTimeValue;
  severity?: string;
  status?: string;
  location?: { coordinates: [number, number] };
  vehiclesInvolved?: number;
  injuries?: number;
  fatalities?: number;
  refCamera?: string;
  refDistrict?: string;
  resolvedAt?: DateTimeValue;
}

const ATTRS =
  "timestamp,severity,status,location,vehiclesInvolved,injuries,fatalities,refCamera,refDistrict,resolvedAt";

function toAccident(e: AccidentEntity): Accident | undefined {
  if (!e.location) return undefined;
  return {
    id: e.id,
    timestamp: dateTime(e.timestamp),
    severity: (SEVERITIES as readonly string[]).includes(e.severity ?? "")
      ? (e.severity as Severity)
      : "minor",
    status: e.status ?? "active",
    lon: e.location.coordinates[0],
    lat: e.location.coordinates[1],
    vehiclesInvolved: e.vehiclesInvolved,
    injuries: e.injuries,
    fatalities: e.fatalities,
    camera: e.refCamera,
    district: e.refDistrict,
    resolvedAt: dateTime(e.resolvedAt),
  };
}

/** Accidents not yet resolved (NGSI-LD `type=TrafficAccident&q=status!="resolved"`), newest first. */
export async function listOpenAccidents(signal?: AbortSignal): Promise<Accident[]> {
  const entities = await queryAll<AccidentEntity>(
    { type: "TrafficAccident", q: 'status!="resolved"', attrs: ATTRS },
    signal,
  );
  return entities
    .map(toAccident)
    .filter((a): a is Accident => a !== undefined)
    .sort((a, b) => (b.timestamp ?? "").localeCompare(a.timestamp ?? ""));
}

/** One timeline event (interface spec §2 Accident `timeline`). */
export interface TimelineEvent {
  timestamp: string;
  event: string;
  description: string;
}

/** An accident's timeline: its detection and, once resolved, its resolution (from the entity). */
export async function accidentTimeline(id: string): Promise<TimelineEvent[]> {
  const e = await getEntity<AccidentEntity>("TrafficAccident", id, ATTRS);
  if (!e) return [];
  const a = toAccident(e);
  const events: TimelineEvent[] = [];
  if (a?.timestamp) {
    events.push({
      timestamp: a.timestamp,
      event: "detected",
      description: `${a.severity} accident detected`,
    });
  }
  if (a?.resolvedAt)
    events.push({ timestamp: a.resolvedAt, event: "resolved", description: "accident cleared" });
  return events;
}
