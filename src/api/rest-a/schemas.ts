import { ACCIDENT_STATUSES } from "../../domain/traffic";
import { closed, oneOfStrings } from "../rest/json-schema";
import type { JsonSchema } from "../rest/schema-route";

/**
 * The JSON Schemas of variant A (docs/rest.md): query parameters the routes
 * validate and the response bodies the OpenAPI document publishes. Unknown query parameters are
 * ignored.
 */

const str = { type: "string" };
const num = { type: "number" };
const int = { type: "integer" };
const time = { type: "string", format: "date-time" };
const nullable = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, "null"] });
const obj = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: "object",
  required,
  properties,
});
const arr = (items: JsonSchema): JsonSchema => ({ type: "array", items });

export const CAMERA_STATUS = { type: "string", enum: ["active", "inactive", "error"] };
export const SEVERITY = { type: "string", enum: ["minor", "moderate", "severe", "critical"] };
export const ACCIDENT_STATUS = { type: "string", enum: ["active", "investigating", "resolved"] };
export const LEVEL = { type: "string", enum: ["free", "light", "moderate", "heavy", "severe"] };

/** Query parameters. */
export const Q = {
  limit: { type: "integer", minimum: 1, maximum: 100, default: 50, description: "Page size (max 100)" },
  offset: { type: "integer", minimum: 0, maximum: 1_000_000_000, default: 0, description: "Items to skip" },
  district: {
    type: "string",
    minLength: 1,
    maxLength: 200,
    description: "District: zone id or name (Vietnamese or English, any case, with or without diacritics)",
  },
  startDate: { ...time, description: "Start of the period (ISO 8601)" },
  endDate: { ...time, description: "End of the period (ISO 8601)" },
  location: {
    type: "string",
    pattern: "^\\s*-?\\d+(\\.\\d+)?\\s*,\\s*-?\\d+(\\.\\d+)?\\s*$",
    description: "lat,lon",
  },
};

const location = {
  type: "object",
  required: ["lat", "lon"],
  properties: { lat: num, lon: num, address: str },
};

export const CAMERA: JsonSchema = obj({
  id: str,
  name: str,
  location,
  district: nullable(obj({ id: str, name: str })),
  status: CAMERA_STATUS,
  last_update: time,
  stream_url: nullable(str),
  capabilities: arr({ type: "string", enum: ["accident_detection", "vehicle_count", "speed_detection"] }),
});

export const CAMERA_DETAIL: JsonSchema = {
  ...CAMERA,
  required: [...(CAMERA.required as string[]), "statistics"],
  properties: {
    ...(CAMERA.properties as object),
    statistics: obj({ uptime_24h: num, detections_today: int, avg_vehicle_count: int }),
  },
};

const page = (name: string, item: JsonSchema) =>
  obj({ total: int, limit: int, offset: int, [name]: arr(item) });

export const CAMERA_PAGE = page("cameras", CAMERA);

export const CAMERA_STATISTICS = obj({
  camera_id: str,
  start_date: time,
  end_date: time,
  interval: { type: "string", enum: ["hour", "day", "week"] },
  data: arr(obj({ timestamp: time, vehicle_count: int, avg_speed: num, accidents_detected: int })),
});

export const ACCIDENT: JsonSchema = obj({
  id: str,
  timestamp: time,
  location,
  severity: SEVERITY,
  vehicles_involved: int,
  injuries: int,
  fatalities: int,
  status: ACCIDENT_STATUS,
  camera_id: nullable(str),
  detection_method: str,
  confidence: num,
  images: arr(str),
});

export const ACCIDENT_DETAIL: JsonSchema = {
  ...ACCIDENT,
  required: [...(ACCIDENT.required as string[]), "timeline"],
  properties: {
    ...(ACCIDENT.properties as object),
    timeline: arr(obj({ timestamp: time, event: str, description: str })),
  },
};

export const ACCIDENT_PAGE = page("accidents", ACCIDENT);

