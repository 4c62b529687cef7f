/**
 * The typed read models of the traffic domain (docs/rest.md), projected from the
 * NGSI-LD entities of the graph. Every face (REST A, REST B, GraphQL, WebSocket) maps these to its own
 * shapes; none reads entities itself. Times are epoch milliseconds; positions are WGS84 degrees.
 */

/** A WGS84 position. */
export interface GeoPoint {
  lat: number;
  lon: number;
}

/** Camera status (docs/rest.md "Cameras"). */
export type CameraStatus = "active" | "inactive" | "error";
export const CAMERA_STATUSES: readonly CameraStatus[] = ["active", "inactive", "error"];

/** Accident severity, least to most severe (docs/rest.md "Accidents"). */
export type Severity = "minor" | "moderate" | "severe" | "critical";
export const SEVERITIES: readonly Severity[] = ["minor", "moderate", "severe", "critical"];

/** Accident status in the graph (docs/rest.md "Accidents"). */
export type AccidentStatus = "active" | "investigating" | "resolved";
export const ACCIDENT_STATUSES: readonly AccidentStatus[] = ["active", "investigating", "resolved"];

/** Congestion label of variant A from the ratio of current to free-flow speed (docs/rest.md "Traffic"). */
export type CongestionLevel = "free" | "light" | "moderate" | "heavy" | "severe";
export const CONGESTION_LEVELS: readonly CongestionLevel[] = ["free", "light", "moderate", "heavy", "severe"];

/** A TrafficCamera entity. */
export interface Camera {
  /** Entity id, urn:ngsi-ld:TrafficCamera:<localId>. */
  entityId: string;
  /** The dataset's camera id (the id the REST faces show). */
  id: string;
  name: string;
  location: GeoPoint;
  /** Status as stored (an operator's or an ingest's); see CameraService for the effective one. */
  storedStatus: CameraStatus;
  /** lastUpdate of the entity (epoch ms), or its modifiedAt. */
  lastUpdate: number;
  capabilities: string[];
  streamUrl?: string;
  imageUrl?: string;
  cameraType?: string;
  ptz?: boolean;
  /** Local id of the district whose polygon contains the camera (polygon containment, not the stored relationship). */
  zoneId?: string;
}

/** A District entity: a traffic zone (docs/rest.md "Conventions"). */
export interface Zone {
  entityId: string;
  /** Local id (the slug), e.g. "quan-1". */
  id: string;
  name: string;
  alternateNames: string[];
  /** GeoJSON MultiPolygon coordinates ([lon, lat] vertices). */
  polygon: number[][][][];
  bbox: [number, number, number, number];
  centroid: GeoPoint;
  /** Local ids of the cameras inside the polygon. */
  cameraIds: string[];
}

/** A TrafficAccident entity. */
export interface Accident {
  entityId: string;
  /** Local id (the part after urn:ngsi-ld:TrafficAccident:). */
  id: string;
  timestamp: number;
  location: GeoPoint;
  severity: Severity;
  status: AccidentStatus;
  vehiclesInvolved: number;
  injuries: number;
  fatalities: number;
  confidence: number;
  detectionMethod: string;
  cameraId?: string;
  images: string[];
  description?: string;
  resolvedAt?: number;
  /** Zone whose polygon contains the accident. */
  zoneId?: string;
}

/** The latest TrafficFlowObserved of one camera. */
export interface FlowObservation {
  entityId: string;
  cameraId: string;
  location: GeoPoint;
  /** End of the observed window (epoch ms). */
  observedAt: number;
  from: number;
  intensity: number;
  vehicleTypes: { car: number; motorcycle: number; truck: number; bus: number };
  averageSpeed: number;
  occupancy: number;
}

/** Weather conditions (docs/rest.md "Weather and air quality"). */
export type WeatherConditions =
  "clear" | "partly_cloudy" | "cloudy" | "fog" | "drizzle" | "rain" | "heavy_rain" | "thunderstorm";

/** A WeatherObserved entity (one station). */
export interface Weather {
  entityId: string;
  stationId: string;
  name: string;
  location: GeoPoint;
  observedAt: number;
  temperature: number;
  feelsLike: number;
  /** Percent. */
  humidity: number;
  /** hPa. */
  pressure: number;
  /** m/s. */
  windSpeed: number;
  /** Degrees. */
  windDirection: number;
  /** mm in the last hour. */
  precipitation: number;
  /** 0..1. */
  cloudiness: number;
  conditions: WeatherConditions;
}

/** One hour of the weather forecast. */
export interface WeatherForecastItem {
  timestamp: number;
  temperature: number;
  precipitationProbability: number;
  conditions: WeatherConditions;
}

/** Pollutant concentrations (µg/m³). */
export interface Pollutants {
  pm25: number;
  pm10: number;
  no2: number;
  so2: number;
  co: number;
  o3: number;
}

/** AQI category (US EPA). */
export type AqiCategory =
  "good" | "moderate" | "unhealthy_for_sensitive_groups" | "unhealthy" | "very_unhealthy" | "hazardous";

/** An AirQualityObserved entity (one station) with its AQI computed from the concentrations. */
export interface AirQualityStation {
  entityId: string;
  id: string;
  name: string;
  location: GeoPoint;
  observedAt: number;
  pollutants: Pollutants;
  aqi: number;
  category: AqiCategory;
  dominantPollutant: keyof Pollutants;
}

/** The traffic state of one zone now. */
export interface ZoneTraffic {
  zone: Zone;
  at: number;
  congestionLevel: CongestionLevel;
  /** 0 (free flow) .. 100 (standstill): 100 x (1 - speed / free-flow speed), clamped. */
  congestionIndex: number;
  avgSpeed: number;
  freeFlowSpeed: number;
  /** Extra travel time against free flow, in percent (speed ratio - 1). */
  delayPercent: number;
  vehicleCount: number;
  incidentCount: number;
  /** Cameras with a current observation. */
  reporting: number;
}

/** A congested area: the hull of nearby congested cameras. */
export interface CongestionArea {
  id: string;
  zoneId?: string;
  name: string;
  level: CongestionLevel;
  /** Closed ring of [lon, lat]. */
  ring: [number, number][];
  cameraIds: string[];
  avgSpeed: number;
}

/** One step of a forecast. */
export interface ForecastPoint {
  timestamp: number;
  speed: number;
  low: number;
  high: number;
  level: CongestionLevel;
  confidence: number;
}

/** One bucket of a camera's statistics. */
export interface CameraStatBucket {
  start: number;
  vehicleCount: number;
  avgSpeed: number;
  accidents: number;
}

/** A timeline event of an accident. */
export interface TimelineEvent {
  timestamp: number;
  event: "detected" | "alert_sent" | "investigating" | "active" | "resolved" | "status_changed";
  description: string;
  source: string;
}
