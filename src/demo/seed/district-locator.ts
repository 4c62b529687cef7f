import { booleanPointInPolygon } from "@turf/turf";
import type { DistrictRecord } from "./districts";

/** Finds the district whose polygon contains a point (lon, lat), or undefined. */
export type DistrictLocator = (lon: number, lat: number) => DistrictRecord | undefined;

/**
 * A point-in-polygon locator over the districts: a bounding-box prefilter (each point is tested
 * against the 1 to 3 districts whose box holds it, not all 22), then turf's exact test on the
 * MultiPolygon. Points on no polygon (cameras just over the city border) get undefined.
 */
export function createDistrictLocator(districts: readonly DistrictRecord[]): DistrictLocator {
  return (lon, lat) => {
    for (const d of districts) {
      const [x0, y0, x1, y1] = d.bbox;
      if (lon < x0 || lon > x1 || lat < y0 || lat > y1) continue;
      if (booleanPointInPolygon([lon, lat], d.geometry)) return d;
    }
    return undefined;
  };
}
