import { booleanIntersects, booleanPointInPolygon, distance, pointToLineDistance } from "@turf/turf";
import type { Geometry, Position } from "./geo-query";

const METRES = { units: "meters" } as const;

/**
 * The shortest distance in metres between two geometries, as `near` needs it (ETSI GS CIM 009 v1.8
 * §4.10: "the distance between the target geometry and the reference geometry"). Distances are
 * great-circle distances on the WGS84 mean sphere (turf: haversine, R = 6,371,008.8 m); a point to a
 * line segment is the geodesic distance to its nearest point. Geometries that intersect are 0 apart;
 * otherwise the shortest distance is reached at a vertex of one of them, so it is the least distance
 * of each vertex of one geometry to the other geometry.
 */
export function geometryDistance(a: Geometry, b: Geometry): number {
  if (a.type === "Point") return pointDistance(a.coordinates, b);
  if (b.type === "Point") return pointDistance(b.coordinates, a);
  if (booleanIntersects(a, b)) return 0;
  let best = Infinity;
  for (const v of vertices(a)) best = Math.min(best, pointDistance(v, b));
  for (const v of vertices(b)) best = Math.min(best, pointDistance(v, a));
  return best;
}

/** Distance in metres from position `p` to geometry `g` (0 inside a polygon). */
export function pointDistance(p: Position, g: Geometry): number {
  switch (g.type) {
    case "Point":
      return distance(p, g.coordinates, METRES);
    case "MultiPoint":
      return minOf(g.coordinates, (q) => distance(p, q, METRES));
    case "LineString":
      return lineDistance(p, g.coordinates);
    case "MultiLineString":
      return minOf(g.coordinates, (l) => lineDistance(p, l));
    case "Polygon":
      return polygonDistance(p, g.coordinates);
    case "MultiPolygon":
      return minOf(g.coordinates, (poly) => polygonDistance(p, poly));
  }
}

function lineDistance(p: Position, line: Position[]): number {
  return line.length === 1
    ? distance(p, line[0], METRES)
    : pointToLineDistance(p, { type: "LineString", coordinates: line }, METRES);
}

function polygonDistance(p: Position, rings: Position[][]): number {
  if (booleanPointInPolygon(p, { type: "Polygon", coordinates: rings })) return 0;
  return minOf(rings, (r) => lineDistance(p, r));
}

function minOf<T>(items: T[], f: (x: T) => number): number {
  let best = Infinity;
  for (const x of items) best = Math.min(best, f(x));
  return best;
}

/** Every position of a geometry. */
export function vertices(g: Geometry): Position[] {
  switch (g.type) {
    case "Point":
      return [g.coordinates];
    case "MultiPoint":
    case "LineString":
      return g.coordinates;
    case "MultiLineString":
    case "Polygon":
      return g.coordinates.flat();
    case "MultiPolygon":
      return g.coordinates.flat(2);
  }
}
