import { rmSync } from "node:fs";
import { bareKoa, flags, withCpu } from "./lib/ceilings";
import type { CpuUse } from "./lib/cpu-share";
import { stopChild } from "./lib/child";
import { fillEntities, getByIdLoad } from "./lib/get-by-id";
import type { LoadResult } from "./lib/load";
import { atLeast, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { pinningOn, pinProcess } from "./lib/pin";
import { freshDataDir, startServer, type StartedServer } from "./lib/server";
import { readSettings } from "./lib/settings";

/**
 * `npm run bench:metrics` (part of `npm run bench`): what the metrics cost the fastest read. Two services run
 * side by side on stores filled alike, one with METRICS=on (scraped every 15 s during its loads, Prometheus'
 * default rate) and one with METRICS=off. GET /ngsi-ld/v1/entities/{id} loads alternate between them
 * (off-on, on-off, ... as the auth bench does), each service alone on the same CPU. Each round pairs two
 * loads back to back; the median over BENCH_METRICS_ROUNDS rounds (default 8) of the rounds' on / off
 * throughput ratios is the figure (target >= 0.95): a pair shares the machine's state of the moment, and the
 * median sets aside a round that another process disturbed. The bare-Koa ceiling is measured in the same run. The load generator runs on another CPU (bench/lib/pin.ts; `BENCH_PIN=off` to not pin).
 *
 * BENCH_METRICS_ENTITIES (default 1000) entities per store; BENCH_SECONDS, BENCH_WARMUP_SECONDS and
 * BENCH_CONNECTIONS as in bench/lib/settings.ts.
 */

const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 8);
/** Scrape interval during the METRICS=on loads (Prometheus' default is 15 s). */
const SCRAPE_MS = 15_000;
const say = (s: string): void => void process.stdout.write(`${s}\n`);

