import { BASE_TIME, CORE_CONTEXT_URL, type EntityJson } from "./entities";

/**
 * The entities of the query scenarios: 10 attributes each, two types of equal
 * size (`Vehicle` for even numbers, `TrafficCamera` for odd ones), Points spread uniformly over the
 * HCMC bounding box (10.35–11.16 N, 106.36–107.03 E). `speed` is uniform in [0, 100) and `status`
 * is "active" for one entity in three, so `type=Vehicle&q=speed>50;status=="active"` matches about
 * 1 entity in 12 of the store.
 */

const STATUS = ["active", "inactive", "maintenance"];

function rand(seed: number): number {
  let t = (seed + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/** Id of query entity `n`. */
export function queryEntityId(n: number): string {
  return `urn:ngsi-ld:${n % 2 === 0 ? "Vehicle" : "TrafficCamera"}:q${n}`;
}

/** Query entity number `n` (deterministic), with the core context in the body. */
export function makeQueryEntity(n: number): EntityJson {
  const r = (k: number): number => rand(n * 16 + k + 7);
  const observedAt = new Date(BASE_TIME + (n % 86400) * 1000).toISOString();
  return {
    id: queryEntityId(n),
    type: n % 2 === 0 ? "Vehicle" : "TrafficCamera",
    name: { type: "Property", value: `Unit ${n}` },
    status: { type: "Property", value: STATUS[Math.floor(r(1) * 3)] },
    speed: { type: "Property", value: round(r(2) * 100, 1), unitCode: "KMH", observedAt },
    intensity: { type: "Property", value: Math.floor(r(3) * 2000), observedAt },
    lanes: { type: "Property", value: 1 + (n % 4) },
    congested: { type: "Property", value: r(4) < 0.2 },
    district: { type: "Property", value: `District ${1 + (n % 24)}` },
    installedAt: { type: "Property", value: { "@type": "DateTime", "@value": observedAt } },
    refRoadSegment: { type: "Relationship", object: `urn:ngsi-ld:RoadSegment:${n % 5000}` },
    location: {
      type: "GeoProperty",
      value: { type: "Point", coordinates: [round(106.36 + r(5) * 0.67, 6), round(10.35 + r(6) * 0.81, 6)] },
    },
    "@context": CORE_CONTEXT_URL,
  };
}

/** Query entities `from` .. `from + count - 1`. */
export function makeQueryEntities(from: number, count: number): EntityJson[] {
  return Array.from({ length: count }, (_, i) => makeQueryEntity(from + i));
}
