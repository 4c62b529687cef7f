import type { GeoQuery, Geometry } from "../../../../../src/ngsi-ld/query/geo";
import { Rng } from "../../codec/entity-generator";

/**
 * Seeded random geometries and geo-queries over the Ho Chi Minh City box (10.35 to 11.16 N, 106.36 to
 * 107.03 E), for the model-based tests of the geo index.
 */
export const LOCATION = "https://uri.etsi.org/ngsi-ld/location";

const round = (x: number) => Math.round(x * 1e5) / 1e5;

/** A random position in the HCMC box. */
export function position(rng: Rng): number[] {
  return [round(106.36 + rng.next() * 0.67), round(10.35 + rng.next() * 0.81)];
}

function near(rng: Rng, p: number[], span: number): number[] {
  return [round(p[0] + (rng.next() - 0.5) * span), round(p[1] + (rng.next() - 0.5) * span)];
}

function rect(rng: Rng, span: number): number[][][] {
  const [x, y] = position(rng);
  const w = round(0.001 + rng.next() * span);
  const h = round(0.001 + rng.next() * span);
  return [
    [
      [x, y],
      [round(x + w), y],
      [round(x + w), round(y + h)],
      [x, round(y + h)],
      [x, y],
    ],
  ];
}

function triangle(rng: Rng, span: number): number[][][] {
  const [x, y] = position(rng);
  const a = round(0.001 + rng.next() * span);
  return [
    [
      [x, y],
      [round(x + a), y],
      [x, round(y + a)],
      [x, y],
    ],
  ];
}

/** A random geometry of one of the six §4.10 types; `span` is its size in degrees. */
export function geometry(rng: Rng, span = 0.05): Geometry {
  const p = position(rng);
  switch (rng.int(8)) {
    case 0:
      return { type: "MultiPoint", coordinates: [p, near(rng, p, span), near(rng, p, span)] };
    case 1:
      return { type: "LineString", coordinates: [p, near(rng, p, span), near(rng, p, span)] };
    case 2:
      return {
        type: "MultiLineString",
        coordinates: [
          [p, near(rng, p, span)],
          [near(rng, p, span), near(rng, p, span)],
        ],
      };
    case 3:
      return { type: "Polygon", coordinates: rect(rng, span) };
    case 4:
      return { type: "Polygon", coordinates: triangle(rng, span) };
    case 5:
      return { type: "MultiPolygon", coordinates: [rect(rng, span), rect(rng, span)] };
    default:
      return { type: "Point", coordinates: p };
  }
}

/** A random geo-query; sometimes its reference is one of `known` (so equals and contains can hit). */
export function geoQuery(rng: Rng, known: Geometry[], geopropertyIri = LOCATION): GeoQuery {
  const name = rng.pick([
    "near",
    "near",
    "within",
    "contains",
    "intersects",
    "disjoint",
    "equals",
    "overlaps",
  ] as const);
  const reuse = known.length > 0 && rng.chance(name === "equals" || name === "contains" ? 0.7 : 0.2);
  const ref = reuse
    ? rng.pick(known)
    : geometry(rng, name === "within" || name === "intersects" ? 0.3 : 0.08);
  const georel: GeoQuery["georel"] =
    name !== "near"
      ? { name }
      : rng.chance(0.15)
        ? { name, minDistance: rng.int(40_000) }
        : rng.chance(0.2)
          ? { name, minDistance: rng.int(1_000), maxDistance: 1_000 + rng.int(10_000) }
          : { name, maxDistance: rng.int(15_000) };
  return { georel, geometry: ref, geoproperty: "location", geopropertyIri };
}
