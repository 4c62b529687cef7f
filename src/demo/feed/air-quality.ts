import {
  dateTime,
  entity,
  geoProperty,
  point,
  property,
  relationship,
  type NgsiLdEntityDoc,
} from "../seed/ngsi-ld-doc";
import { smoothNoise } from "./prng";
import type { Station } from "./stations";
import { localHour, trafficDemand } from "./time-profile";
import { HOUR, round } from "./numbers";

/** US EPA PM2.5 AQI breakpoints (2024 revision): [C_lo, C_hi, I_lo, I_hi]. */
const PM25_BREAKPOINTS: [number, number, number, number][] = [
  [0, 9.0, 0, 50],
  [9.1, 35.4, 51, 100],
  [35.5, 55.4, 101, 150],
  [55.5, 125.4, 151, 200],
  [125.5, 225.4, 201, 300],
  [225.5, 325.4, 301, 500],
];

/** AQI category names (US EPA), lowerCamelCase as Smart Data Models values go. */
export const AQI_LEVELS = [
  "good",
  "moderate",
  "unhealthyForSensitiveGroups",
  "unhealthy",
  "veryUnhealthy",
  "hazardous",
] as const;

/** US EPA AQI (0-500) and its category from a PM2.5 concentration (µg/m³, 24 h mean in the rule). */
export function aqiFromPm25(pm25: number): { index: number; level: (typeof AQI_LEVELS)[number] } {
  const c = Math.floor(Math.max(0, pm25) * 10) / 10;
  for (let i = 0; i < PM25_BREAKPOINTS.length; i++) {
    const [clo, chi, ilo, ihi] = PM25_BREAKPOINTS[i];
    if (c <= chi)
      return {
        index: Math.round(((ihi - ilo) / (chi - clo)) * (Math.max(c, clo) - clo) + ilo),
        level: AQI_LEVELS[i],
      };
  }
  return { index: 500, level: "hazardous" };
}

/** Entity id of a station's air-quality observation. */
export function airQualityEntityId(slug: string): string {
  return `urn:ngsi-ld:AirQualityObserved:${slug}`;
}

/**
 * The AirQualityObserved entity of a station at t. Each pollutant is its real OpenWeatherMap reading
 * scaled by (activity factor(t) / activity factor(reading time)) and a smooth log-normal drift:
 * NO2 and CO follow traffic, PM is higher at night and in rush hours (shallow boundary layer,
 * exhaust), O3 peaks in the early afternoon sun. A pure function of (seed, station, t).
 */
export function airQualityObservation(seed: number, s: Station, t: number): NgsiLdEntityDoc | undefined {
  const a = s.airQuality;
  if (!a) return undefined;
  const t0 = s.readingTime;
  const night = (x: number) => {
    const h = localHour(x);
    return h >= 21 || h < 6 ? 1 : 0;
  };
  const sun = (x: number) => Math.max(0, Math.cos((2 * Math.PI * (localHour(x) - 13.5)) / 24));
  const factors: Record<string, (x: number) => number> = {
    pm25: (x) => 0.6 + 0.4 * trafficDemand(x) + 0.3 * night(x),
    pm10: (x) => 0.6 + 0.45 * trafficDemand(x) + 0.2 * night(x),
    no2: (x) => 0.35 + 0.9 * trafficDemand(x),
    co: (x) => 0.45 + 0.75 * trafficDemand(x),
    o3: (x) => 0.6 + 0.6 * sun(x),
    so2: (x) => 0.8 + 0.3 * trafficDemand(x),
  };
  const at = { observedAt: new Date(t).toISOString() };
  const v: Record<string, number> = {};
  for (const [name, f] of Object.entries(factors)) {
    const base = a[name as keyof typeof a] as number;
    const k = [seed, "aq", s.slug, name] as const;
    const drift = 0.25 * (smoothNoise(t, 4 * HOUR, ...k) - smoothNoise(t0, 4 * HOUR, ...k));
    v[name] = round(base * (f(t) / f(t0)) * Math.exp(drift), 2);
  }
  const aqi = aqiFromPm25(v.pm25);
  const ug = (x: number) => property(x, { ...at, unitCode: "GQ" });
  return entity(airQualityEntityId(s.slug), "AirQualityObserved", {
    name: property(`Trạm quan trắc không khí ${s.name}`),
    location: geoProperty(point(round(s.lon, 6), round(s.lat, 6))),
    refDistrict: relationship(`urn:ngsi-ld:District:${s.slug}`),
    dateObserved: property(dateTime(new Date(t)), at),
    pm25: ug(v.pm25),
    pm10: ug(v.pm10),
    no2: ug(v.no2),
    o3: ug(v.o3),
    co: ug(v.co),
    so2: ug(v.so2),
    airQualityIndex: property(aqi.index, at),
    airQualityLevel: property(aqi.level, at),
    source: property("https://openweathermap.org"),
  });
}
