/** Ho Chi Minh City local time is UTC+7 all year (no daylight saving). */
export const HCMC_UTC_OFFSET_HOURS = 7;

/** Local hour of day in HCMC as a fraction, 0 <= h < 24. */
export function localHour(t: number): number {
  const h = (t / 3_600_000 + HCMC_UTC_OFFSET_HOURS) % 24;
  return h < 0 ? h + 24 : h;
}

/** Local day of week in HCMC, 0 = Sunday. */
export function localWeekday(t: number): number {
  return new Date(t + HCMC_UTC_OFFSET_HOURS * 3_600_000).getUTCDay();
}

/**
 * Relative traffic demand by local hour (1 = the daily peak), a working-day profile with the two
 * rush hours of HCMC around 7-9 and 17-19 and a midday plateau.
 */
const WEEKDAY_PROFILE = [
  0.12, 0.08, 0.06, 0.05, 0.08, 0.25, 0.55, 0.92, 1.0, 0.8, 0.62, 0.6, 0.56, 0.55, 0.6, 0.66, 0.8, 0.97, 1.0,
  0.86, 0.66, 0.5, 0.34, 0.2,
];

/** Traffic demand in [0, 1] at time t (linear between hours; weekends 20 % lower). */
export function trafficDemand(t: number): number {
  const h = localHour(t);
  const i = Math.floor(h);
  const f = h - i;
  const v = WEEKDAY_PROFILE[i] * (1 - f) + WEEKDAY_PROFILE[(i + 1) % 24] * f;
  const wd = localWeekday(t);
  return wd === 0 || wd === 6 ? v * 0.8 : v;
}

/** True inside the rush hours (07:00-09:00 and 17:00-19:00 local). */
export function isRushHour(t: number): boolean {
  const h = localHour(t);
  return (h >= 7 && h < 9) || (h >= 17 && h < 19);
}
