import type { Entity } from "../../../ngsi-ld/model/entity";
import { pointOf } from "../../graph-access";
import { airQualityIndex } from "../environment/aqi";
import { geometry, localId, num, objects, observedAtOf, text, texts, timeOf, valueOf } from "./entity-terms";
import {
  ACCIDENT_STATUSES,
  CAMERA_STATUSES,
  SEVERITIES,
  type Accident,
  type AccidentStatus,
  type AirQualityStation,
  type Camera,
  type CameraStatus,
  type FlowObservation,
  type Severity,
  type Weather,
  type WeatherConditions,
  type Zone,
} from "../models";

/**
 * Entity -> read model, one function per entity type. Each takes an entity in the traffic context's
 * terms (see inTrafficTerms) and returns undefined when the entity lacks what the model needs (a
 * camera without a location, ...): such entities stay in the graph and are not shown by the faces.
 */

const epoch = (e: Entity) => (e.modifiedAt ? Date.parse(e.modifiedAt) : 0);

export function cameraOf(e: Entity): Camera | undefined {
  const location = pointOf(e);
  if (!location) return undefined;
  const status = text(e, "status");
  return {
    entityId: e.id,
    id: localId(e.id),
    name: text(e, "name") ?? localId(e.id),
    location,
    storedStatus: CAMERA_STATUSES.includes(status as CameraStatus) ? (status as CameraStatus) : "inactive",
    lastUpdate: timeOf(e, "lastUpdate") ?? epoch(e),
    capabilities: texts(e, "capabilities"),
    streamUrl: text(e, "streamURL"),
    imageUrl: text(e, "imageURL"),
    cameraType: text(e, "cameraType"),
    ptz: typeof valueOf(e, "ptz") === "boolean" ? (valueOf(e, "ptz") as boolean) : undefined,
  };
}

export function zoneOf(e: Entity): Zone | undefined {
  const g = geometry(e);
  if (!g || !Array.isArray(g.coordinates)) return undefined;
  const polygon = (
    g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : undefined
  ) as number[][][][] | undefined;
  if (!polygon) return undefined;
  const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (const poly of polygon)
    for (const [lon, lat] of poly[0] ?? []) {
      bbox[0] = Math.min(bbox[0], lon);
      bbox[1] = Math.min(bbox[1], lat);
      bbox[2] = Math.max(bbox[2], lon);
      bbox[3] = Math.max(bbox[3], lat);
      sx += lon;
      sy += lat;
      n++;
    }
  if (n === 0) return undefined;
  return {
    entityId: e.id,
    id: localId(e.id),
    name: text(e, "name") ?? localId(e.id),
    alternateNames: texts(e, "alternateName"),
    polygon,
    bbox,
    centroid: { lat: sy / n, lon: sx / n },
    cameraIds: [],
  };
}

export function accidentOf(e: Entity): Accident | undefined {
  const location = pointOf(e);
  if (!location) return undefined;
  const severity = text(e, "severity");
  const status = text(e, "status");
  const cam = objects(e, "refCamera")[0];
  return {
    entityId: e.id,
    id: localId(e.id),
    timestamp: timeOf(e, "timestamp") ?? epoch(e),
    location,
    severity: SEVERITIES.includes(severity as Severity) ? (severity as Severity) : "minor",
    status: ACCIDENT_STATUSES.includes(status as AccidentStatus) ? (status as AccidentStatus) : "active",
    vehiclesInvolved: Math.max(0, Math.round(num(e, "vehiclesInvolved") ?? 0)),
    injuries: Math.max(0, Math.round(num(e, "injuries") ?? 0)),
    fatalities: Math.max(0, Math.round(num(e, "fatalities") ?? 0)),
    confidence: Math.min(1, Math.max(0, num(e, "confidence") ?? 1)),
    detectionMethod: text(e, "detectionMethod") ?? "unknown",
    cameraId: cam ? localId(cam) : undefined,
    images: texts(e, "images"),
    description: text(e, "description"),
    resolvedAt: timeOf(e, "resolvedAt"),
  };
}

