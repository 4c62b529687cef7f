/**
 * The traffic forecast model: a seasonal hour-of-week profile, shrunk toward the profile of the same
 * time of day on the same kind of day (weekday or weekend) where the weeks are few, plus a damped
 * exponential smoothing of the residual that corrects the near term and fades with the horizon.
 * For horizons up to 72 h the profile is the backbone (on METR-LA the historical average beats ARIMA
 * from 60 minutes on); the smoothing wins the first hour. A pure function of a regular series.
 */

/** Local time offset of Ho Chi Minh City (UTC+7, no daylight saving). */
const LOCAL_OFFSET_MS = 7 * 3_600_000;
const WEEK_MS = 7 * 86_400_000;
const DAY_MS = 86_400_000;

/** A fitted model. */
export interface ForecastModel {
  stepMs: number;
  /** Predicted value and its standard error `h` steps after the last observation. */
  predict(h: number): { value: number; sd: number };
  /** Time of the first predicted step (the step after the last observation). */
  next: number;
  /** In-sample RMSE of the one-step forecast and of the profile alone. */
  fit: { oneStepRmse: number; profileRmse: number; alpha: number; phi: number; weeks: number };
}

/** Index of the slot of the week of time t (local time, 0 = Thursday 00:00 of the epoch's week). */
export function slotOfWeek(t: number, stepMs: number): number {
  const w = (((t + LOCAL_OFFSET_MS) % WEEK_MS) + WEEK_MS) % WEEK_MS;
  return Math.floor(w / stepMs);
}

/** True on Saturday and Sunday, local time. */
function isWeekend(t: number): boolean {
  const d = new Date(t + LOCAL_OFFSET_MS).getUTCDay();
  return d === 0 || d === 6;
}

/** The seasonal profile of a series: value per time, from the slots of the week and of the day type. */
export function seasonalProfile(
  values: readonly number[],
  start: number,
  stepMs: number,
): (t: number) => number {
  const perWeek = Math.round(WEEK_MS / stepMs);
  const perDay = Math.round(DAY_MS / stepMs);
  const wSum = new Float64Array(perWeek);
  const wN = new Float64Array(perWeek);
  const dSum = new Float64Array(2 * perDay);
  const dN = new Float64Array(2 * perDay);
  let all = 0;
  let allN = 0;
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) return;
    const t = start + i * stepMs;
    const w = slotOfWeek(t, stepMs);
    wSum[w] += v;
    wN[w]++;
    const d = (isWeekend(t) ? perDay : 0) + (w % perDay);
    dSum[d] += v;
    dN[d]++;
    all += v;
    allN++;
  });
  const mean = allN ? all / allN : 0;
  // Shrinkage weight k (empirical Bayes): noise variance within a slot over the variance of the
  // week-slot means around the day-type means. Few weeks -> lean on the day-type profile.
  let within = 0;
  let withinN = 0;
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) return;
    const t = start + i * stepMs;
    const w = slotOfWeek(t, stepMs);
    if (wN[w] > 1) {
      within += (v - wSum[w] / wN[w]) ** 2 * (wN[w] / (wN[w] - 1));
      withinN++;
    }
  });
  const noise = withinN ? within / withinN : 0;
  let between = 0;
  let betweenN = 0;
  for (let w = 0; w < perWeek; w++) {
    if (!wN[w]) continue;
    const t = start + ((w - slotOfWeek(start, stepMs) + perWeek) % perWeek) * stepMs;
    const d = (isWeekend(t) ? perDay : 0) + (w % perDay);
    if (!dN[d]) continue;
    between += (wSum[w] / wN[w] - dSum[d] / dN[d]) ** 2 - noise / wN[w];
    betweenN++;
  }
  const tau2 = betweenN ? Math.max(1e-9, between / betweenN) : 1e-9;
  const k = Math.min(50, noise / tau2);
  return (t: number) => {
    const w = slotOfWeek(t, stepMs);
    const d = (isWeekend(t) ? perDay : 0) + (w % perDay);
    const dayMean = dN[d] ? dSum[d] / dN[d] : mean;
    if (!wN[w]) return dayMean;
    return (wSum[w] + k * dayMean) / (wN[w] + k);
  };
}

/** Fits the model to a regular series (`values[i]` at `start + i * stepMs`; NaN = missing). */
export function fitForecast(values: readonly number[], start: number, stepMs: number): ForecastModel {
  const profile = seasonalProfile(values, start, stepMs);
  const resid = values.map((v, i) => (Number.isFinite(v) ? v - profile(start + i * stepMs) : NaN));
  // alpha by grid search on the one-step error of the smoothed residual
  let best = { alpha: 0.5, sse: Infinity, level: 0, n: 0 };
  for (const alpha of [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) {
    let level = 0;
    let sse = 0;
    let n = 0;
    for (const r of resid) {
      if (!Number.isFinite(r)) continue;
      sse += (r - level) ** 2;
      n++;
      level += alpha * (r - level);
    }
    if (sse < best.sse) best = { alpha, sse, level, n };
  }
  // damping: the lag-one autocorrelation of the residual, per step
  let c0 = 0;
  let c1 = 0;
  for (let i = 1; i < resid.length; i++) {
    if (!Number.isFinite(resid[i]) || !Number.isFinite(resid[i - 1])) continue;
    c0 += resid[i - 1] ** 2;
    c1 += resid[i] * resid[i - 1];
  }
  const phi = c0 > 0 ? Math.min(0.99, Math.max(0, c1 / c0)) : 0;
  const finite = resid.filter(Number.isFinite);
  const profileRmse = finite.length ? Math.sqrt(finite.reduce((a, r) => a + r * r, 0) / finite.length) : 0;
  const oneStepRmse = best.n ? Math.sqrt(best.sse / best.n) : profileRmse;
  let lastIdx = values.length - 1;
  while (lastIdx >= 0 && !Number.isFinite(values[lastIdx])) lastIdx--;
  const next = start + (Math.max(lastIdx, 0) + 1) * stepMs;
  const level = best.level;
  const weeks = (values.length * stepMs) / WEEK_MS;
  return {
    stepMs,
    next,
    fit: { oneStepRmse, profileRmse, alpha: best.alpha, phi, weeks },
    predict(h: number) {
      const damp = phi ** Math.max(0, h - 1);
      const value = profile(next + (h - 1) * stepMs) + level * damp * phi;
      const v1 = oneStepRmse ** 2;
      const vInf = Math.max(v1, profileRmse ** 2);
      const sd = Math.sqrt(vInf - (vInf - v1) * damp * damp);
      return { value, sd };
    },
  };
}
