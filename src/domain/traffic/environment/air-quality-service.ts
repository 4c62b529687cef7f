import { notFound } from "../../../errors";
import { airQualityIndex } from "./aqi";
import type { HistoryReader } from "../projection/history-reader";
import type { AirQualityStation, AqiCategory, Pollutants } from "../models";
import type { TrafficProjection } from "../projection/traffic-projection";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const POLLUTANTS: (keyof Pollutants)[] = ["pm25", "pm10", "no2", "so2", "co", "o3"];

/** One bucket of a station's history. */
export interface AirQualityBucket {
  start: number;
  aqi: number;
  category: AqiCategory;
  pm25: number;
}

/**
 * Air quality (docs/rest.md "Weather and air quality"): every station's current reading with its US EPA
 * AQI, and a station's history by hour or day (mean concentrations per bucket, AQI of the means).
 */
export class AirQualityService {
  constructor(
    private readonly projection: TrafficProjection,
    private readonly reader: HistoryReader,
  ) {}

  /** Every station, by name. */
  current(): AirQualityStation[] {
    return [...this.projection.airQuality.values()].sort((a, b) => a.name.localeCompare(b.name, "vi"));
  }

  /** A station by id (its local id or entity id); 404 NOT_FOUND if unknown. */
  station(id: string): AirQualityStation {
    const s =
      this.projection.airQuality.get(id) ??
      this.projection.airQuality.get(id.replace(/^urn:ngsi-ld:AirQualityObserved:/, ""));
    if (!s) throw notFound(`Air-quality station ${id} does not exist`, { station_id: id });
    return s;
  }

  /** The station's history in [from, to) by hour or day (local days), empty buckets left out. */
  history(s: AirQualityStation, from: number, to: number, interval: "hour" | "day"): AirQualityBucket[] {
    const step = interval === "hour" ? HOUR : DAY;
    const align = (t: number) => Math.floor((t + 7 * HOUR) / step) * step - 7 * HOUR;
    const sums = new Map<number, Record<string, [number, number]>>();
    for (const p of POLLUTANTS) {
      this.reader.forEach(s.entityId, p, from, to, (t, v) => {
        const k = align(t);
        let b = sums.get(k);
        if (!b) sums.set(k, (b = {}));
        const x = (b[p] ??= [0, 0]);
        x[0] += v;
        x[1]++;
      });
    }
    return [...sums.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([start, b]) => {
        const mean = (p: keyof Pollutants) => (b[p] ? b[p][0] / b[p][1] : NaN);
        const pollutants = Object.fromEntries(POLLUTANTS.map((p) => [p, mean(p)])) as unknown as Pollutants;
        const { aqi, category } = airQualityIndex(pollutants);
        return { start, aqi, category, pm25: Math.round(mean("pm25") * 100) / 100 };
      })
      .filter((x) => Number.isFinite(x.pm25));
  }
}
