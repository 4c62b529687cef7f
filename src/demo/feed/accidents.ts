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
import { hashKeys, rngFor, uniform } from "./prng";
import { trafficDemand } from "./time-profile";

const MINUTE = 60_000;
/** Longest time an accident stays active (minutes). */
export const MAX_ACCIDENT_MINUTES = 120;
/** Mean of the daily traffic demand profile, to turn a daily rate into an hourly one. */
const MEAN_DEMAND = 0.55;

export type Severity = "minor" | "moderate" | "severe" | "critical";

/** A camera-detected accident, fully determined by (seed, camera, minute slot). */
export interface Accident {
  id: string;
  camera: FeedCamera;
  start: number; // ms
  end: number; // ms, when it is resolved
  severity: Severity;
  vehiclesInvolved: number;
  injuries: number;
  fatalities: number;
  confidence: number;
  lon: number;
  lat: number;
}

function pick<T>(r: number, weighted: [T, number][]): T {
  let acc = 0;
  for (const [v, w] of weighted) {
    acc += w;
    if (r < acc) return v;
  }
  return weighted[weighted.length - 1][0];
}

/**
 * The accident at (camera, minute slot), if one happens there. The chance follows traffic demand,
 * so that on average `perHour` accidents happen per hour city-wide (more in rush hours).
 */
export function accidentAt(
  seed: number,
  cam: FeedCamera,
  slot: number,
  perHour: number,
  cameraCount: number,
): Accident | undefined {
  const start = slot * MINUTE;
  const p = ((perHour / 60 / cameraCount) * trafficDemand(start)) / MEAN_DEMAND;
  if (uniform(seed, "acc?", cam.id, slot) >= p) return undefined;
  const r = rngFor(seed, "acc", cam.id, slot);
  const severity = pick<Severity>(r(), [
    ["minor", 0.55],
    ["moderate", 0.3],
    ["severe", 0.12],
    ["critical", 0.03],
  ]);
  const sev = { minor: 0, moderate: 1, severe: 2, critical: 3 }[severity];
  const vehiclesInvolved = 1 + Math.floor(r() * (2 + sev)) + (r() < 0.7 ? 1 : 0);
  const injuries = sev === 0 ? (r() < 0.3 ? 1 : 0) : Math.floor(r() * (2 * sev + 1)) + (sev >= 2 ? 1 : 0);
  const fatalities = sev === 3 ? Math.floor(r() * 3) : sev === 2 && r() < 0.1 ? 1 : 0;
  const minutes = [20, 30, 45, 60][sev] + Math.floor(r() * [25, 30, 45, 60][sev]);
  const bearing = 2 * Math.PI * r();
  const metres = 10 + 50 * r();
  const dLat = (metres * Math.cos(bearing)) / 111_320;
  const dLon = (metres * Math.sin(bearing)) / (111_320 * Math.cos((cam.lat * Math.PI) / 180));
  const startMs = start + Math.floor(r() * MINUTE);
  const h = (
    hashKeys(seed, "acc-id", cam.id, slot).toString(16).padStart(8, "0") +
    hashKeys(slot, cam.id, seed, "acc-id").toString(16).padStart(8, "0")
  ).slice(0, 12);
  return {
    id: `urn:ngsi-ld:TrafficAccident:${h}`,
    camera: cam,
    start: startMs,
    end: startMs + minutes * MINUTE,
    severity,
    vehiclesInvolved,
    injuries,
    fatalities,
    confidence: Number((0.62 + 0.37 * r()).toFixed(2)),
    lon: Number((cam.lon + dLon).toFixed(6)),
    lat: Number((cam.lat + dLat).toFixed(6)),
  };
}

/** Every accident whose start lies in [fromSlot, toSlot] (minute slots), over all cameras. */
export function accidentsInSlots(
  seed: number,
  cameras: readonly FeedCamera[],
  fromSlot: number,
  toSlot: number,
  perHour: number,
): Accident[] {
  const out: Accident[] = [];
  for (let slot = fromSlot; slot <= toSlot; slot++) {
    for (const cam of cameras) {
      const a = accidentAt(seed, cam, slot, perHour, cameras.length);
      if (a) out.push(a);
    }
  }
  return out.sort((a, b) => a.start - b.start || a.id.localeCompare(b.id));
}

/** The TrafficAccident entity of an accident as it stands at time t (active, or resolved). */
export function accidentEntity(a: Accident, t: number): NgsiLdEntityDoc {
  const resolved = t >= a.end;
  return entity(a.id, "TrafficAccident", {
    timestamp: property(dateTime(new Date(a.start))),
    location: geoProperty(point(a.lon, a.lat)),
    severity: property(a.severity),
    status: property(resolved ? "resolved" : "active"),
    vehiclesInvolved: property(a.vehiclesInvolved),
    injuries: property(a.injuries),
    fatalities: property(a.fatalities),
    confidence: property(a.confidence),
    detectionMethod: property("camera_vision"),
    refCamera: relationship(`urn:ngsi-ld:TrafficCamera:${a.camera.id}`),
    refDistrict: a.camera.districtSlug
      ? relationship(`urn:ngsi-ld:District:${a.camera.districtSlug}`)
      : undefined,
    resolvedAt: resolved ? property(dateTime(new Date(a.end))) : undefined,
  });
}
