/**
 * The domain events pushed to WebSocket and GraphQL subscribers (docs/graphql-and-websocket.md),
 * derived from the change feed by src/domain/live. Plain JSON (times as ISO 8601 strings), so that the
 * same value travels in process and through Redis pub/sub.
 */

/** The channels of the WebSocket face; GraphQL's three subscriptions map one to one. */
export type LiveChannel = "traffic" | "accidents" | "weather";
export const LIVE_CHANNELS: readonly LiveChannel[] = ["traffic", "accidents", "weather"];

/** Accident severity, least to most severe. */
export type LiveSeverity = "minor" | "moderate" | "severe" | "critical";
export const LIVE_SEVERITIES: readonly LiveSeverity[] = ["minor", "moderate", "severe", "critical"];

/** What happened to an accident: it was created, or its severity or status changed. */
export type AccidentChange = "created" | "severity_changed" | "status_changed";

/** An accident as it stands after the change. */
export interface AccidentEventData {
  /** Local id (after urn:ngsi-ld:TrafficAccident:). */
  id: string;
  entityId: string;
  change: AccidentChange;
  timestamp: string;
  location: { lat: number; lon: number };
  severity: LiveSeverity;
  /** The severity before a `severity_changed`. */
  previousSeverity?: LiveSeverity;
  status: string;
  previousStatus?: string;
  vehiclesInvolved: number;
  injuries: number;
  fatalities: number;
  cameraId?: string;
  zoneId?: string;
  images: string[];
}

/** The state of one traffic zone after a change of it (docs/rest.md "Traffic" congestion levels). */
export interface ZoneTrafficEventData {
  zoneId: string;
  name?: string;
  congestionLevel: string;
  /** 0 (free flow) .. 100 (standstill). */
  congestionIndex: number;
  avgSpeed: number;
  vehicleCount: number;
  incidentCount: number;
  /** Cameras whose latest observation counts. */
  reporting: number;
}

/** A new weather observation of one station. */
export interface WeatherEventData {
  stationId: string;
  name?: string;
  location: { lat: number; lon: number };
  temperature?: number;
  feelsLike?: number;
  humidity?: number;
  pressure?: number;
  windSpeed?: number;
  windDirection?: number;
  precipitation?: number;
  conditions?: string;
}

interface LiveEventBase {
  tenant: string;
  /** When the change happened (observation time, or the write's time), ISO 8601. */
  at: string;
  /** True when the event is replayed from the history for a resuming subscriber. */
  replay?: boolean;
}

/** One domain event, discriminated by channel. */
export type LiveEvent =
  | (LiveEventBase & { channel: "accidents"; data: AccidentEventData })
  | (LiveEventBase & { channel: "traffic"; data: ZoneTrafficEventData })
  | (LiveEventBase & { channel: "weather"; data: WeatherEventData });

/** The key a subscriber index files an event under: the zone of a traffic event, the severity of an accident. */
export function eventKey(e: LiveEvent): string | undefined {
  if (e.channel === "traffic") return e.data.zoneId;
  if (e.channel === "accidents") return e.data.severity;
  return undefined;
}
