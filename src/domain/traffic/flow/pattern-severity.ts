import { CITY, type FlowRollup } from "./flow-rollup";
import { distanceMetres } from "../geo-distance";
import { SEVERITIES, type GeoPoint, type Severity } from "../models";
import type { TrafficProjection } from "../projection/traffic-projection";

const HOUR = 3_600_000;
const LOCAL_OFFSET_MS = 7 * HOUR;

/**
 * The severity of a traffic peak (variant B patterns): the city's mean ratio of speed to free-flow
 * speed over the buckets of the local hours [startHour, endHour) of the matching day type in
 * [from, to), on the accident scale: >= 0.7 minor, >= 0.5 moderate, >= 0.3 severe, below critical
 * (the congestion bands light-or-better, moderate, heavy, severe).
 */
export function peakSeverity(
  rollup: FlowRollup,
  from: number,
  to: number,
  startHour: number,
  endHour: number,
  weekend: boolean,
): Severity {
  let ratio = 0;
  let n = 0;
  for (const b of rollup.buckets(CITY, from, to)) {
    const local = new Date(b.start + LOCAL_OFFSET_MS);
    const h = local.getUTCHours();
    const inRange = endHour > startHour ? h >= startHour && h < endHour : h >= startHour || h < endHour;
    const isWeekend = [0, 6].includes(local.getUTCDay());
    if (!inRange || isWeekend !== weekend || b.n === 0) continue;
    ratio += b.ratioSum;
    n += b.n;
  }
  const r = n ? ratio / n : 1;
  return r >= 0.7 ? "minor" : r >= 0.5 ? "moderate" : r >= 0.3 ? "severe" : "critical";
}

/**
 * The severity of an accident hotspot: the median severity of the accidents within `radiusMetres` of
 * its centre in [from, to) ("minor" when there is none).
 */
export function hotspotSeverity(
  projection: TrafficProjection,
  centre: GeoPoint,
  radiusMetres: number,
  from: number,
  to: number,
): Severity {
  const ranks = projection
    .accidentList()
    .filter(
      (a) => a.timestamp >= from && a.timestamp < to && distanceMetres(a.location, centre) <= radiusMetres,
    )
    .map((a) => SEVERITIES.indexOf(a.severity))
    .sort((x, y) => x - y);
  return ranks.length ? SEVERITIES[ranks[Math.floor((ranks.length - 1) / 2)]] : "minor";
}
