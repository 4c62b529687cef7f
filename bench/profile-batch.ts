import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { stopChild } from "./lib/child";
import { processTicks } from "./lib/cpu-share";
import { printProfiles } from "./lib/cpuprofile";
import { batchUpsert, postEntities } from "./lib/http-scenarios";
import { freshDataDir, startServer } from "./lib/server";
import { readSettings } from "./lib/settings";

/**
 * Where the time of the write path goes, per thread: starts the service, runs the batch-upsert scenario
 * of `npm run bench` (`BENCH_PROFILE_BATCHES` batches of BENCH_BATCH_SIZE, BENCH_BATCH_CONNECTIONS
 * connections; with `BENCH_PROFILE_POST=1` the POST scenario instead) and prints the CPU each thread of
 * the service used (`/proc/<pid>/task/<tid>/stat`), per entity and in cores, so that a thread waiting
 * on another shows as idle; threads that ended during the run (compaction workers) show as one row. With `BENCH_PROFILE_CPU=1` the service runs under `node --cpu-prof` and the
 * top self-time functions of each thread follow (as bench/profile-post.ts).
 *
 * Run: `npm run build && node dist/bench/profile-batch.js` (docs/decisions/0002-memory-at-scale.md).
 */

const HZ = 100;

/** utime + stime ticks and name of every thread of `pid`. */
function threadTicks(pid: number): Map<string, { name: string; ticks: number }> {
  const out = new Map<string, { name: string; ticks: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(tid, { name, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

async function main(): Promise<void> {
  const s = readSettings();
  const batches = Number(process.env.BENCH_PROFILE_BATCHES ?? "30");
  const post = process.env.BENCH_PROFILE_POST === "1";
  const cpuProf = process.env.BENCH_PROFILE_CPU === "1";
  const profDir = mkdtempSync(path.join(os.tmpdir(), "citygraph-prof-"));
  const dataDir = freshDataDir();
  const nodeArgs = cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [];
  const srv = await startServer({ dataDir, nodeArgs });
  const pid = srv.child.proc.pid as number;
  try {
    // warm-up: JIT and the first allocations of the store, not measured
    await batchUpsert(srv.child.url, s, 10_000_000, 2);
    let t0 = performance.now();
    let c0 = threadTicks(pid);
    let own0 = process.cpuUsage();
    let p0 = processTicks(pid);
    const mark = (): void => {
      t0 = performance.now();
      c0 = threadTicks(pid);
      own0 = process.cpuUsage();
      p0 = processTicks(pid);
    };
    let items: number;
    if (post) {
      const r = await postEntities(srv.child.url, s, { next: 0 }, mark);
      items = r.okPerSec * r.durationS;
      process.stdout.write(
        `POST /entities: ${Math.round(r.okPerSec)} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms\n`,
      );
    } else {
      const r = await batchUpsert(srv.child.url, s, 0, batches, undefined, mark);
      items = r.entities;
      process.stdout.write(
        `batch upsert: ${Math.round(r.entitiesPerSec)} entities/s, p50 ${r.latencyMs.p50} ms per batch\n`,
      );
    }
    const wall = (performance.now() - t0) / 1000;
    const own = process.cpuUsage(own0);
    const loadGen = (own.user + own.system) / 1e6 / wall;
    const c1 = threadTicks(pid);
    const p1 = processTicks(pid);
    const rows: { tid: string; name: string; cores: number; us: number }[] = [];
    for (const [tid, b] of c1) {
      const dt = (b.ticks - (c0.get(tid)?.ticks ?? 0)) / HZ;
      if (dt > 0) rows.push({ tid, name: b.name, cores: dt / wall, us: (dt / items) * 1e6 });
    }
    // threads that ended meanwhile (each compaction runs in a worker of its own) are only in the process total
    let live = 0;
    for (const [tid, b] of c1) live += b.ticks - (c0.get(tid)?.ticks ?? 0);
    const ended = (p1 - p0 - live) / HZ;
    if (ended > 0)
      rows.push({ tid: "-", name: "ended threads", cores: ended / wall, us: (ended / items) * 1e6 });
    rows.sort((a, b) => b.cores - a.cores);
    const total = rows.reduce((a, r) => a + r.cores, 0);
    process.stdout.write(
      `${Math.round(items)} items in ${wall.toFixed(2)} s; service ${total.toFixed(2)} cores, ` +
        `${((total * wall * 1e6) / items).toFixed(0)} µs CPU per item; load generator ${loadGen.toFixed(2)} cores; ` +
        `load ${readFileSync("/proc/loadavg", "utf8").trim()}\n`,
    );
    for (const r of rows) {
      const main = r.tid === String(pid) ? " (main)" : "";
      process.stdout.write(
        `  ${r.tid.padStart(7)} ${(r.name + main).padEnd(24)} ${r.cores.toFixed(2)} cores  ${r.us.toFixed(0).padStart(5)} µs/item\n`,
      );
    }
  } finally {
    await stopChild(srv.child, 120000);
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (!cpuProf) return;
  const root = path.resolve(__dirname, "..", "..");
  const top = Number(process.env.BENCH_PROFILE_TOP ?? "15");
  printProfiles(profDir, top, root);
}

main().catch((e: unknown) => {
  process.stderr.write(`profile failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