export const ZONE_TRAFFIC = obj({
  id: str,
  name: str,
  congestion_level: LEVEL,
  avg_speed: num,
  free_flow_speed: num,
  delay: num,
  vehicle_count: int,
  incident_count: int,
  cameras_reporting: int,
});

export const REALTIME = obj({ timestamp: time, zones: arr(ZONE_TRAFFIC) });

export const CONGESTION_ZONES = obj({
  timestamp: time,
  zones: arr(
    obj({
      id: str,
      name: str,
      zone_id: nullable(str),
      level: LEVEL,
      polygon: arr({ type: "array", items: num, minItems: 2, maxItems: 2 }),
      avg_speed: num,
      cameras: arr(str),
    }),
  ),
});

export const FORECAST = obj({
  zone_id: str,
  model: obj({ method: str, fitted_weeks: num, one_step_rmse: num, profile_rmse: num, alpha: num, phi: num }),
  forecast: arr(
    obj({
      timestamp: time,
      predicted_congestion: LEVEL,
      predicted_speed: num,
      confidence: { type: "number", minimum: 0, maximum: 1 },
      interval: obj({ low: num, high: num, level: num }),
    }),
  ),
});

const CONDITIONS = {
  type: "string",
  enum: ["clear", "partly_cloudy", "cloudy", "fog", "drizzle", "rain", "heavy_rain", "thunderstorm"],
};

export const WEATHER_CURRENT = obj({
  timestamp: time,
  location,
  station: str,
  temperature: num,
  feels_like: num,
  humidity: num,
  pressure: num,
  wind: obj({ speed: num, direction: num, gust: nullable(num) }),
  precipitation: num,
  conditions: CONDITIONS,
  visibility: nullable(num),
});

export const WEATHER_FORECAST = obj({
  forecast: arr(
    obj({ timestamp: time, temperature: num, precipitation_probability: num, conditions: CONDITIONS }),
  ),
});

const AQI_CATEGORY = {
  type: "string",
  enum: ["good", "moderate", "unhealthy_for_sensitive_groups", "unhealthy", "very_unhealthy", "hazardous"],
};

export const AIR_CURRENT = obj({
  timestamp: time,
  stations: arr(
    obj({
      id: str,
      name: str,
      location,
      aqi: int,
      category: AQI_CATEGORY,
      dominant_pollutant: str,
      timestamp: time,
      pollutants: obj({ pm25: num, pm10: num, no2: num, so2: num, co: num, o3: num }),
    }),
  ),
});

export const AIR_HISTORY = obj({
  station_id: str,
  interval: { type: "string", enum: ["hour", "day"] },
  data: arr(obj({ timestamp: time, aqi: int, category: AQI_CATEGORY, pm25: num })),
});

/** PATCH /accidents/{accident_id}: the new status, nothing else. */
export const ACCIDENT_PATCH = closed({ status: oneOfStrings(ACCIDENT_STATUSES) });

export const ANALYTICS_SUMMARY = obj(
  {
    period: obj({ start: time, end: time }),
    metrics: {
      type: "object",
      properties: {
        total_vehicles: int,
        avg_speed: num,
        total_accidents: int,
        avg_congestion: num,
        peak_hours: arr(str),
      },
    },
  },
  ["period", "metrics"],
);

export const ANALYTICS_PATTERNS = obj({
  pattern_type: { type: "string", enum: ["temporal", "spatial", "correlation"] },
  patterns: arr(
    obj(
      {
        pattern: str,
        time_range: str,
        frequency: num,
        confidence: num,
        description: str,
        location: location,
      },
      ["pattern", "time_range", "frequency", "confidence", "description"],
    ),
  ),
});

export const CORRELATIONS = obj({
  period: obj({ start: time, end: time }),
  correlations: arr(
    obj({
      factor1: str,
      factor2: str,
      correlation: num,
      p_value: num,
      significance: { type: "string", enum: ["high", "medium", "low", "none"] },
      n: int,
    }),
  ),
});
