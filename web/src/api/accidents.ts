import { dateTime, queryAll, type DateTimeValue } from "./ngsi";

/** Accident severity, least to most (docs/rest.md). */
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
