import { badRequest } from "../../../errors";
import type { CompiledContext } from "../../../rdf/contexts/compiled-context";
import { canonicalName } from "../../model/canonical-names";
import { geometryError } from "../../model/geojson";
import { isValidName } from "../../model/uri";
import {
  DEFAULT_GEOPROPERTY,
  type GeoQuery,
  type GeoRel,
  type Geometry,
  type GeometryType,
} from "./geo-query";

/**
 * The raw members of a geo-query: the query parameters of GET /entities (ETSI GS CIM 009 v1.8
 * §6.4.3.2, all strings) or the `geoQ` member of POST /entityOperations/query (§5.2.13, where
 * `coordinates` is a JSON array, or a string holding one).
 */
export interface GeoQueryParams {
  georel?: unknown;
  geometry?: unknown;
  coordinates?: unknown;
  geoproperty?: unknown;
}

/** Options of {@link parseGeoQuery}. */
export interface ParseGeoQueryOptions {
  /** Prefix of the member names in error details, e.g. "geoQ" gives "geoQ.coordinates". */
  in?: string;
}

const GEOREL_NAMES = new Set(["near", "within", "contains", "intersects", "disjoint", "equals", "overlaps"]);

/** Nesting depth of the coordinates array of each geometry type (RFC 7946 §3.1.2 to §3.1.7). */
const DEPTH: Record<GeometryType, number> = {
  Point: 1,
  MultiPoint: 2,
  LineString: 2,
  MultiLineString: 3,
  Polygon: 3,
  MultiPolygon: 4,
};
const GEOMETRY_TYPES: ReadonlySet<string> = new Set(Object.keys(DEPTH));
const NUMBER = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Parses and validates a geo-query (ETSI GS CIM 009 v1.8 §4.10 grammar, §5.2.13 GeoQuery). Returns
 * undefined when none of georel, geometry, coordinates is given. Every malformed piece (unknown
 * georel, near without a distance, a bad number, a geometry type outside §4.10, coordinates that are
 * not JSON or do not fit the geometry, an unclosed ring, a missing member, a bad geoproperty name) is
 * a 400 BadRequestData that says which member is wrong and why. The geoproperty name is expanded with
 * `ldc` like every attribute name, so a term and its IRI name one GeoProperty.
 */
export function parseGeoQuery(
  params: GeoQueryParams,
  ldc: CompiledContext,
  opts: ParseGeoQueryOptions = {},
): GeoQuery | undefined {
  const name = (m: string) => (opts.in ? `${opts.in}.${m}` : m);
  const fail = (m: string, message: string, value?: unknown) =>
    badRequest(message, value === undefined ? { parameter: name(m) } : { parameter: name(m), value });
  const { georel, geometry, coordinates, geoproperty } = params;
  if (georel === undefined && geometry === undefined && coordinates === undefined) {
    if (geoproperty !== undefined)
      throw fail("georel", `${name("geoproperty")} needs a georel, geometry and coordinates`);
    return undefined;
  }
  for (const [m, v] of [
    ["georel", georel],
    ["geometry", geometry],
    ["coordinates", coordinates],
  ] as const) {
    if (v === undefined || v === "")
      throw fail(m, `A geo-query needs ${name(m)} (with georel, geometry and coordinates)`);
  }
  if (typeof georel !== "string") throw fail("georel", `${name("georel")} must be a string`, georel);
  if (typeof geometry !== "string" || !GEOMETRY_TYPES.has(geometry)) {
    throw fail(
      "geometry",
      `${name("geometry")} must be one of ${[...GEOMETRY_TYPES].join(", ")}, got ${JSON.stringify(geometry)}`,
      geometry,
    );
  }
  const prop = geoproperty ?? DEFAULT_GEOPROPERTY;
  if (typeof prop !== "string" || !isValidName(prop)) {
    throw fail("geoproperty", `${name("geoproperty")} is not a valid attribute name`, prop);
  }
  return {
    georel: parseGeoRel(georel, (message) => fail("georel", message, georel)),
    geometry: parseGeometry(geometry as GeometryType, coordinates, (message) =>
      fail("coordinates", message, coordinates),
    ),
    geoproperty: canonicalName(ldc, prop),
    geopropertyIri: ldc.expandTerm(prop),
  };
}

