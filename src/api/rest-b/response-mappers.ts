import type {
  Accident,
  AirQualityStation,
  CameraView,
  CongestionArea,
  ForecastPoint,
  GeoPoint,
  Severity,
  TimelineEvent,
  Weather,
  WeatherForecastItem,
  Zone,
  ZoneTraffic,
} from "../../domain/traffic";
import { iso, location, round } from "../rest/json-values";
import { HEALTH_IMPLICATIONS } from "../../domain/traffic";
import type { Pattern } from "../../domain/analytics/analytics-service";
import type { BoundingBox } from "../../domain/traffic/accidents/accident-boxes";
import { cameraCapabilitiesB, type CameraMetadata } from "../../domain/traffic/cameras/camera-metadata";
import type { FlowWindow } from "../../domain/traffic/flow/flow-intervals";
import type { CameraPeriodStats, ZonePeriodStats } from "../../domain/traffic/flow/period-stats";

/**
 * The traffic domain's read models in variant B's JSON shapes (docs/rest.md, the
 * fields marked (B)). The B routes call these and nothing else shapes a response body; variant A's
 * mapping lives beside it in api/rest-a.
 */

const zoneName = (zones: ReadonlyMap<string, Zone>, id?: string) => (id ? zones.get(id)?.name : undefined);

/** Camera, list form (B): no stream_url, B capabilities. */
export function camera(v: CameraView, zones: ReadonlyMap<string, Zone>) {
  const c = v.camera;
  const district = zoneName(zones, c.zoneId);
  return {
    id: c.id,
    name: c.name,
    location: location(c.location, district ? `${c.name}, ${district}` : c.name),
    status: v.status,
    last_update: iso(v.lastUpdate),
    capabilities: cameraCapabilitiesB(c),
  };
}

/** Camera detail (B): `stream_url`, `last_image` (this service's image of the camera), `metadata`. */
export function cameraDetail(
  v: CameraView,
  zones: ReadonlyMap<string, Zone>,
  meta: CameraMetadata,
  prefix: string,
) {
  return {
    ...camera(v, zones),
    stream_url: v.camera.streamUrl ?? null,
    last_image: `${prefix}/cameras/${encodeURIComponent(v.camera.id)}/image`,
    metadata: meta,
  };
}

/** Camera stats (B). */
export function cameraStats(id: string, from: number, to: number, s: CameraPeriodStats) {
  return {
    camera_id: id,
    period: { start: iso(from), end: iso(to) },
    stats: {
      total_vehicles: s.totalVehicles,
      avg_speed: s.avgSpeed,
      peak_hour: s.peakHour,
      congestion_minutes: s.congestionMinutes,
      accidents: s.accidents,
    },
  };
}

/** Accident, list form (B): B's fields (`description`; no `fatalities` nor `detection_method`). */
export function accident(a: Accident, zones: ReadonlyMap<string, Zone>) {
  return {
    id: a.id,
    timestamp: iso(a.timestamp),
    location: location(a.location, zoneName(zones, a.zoneId) ?? ""),
    severity: a.severity,
    vehicles_involved: a.vehiclesInvolved,
    injuries: a.injuries,
    status: a.status,
    camera_id: a.cameraId ?? null,
    confidence: a.confidence,
    images: a.images,
    description: a.description ?? null,
  };
}

/** Accident detail (B): `timeline{timestamp, event, source}` and `detection{model, confidence, bounding_boxes}`. */
export function accidentDetail(
  a: Accident,
  zones: ReadonlyMap<string, Zone>,
  timeline: TimelineEvent[],
  boxes: BoundingBox[],
) {
  return {
    ...accident(a, zones),
    timeline: timeline.map((e) => ({ timestamp: iso(e.timestamp), event: e.event, source: e.source })),
    detection: {
      model: a.detectionMethod,
      confidence: a.confidence,
      bounding_boxes: boxes,
    },
  };
}

/** Traffic zone (B): `zone_id`, numeric `congestion_level` (0 free flow .. 100 standstill), `status` label, `cameras`. */
export function zoneTraffic(z: ZoneTraffic) {
  return {
    zone_id: z.zone.id,
    name: z.zone.name,
    congestion_level: z.congestionIndex,
    status: z.congestionLevel,
    avg_speed: z.avgSpeed,
    vehicle_count: z.vehicleCount,
    incident_count: z.incidentCount,
    cameras: z.zone.cameraIds,
  };
}

