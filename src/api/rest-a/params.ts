import { AppError } from "../../errors";

/** An ISO 8601 parameter (already format-checked by the schema) in epoch ms. */
export function timeParam(v: unknown): number | undefined {
  return typeof v === "string" ? Date.parse(v) : undefined;
}

/** Checks that `end_date` is not before `start_date` (§7: INVALID_PARAMETER). */
export function checkPeriod(from: number | undefined, to: number | undefined, endName = "end_date"): void {
  if (from !== undefined && to !== undefined && to < from) {
    throw new AppError("BadRequestData", `${endName} is before the start of the period`, {
      parameter: endName,
      value: new Date(to).toISOString(),
      expected: "a date-time not before the start of the period",
    });
  }
}

/** Longest period a statistic may span (keeps answers bounded). */
const MAX_SPAN_MS = 366 * 86_400_000;

/** A required period, checked for order and span. */
export function period(q: Record<string, unknown>): { from: number; to: number } {
  const from = timeParam(q.start_date)!;
  const to = timeParam(q.end_date)!;
  checkPeriod(from, to);
  if (to - from > MAX_SPAN_MS) {
    throw new AppError("BadRequestData", "The period is longer than 366 days", {
      parameter: "end_date",
      value: q.end_date,
      expected: "at most 366 days after start_date",
    });
  }
  return { from, to };
}

/** "lat,lon" (pattern-checked by the schema) with range checks. */
export function latLon(v: unknown): { lat: number; lon: number } | undefined {
  if (typeof v !== "string") return undefined;
  const [lat, lon] = v.split(",").map((x) => Number(x.trim()));
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) {
    throw new AppError("BadRequestData", "location is out of range", {
      parameter: "location",
      value: v,
      expected: "lat,lon with -90 <= lat <= 90 and -180 <= lon <= 180",
    });
  }
  return { lat, lon };
}
