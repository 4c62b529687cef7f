import { rmSync } from "node:fs";
import { startFeed } from "../../src/demo/ingest/http-feeder";
import type { Logger } from "../../src/log/logger";
import { bareKoa, flags, withCpu } from "../lib/ceilings";
import { stopChild } from "../lib/child";
import { getLoad } from "../lib/http-scenarios";
import { atLeast, below, formatTable, info, machineFacts, writeResults, type Row } from "../lib/report";
import { freshDataDir, startServer } from "../lib/server";
import { readSettings } from "../lib/settings";

/**
 * `npm run bench:rest-a` (also the last part of `npm run bench`): REST variant A against the bare-Koa
 * ceiling measured in the same run. The service starts on the seeded city; the live feed then sends
 * `BENCH_TRAFFIC_DAYS` (7) days of history in `BENCH_TRAFFIC_STEP_MIN` (60) minute windows through the
 * NGSI-LD API, so the statistics, the forecast and the analytics answer over that history.
 */

const say = (s: string): void => void process.stdout.write(`${s}\n`);
const DAY = 86_400_000;

async function main(): Promise<void> {
  const s = readSettings();
  const days = Number(process.env.BENCH_TRAFFIC_DAYS ?? 7);
  const stepMin = Number(process.env.BENCH_TRAFFIC_STEP_MIN ?? 60);
  const run: Record<string, unknown> = {
    started: new Date().toISOString(),
    machine: machineFacts(),
    settings: s,
    days,
    stepMin,
  };
  const rows: Row[] = [];
  const koa = await bareKoa(s);
  rows.push(info("bare Koa", "GET / (ceiling)", koa.okPerSec, "req/s", flags(koa)));
  const dataDir = freshDataDir();
  const { child } = await startServer({ dataDir, env: { SEED: "on" } });
  try {
    const t0 = Date.now();
    await new Promise<void>((resolve) => {
      const quiet = () => undefined;
      const log: Logger = {
        debug: quiet,
        warn: (m, f) => say(`feed: ${m} ${JSON.stringify(f)}`),
        error: (m, f) => say(`feed: ${m} ${JSON.stringify(f)}`),
        info: (m) => {
          if (m === "feed backfill done") {
            stop();
            resolve();
          }
        },
        log: quiet,
      };
      const stop = startFeed({
        baseUrl: child.url,
        log,
        backfillMs: days * DAY,
        backfillStepMs: stepMin * 60_000,
      });
    });
    rows.push(info("history", `${days} days of feed through NGSI-LD`, (Date.now() - t0) / 1000, "s"));
    const to = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const from = new Date(to.getTime() - 7 * DAY);
    const scenarios: [string, string, "ratio" | "p99", number][] = [
      ["GET /v1/cameras?limit=50", "/v1/cameras?limit=50", "ratio", 0.15],
      ["GET /v1/cameras/{id}", "/v1/cameras/0", "ratio", 0.3],
      ["GET /v1/traffic/realtime", "/v1/traffic/realtime", "ratio", 0.1],
      ["GET /v1/traffic/forecast (72 h)", "/v1/traffic/forecast?zone_id=quan-1&hours=72", "p99", 50],
      [
        "GET /v1/analytics/summary (7 days)",
        `/v1/analytics/summary?start_date=${from.toISOString()}&end_date=${to.toISOString()}`,
        "p99",
        200,
      ],
    ];
    for (const [name, path, kind, target] of scenarios) {
      const r = await withCpu(child.proc.pid, () => getLoad(child.url, path, s));
      run[name] = r;
      if (kind === "ratio") {
        rows.push(info(name, "throughput", r.okPerSec, "req/s", flags(r)));
        rows.push(atLeast(name, "ratio to bare Koa", r.okPerSec / koa.okPerSec, "x", target));
        rows.push(info(name, "p99 latency", r.latencyMs.p99, "ms"));
      } else {
        rows.push(info(name, "throughput", r.okPerSec, "req/s", flags(r)));
        rows.push(below(name, "p99 latency", r.latencyMs.p99, "ms", target));
      }
    }
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  run.finished = new Date().toISOString();
  run.rows = rows;
  const file = writeResults(run, "rest-a-");
  say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