/** Scrapes `base`/metrics every SCRAPE_MS while `work` runs; resolves with the work's result and the scrapes. */
async function whileScraped<T>(
  base: string,
  work: () => Promise<T>,
): Promise<{ result: T; scrapes: number }> {
  let scrapes = 0;
  let failed: string | undefined;
  const timer = setInterval(() => {
    fetch(`${base}/metrics`)
      .then(async (r) => {
        await r.text();
        if (r.status === 200) scrapes++;
        else failed = `/metrics answered ${r.status}`;
      })
      .catch((e: unknown) => (failed = String(e)));
  }, SCRAPE_MS);
  try {
    const result = await work();
    if (failed) throw new Error(failed);
    return { result, scrapes };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  const s = readSettings();
  const count = Number(process.env.BENCH_METRICS_ENTITIES ?? 1000);
  const run: Record<string, unknown> = {
    started: new Date().toISOString(),
    machine: machineFacts(),
    settings: s,
    count,
  };
  const rows: Row[] = [];
  say(`citygraph metrics bench: ${JSON.stringify(run.machine)}`);

  say("[1/3] bare Koa ceiling: GET / -> 200 ok");
  const koa = await bareKoa(s);
  rows.push(info("metrics", "bare Koa GET / req/s", koa.okPerSec, "req/s", flags(koa)));

  const dirs = [freshDataDir(), freshDataDir()];
  let on: StartedServer | undefined;
  let off: StartedServer | undefined;
  try {
    say("[2/3] two services (METRICS=on, METRICS=off), stores filled alike");
    on = await startServer({ dataDir: dirs[0], env: { AUTH: "off", METRICS: "on" } });
    off = await startServer({ dataDir: dirs[1], env: { AUTH: "off", METRICS: "off" } });
    await fillEntities(on.child.url, count);
    await fillEntities(off.child.url, count);

    // the load generator on CPU 0, both services on CPU 1 (loaded one after the other)
    const pinned = pinningOn();
    if (pinned) {
      pinProcess(process.pid, 0);
      for (const srv of [on, off]) pinProcess(srv.child.proc.pid as number, 1);
    }
    run.pinned = pinned;
    say(
      `[3/3] GET /entities/{id}, the services in turn, ${ROUNDS} rounds (${s.seconds} s each, ${s.connections} connections each` +
        `${pinned ? ", load generator on CPU 0, services on CPU 1" : ""}; METRICS=on scraped every ${SCRAPE_MS / 1000} s)`,
    );
    type Measured = LoadResult & { cpu: CpuUse };
    const offRuns: Measured[] = [];
    const onRuns: Measured[] = [];
    const offLoad = (warm: boolean) =>
      withCpu(off!.child.proc.pid, () => getByIdLoad(off!.child.url, s, count, {}, warm));
    const onLoad = (warm: boolean) =>
      withCpu(on!.child.proc.pid, () => getByIdLoad(on!.child.url, s, count, {}, warm));
    // one scraper over all the rounds, at Prometheus' rate
    const { scrapes } = await whileScraped(on.child.url, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        // loads in turn, the order alternating: a service loaded alone is not slowed by the other
        let o: Measured;
        let n: Measured;
        if (round % 2 === 0) {
          o = await offLoad(round === 0);
          n = await onLoad(round === 0);
        } else {
          n = await onLoad(round === 0);
          o = await offLoad(round === 0);
        }
        offRuns.push(o);
        onRuns.push(n);
        say(
          `  METRICS=off ${Math.round(o.okPerSec)} req/s, METRICS=on ${Math.round(n.okPerSec)} req/s: ${(n.okPerSec / o.okPerSec).toFixed(3)}`,
        );
      }
    });
    if (scrapes === 0) throw new Error("/metrics was never scraped during the loads");
    const mean = (xs: Measured[]) => xs.reduce((a, r) => a + r.okPerSec, 0) / xs.length;
    // main-thread CPU per request: what the throughput would be on an idle machine, robust to other load
    const usPerReq = (xs: Measured[]) =>
      (xs.reduce((a, r) => a + r.cpu.mainThreadCores, 0) / xs.reduce((a, r) => a + r.okPerSec, 0)) * 1e6;
    const pairRatios = onRuns.map((n, i) => n.okPerSec / offRuns[i].okPerSec).sort((a, b) => a - b);
    const mid = pairRatios.length >> 1;
    const ratio = pairRatios.length % 2 === 1 ? pairRatios[mid] : (pairRatios[mid - 1] + pairRatios[mid]) / 2;
    const cpuRatio = usPerReq(offRuns) / usPerReq(onRuns);
    run.get = {
      off: offRuns,
      on: onRuns,
      ratio,
      pairRatios,
      ratioOfMeans: mean(onRuns) / mean(offRuns),
      cpuRatio,
      scrapes,
      usPerReq: { off: usPerReq(offRuns), on: usPerReq(onRuns) },
    };
    rows.push(info("metrics", "GET by id, METRICS=off", mean(offRuns), "req/s", flags(offRuns[1])));
    rows.push(info("metrics", "GET by id, METRICS=on", mean(onRuns), "req/s", `${scrapes} scrapes`));
    rows.push(
      atLeast(
        "metrics",
        "GET by id, on / off (median of rounds)",
        ratio,
        "",
        0.95,
        `rounds ${pairRatios[0].toFixed(3)}-${pairRatios[pairRatios.length - 1].toFixed(3)}; bare Koa ${Math.round(koa.okPerSec)} req/s`,
      ),
    );
    rows.push(
      info(
        "metrics",
        "GET by id, main-thread µs per request",
        usPerReq(onRuns),
        "µs",
        `METRICS=off ${usPerReq(offRuns).toFixed(0)} µs: on / off by CPU ${cpuRatio.toFixed(3)}`,
      ),
    );
  } finally {
    if (on) await stopChild(on.child);
    if (off) await stopChild(off.child);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  run.rows = rows;
  const file = writeResults(run, "metrics-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