export function flowOf(e: Entity): FlowObservation | undefined {
  const cam = objects(e, "refCamera")[0];
  const location = pointOf(e);
  const intensity = num(e, "intensity");
  if (!cam || !location || intensity === undefined) return undefined;
  const observedAt = timeOf(e, "dateObservedTo") ?? timeOf(e, "dateObserved") ?? observedAtOf(e, "intensity");
  if (observedAt === undefined) return undefined;
  return {
    entityId: e.id,
    cameraId: localId(cam),
    location,
    observedAt,
    from: timeOf(e, "dateObservedFrom") ?? observedAt - 60_000,
    intensity,
    vehicleTypes: {
      car: num(e, "carCount") ?? 0,
      motorcycle: num(e, "motorcycleCount") ?? 0,
      truck: num(e, "truckCount") ?? 0,
      bus: num(e, "busCount") ?? 0,
    },
    averageSpeed: num(e, "averageVehicleSpeed") ?? 0,
    occupancy: num(e, "occupancy") ?? 0,
  };
}

/** The feed's OpenWeatherMap-style descriptions and rain rate -> docs/rest.md "Weather and air quality". */
export function conditionsOf(
  description: string | undefined,
  cloudiness: number,
  rain: number,
): WeatherConditions {
  const d = (description ?? "").toLowerCase();
  if (d.includes("thunder")) return "thunderstorm";
  if (d.includes("fog") || d.includes("mist") || d.includes("haze")) return "fog";
  if (rain >= 7.6 || d.includes("heavy")) return "heavy_rain";
  if (rain >= 0.5 || d.includes("rain")) return "rain";
  if (rain > 0 || d.includes("drizzle")) return "drizzle";
  if (cloudiness < 0.25) return "clear";
  if (cloudiness < 0.6) return "partly_cloudy";
  return "cloudy";
}

export function weatherOf(e: Entity): Weather | undefined {
  const location = pointOf(e);
  const temperature = num(e, "temperature");
  if (!location || temperature === undefined) return undefined;
  const humidity = num(e, "relativeHumidity") ?? 0;
  const cloudiness = num(e, "cloudiness") ?? 0;
  const precipitation = num(e, "precipitation") ?? 0;
  const district = objects(e, "refDistrict")[0];
  return {
    entityId: e.id,
    stationId: district ? localId(district) : localId(e.id),
    name: text(e, "name") ?? localId(e.id),
    location,
    observedAt: timeOf(e, "dateObserved") ?? observedAtOf(e, "temperature") ?? epoch(e),
    temperature,
    feelsLike: num(e, "feelsLikeTemperature") ?? temperature,
    // the Smart Data Model keeps relative humidity as a fraction
    humidity: humidity <= 1 ? humidity * 100 : humidity,
    pressure: num(e, "atmosphericPressure") ?? 0,
    windSpeed: num(e, "windSpeed") ?? 0,
    windDirection: num(e, "windDirection") ?? 0,
    precipitation,
    cloudiness,
    conditions: conditionsOf(text(e, "weatherType"), cloudiness, precipitation),
  };
}

export function airQualityOf(e: Entity): AirQualityStation | undefined {
  const location = pointOf(e);
  const pm25 = num(e, "pm25");
  if (!location || pm25 === undefined) return undefined;
  const pollutants = {
    pm25,
    pm10: num(e, "pm10") ?? NaN,
    no2: num(e, "no2") ?? NaN,
    so2: num(e, "so2") ?? NaN,
    co: num(e, "co") ?? NaN,
    o3: num(e, "o3") ?? NaN,
  };
  const { aqi, category, dominant } = airQualityIndex(pollutants);
  return {
    entityId: e.id,
    id: localId(e.id),
    name: text(e, "name") ?? localId(e.id),
    location,
    observedAt: timeOf(e, "dateObserved") ?? observedAtOf(e, "pm25") ?? epoch(e),
    pollutants: {
      pm25,
      pm10: pollutants.pm10 || 0,
      no2: pollutants.no2 || 0,
      so2: pollutants.so2 || 0,
      co: pollutants.co || 0,
      o3: pollutants.o3 || 0,
    },
    aqi,
    category,
    dominantPollutant: dominant,
  };
}
