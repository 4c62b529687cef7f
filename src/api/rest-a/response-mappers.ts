import type {
  Accident,
  AirQualityBucket,
  AirQualityStation,
  CameraDetailStats,
  CameraStatBucket,
  CameraView,
  CongestionArea,
  ForecastPoint,
  TimelineEvent,
  Weather,
  WeatherForecastItem,
  Zone,
  ZoneTraffic,
} from "../../domain/traffic";
import { iso, location, round } from "../rest/json-values";

/**
 * The traffic domain's read models in variant A's JSON shapes (docs/rest.md).
 * One function per resource; the routes call these and nothing else shapes a response body.
 */

/** Camera (list form). */
export function camera(v: CameraView, zones: ReadonlyMap<string, Zone>) {
  const c = v.camera;
  const zone = c.zoneId ? zones.get(c.zoneId) : undefined;
  return {
    id: c.id,
    name: c.name,
    location: location(c.location, zone ? `${c.name}, ${zone.name}` : c.name),
    district: zone ? { id: zone.id, name: zone.name } : null,
    status: v.status,
    last_update: iso(v.lastUpdate),
    stream_url: c.streamUrl ?? null,
    capabilities: c.capabilities,
  };
}

/** Camera with its detail `statistics`. */
export function cameraDetail(v: CameraView, zones: ReadonlyMap<string, Zone>, s: CameraDetailStats) {
  return {
    ...camera(v, zones),
    statistics: {
      uptime_24h: s.uptime24h,
      detections_today: s.detectionsToday,
      avg_vehicle_count: s.avgVehicleCount,
    },
  };
}

/** Camera statistics (A). */
export function cameraStatistics(
  id: string,
  from: number,
  to: number,
  interval: string,
  data: CameraStatBucket[],
) {
  return {
    camera_id: id,
    start_date: iso(from),
    end_date: iso(to),
    interval,
    data: data.map((b) => ({
      timestamp: iso(b.start),
      vehicle_count: b.vehicleCount,
      avg_speed: b.avgSpeed,
      accidents_detected: b.accidents,
    })),
  };
}

/** Accident (list form). */
export function accident(a: Accident, zones: ReadonlyMap<string, Zone>) {
  const zone = a.zoneId ? zones.get(a.zoneId) : undefined;
  return {
    id: a.id,
    timestamp: iso(a.timestamp),
    location: location(a.location, zone?.name ?? ""),
    severity: a.severity,
    vehicles_involved: a.vehiclesInvolved,
    injuries: a.injuries,
    fatalities: a.fatalities,
    status: a.status,
    camera_id: a.cameraId ?? null,
    detection_method: a.detectionMethod,
    confidence: a.confidence,
    images: a.images,
  };
}

/** Accident with its `timeline`. */
export function accidentDetail(a: Accident, zones: ReadonlyMap<string, Zone>, timeline: TimelineEvent[]) {
  return {
    ...accident(a, zones),
    timeline: timeline.map((e) => ({
      timestamp: iso(e.timestamp),
      event: e.event,
      description: e.description,
    })),
  };
}

/** Traffic zone (realtime). */
export function zoneTraffic(z: ZoneTraffic) {
  return {
    id: z.zone.id,
    name: z.zone.name,
    congestion_level: z.congestionLevel,
    avg_speed: z.avgSpeed,
    free_flow_speed: z.freeFlowSpeed,
    delay: z.delayPercent,
    vehicle_count: z.vehicleCount,
    incident_count: z.incidentCount,
    cameras_reporting: z.reporting,
  };
}

/** congestion-zones item: polygon of [lat, lon]. */
export function congestionZone(a: CongestionArea) {
  return {
    id: a.id,
    name: a.name,
    zone_id: a.zoneId ?? null,
    level: a.level,
    polygon: a.ring.map(([lon, lat]) => [round(lat, 6), round(lon, 6)]),
    avg_speed: a.avgSpeed,
    cameras: a.cameraIds,
  };
}

/** forecast item. */
export function forecastPoint(p: ForecastPoint) {
  return {
    timestamp: iso(p.timestamp),
    predicted_congestion: p.level,
    predicted_speed: p.speed,
    confidence: p.confidence,
    interval: { low: p.low, high: p.high, level: 0.95 },
  };
}

/** Weather, current. */
export function weather(w: Weather) {
  return {
    timestamp: iso(w.observedAt),
    location: location(w.location),
    station: w.name,
    temperature: w.temperature,
    feels_like: w.feelsLike,
    humidity: round(w.humidity, 0),
    pressure: w.pressure,
    wind: { speed: w.windSpeed, direction: w.windDirection, gust: null },
    precipitation: w.precipitation,
    conditions: w.conditions,
    visibility: null,
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

/** Air quality station (A). */
export function airStation(s: AirQualityStation) {
  return {
    id: s.id,
    name: s.name,
    location: location(s.location),
    aqi: s.aqi,
    category: s.category,
    dominant_pollutant: s.dominantPollutant,
    timestamp: iso(s.observedAt),
    pollutants: s.pollutants,
  };
}

/** Air quality history item (A). */
export function airHistory(b: AirQualityBucket) {
  return { timestamp: iso(b.start), aqi: b.aqi, category: b.category, pm25: b.pm25 };
}