/** The `georel` grammar of §4.10: `near;maxDistance==N`, `near;minDistance==N` (both may be given), or a bare relationship. */
function parseGeoRel(text: string, fail: (message: string) => Error): GeoRel {
  const [rel, ...parts] = text.split(";").map((s) => s.trim());
  if (!GEOREL_NAMES.has(rel)) {
    throw fail(`Unknown georel ${JSON.stringify(rel)}: expected one of ${[...GEOREL_NAMES].join(", ")}`);
  }
  if (rel !== "near") {
    if (parts.length > 0)
      throw fail(`georel ${rel} takes no modifiers, got ${JSON.stringify(parts.join(";"))}`);
    return { name: rel as Exclude<GeoRel["name"], "near"> };
  }
  const near: { name: "near"; maxDistance?: number; minDistance?: number } = { name: "near" };
  for (const part of parts) {
    const m = /^(maxDistance|minDistance)==(.*)$/.exec(part);
    if (!m)
      throw fail(
        `georel near expects maxDistance==<metres> or minDistance==<metres>, got ${JSON.stringify(part)}`,
      );
    const key = m[1] as "maxDistance" | "minDistance";
    if (near[key] !== undefined) throw fail(`georel near gives ${key} twice`);
    if (!NUMBER.test(m[2]) || !isFinite(Number(m[2]))) {
      throw fail(`${key} must be a non-negative number of metres, got ${JSON.stringify(m[2])}`);
    }
    near[key] = Number(m[2]);
  }
  if (near.maxDistance === undefined && near.minDistance === undefined) {
    throw fail("georel near needs maxDistance==<metres> and/or minDistance==<metres>");
  }
  if (
    near.maxDistance !== undefined &&
    near.minDistance !== undefined &&
    near.minDistance > near.maxDistance
  ) {
    throw fail(`minDistance ${near.minDistance} is larger than maxDistance ${near.maxDistance}`);
  }
  return near;
}

/** The reference geometry: `coordinates` (JSON text or array) checked against `type` per RFC 7946 §3.1. */
function parseGeometry(type: GeometryType, coordinates: unknown, fail: (message: string) => Error): Geometry {
  let c = coordinates;
  if (typeof c === "string") {
    try {
      c = JSON.parse(c) as unknown;
    } catch {
      throw fail(
        `coordinates must be a JSON array such as [106.7,10.78], got ${JSON.stringify(coordinates)}`,
      );
    }
  }
  if (!Array.isArray(c)) throw fail("coordinates must be a JSON array");
  const depth = arrayDepth(c);
  if (depth !== DEPTH[type]) {
    throw fail(
      `coordinates do not fit geometry ${type}: it needs arrays nested ${DEPTH[type]} deep ` +
        `(e.g. ${example(type)}), got ${depth} deep`,
    );
  }
  const geometry = { type, coordinates: c } as Geometry;
  const e = geometryError(geometry);
  if (e !== undefined) throw fail(`coordinates are not a valid ${type}: ${e}`);
  return geometry;
}

/** Nesting depth of arrays along the first elements (a position [x,y] has depth 1). */
function arrayDepth(a: unknown): number {
  let d = 0;
  for (let x = a; Array.isArray(x); x = x[0]) d++;
  return d;
}

function example(type: GeometryType): string {
  const p = "[106.7,10.78]";
  const ring = `[${p},[106.71,10.78],[106.71,10.79],${p}]`;
  return {
    Point: p,
    MultiPoint: `[${p}]`,
    LineString: `[${p},[106.71,10.79]]`,
    MultiLineString: `[[${p},[106.71,10.79]]]`,
    Polygon: `[${ring}]`,
    MultiPolygon: `[[${ring}]]`,
  }[type];
}
