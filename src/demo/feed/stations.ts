import type { AirQualityReading, WeatherReading } from "../seed/camera-records";
import type { FeedCamera } from "./feed-camera";

/** A weather and air-quality station: one per district that has cameras with readings. */
export interface Station {
  /** District slug; the station entities are urn:ngsi-ld:{WeatherObserved,AirQualityObserved}:<slug>. */
  slug: string;
  /** District name, e.g. "Quận 1". */
  name: string;
  lon: number;
  lat: number;
  /** Mean of the real readings of the district's cameras, and when they were taken (ms). */
  weather?: WeatherReading;
  airQuality?: AirQualityReading;
  readingTime: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function mostCommon(xs: string[]): string {
  const n = new Map<string, number>();
  for (const x of xs) n.set(x, (n.get(x) ?? 0) + 1);
  return [...n.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
}

/**
 * Stations from cameras: one per district, placed at the mean position of the district's cameras,
 * starting from the mean of their OpenWeatherMap readings. Sorted by slug.
 */
export function stationsFromCameras(cameras: readonly FeedCamera[]): Station[] {
  const groups = new Map<string, FeedCamera[]>();
  for (const c of cameras) {
    if (!c.districtSlug || (!c.weather && !c.airQuality)) continue;
    const g = groups.get(c.districtSlug) ?? [];
    g.push(c);
    groups.set(c.districtSlug, g);
  }
  const stations: Station[] = [];
  for (const [slug, cams] of [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const w = cams.flatMap((c) => (c.weather ? [c.weather] : []));
    const a = cams.flatMap((c) => (c.airQuality ? [c.airQuality] : []));
    const times = cams
      .flatMap((c) => (c.readingTime ? [Date.parse(c.readingTime)] : []))
      .sort((x, y) => x - y);
    stations.push({
      slug,
      name: cams[0].districtName ?? slug,
      lon: mean(cams.map((c) => c.lon)),
      lat: mean(cams.map((c) => c.lat)),
      readingTime:
        times.length > 0 ? times[Math.floor(times.length / 2)] : Date.parse("2025-12-07T15:00:00Z"),
      weather:
        w.length === 0
          ? undefined
          : {
              temperature: mean(w.map((x) => x.temperature)),
              humidity: mean(w.map((x) => x.humidity)),
              pressure: mean(w.map((x) => x.pressure)),
              wind_speed: mean(w.map((x) => x.wind_speed)),
              clouds: mean(w.map((x) => x.clouds)),
              description: mostCommon(w.map((x) => x.description)),
            },
      airQuality:
        a.length === 0
          ? undefined
          : {
              pm25: mean(a.map((x) => x.pm25)),
              pm10: mean(a.map((x) => x.pm10)),
              no2: mean(a.map((x) => x.no2)),
              o3: mean(a.map((x) => x.o3)),
              co: mean(a.map((x) => x.co)),
              so2: mean(a.map((x) => x.so2)),
            },
    });
  }
  return stations;
}
