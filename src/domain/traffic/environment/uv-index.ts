import type { GeoPoint } from "../models";

const RAD = Math.PI / 180;

/**
 * The cosine of the solar zenith angle at a place and time (NOAA's low-precision solar position:
 * declination and equation of time from the day of the year, ±0.5° — enough for a UV estimate).
 */
export function solarZenithCosine(at: GeoPoint, t: number): number {
  const d = new Date(t);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  const dayOfYear = Math.floor((t - start) / 86_400_000);
  const hours = d.getUTCHours() + d.getUTCMinutes() / 60 + d.getUTCSeconds() / 3600;
  const g = ((2 * Math.PI) / 365) * (dayOfYear + (hours - 12) / 24);
  const decl =
    0.006918 -
    0.399912 * Math.cos(g) +
    0.070257 * Math.sin(g) -
    0.006758 * Math.cos(2 * g) +
    0.000907 * Math.sin(2 * g) -
    0.002697 * Math.cos(3 * g) +
    0.00148 * Math.sin(3 * g);
  const eqTime =
    229.18 *
    (0.000075 +
      0.001868 * Math.cos(g) -
      0.032077 * Math.sin(g) -
      0.014615 * Math.cos(2 * g) -
      0.040849 * Math.sin(2 * g));
  const trueSolarMinutes = hours * 60 + eqTime + 4 * at.lon;
  const hourAngle = (trueSolarMinutes / 4 - 180) * RAD;
  const lat = at.lat * RAD;
  return Math.sin(lat) * Math.sin(decl) + Math.cos(lat) * Math.cos(decl) * Math.cos(hourAngle);
}

/**
 * An estimate of the UV index where no sensor reports one: the clear-sky UV index from the sun's
 * height, UVI = 12.5 · μ₀^2.42 (Madronich, "Analytic formula for the clear-sky UV index",
 * Photochem. Photobiol. 83, 2007), times a linear cloud modification factor 1 − 0.56 · cloud fraction
 * (our assumption: a full overcast lets about 44 % of the clear-sky UV through). Rounded to one
 * decimal; 0 at night. Answers carry it as an estimate wherever they show it.
 */
export function estimateUvIndex(at: GeoPoint, t: number, cloudiness: number): number {
  const mu = solarZenithCosine(at, t);
  if (mu <= 0) return 0;
  const clear = 12.5 * mu ** 2.42;
  const cloud = 1 - 0.56 * Math.min(1, Math.max(0, cloudiness));
  return Math.round(clear * cloud * 10) / 10;
}
