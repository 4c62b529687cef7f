import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bareKoa, flags, withCpu } from "./lib/ceilings";
import type { CpuUse } from "./lib/cpu-share";
import { stopChild } from "./lib/child";
import { profileShare, type ProfileShare } from "./lib/cpu-profile-share";
import { fillEntities, getByIdLoad } from "./lib/get-by-id";
import type { LoadResult } from "./lib/load";
import { atLeast, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { pinningOn, pinProcess } from "./lib/pin";
import { freshDataDir, startServer, type StartedServer } from "./lib/server";
import { readSettings, type Settings } from "./lib/settings";
import { settle } from "./lib/settle";

/**
 * `npm run bench:metrics` (part of `npm run bench`): what the metrics cost the fastest read. Four services run
 * side by side on stores filled alike, two with METRICS=on (scraped every 15 s during the loads, Prometheus'
 * default rate) and two with METRICS=off, started in the order on, off, off, on (start order alone moved an
 * A/A pair by ~5%, docs/decisions/0015-metrics-cost.md). GET /ngsi-ld/v1/entities/{id} loads go to one
 * service at a time, each alone on the same CPU, every service once per round in an order turned round each
 * round. A round's figure is the on / off ratio of its summed throughputs; the median over
 * BENCH_METRICS_ROUNDS rounds (default 6) is the figure (target >= 0.95): a round shares the machine's state of
 * the moment, and the median sets aside a round another process disturbed. The bare-Koa ceiling is measured in
 * the same run; the load generator runs on another CPU (bench/lib/pin.ts; `BENCH_PIN=off` to not pin). Last, a
 * fifth METRICS=on service runs one load under the CPU profiler: the share of its main thread's time in the
 * metrics' own code, a figure other processes on the machine do not move.
 *
 * BENCH_METRICS_ENTITIES (default 1000) entities per store; BENCH_SECONDS, BENCH_WARMUP_SECONDS and
 * BENCH_CONNECTIONS as in bench/lib/settings.ts.
 */

const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 6);
/** Scrape interval during the METRICS=on loads (Prometheus' default is 15 s). */
const SCRAPE_MS = 15_000;
const say = (s: string): void => void process.stdout.write(`${s}\n`);

