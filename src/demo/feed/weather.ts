import {
  dateTime,
  entity,
  geoProperty,
  point,
  property,
  relationship,
  type NgsiLdEntityDoc,
} from "../seed/ngsi-ld-doc";
import { smoothNoise, uniform } from "./prng";
import type { Station } from "./stations";
import { localHour } from "./time-profile";
import { HOUR, round, clamp } from "./numbers";

/** Diurnal temperature shape: +1 at 14:30 local, -1 at 02:30. */
const diurnal = (t: number) => Math.cos((2 * Math.PI * (localHour(t) - 14.5)) / 24);
/** Semi-diurnal pressure tide (maxima near 10:00 and 22:00 local). */
const tide = (t: number) => Math.cos((4 * Math.PI * (localHour(t) - 10)) / 24);

/** Heat index (Rothfusz regression, NOAA) in °C from °C and % humidity; the temperature below 27 °C. */
export function feelsLike(tc: number, rh: number): number {
  if (tc < 27) return tc;
  const f = tc * 1.8 + 32;
  const hi =
    -42.379 +
    2.04901523 * f +
    10.14333127 * rh -
    0.22475541 * f * rh -
    0.00683783 * f * f -
    0.05481717 * rh * rh +
    0.00122874 * f * f * rh +
    0.00085282 * f * rh * rh -
    0.00000199 * f * f * rh * rh;
  return (hi - 32) / 1.8;
}

function conditions(cloudiness: number, rain: number): string {
  if (rain >= 2.5) return "moderate rain";
  if (rain > 0) return "light rain";
  if (cloudiness < 0.1) return "clear sky";
  if (cloudiness < 0.25) return "few clouds";
  if (cloudiness < 0.5) return "scattered clouds";
  if (cloudiness < 0.85) return "broken clouds";
  return "overcast clouds";
}

/** Entity id of a station's weather observation. */
export function weatherEntityId(slug: string): string {
  return `urn:ngsi-ld:WeatherObserved:${slug}`;
}

/**
 * The WeatherObserved entity of a station at time t. Each quantity is its real OpenWeatherMap
 * reading at the reading time, plus (diurnal cycle + smooth noise)(t) minus the same at the reading
 * time, so the series passes through the real value and drifts plausibly (HCMC dry season:
 * 23-33 °C, little rain). A pure function of (seed, station, t).
 */
export function weatherObservation(seed: number, s: Station, t: number): NgsiLdEntityDoc | undefined {
  const w = s.weather;
  if (!w) return undefined;
  const t0 = s.readingTime;
  const k = (what: string) => [seed, "wx", s.slug, what] as const;
  const drift = (what: string, amp: number, periodH: number) =>
    amp * (smoothNoise(t, periodH * HOUR, ...k(what)) - smoothNoise(t0, periodH * HOUR, ...k(what)));
  const temperature =
    w.temperature + 4.2 * (diurnal(t) - diurnal(t0)) + drift("t1", 0.8, 3) + drift("t2", 1.2, 48);
  const humidity = clamp(w.humidity - 3 * (temperature - w.temperature) + drift("h", 5, 6), 35, 100);
  const pressure = w.pressure + 1.3 * (tide(t) - tide(t0)) + drift("p", 1.5, 24);
  const windSpeed = clamp(w.wind_speed * (1 + 0.4 * (diurnal(t) - diurnal(t0))) + drift("ws", 1.2, 4), 0, 15);
  const wd = 75 + 36 * uniform(...k("wd0")) + 60 * smoothNoise(t, 6 * HOUR, ...k("wd")); // NE monsoon
  const windDirection = ((wd % 360) + 360) % 360;
  const cloudiness = clamp(w.clouds / 100 + drift("c", 0.35, 5), 0, 1);
  const rainNoise = smoothNoise(t, 2 * HOUR, ...k("r"));
  const precipitation =
    cloudiness > 0.8 && rainNoise > 0.6 ? round((rainNoise - 0.6) * 10 * cloudiness, 1) : 0;
  const at = { observedAt: new Date(t).toISOString() };
  return entity(weatherEntityId(s.slug), "WeatherObserved", {
    name: property(`Trạm thời tiết ${s.name}`),
    location: geoProperty(point(round(s.lon, 6), round(s.lat, 6))),
    refDistrict: relationship(`urn:ngsi-ld:District:${s.slug}`),
    dateObserved: property(dateTime(new Date(t)), at),
    temperature: property(round(temperature, 1), { ...at, unitCode: "CEL" }),
    feelsLikeTemperature: property(round(feelsLike(temperature, humidity), 1), { ...at, unitCode: "CEL" }),
    relativeHumidity: property(round(humidity / 100, 2), { ...at, unitCode: "C62" }),
    atmosphericPressure: property(round(pressure, 1), { ...at, unitCode: "A97" }),
    windSpeed: property(round(windSpeed, 2), { ...at, unitCode: "MTS" }),
    windDirection: property(round(windDirection, 0), { ...at, unitCode: "DD" }),
    precipitation: property(precipitation, { ...at, unitCode: "MMT" }),
    cloudiness: property(round(cloudiness, 2), { ...at, unitCode: "C62" }),
    weatherType: property(conditions(cloudiness, precipitation), at),
    source: property("https://openweathermap.org"),
  });
}
