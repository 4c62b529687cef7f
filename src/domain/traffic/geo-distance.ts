import type { GeoPoint } from "./models";

/** Great-circle distance in metres (haversine, mean Earth radius). */
export function distanceMetres(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The item nearest to `p`, or undefined when there is none. */
export function nearest<T extends { location: GeoPoint }>(items: Iterable<T>, p: GeoPoint): T | undefined {
  let best: T | undefined;
  let d = Infinity;
  for (const x of items) {
    const dx = distanceMetres(x.location, p);
    if (dx < d) {
      d = dx;
      best = x;
    }
  }
  return best;
}

/** Ho Chi Minh City centre (Bến Thành / Quận 1), the default location of weather questions. */
export const CITY_CENTRE: GeoPoint = { lat: 10.7769, lon: 106.7009 };
