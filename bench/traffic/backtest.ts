import { accidentsInSlots, flowObservation, loadFeedCameras, type FeedCamera } from "../../src/demo/feed";
import { fitForecast, slotOfWeek } from "../../src/domain/traffic/forecast/forecast-model";

/**
 * `npm run backtest`: replays the synthetic city's flow history (the live feed's own functions, 15-minute
 * windows, its accidents slowing their cameras) per zone, and scores the forecast model of
 * src/domain/traffic/forecast/forecast-model.ts against two baselines at 15 min, 1 h and 24 h ahead: the last
 * value, and the historical average of the same hour-of-week (15-minute slot of the week). Every
 * forecast origin of the last week is scored with a model fitted on the weeks before it only.
 * Prints a table and JSON.
 */

const STEP = 15 * 60_000;
const DAY = 86_400_000;
const WEEKS = Number(process.env.BACKTEST_WEEKS ?? 4);
const ORIGIN_EVERY = Number(process.env.BACKTEST_ORIGIN_STEPS ?? 4); // one origin per hour
const SEED = 20261121;
const HORIZONS: [string, number][] = [
  ["15 min", 1],
  ["1 h", 4],
  ["24 h", 96],
];

/** Mean speed per zone per 15-minute bucket over [start, start + n buckets). */
function zoneSeries(cameras: FeedCamera[], start: number, n: number): Map<string, number[]> {
  const zones = new Map<string, number[]>();
  const sums = new Map<string, Float64Array>();
  const counts = new Map<string, Float64Array>();
  for (const c of cameras) {
    if (!c.districtSlug || sums.has(c.districtSlug)) continue;
    sums.set(c.districtSlug, new Float64Array(n));
    counts.set(c.districtSlug, new Float64Array(n));
  }
  const slot0 = Math.floor(start / 60_000) - 120;
  const accidents = accidentsInSlots(SEED, cameras, slot0, slot0 + n * 15 + 120, 2);
  for (let i = 0; i < n; i++) {
    const to = start + (i + 1) * STEP;
    const at = new Set(accidents.filter((a) => a.start <= to && to < a.end).map((a) => a.camera.id));
    for (const c of cameras) {
      if (!c.districtSlug) continue;
      const doc = flowObservation(SEED, c, to - STEP, to, at.has(c.id));
      const speed = (doc.averageVehicleSpeed as { value: number }).value;
      sums.get(c.districtSlug)![i] += speed;
      counts.get(c.districtSlug)![i]++;
    }
  }
  for (const [z, s] of sums)
    zones.set(
      z,
      Array.from(s, (v, i) => v / counts.get(z)![i]),
    );
  return zones;
}

interface Score {
  absPct: number;
  sq: number;
  n: number;
}
const score = (): Score => ({ absPct: 0, sq: 0, n: 0 });
function add(s: Score, pred: number, actual: number): void {
  s.absPct += Math.abs(pred - actual) / Math.abs(actual);
  s.sq += (pred - actual) ** 2;
  s.n++;
}

function main(): void {
  const t0 = Date.now();
  const cameras = loadFeedCameras();
  // whole weeks ending at the last midnight UTC before now
  const end = Math.floor(Date.now() / DAY) * DAY;
  const start = end - WEEKS * 7 * DAY;
  const n = (end - start) / STEP;
  const series = zoneSeries(cameras, start, n);
  const genMs = Date.now() - t0;
  const perWeek = (7 * DAY) / STEP;
  const methods = ["model", "last value", "hour-of-week average"] as const;
  const scores = new Map<string, Score>();
  for (const m of methods) for (const [h] of HORIZONS) scores.set(`${m}|${h}`, score());
  const firstOrigin = n - perWeek; // the last week is scored
  for (const values of series.values()) {
    for (let o = firstOrigin; o + 96 < n; o += ORIGIN_EVERY) {
      const train = values.slice(0, o + 1);
      const model = fitForecast(train, start, STEP);
      const hw = new Map<number, [number, number]>();
      train.forEach((v, i) => {
        const k = slotOfWeek(start + i * STEP, STEP);
        const x = hw.get(k) ?? [0, 0];
        hw.set(k, [x[0] + v, x[1] + 1]);
      });
      for (const [name, h] of HORIZONS) {
        const actual = values[o + h];
        const slot = slotOfWeek(start + (o + h) * STEP, STEP);
        const [s, c] = hw.get(slot) ?? [train[o], 1];
        add(scores.get(`model|${name}`)!, model.predict(h).value, actual);
        add(scores.get(`last value|${name}`)!, train[o], actual);
        add(scores.get(`hour-of-week average|${name}`)!, s / c, actual);
      }
    }
  }
  const rows: { horizon: string; method: string; mape: number; rmse: number; n: number }[] = [];
  for (const [name] of HORIZONS) {
    for (const m of methods) {
      const s = scores.get(`${m}|${name}`)!;
      rows.push({
        horizon: name,
        method: m,
        mape: (100 * s.absPct) / s.n,
        rmse: Math.sqrt(s.sq / s.n),
        n: s.n,
      });
    }
  }
  const beats = HORIZONS.every(([name]) => {
    const r = rows.filter((x) => x.horizon === name);
    const m = r.find((x) => x.method === "model")!;
    return r.every((x) => x === m || (m.mape < x.mape && m.rmse < x.rmse));
  });
  const say = (s: string) => process.stdout.write(s + "\n");
  say(
    `backtest: ${series.size} zones, ${WEEKS} weeks of 15-minute zone speeds from the synthetic feed (seed ${SEED}), ` +
      `${new Date(start).toISOString().slice(0, 10)}..${new Date(end).toISOString().slice(0, 10)}, last week scored, one origin per ${(ORIGIN_EVERY * STEP) / 60_000} min; generated in ${(genMs / 1000).toFixed(1)} s`,
  );
  say("| horizon | method | MAPE % | RMSE km/h | forecasts |");
  say("|---|---|---:|---:|---:|");
  for (const r of rows)
    say(`| ${r.horizon} | ${r.method} | ${r.mape.toFixed(2)} | ${r.rmse.toFixed(3)} | ${r.n} |`);
  say(`model beats both baselines at every horizon: ${beats ? "yes" : "NO"}`);
  say(JSON.stringify({ zones: series.size, weeks: WEEKS, rows, beats, ms: Date.now() - t0 }));
  if (!beats) process.exitCode = 1;
}

main();
