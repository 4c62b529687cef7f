/**
 * GeoJSON geometry validation (RFC 7946 §3.1) for GeoProperty values (ETSI GS CIM 009 §4.7).
 * Returns an error message, or undefined when the geometry is valid. Beyond the shape, positions are
 * finite and in range, a LineString has two distinct positions, and a linear ring is closed, has at least
 * four positions, three of them distinct, and an area: degenerate geometries made every later geo-query
 * over them (georel=equals, the subscription matcher) fail.
 */
export function geometryError(g: unknown): string | undefined {
  if (typeof g !== "object" || g === null || Array.isArray(g)) return "a GeoJSON geometry object is expected";
  const geo = g as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  switch (geo.type) {
    case "Point":
      return positionError(geo.coordinates);
    case "MultiPoint":
      return arrayOf(geo.coordinates, 1, positionError);
    case "LineString":
      return lineError(geo.coordinates);
    case "MultiLineString":
      return arrayOf(geo.coordinates, 1, lineError);
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
    if (a[0] !== b[0] || a[1] !== b[1]) return "a linear ring must be closed";
    if (distinctPositions(r, 3) < 3) return "a linear ring needs at least three distinct positions";
    return ringArea(r) > 0 ? undefined : "a linear ring must enclose an area (its positions are collinear)";
  });
}

function lineError(line: unknown): string | undefined {
  const e = arrayOf(line, 2, positionError);
  if (e) return e;
  return distinctPositions(line as number[][], 2) < 2 ? "a line needs two distinct positions" : undefined;
}

/** How many distinct [lon, lat] positions `ps` holds, counting up to `enough`. */
function distinctPositions(ps: number[][], enough: number): number {
  const seen = new Set<string>();
  for (const p of ps) {
    seen.add(`${p[0]},${p[1]}`);
    if (seen.size >= enough) break;
  }
  return seen.size;
}

/** Absolute area of a ring by the shoelace formula, relative to its first position (degrees squared). */
function ringArea(r: number[][]): number {
  const [x0, y0] = r[0];
  let twice = 0;
  for (let i = 1; i + 1 < r.length; i++) {
    twice += (r[i][0] - x0) * (r[i + 1][1] - y0) - (r[i + 1][0] - x0) * (r[i][1] - y0);
  }
  return Math.abs(twice) / 2;
}

function arrayOf(a: unknown, min: number, each: (x: unknown) => string | undefined): string | undefined {
  if (!Array.isArray(a) || a.length < min) return `an array of at least ${min} elements is expected`;
  for (const x of a) {
    const e = each(x);
    if (e) return e;
  }
  return undefined;
}