/** congestion-zones item (B): the congested area as `zone_id`, its polygon of [lat, lon]. */
export function congestionZone(a: CongestionArea, congestionLevel: number) {
  return {
    zone_id: a.id,
    name: a.name,
    district: a.zoneId ?? null,
    congestion_level: congestionLevel,
    status: a.level,
    level: a.level,
    avg_speed: a.avgSpeed,
    cameras: a.cameraIds,
    polygon: a.ring.map(([lon, lat]) => [round(lat, 6), round(lon, 6)]),
  };
}

/** forecast item (unmarked: the same in both variants). */
export function forecastPoint(p: ForecastPoint) {
  return {
    timestamp: iso(p.timestamp),
    predicted_congestion: p.level,
    predicted_speed: p.speed,
    confidence: p.confidence,
  };
}

/** Traffic flow observation (B): one aggregated window with an NGSI-LD id. */
export function flowObservation(w: FlowWindow, at: GeoPoint) {
  const from = iso(w.from);
  return {
    id: w.entityId,
    type: "TrafficFlowObserved" as const,
    camera_id: w.cameraId,
    timestamp: from,
    date_observed_from: from,
    date_observed_to: iso(w.to),
    location: location(at),
    intensity: w.intensity,
    average_speed: w.averageSpeed,
    vehicle_types: w.vehicleTypes,
    occupancy: w.occupancy,
  };
}

/** Weather, current (B): `uv_index`, no `gust` nor `feels_like`. */
export function weather(w: Weather, uvIndex: number) {
  return {
    timestamp: iso(w.observedAt),
    location: location(w.location, w.name),
    temperature: w.temperature,
    humidity: round(w.humidity, 0),
    pressure: w.pressure,
    wind: { speed: w.windSpeed, direction: w.windDirection },
    precipitation: w.precipitation,
    conditions: w.conditions,
    visibility: null,
    uv_index: uvIndex,
  };
}

/** Weather forecast item. */
export function weatherForecast(f: WeatherForecastItem) {
  return {
    timestamp: iso(f.timestamp),
    temperature: f.temperature,
    precipitation_probability: f.precipitationProbability,
    conditions: f.conditions,
  };
}

/** Air quality reading (B): `dominant_pollutant` and `health_implications` (EPA category texts). */
export function airQuality(s: AirQualityStation) {
  return {
    timestamp: iso(s.observedAt),
    location: location(s.location, s.name),
    station: s.name,
    aqi: Math.round(s.aqi),
    category: s.category,
    dominant_pollutant: s.dominantPollutant,
    pollutants: s.pollutants,
    health_implications: HEALTH_IMPLICATIONS[s.category],
  };
}

/** Zone analytics (B), with only the requested metrics (all when none is named). */
export function zoneAnalytics(
  zoneId: string,
  from: number,
  to: number,
  s: ZonePeriodStats,
  metrics: readonly string[],
) {
  const all: Record<string, unknown> = {
    total_vehicles: s.totalVehicles,
    avg_speed: s.avgSpeed,
    peak_traffic: s.peakTraffic
      ? { time: iso(s.peakTraffic.time), intensity: s.peakTraffic.intensity }
      : null,
    accidents: s.accidents,
    congestion_hours: s.congestionHours,
  };
  const keep = metrics.length > 0 ? metrics : Object.keys(all);
  return {
    zone_id: zoneId,
    period: { start: iso(from), end: iso(to) },
    metrics: Object.fromEntries(keep.map((k) => [k, all[k]])),
  };
}

/** Pattern (B): `{type, location, time_pattern, confidence, severity}`. */
export function pattern(p: Pattern, at: GeoPoint, address: string, severity: Severity) {
  const days =
    p.pattern === "weekday_peak"
      ? "weekdays "
      : p.pattern === "weekend_peak"
        ? "weekends "
        : "daily, most at ";
  return {
    type: p.pattern,
    location: location(at, address),
    time_pattern: `${days}${p.timeRange}`,
    confidence: p.confidence,
    severity,
  };
}
