import type { JsonSchema } from "../rest/schema-route";
import {
  ACCIDENT_STATUS,
  CAMERA_STATUS,
  enumOf,
  FLOW_INTERVAL,
  LEVEL,
  SEVERITY,
  ZONE_METRICS,
} from "./query-schemas";

/**
 * The response bodies of variant B (docs/rest.md "REST variant B") as
 * closed JSON Schemas (no field beyond those listed): the OpenAPI document publishes them and the
 * tests hold every answer to them.
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
