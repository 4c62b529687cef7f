import { vertices } from "./geo-distance";
import type { GeoQuery, Geometry } from "./geo-query";

/** An axis-aligned box in lon/lat degrees, as rbush stores it. */
export interface BBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The mean Earth radius turf uses for distances (metres). */
const EARTH_RADIUS_M = 6_371_008.8;
const WORLD: BBox = { minX: -180, minY: -90, maxX: 180, maxY: 90 };

/**
 * The bounding box of a GeoJSON geometry (IETF RFC 7946 §5, without antimeridian wrapping), a
 * GeometryCollection included; undefined when it has no positions.
 */
export function geometryBBox(
  g: Geometry | { type: "GeometryCollection"; geometries: unknown[] },
): BBox | undefined {
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const add = (x: Geometry | { type: "GeometryCollection"; geometries: unknown[] }): void => {
    if (x.type === "GeometryCollection") {
      for (const m of x.geometries) add(m as Geometry);
      return;
    }
    for (const [lon, lat] of vertices(x)) {
      if (lon < box.minX) box.minX = lon;
      if (lon > box.maxX) box.maxX = lon;
      if (lat < box.minY) box.minY = lat;
      if (lat > box.maxY) box.maxY = lat;
    }
  };
  add(g);
  return box.minX <= box.maxX ? box : undefined;
}

/**
 * The box every target geometry that can match `q` must meet (ETSI GS CIM 009 v1.8 §4.10), or
 * undefined when boxes cannot narrow the search (`disjoint`, `near` with only `minDistance`).
 * - within / contains / intersects / equals / overlaps: the target shares at least one point with the
 *   reference, so its box meets the reference's box.
 * - near;maxDistance==d: the reference box grown by d. In latitude by d/R radians; in longitude by the
 *   widest longitude span of a spherical cap of radius d centred at the box's latitude furthest from the
 *   equator, asin(sin(d/R) / cos φ), which bounds the cap at every latitude of the box. Near a pole,
 *   or across the antimeridian, the box spans every longitude. A hair of margin absorbs rounding.
 */
export function searchBox(q: GeoQuery): BBox | undefined {
  const rel = q.georel;
  if (rel.name === "disjoint") return undefined;
  const ref = geometryBBox(q.geometry) as BBox;
  if (rel.name !== "near") return ref;
  if (rel.maxDistance === undefined) return undefined;
  const delta = (rel.maxDistance / EARTH_RADIUS_M) * (1 + 1e-9) + 1e-12;
  const dLat = degrees(delta);
  const minY = ref.minY - dLat;
  const maxY = ref.maxY + dLat;
  if (minY <= -90 || maxY >= 90) return { ...WORLD, minY: Math.max(minY, -90), maxY: Math.min(maxY, 90) };
  const phi = radians(Math.max(Math.abs(ref.minY), Math.abs(ref.maxY)));
  const s = Math.sin(delta) / Math.cos(phi);
  if (delta >= Math.PI / 2 || s >= 1) return { minX: -180, maxX: 180, minY, maxY };
  const dLon = degrees(Math.asin(s)) + 1e-9;
  const minX = ref.minX - dLon;
  const maxX = ref.maxX + dLon;
  if (minX < -180 || maxX > 180) return { minX: -180, maxX: 180, minY, maxY };
  return { minX, minY, maxX, maxY };
}

function degrees(r: number): number {
  return (r * 180) / Math.PI;
}

function radians(d: number): number {
  return (d * Math.PI) / 180;
}
