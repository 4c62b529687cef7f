import { booleanContains, booleanEqual, booleanIntersects, booleanOverlap } from "@turf/turf";
import { geometryError } from "../../model/geojson";
import { geometryDistance } from "./geo-distance";
import type { GeoQuery, Geometry } from "./geo-query";

/**
 * True if the target geometry `value` (an entity's GeoProperty value) stands in the relationship of
 * `q` to its reference geometry (ETSI GS CIM 009 v1.8 §4.10):
 * - `near;maxDistance==d`: the distance between the target and the reference is at most d metres;
 *   `minDistance==d`: at least d metres; both bounds may be given (see {@link geometryDistance}).
 * - `within`: the target lies within the reference; `contains`: the target contains the reference.
 * - `intersects` / `disjoint`: they share at least one point / none.
 * - `equals`: same geometry (turf `booleanEqual`, coordinates to 6 decimals; a one-part Multi*
 *   equals its single part). `overlaps`: same dimension, interiors meet, neither contains the other.
 *
 * Topological relations are evaluated by @turf/turf on lon/lat coordinates with straight edges (IETF
 * RFC 7946 §3.1.1). Every pair of the six §4.10 geometry types is answered; where turf has no
 * implementation the relation is composed from parts: a Multi* contained geometry is contained when
 * every part is; a MultiLineString/MultiPoint container contains a geometry when one of its parts
 * does (so a line running along two touching parts is not seen as contained: a documented
 * approximation); a geometry never contains one of higher dimension; a single Point never overlaps.
 * A target GeometryCollection matches `near`, `intersects` and `overlaps` through any member,
 * `within` and `disjoint` through all members, `contains` through one member, `equals` never.
 * A target that is not a valid GeoJSON geometry matches nothing.
 */
export function matchesGeoQuery(value: unknown, q: GeoQuery): boolean {
  if (geometryError(value) !== undefined) return false;
  const target = value as Geometry | Collection;
  if (target.type === "GeometryCollection") return collectionMatches(target, q);
  return relationHolds(target, q);
}

interface Collection {
  type: "GeometryCollection";
  geometries: (Geometry | Collection)[];
}

function collectionMatches(c: Collection, q: GeoQuery): boolean {
  const parts = flattenCollection(c);
  switch (q.georel.name) {
    case "within":
    case "disjoint":
      return parts.length > 0 && parts.every((g) => relationHolds(g, q));
    case "equals":
      return false;
    case "near": {
      const d = Math.min(...parts.map((g) => geometryDistance(g, q.geometry)));
      return inRange(d, q.georel);
    }
    default:
      return parts.some((g) => relationHolds(g, q));
  }
}

function flattenCollection(c: Collection): Geometry[] {
  return c.geometries.flatMap((g) => (g.type === "GeometryCollection" ? flattenCollection(g) : [g]));
}

function relationHolds(target: Geometry, q: GeoQuery): boolean {
  const ref = q.geometry;
  switch (q.georel.name) {
    case "near":
      return inRange(geometryDistance(target, ref), q.georel);
    case "within":
      return contains(ref, target);
    case "contains":
      return contains(target, ref);
    case "intersects":
      return booleanIntersects(target, ref);
    case "disjoint":
      return !booleanIntersects(target, ref);
    case "equals":
      return booleanEqual(single(target), single(ref));
    case "overlaps":
      return overlaps(target, ref);
  }
}

function inRange(d: number, rel: { maxDistance?: number; minDistance?: number }): boolean {
  return (
    (rel.maxDistance === undefined || d <= rel.maxDistance) &&
    (rel.minDistance === undefined || d >= rel.minDistance)
  );
}

/** Container types turf's booleanContains accepts, with the contained types it accepts for each. */
const TURF_CONTAINS: Record<string, ReadonlySet<string>> = {
  Point: new Set(["Point"]),
  MultiPoint: new Set(["Point", "MultiPoint"]),
  LineString: new Set(["Point", "LineString", "MultiPoint"]),
  Polygon: new Set(["Point", "LineString", "Polygon", "MultiPoint", "MultiPolygon"]),
  MultiPolygon: new Set(["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"]),
};

/** True if `a` contains `b` (OGC SFA: no point of b outside a, interiors meet). */
export function contains(a: Geometry, b: Geometry): boolean {
  if (TURF_CONTAINS[a.type]?.has(b.type)) return booleanContains(a, b);
  if (dimension(b) > dimension(a)) return false;
  const bParts = parts(b);
  if (bParts.length > 1 || b.type !== bParts[0]?.type) return bParts.every((p) => contains(a, p));
  return parts(a).some((p) => contains(p, b));
}

function overlaps(a: Geometry, b: Geometry): boolean {
  if (dimension(a) !== dimension(b) || a.type === "Point" || b.type === "Point") return false;
  return booleanOverlap(a, b);
}

/** Topological dimension: 0 for points, 1 for lines, 2 for polygons. */
function dimension(g: Geometry): number {
  return g.type.endsWith("Point") ? 0 : g.type.endsWith("LineString") ? 1 : 2;
}

/** The single geometries of a Multi* (a single geometry is its own only part). */
function parts(g: Geometry): Geometry[] {
  switch (g.type) {
    case "MultiPoint":
      return g.coordinates.map((c) => ({ type: "Point", coordinates: c }));
    case "MultiLineString":
      return g.coordinates.map((c) => ({ type: "LineString", coordinates: c }));
    case "MultiPolygon":
      return g.coordinates.map((c) => ({ type: "Polygon", coordinates: c }));
    default:
      return [g];
  }
}

/** A one-part Multi* as its single part, for `equals`. */
function single(g: Geometry): Geometry {
  const p = parts(g);
  return p.length === 1 ? p[0] : g;
}
