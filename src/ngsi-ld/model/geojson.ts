/**
 * GeoJSON geometry validation (RFC 7946 §3.1) for GeoProperty values (ETSI GS CIM 009 §4.7).
 * Returns an error message, or undefined when the geometry is valid.
 */
export function geometryError(g: unknown): string | undefined {
  if (typeof g !== "object" || g === null || Array.isArray(g)) return "a GeoJSON geometry object is expected";
  const geo = g as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  switch (geo.type) {
    case "Point":
      return positionError(geo.coordinates);
    case "MultiPoint":
    case "LineString":
      return arrayOf(geo.coordinates, geo.type === "LineString" ? 2 : 1, positionError);
    case "MultiLineString":
      return arrayOf(geo.coordinates, 1, (l) => arrayOf(l, 2, positionError));
    case "Polygon":
      return polygonError(geo.coordinates);
    case "MultiPolygon":
      return arrayOf(geo.coordinates, 1, polygonError);
    case "GeometryCollection":
      return arrayOf(geo.geometries, 0, geometryError);
    default:
      return `unknown geometry type ${JSON.stringify(geo.type)}`;
  }
}

function positionError(p: unknown): string | undefined {
  if (
    !Array.isArray(p) ||
    p.length < 2 ||
    p.length > 3 ||
    !p.every((n) => typeof n === "number" && isFinite(n))
  ) {
    return "a position must be an array of 2 or 3 numbers";
  }
  const [lon, lat] = p as number[];
  if (lon < -180 || lon > 180 || lat < -90 || lat > 90) return `position [${lon},${lat}] is out of range`;
  return undefined;
}

function polygonError(rings: unknown): string | undefined {
  return arrayOf(rings, 1, (ring) => {
    const e = arrayOf(ring, 4, positionError);
    if (e) return e;
    const r = ring as number[][];
    const a = r[0];
    const b = r[r.length - 1];
    return a[0] === b[0] && a[1] === b[1] ? undefined : "a linear ring must be closed";
  });
}

function arrayOf(a: unknown, min: number, each: (x: unknown) => string | undefined): string | undefined {
  if (!Array.isArray(a) || a.length < min) return `an array of at least ${min} elements is expected`;
  for (const x of a) {
    const e = each(x);
    if (e) return e;
  }
  return undefined;
}
