import type { JsonSchema } from "../rest/schema-route";

/**
 * The JSON Schemas of variant B (traffic-service-interface.md §2 and §4, fields marked (B)): query
 * parameters the routes validate, and closed response bodies (no field beyond those listed) that the
 * OpenAPI document publishes and the tests hold every answer to. Unknown query parameters are ignored.
 */

const str = { type: "string" };
const num = { type: "number" };
const int = { type: "integer" };
const time = { type: "string", format: "date-time" };
const nullable = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, "null"] });
/** A closed object; every property required unless named in `optional`. */
const obj = (properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema => ({
  type: "object",
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
  additionalProperties: false,
});
const arr = (items: JsonSchema): JsonSchema => ({ type: "array", items });
const enumOf = (values: readonly string[]) => ({ type: "string", enum: [...values] });

export const CAMERA_STATUS = enumOf(["active", "inactive", "error"]);
export const SEVERITY = enumOf(["minor", "moderate", "severe", "critical"]);
export const ACCIDENT_STATUS = enumOf(["active", "investigating", "resolved"]);
export const LEVEL = enumOf(["free", "light", "moderate", "heavy", "severe"]);
export const FLOW_INTERVAL = enumOf(["1m", "5m", "15m", "1h"]);
export const ZONE_METRICS = [
  "total_vehicles",
  "avg_speed",
  "peak_traffic",
  "accidents",
  "congestion_hours",
] as const;

const LAT_LON = "^\\s*[-+]?\\d{1,3}(\\.\\d+)?\\s*,\\s*[-+]?\\d{1,3}(\\.\\d+)?\\s*$";
const LAT_LON_RADIUS =
  "^\\s*[-+]?\\d{1,3}(\\.\\d+)?\\s*,\\s*[-+]?\\d{1,3}(\\.\\d+)?\\s*,\\s*\\d{1,3}(\\.\\d+)?\\s*$";

/** Query parameters of variant B. */
export const Q = {
  page: {
    type: "integer",
    minimum: 1,
    maximum: 1_000_000,
    default: 1,
    description: "Page number, from 1 (page form)",
  },
  limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "Items per page (max 100)" },
  cursor: {
    type: "string",
    maxLength: 1024,
    description:
      "Cursor form: empty (`cursor=`) for the first page, then the `next_cursor` of the page before. Opaque and signed: a changed or truncated cursor is 400 INVALID_PARAMETER. Not together with `page`.",
  },
  district: {
    type: "string",
    minLength: 1,
    maxLength: 200,
    description: "District: zone id or name (Vietnamese or English, any case, with or without diacritics)",
  },
  startTime: { ...time, description: "Start of the period (ISO 8601; UTC when no offset is given)" },
  endTime: { ...time, description: "End of the period (ISO 8601)" },
  latLon: { type: "string", maxLength: 100, pattern: LAT_LON, description: "lat,lon" },
  latLonOrZone: {
    type: "string",
    minLength: 1,
    maxLength: 200,
    description: "lat,lon, or a zone (district) id or name",
  },
  latLonRadius: {
    type: "string",
    maxLength: 100,
    pattern: LAT_LON_RADIUS,
    description: "lat,lon,radius_km: accidents within radius_km (0 < radius_km <= 100) of the point",
  },
  metrics: {
    type: "array",
    items: enumOf(ZONE_METRICS),
    description:
      "Metrics to include, repeated (metrics=a&metrics=b) or comma-separated (metrics=a,b); all when absent",
  },
};

export const LOCATION = obj({ lat: num, lon: num, address: str }, ["address"]);

/** `pagination` of the page form, with the generic next/prev links. */
export const PAGE_PAGINATION = obj({
  page: int,
  limit: int,
  total: int,
  pages: int,
  next: nullable(str),
  prev: nullable(str),
});

/** `pagination` of the cursor form. */
export const CURSOR_PAGINATION = obj({
  next_cursor: nullable(str),
  has_more: { type: "boolean" },
  limit: int,
});

/** A list answered in the page form (`{<name>[], pagination}`) or the cursor form (`{data[], pagination}`). */
export const listOf = (name: string, item: JsonSchema): JsonSchema => ({
  oneOf: [
    obj({ [name]: arr(item), pagination: PAGE_PAGINATION }),
    obj({ data: arr(item), pagination: CURSOR_PAGINATION }),
  ],
});

export const CAMERA = obj({
  id: str,
  name: str,
  location: LOCATION,
  status: CAMERA_STATUS,
  last_update: time,
  capabilities: arr(enumOf(["image", "video", "thermal"])),
});

