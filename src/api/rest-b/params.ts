import { AppError } from "../../errors";
import type { GeoPoint, Zone } from "../../domain/traffic";

/** Longest period a B statistic may span. */
const MAX_SPAN_MS = 366 * 86_400_000;
const DAY = 86_400_000;

const bad = (parameter: string, value: unknown, expected: string, message?: string) =>
  new AppError("BadRequestData", message ?? `Invalid value of ${parameter}: expected ${expected}`, {
    parameter,
    value,
    expected,
  });

/** An ISO 8601 value (format-checked by the schema) in epoch ms; a date-time without offset is UTC. */
export function timeParam(v: unknown): number | undefined {
  if (typeof v !== "string") return undefined;
  const zoned = !v.includes("T") || /(Z|[+-]\d{2}:?\d{2})$/i.test(v);
  return Date.parse(zoned ? v : `${v}Z`);
}

/**
 * `start_time`..`end_time`, each optional: the end defaults to now, the start to `defaultSpan` before
 * the end. 400 INVALID_PARAMETER when the end is before the start or the span passes 366 days.
 */
export function period(
  q: Record<string, unknown>,
  now: number,
  defaultSpan = DAY,
): { from: number; to: number } {
  const to = timeParam(q.end_time) ?? now;
  const from = timeParam(q.start_time) ?? to - defaultSpan;
  if (to < from)
    throw bad("end_time", q.end_time, "a date-time not before start_time", "end_time is before start_time");
  if (to - from > MAX_SPAN_MS) throw bad("end_time", q.end_time ?? null, "at most 366 days after start_time");
  return { from, to };
}

function point(lat: number, lon: number, raw: string, name: string): GeoPoint {
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) {
    throw bad(name, raw, "lat,lon with -90 <= lat <= 90 and -180 <= lon <= 180");
  }
  return { lat, lon };
}

/** `lat,lon` (pattern-checked by the schema) with range checks. */
export function latLon(v: unknown, name = "location"): GeoPoint | undefined {
  if (typeof v !== "string") return undefined;
  const [lat, lon] = v.split(",").map((x) => Number(x.trim()));
  return point(lat, lon, v, name);
}

/** `lat,lon,radius_km` (pattern-checked by the schema): the centre and the radius in metres (0 < r <= 100 km). */
export function latLonRadius(v: unknown): { centre: GeoPoint; metres: number } | undefined {
  if (typeof v !== "string") return undefined;
  const [lat, lon, km] = v.split(",").map((x) => Number(x.trim()));
  const centre = point(lat, lon, v, "location");
  if (!(km > 0 && km <= 100)) throw bad("location", v, "lat,lon,radius_km with 0 < radius_km <= 100");
  return { centre, metres: km * 1000 };
}

/** `lat,lon` or a zone id or name (docs/rest.md, B's conventions): the point, or the zone's centroid. */
export function latLonOrZone(v: unknown, resolve: (name: string) => Zone): GeoPoint | undefined {
  if (typeof v !== "string") return undefined;
  const parts = v.split(",").map((x) => x.trim());
  if (parts.length === 2 && parts.every((x) => /^[-+]?\d{1,3}(\.\d+)?$/.test(x))) {
    return point(Number(parts[0]), Number(parts[1]), v, "location");
  }
  return resolve(v).centroid;
}
