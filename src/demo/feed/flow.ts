import {
  dateTime,
  entity,
  geoProperty,
  point,
  property,
  relationship,
  type NgsiLdEntityDoc,
} from "../seed/ngsi-ld-doc";
import type { FeedCamera } from "./feed-camera";
import { gaussian, poisson, rngFor } from "./prng";
import { localHour, trafficDemand } from "./time-profile";
import { round } from "./numbers";

/** Fixed traits of a camera's road, drawn once from the seed. */
interface RoadTraits {
  peakRate: number; // vehicles per hour at the daily peak
  freeSpeed: number; // km/h with no traffic
  motorcycleShare: number;
  busShare: number;
  truckShare: number;
}

function roadTraits(seed: number, cameraId: string): RoadTraits {
  const r = rngFor(seed, "road", cameraId);
  return {
    peakRate: 1500 + 5500 * r() * r(), // most intersections 1.5-4k veh/h at peak, a few up to 7k
    freeSpeed: 28 + 17 * r(),
    motorcycleShare: 0.78 + 0.1 * r(), // HCMC traffic is ~80-88 % motorbikes
    busShare: 0.008 + 0.012 * r(),
    truckShare: 0.01 + 0.03 * r(),
  };
}

/** Congestion label from the ratio of speed to free-flow speed. */
export type CongestionLevel = "low" | "moderate" | "high" | "severe";
function congestionLevel(speedRatio: number): CongestionLevel {
  if (speedRatio > 0.75) return "low";
  if (speedRatio > 0.55) return "moderate";
  if (speedRatio > 0.35) return "high";
  return "severe";
}

/** Entity id of the flow observation of a camera. */
export function flowEntityId(cameraId: string): string {
  return `urn:ngsi-ld:TrafficFlowObserved:${cameraId}`;
}

/**
 * The TrafficFlowObserved entity of one camera for the window (from, to]: vehicle counts by type
 * (motorbike-heavy), average speed (km/h), occupancy (0-1). A pure function of its arguments.
 * `incident` (an accident at the camera) halves speeds and raises occupancy.
 */
export function flowObservation(
  seed: number,
  cam: FeedCamera,
  from: number,
  to: number,
  incident: boolean,
): NgsiLdEntityDoc {
  const road = roadTraits(seed, cam.id);
  const rng = rngFor(seed, "flow", cam.id, to);
  const mid = (from + to) / 2;
  const demand = trafficDemand(mid) * (1 + 0.08 * gaussian(rng));
  const hours = (to - from) / 3_600_000;
  const mean = Math.max(0, road.peakRate * demand * hours);
  const h = localHour(mid);
  const night = h >= 22 || h < 6;
  const truckShare = road.truckShare * (night ? 3 : 1); // heavy trucks are banned in town by day
  const carShare = 1 - road.motorcycleShare - road.busShare - truckShare;
  const motorcycleCount = poisson(rng, mean * road.motorcycleShare);
  const carCount = poisson(rng, mean * carShare);
  const busCount = poisson(rng, mean * road.busShare);
  const truckCount = poisson(rng, mean * truckShare);
  const load = Math.min(1.05, Math.max(0, demand / 1.15));
  let speed = road.freeSpeed * (1 - 0.72 * load ** 3) * (1 + 0.05 * gaussian(rng));
  let occupancy = 0.03 + 0.8 * load ** 2 + 0.02 * gaussian(rng);
  if (incident) {
    speed *= 0.5;
    occupancy += 0.15;
  }
  speed = Math.max(3, speed);
  occupancy = Math.min(0.98, Math.max(0.01, occupancy));
  const level = congestionLevel(speed / road.freeSpeed);
  const at = { observedAt: new Date(to).toISOString() };
  return entity(flowEntityId(cam.id), "TrafficFlowObserved", {
    location: geoProperty(point(cam.lon, cam.lat)),
    refCamera: relationship(`urn:ngsi-ld:TrafficCamera:${cam.id}`),
    refDistrict: cam.districtSlug ? relationship(`urn:ngsi-ld:District:${cam.districtSlug}`) : undefined,
    dateObserved: property(dateTime(new Date(to)), at),
    dateObservedFrom: property(dateTime(new Date(from)), at),
    dateObservedTo: property(dateTime(new Date(to)), at),
    intensity: property(motorcycleCount + carCount + busCount + truckCount, at),
    motorcycleCount: property(motorcycleCount, at),
    carCount: property(carCount, at),
    busCount: property(busCount, at),
    truckCount: property(truckCount, at),
    averageVehicleSpeed: property(round(speed, 1), { ...at, unitCode: "KMH" }),
    occupancy: property(round(occupancy, 3), { ...at, unitCode: "C62" }),
    congested: property(level === "high" || level === "severe", at),
    congestionLevel: property(level, at),
  });
}