/** Scrapes each of `bases`/metrics every SCRAPE_MS while `work` runs; resolves with the work's result and the scrapes. */
async function whileScraped<T>(
  bases: readonly string[],
  work: () => Promise<T>,
): Promise<{ result: T; scrapes: number }> {
  let scrapes = 0;
  let failed: string | undefined;
  const timer = setInterval(() => {
    for (const base of bases)
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

/** The scripts of the metrics: ours, prom-client's, and Node's performance observers (the GC metric). */
const METRICS_CODE =
  /observability\/(fast-histogram|prometheus-metrics)|api\/http\/request-metrics|prom-client|internal\/perf\//;

/**
 * A METRICS=on service run under `node --cpu-prof` for one GET-by-id load, then stopped: the share of its
 * main thread's busy samples spent in the metrics' own code. The profiler slows the service, so this run is
 * apart from the throughput rounds; the share does not depend on what else the machine runs.
 */
async function metricsShare(s: Settings, count: number): Promise<ProfileShare> {
  const dir = freshDataDir();
  const profiles = mkdtempSync(path.join(tmpdir(), "citygraph-metrics-prof-"));
  const srv = await startServer({
    dataDir: dir,
    env: { AUTH: "off", METRICS: "on" },
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profiles}`],
  });
  try {
    await fillEntities(srv.child.url, count);
    await whileScraped([srv.child.url], () => getByIdLoad(srv.child.url, s, count, {}, true));
  } finally {
    await stopChild(srv.child);
    rmSync(dir, { recursive: true, force: true });
  }
  try {
    return profileShare(profiles, (url) => METRICS_CODE.test(url));
  } finally {
    rmSync(profiles, { recursive: true, force: true });
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

  say("[1/4] bare Koa ceiling: GET / -> 200 ok");
  const koa = await bareKoa(s);
  rows.push(info("metrics", "bare Koa GET / req/s", koa.okPerSec, "req/s", flags(koa)));

  // Four services, started in the order on, off, off, on: the first started of a pair ran ~5% slower than the
  // second in an A/A run (both METRICS=off), so each kind takes one early and one late start.
  const kinds = ["on", "off", "off", "on"] as const;
  const dirs = kinds.map(() => freshDataDir());
  const services: StartedServer[] = [];
  try {
    say("[2/4] four services (METRICS=on, off, off, on, started in that order), stores filled alike");
    for (const [i, kind] of kinds.entries())
      services.push(await startServer({ dataDir: dirs[i], env: { AUTH: "off", METRICS: kind } }));
    for (const srv of services) await fillEntities(srv.child.url, count);
    // the work a fill leaves behind (the history's sealing, RocksDB's flushes) would land in others' rounds
    for (const srv of services) await settle(srv.child.proc.pid, 0.05, 300);
    const on = services.filter((_, i) => kinds[i] === "on");
    const off = services.filter((_, i) => kinds[i] === "off");

    // the load generator on CPU 0, the services on CPU 1 (loaded one after the other)
    const pinned = pinningOn();
    if (pinned) {
      pinProcess(process.pid, 0);
      for (const srv of services) pinProcess(srv.child.proc.pid as number, 1);
    }
    run.pinned = pinned;
    say(
      `[3/4] GET /entities/{id}, the services in turn, ${ROUNDS} rounds (${s.seconds} s each, ${s.connections} connections each` +
        `${pinned ? ", load generator on CPU 0, services on CPU 1" : ""}; METRICS=on scraped every ${SCRAPE_MS / 1000} s)`,
    );
    type Measured = LoadResult & { cpu: CpuUse };
    const offRuns: Measured[] = [];
    const onRuns: Measured[] = [];
    const load = (srv: StartedServer, warm: boolean) =>
      withCpu(srv.child.proc.pid, () => getByIdLoad(srv.child.url, s, count, {}, warm));
    const pairRatios: number[] = [];
    // the METRICS=on services scraped over all the rounds, at Prometheus' rate
    const { scrapes } = await whileScraped(
      on.map((srv) => srv.child.url),
      async () => {
        for (let round = 0; round < ROUNDS; round++) {
          // one load of each service, the order turned round every round
          const order = round % 2 === 0 ? [off[0], on[0], on[1], off[1]] : [on[1], off[1], off[0], on[0]];
          const got = new Map<StartedServer, Measured>();
          for (const srv of order) got.set(srv, await load(srv, round === 0));
          const n = on.map((srv) => got.get(srv)!);
          const o = off.map((srv) => got.get(srv)!);
          onRuns.push(...n);
          offRuns.push(...o);
          const sum = (xs: Measured[]) => xs.reduce((a, r) => a + r.okPerSec, 0);
          pairRatios.push(sum(n) / sum(o));
          say(
            `  METRICS=off ${o.map((r) => Math.round(r.okPerSec)).join(" + ")} req/s, METRICS=on ` +
              `${n.map((r) => Math.round(r.okPerSec)).join(" + ")} req/s: ${(sum(n) / sum(o)).toFixed(3)}`,
          );
        }
      },
    );
    if (scrapes === 0) throw new Error("/metrics was never scraped during the loads");
    const mean = (xs: Measured[]) => xs.reduce((a, r) => a + r.okPerSec, 0) / xs.length;
    // main-thread CPU per request: what the throughput would be on an idle machine, robust to other load
    const usPerReq = (xs: Measured[]) =>
      (xs.reduce((a, r) => a + r.cpu.mainThreadCores, 0) / xs.reduce((a, r) => a + r.okPerSec, 0)) * 1e6;
    pairRatios.sort((a, b) => a - b);
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
    for (const srv of services) await stopChild(srv.child);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  say("[4/4] where a METRICS=on service's main thread spends its time (node --cpu-prof, one load)");
  const share = await metricsShare(s, count);
  run.profile = share;
  rows.push(
    info(
      "metrics",
      "GET by id, metrics' share of main-thread CPU",
      share.share * 100,
      "%",
      `${share.matchedSamples} of ${share.busySamples} busy samples: ${share.byScript
        .slice(0, 3)
        .map(([f, n]) => `${path.basename(f)} ${n}`)
        .join(", ")}`,
    ),
  );
  run.rows = rows;
  const file = writeResults(run, "metrics-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