export const CAMERA_DETAIL = obj({
  ...(CAMERA.properties as Record<string, JsonSchema>),
  stream_url: nullable(str),
  last_image: str,
  metadata: obj({ resolution: str, fps: int, manufacturer: str }),
});

export const CAMERA_STATS = obj({
  camera_id: str,
  period: obj({ start: time, end: time }),
  stats: obj({
    total_vehicles: int,
    avg_speed: num,
    peak_hour: nullable(str),
    congestion_minutes: int,
    accidents: int,
  }),
});

export const ACCIDENT = obj({
  id: str,
  timestamp: time,
  location: LOCATION,
  severity: SEVERITY,
  vehicles_involved: int,
  injuries: int,
  status: ACCIDENT_STATUS,
  camera_id: nullable(str),
  confidence: num,
  images: arr(str),
  description: nullable(str),
});

export const ACCIDENT_DETAIL = obj({
  ...(ACCIDENT.properties as Record<string, JsonSchema>),
  timeline: arr(obj({ timestamp: time, event: str, source: str })),
  detection: obj({
    model: str,
    confidence: num,
    bounding_boxes: arr(obj({ x: num, y: num, width: num, height: num, label: str }, ["label"])),
  }),
});

const ZONE_B = {
  zone_id: str,
  name: str,
  congestion_level: { type: "integer", minimum: 0, maximum: 100 },
  status: LEVEL,
  avg_speed: num,
  vehicle_count: int,
  incident_count: int,
  cameras: arr(str),
};

export const REALTIME = obj({ timestamp: time, zones: arr(obj(ZONE_B)) });

export const CONGESTION_ZONES = obj({
  timestamp: time,
  zones: arr(
    obj({
      zone_id: str,
      name: str,
      district: nullable(str),
      congestion_level: { type: "integer", minimum: 0, maximum: 100 },
      status: LEVEL,
      level: LEVEL,
      avg_speed: num,
      cameras: arr(str),
      polygon: arr({ type: "array", items: num, minItems: 2, maxItems: 2 }),
    }),
  ),
});

export const FORECAST = obj({
  zone_id: str,
  forecast: arr(obj({ timestamp: time, predicted_congestion: LEVEL, predicted_speed: num, confidence: num })),
});

export const FLOW_OBSERVATION = obj({
  id: str,
  type: { const: "TrafficFlowObserved" },
  camera_id: str,
  timestamp: time,
  date_observed_from: time,
  date_observed_to: time,
  location: LOCATION,
  intensity: int,
  average_speed: num,
  vehicle_types: obj({ car: int, motorcycle: int, truck: int, bus: int }),
  occupancy: num,
});

export const FLOW = {
  oneOf: [
    obj({ camera_id: str, interval: FLOW_INTERVAL, observations: arr(FLOW_OBSERVATION) }),
    obj({ data: arr(FLOW_OBSERVATION), pagination: CURSOR_PAGINATION }),
  ],
};

export const WEATHER = obj({
  timestamp: time,
  location: LOCATION,
  temperature: num,
  humidity: num,
  pressure: num,
  wind: obj({ speed: num, direction: num }),
  precipitation: num,
  conditions: enumOf([
    "clear",
    "partly_cloudy",
    "cloudy",
    "fog",
    "drizzle",
    "rain",
    "heavy_rain",
    "thunderstorm",
  ]),
  visibility: nullable(num),
  uv_index: num,
});

export const WEATHER_FORECAST = obj({
  forecast: arr(
    obj({
      timestamp: time,
      temperature: num,
      precipitation_probability: num,
      conditions: (WEATHER.properties as Record<string, JsonSchema>).conditions,
    }),
  ),
});

const POLLUTANTS = obj({ pm25: num, pm10: num, no2: num, so2: num, co: num, o3: num });

export const AIR_QUALITY = obj({
  timestamp: time,
  location: LOCATION,
  station: str,
  aqi: int,
  category: str,
  dominant_pollutant: enumOf(["pm25", "pm10", "no2", "so2", "co", "o3"]),
  pollutants: POLLUTANTS,
  health_implications: str,
});

export const PATTERNS = obj({
  patterns: arr(
    obj({
      type: str,
      location: LOCATION,
      time_pattern: str,
      confidence: num,
      severity: SEVERITY,
    }),
  ),
});

export const ZONE_ANALYTICS = obj({
  zone_id: str,
  period: obj({ start: time, end: time }),
  metrics: obj(
    {
      total_vehicles: int,
      avg_speed: num,
      peak_traffic: nullable(obj({ time: time, intensity: int })),
      accidents: int,
      congestion_hours: num,
    },
    [...ZONE_METRICS],
  ),
});
