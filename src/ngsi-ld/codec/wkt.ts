import type { JsonValue } from "./types";

/**
 * GeoJSON geometry (IETF RFC 7946 §3.1) to Well-Known Text (OGC 06-103r4 §7, as GeoSPARQL 1.1
 * §8.5.1 geo:wktLiteral without CRS IRI, i.e. CRS84 lon/lat order). Returns undefined for a
 * malformed geometry.
 */
export function geoJsonToWkt(g: JsonValue): string | undefined {
  if (g === null || typeof g !== "object" || Array.isArray(g)) return undefined;
  const c = g.coordinates;
  switch (g.type) {
    case "Point":
      return isPos(c) ? `POINT(${pos(c)})` : undefined;
    case "MultiPoint":
      return every(c, isPos) ? `MULTIPOINT(${c.map((p) => `(${pos(p)})`).join(", ")})` : undefined;
    case "LineString":
      return every(c, isPos) ? `LINESTRING${ring(c)}` : undefined;
    case "MultiLineString":
    case "Polygon": {
      if (!every(c, (r) => every(r, isPos))) return undefined;
      return `${g.type === "Polygon" ? "POLYGON" : "MULTILINESTRING"}(${c.map(ring).join(", ")})`;
    }
    case "MultiPolygon":
      if (!every(c, (p) => every(p, (r) => every(r, isPos)))) return undefined;
      return `MULTIPOLYGON(${c.map((p) => `(${p.map(ring).join(", ")})`).join(", ")})`;
    case "GeometryCollection": {
      const parts = Array.isArray(g.geometries) ? g.geometries.map(geoJsonToWkt) : [];
      return parts.every((p) => p !== undefined) ? `GEOMETRYCOLLECTION(${parts.join(", ")})` : undefined;
    }
    default:
      return undefined;
  }
}

type Pos = number[];

function isPos(p: unknown): p is Pos {
  return Array.isArray(p) && p.length >= 2 && p.every((n) => typeof n === "number");
}

function every<T>(a: unknown, f: (x: unknown) => x is T): a is T[];
function every(a: unknown, f: (x: unknown) => boolean): a is unknown[][];
function every(a: unknown, f: (x: unknown) => boolean): boolean {
  return Array.isArray(a) && a.every(f);
}

function pos(p: Pos): string {
  return p.join(" ");
}

function ring(r: Pos[]): string {
  return `(${r.map(pos).join(", ")})`;
}
