import type { NgsiLdEntityDoc } from "../seed/ngsi-ld-doc";
import { accidentEntity, accidentsInSlots, MAX_ACCIDENT_MINUTES, type Accident } from "./accidents";
import { airQualityObservation } from "./air-quality";
import type { FeedCamera } from "./feed-camera";
import { flowObservation } from "./flow";
import { stationsFromCameras, type Station } from "./stations";
import { weatherObservation } from "./weather";
import { HOUR } from "./numbers";

const MINUTE = 60_000;

/** Options of the live feed. */
export interface FeedOptions {
  /** PRNG seed: same seed and same tick times give the same documents. */
  seed: number;
  cameras: readonly FeedCamera[];
  /** The first tick observes the window (startTime, now]. */
  startTime: Date;
  /** Expected accidents per hour city-wide, averaged over a day (default 2). */
  accidentsPerHour?: number;
}

/** The live feed: call tick(now) periodically and upsert what it returns. */
export interface TrafficFeed {
  /**
   * The entity documents to upsert at `now` (normalized NGSI-LD with @context and observedAt):
   * one TrafficFlowObserved per camera for the window (previous tick, now], one WeatherObserved and
   * one AirQualityObserved per station, every TrafficAccident that started in the window (status
   * active) and every one that was resolved in it (status resolved). A tick at or before the
   * previous one observes the last minute and reports no accident twice.
   */
  tick(now: Date): NgsiLdEntityDoc[];
  /** The weather / air-quality stations (one per district with readings). */
  readonly stations: readonly Station[];
}

/** Creates a deterministic feed (see TrafficFeed). The feed keeps one piece of state: the last tick. */
export function createFeed(options: FeedOptions): TrafficFeed {
  const { seed, cameras } = options;
  const perHour = options.accidentsPerHour ?? 2;
  const stations = stationsFromCameras(cameras);
  const startTime = options.startTime.getTime();
  let last = startTime;
  // Accidents are pure functions of their minute slot; the cache only saves recomputing them.
  const slotCache = new Map<number, Accident[]>();
  const accidentsBetween = (fromSlot: number, toSlot: number): Accident[] => {
    const out: Accident[] = [];
    for (let slot = fromSlot; slot <= toSlot; slot++) {
      let list = slotCache.get(slot);
      if (!list) slotCache.set(slot, (list = accidentsInSlots(seed, cameras, slot, slot, perHour)));
      out.push(...list);
    }
    for (const k of slotCache.keys()) if (k < fromSlot) slotCache.delete(k);
    return out;
  };
  return {
    stations,
    tick(now: Date): NgsiLdEntityDoc[] {
      const to = now.getTime();
      const advancing = to > last;
      const from = advancing ? Math.max(last, to - HOUR) : to - MINUTE;
      const docs: NgsiLdEntityDoc[] = [];
      // Accidents started or resolved in (from, to]; only when time advances, so none is sent twice.
      const accidents = accidentsBetween(
        Math.floor(from / MINUTE) - MAX_ACCIDENT_MINUTES,
        Math.floor(to / MINUTE),
      );
      const atCamera = new Set(accidents.filter((a) => a.start <= to && to < a.end).map((a) => a.camera.id));
      for (const cam of cameras) docs.push(flowObservation(seed, cam, from, to, atCamera.has(cam.id)));
      for (const s of stations) {
        const w = weatherObservation(seed, s, to);
        if (w) docs.push(w);
        const aq = airQualityObservation(seed, s, to);
        if (aq) docs.push(aq);
      }
      if (advancing) {
        for (const a of accidents) {
          const started = from < a.start && a.start <= to;
          // Resolutions only of accidents this feed reported (those that started after startTime).
          const resolved = from < a.end && a.end <= to && a.start > startTime;
          if (started || resolved) docs.push(accidentEntity(a, to));
        }
        last = to;
      }
      return docs;
    },
  };
}
