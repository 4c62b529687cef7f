import type { JsonSchema } from "../rest/schema-route";

/**
 * The query parameters of variant B (docs/rest.md "REST variant B") as JSON
 * Schemas: the routes validate with them and the OpenAPI document publishes them. Unknown query
 * parameters are ignored.
 */

const time = { type: "string", format: "date-time" };
/** A string enumeration. */
export const enumOf = (values: readonly string[]): JsonSchema => ({ type: "string", enum: [...values] });

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
