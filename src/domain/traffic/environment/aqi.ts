import type { AqiCategory, Pollutants } from "../models";

/**
 * US EPA Air Quality Index (Technical Assistance Document for the Reporting of Daily Air Quality,
 * EPA-454/B-24-002, May 2024): the sub-index of each pollutant is a linear interpolation inside its
 * concentration breakpoints, and the AQI is the highest sub-index. Concentrations arrive in µg/m³
 * (the feed's unit) and are converted to the EPA's units at 25 °C, 1 atm.
 */

type Breakpoints = [number, number][]; // [C_hi, I_hi] per band; C_lo/I_lo from the previous band

const AQI_BANDS = [50, 100, 150, 200, 300, 500];

/** Upper concentration of each band, in the EPA's unit, for AQI 50, 100, 150, 200, 300, 500. */
const UPPER: Record<keyof Pollutants, number[]> = {
  pm25: [9.0, 35.4, 55.4, 125.4, 225.4, 325.4], // µg/m³, 24 h
  pm10: [54, 154, 254, 354, 424, 604], // µg/m³, 24 h
  o3: [54, 70, 85, 105, 200, 604], // ppb, 8 h (>= 200 ppb uses the 1 h table: same upper ends here)
  co: [4.4, 9.4, 12.4, 15.4, 30.4, 50.4], // ppm, 8 h
  so2: [35, 75, 185, 304, 604, 1004], // ppb, 1 h
  no2: [53, 100, 360, 649, 1249, 2049], // ppb, 1 h
};

/** Decimal places the EPA truncates each concentration to. */
const DIGITS: Record<keyof Pollutants, number> = { pm25: 1, pm10: 0, o3: 0, co: 1, so2: 0, no2: 0 };

/** µg/m³ -> the EPA unit: ppb = µg/m³ x 24.45 / M; CO in ppm. */
const MOLAR_MASS: Partial<Record<keyof Pollutants, number>> = { o3: 48.0, so2: 64.07, no2: 46.01, co: 28.01 };

function toEpaUnit(p: keyof Pollutants, ugm3: number): number {
  const m = MOLAR_MASS[p];
  if (!m) return ugm3;
  const ppb = (ugm3 * 24.45) / m;
  return p === "co" ? ppb / 1000 : ppb;
}

const bands: Record<keyof Pollutants, Breakpoints> = Object.fromEntries(
  Object.entries(UPPER).map(([k, v]) => [k, v.map((c, i) => [c, AQI_BANDS[i]] as [number, number])]),
) as Record<keyof Pollutants, Breakpoints>;

/** The sub-index (0..500) of one pollutant from its concentration in µg/m³. */
export function subIndex(p: keyof Pollutants, ugm3: number): number {
  const f = 10 ** DIGITS[p];
  const c = Math.floor(Math.max(0, toEpaUnit(p, ugm3)) * f) / f;
  const b = bands[p];
  let cLo = 0;
  let iLo = 0;
  for (const [cHi, iHi] of b) {
    if (c <= cHi) return Math.round(((iHi - iLo) / (cHi - cLo)) * (c - cLo) + iLo);
    // the next band starts one unit of the last digit above this one's top
    cLo = cHi + 1 / f;
    iLo = iHi + 1;
  }
  return 500;
}

/** The category of an AQI value. */
export function aqiCategory(aqi: number): AqiCategory {
  if (aqi <= 50) return "good";
  if (aqi <= 100) return "moderate";
  if (aqi <= 150) return "unhealthy_for_sensitive_groups";
  if (aqi <= 200) return "unhealthy";
  if (aqi <= 300) return "very_unhealthy";
  return "hazardous";
}

/** The AQI of a set of concentrations: the highest sub-index, its pollutant and its category. */
export function airQualityIndex(p: Pollutants): {
  aqi: number;
  category: AqiCategory;
  dominant: keyof Pollutants;
} {
  let aqi = -1;
  let dominant: keyof Pollutants = "pm25";
  for (const k of Object.keys(UPPER) as (keyof Pollutants)[]) {
    const v = p[k];
    if (!Number.isFinite(v)) continue;
    const i = subIndex(k, v);
    if (i > aqi) {
      aqi = i;
      dominant = k;
    }
  }
  aqi = Math.max(0, aqi);
  return { aqi, category: aqiCategory(aqi), dominant };
}

/** What a category means for health (EPA's wording, shortened). */
export const HEALTH_IMPLICATIONS: Record<AqiCategory, string> = {
  good: "Air quality is satisfactory and poses little or no risk.",
  moderate: "Acceptable; unusually sensitive people should consider reducing prolonged exertion outdoors.",
  unhealthy_for_sensitive_groups:
    "Sensitive groups may experience health effects; the general public is less likely to.",
  unhealthy:
    "Some members of the general public may experience health effects; sensitive groups more seriously.",
  very_unhealthy: "Health alert: the risk of health effects is increased for everyone.",
  hazardous: "Health warning of emergency conditions: everyone is more likely to be affected.",
};
