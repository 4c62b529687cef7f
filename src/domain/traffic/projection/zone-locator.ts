import { booleanPointInPolygon } from "@turf/turf";
import type { GeoPoint, Zone } from "../models";

/**
 * The zone whose polygon contains a point: a bounding-box prefilter, then turf's exact test on the
 * MultiPolygon. Undefined outside every zone (cameras just over the city border).
 */
export function locateZone(zones: Iterable<Zone>, p: GeoPoint): Zone | undefined {
  for (const z of zones) {
    const [x0, y0, x1, y1] = z.bbox;
    if (p.lon < x0 || p.lon > x1 || p.lat < y0 || p.lat > y1) continue;
    if (booleanPointInPolygon([p.lon, p.lat], { type: "MultiPolygon", coordinates: z.polygon })) return z;
  }
  return undefined;
}
