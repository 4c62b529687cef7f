import type { GeoPoint } from "../../domain/traffic";

/**
 * The JSON values both REST variants write the same way (docs/rest.md "Conventions"): timestamps,
 * rounded figures and the Location object.
 */

/** An epoch-ms time as an ISO 8601 UTC string. */
export const iso = (t: number): string => new Date(t).toISOString();

/** `x` rounded to `d` decimals. */
export const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;

/** The Location object of an answer; `address` only where one is known. */
export function location(p: GeoPoint, address?: string) {
  return address === undefined ? { lat: p.lat, lon: p.lon } : { lat: p.lat, lon: p.lon, address };
}
