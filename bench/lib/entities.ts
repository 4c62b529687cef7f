/**
 * The benchmark's entity: a 10-attribute TrafficFlowObserved (after the FIWARE Smart Data Model
 * `dataModel.Transportation/TrafficFlowObserved`), deterministic in its number `n` so every run and
 * every scenario (HTTP and raw store ingest) sees the same entities.
 *
 * Attributes: 8 Properties (strings, integers, doubles, a boolean; `observedAt` on the measured
 * ones, `unitCode` on speed and length), 1 Relationship (`refRoadSegment`) and 1 GeoProperty
 * (`location`, a Point inside the Ho Chi Minh City bounding box 10.35–11.16 N, 106.36–107.03 E).
 */

/** URL of the NGSI-LD core context the bodies carry (served locally by the broker). */
import { CORE_CONTEXT_URL } from "../../src/rdf/contexts/core";

export { CORE_CONTEXT_URL };

/** JSON value, as the entities are written. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A normalized NGSI-LD entity as a JSON object. */
export type EntityJson = { [key: string]: Json };

/** Entity id of benchmark entity number `n`. */
export function entityId(n: number): string {
  return `urn:ngsi-ld:TrafficFlowObserved:${n}`;
}

/** A deterministic pseudo-random number in [0, 1) from an integer seed (mulberry32 step). */
function rand(seed: number): number {
  let t = (seed + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/**
 * Start of the day of `observedAt` times: the hour a day before the run started, so every instance is
 * inside the temporal history's raw window as a live feed's are. With a fixed past date the first
 * retention pass after a restart rolls the whole history into hourly and daily aggregates, which is the
 * retention scenario's work (bench/retention.ts), not the broker's.
 */
export const BASE_TIME = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 86_400_000;
const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/**
 * Benchmark entity number `n`, normalized. With `withContext` the body carries
 * `@context` (for `Content-Type: application/ld+json`).
 */
export function makeEntity(n: number, withContext: boolean): EntityJson {
  const r = (k: number): number => rand(n * 16 + k);
  const observedAt = new Date(BASE_TIME + (n % 86400) * 1000).toISOString();
  const speed = round(10 + r(1) * 50, 1);
  const e: EntityJson = {
    id: entityId(n),
    type: "TrafficFlowObserved",
    name: { type: "Property", value: `Lane ${n % 4} of road segment ${n % 5000}` },
    laneDirection: { type: "Property", value: n % 2 === 0 ? "forward" : "backward" },
    laneId: { type: "Property", value: n % 4 },
    intensity: { type: "Property", value: Math.floor(r(2) * 2000), observedAt },
    occupancy: { type: "Property", value: round(0.05 + r(3) * 0.9, 3), observedAt },
    averageVehicleSpeed: { type: "Property", value: speed, unitCode: "KMH", observedAt },
    averageVehicleLength: { type: "Property", value: round(2 + r(4) * 8, 2), unitCode: "MTR", observedAt },
    congested: { type: "Property", value: speed < 20, observedAt },
    refRoadSegment: { type: "Relationship", object: `urn:ngsi-ld:RoadSegment:${n % 5000}` },
    location: {
      type: "GeoProperty",
      value: { type: "Point", coordinates: [round(106.36 + r(5) * 0.67, 6), round(10.35 + r(6) * 0.81, 6)] },
    },
  };
  if (withContext) e["@context"] = CORE_CONTEXT_URL;
  return e;
}

/** Entities `from` .. `from + count - 1`. */
export function makeEntities(from: number, count: number, withContext: boolean): EntityJson[] {
  const out: EntityJson[] = [];
  for (let i = 0; i < count; i++) out.push(makeEntity(from + i, withContext));
  return out;
}
