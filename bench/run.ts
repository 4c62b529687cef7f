import { rmSync } from "node:fs";
import { benchCapacity } from "./capacity";
import { benchCodec } from "./codec";
import { benchGeoIndex } from "./geo-index";
import { bareKoa, flags, withCpu } from "./lib/ceilings";
import type { CpuUse } from "./lib/cpu-share";
import { peakRssBytes, rssBytes, stopChild } from "./lib/child";
import { batchUpsert, getEntities, postEntities, type IdCounter } from "./lib/http-scenarios";
import { nquadsOf, nquadsSource, rawIngest, type RawIngestResult } from "./lib/raw-ingest";
import { atLeast, below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer, storeStats } from "./lib/server";
import { readSettings, type Settings } from "./lib/settings";
import { settle } from "./lib/settle";
import { benchQueries } from "./query";

/**
 * `npm run bench`: the broker's performance figures, measured in one run on this
 * machine over loopback with durability on. See docs/performance.md for what each scenario does.
 */

/** Decimal units: a bar of "2.5 GB" is read strictly as 2.5e9 bytes. */
const MB = 1e6;
const GB = 1e9;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const say = (s: string): void => void process.stdout.write(`${s}\n`);

async function main(): Promise<void> {
  const s = readSettings();
  const machine = machineFacts();
  const started = new Date().toISOString();
  say(`citygraph bench: ${JSON.stringify(machine)}\nsettings: ${JSON.stringify(s)}`);
  const rows: Row[] = [];
  const run: Record<string, unknown> = { started, machine, settings: s, durability: "on (service default)" };
  if (s.only !== "query") await brokerScenarios(s, rows, run);
  if (s.only !== "broker") {
    const q = await benchQueries(s);
    run.queries = q.run;
    rows.push(...q.rows);
  }
  if (process.env.BENCH_SCALE) {
    const c = await benchCapacity(s);
    run.capacity = c.run;
    rows.push(...c.rows);
  }
  run.finished = new Date().toISOString();
  run.loadavgAtEnd = machineFacts().loadavg;
  run.rows = rows;
  const file = writeResults(run);
  say(`\n${formatTable(rows)}\n\nJSON: ${file} (and bench/results/latest.json)`);
}

/**
 * CPU µs the service spent per request (or entity) during a scenario, and its main thread's part: what
 * the throughput would be if the service had the machine's cores to itself (docs/performance.md).
 */
function cpuPerItem(scenario: string, figure: string, cpu: CpuUse, perSec: number): Row {
  const us = (cores: number): number => (perSec > 0 ? (cores / perSec) * 1e6 : NaN);
  return info(
    scenario,
    figure,
    us(cpu.serviceCores),
    "µs",
    `main thread ${us(cpu.mainThreadCores).toFixed(0)} µs, other threads ${us(cpu.serviceCores - cpu.mainThreadCores).toFixed(0)} µs`,
  );
}

/** The broker scenarios: codec, bare Koa, POST, GET by id, batch fill, RSS, restart, raw ingest. */
async function brokerScenarios(s: Settings, rows: Row[], run: Record<string, unknown>): Promise<void> {
  say("\n[1/6] bare Koa ceiling: GET / -> 200 ok");
  const koa = await bareKoa(s);
  run.bareKoa = koa;
  rows.push(info("bare-koa", "GET / req/s", koa.okPerSec, "req/s", flags(koa)));

  say("\n[codec] µs per entity, fast path vs jsonld.js (bench/codec.ts)");
  const codec = await benchCodec(5000);
  run.codec = codec;
  rows.push(
    info(
      "codec",
      "entity -> N-Triples",
      codec.fastExpand,
      "µs",
      `jsonld.js toRDF ${codec.jsonldToRdf.toFixed(0)} µs`,
    ),
  );
  rows.push(
    info(
      "codec",
      "N-Triples -> entity",
      codec.fastCompact,
      "µs",
      `jsonld.js compact ${codec.jsonldCompact.toFixed(0)} µs`,
    ),
  );

  say("\n[geo] geo index, near;maxDistance==500 over 100k points (bench/geo-index.ts)");
  const geo = benchGeoIndex(100_000);
  run.geoIndex = geo;
  rows.push(
    info(
      "geo-index",
      "near 500 m, 100k points",
      geo.matchesUs,
      "µs",
      `candidates ${geo.candidatesUs.toFixed(1)} µs`,
    ),
  );

  const dataDir = freshDataDir();
  run.dataDir = dataDir;
  say(`\n[2/6] service start (empty store, ${dataDir})`);
  let srv = await startServer({ dataDir });
  const pid = srv.child.proc.pid;
  run.firstStart = { healthMs: srv.healthMs, rssBytes: rssBytes(pid) };
  try {
    say(`[3/6] POST /entities (one new 10-attribute entity per request, ${s.postConnections} connections)`);
    const ids: IdCounter = { next: 0 };
    const post = await withCpu(pid, () => postEntities(srv.child.url, s, ids));
    run.post = { ...post, entitiesSent: ids.next };
    say(`  ${Math.round(post.okPerSec)} req/s, p50 ${post.latencyMs.p50} ms, p99 ${post.latencyMs.p99} ms`);

    say("[4/6] GET /entities/{id} (random id among those created)");
    const get = await withCpu(pid, () => getEntities(srv.child.url, s, ids.next));
    run.get = get;
    say(`  ${Math.round(get.okPerSec)} req/s, p50 ${get.latencyMs.p50} ms, p99 ${get.latencyMs.p99} ms`);

    const batches = Math.max(Math.ceil((s.entities - ids.next) / s.batchSize), 5);
    say(`[5/6] batch upsert: ${batches} batches of ${s.batchSize} new entities (fills the store)`);
    const batch = await withCpu(pid, () => batchUpsert(srv.child.url, s, ids.next, batches));
    run.batch = batch;
    const total = ids.next + batches * s.batchSize;
    await sleep(2000);
    const rss = rssBytes(pid);
    const stats = await storeStats(srv.child);
    run.filled = { entities: total, rssBytes: rss, peakRssBytes: peakRssBytes(pid), store: stats };
    say(
      `  ${total} entities, RSS ${rss === undefined ? "?" : Math.round(rss / MB)} MB, store ${JSON.stringify(stats)}`,
    );
    // the same service once its post-fill work is done (the sealing of the fill's history hours, a
    // compaction, GC): the steady state "with 100k entities", beside the reading 2 s after the last batch
    const idle = await settle(pid, 0.1, 120);
    const rssSettled = rssBytes(pid);
    run.settled = { ...idle, rssBytes: rssSettled };
    say(
      `  idle after ${idle.waitedS} s (${idle.lastCores.toFixed(2)} cores), RSS ${rssSettled === undefined ? "?" : Math.round(rssSettled / MB)} MB`,
    );

    say("[6/6] restart on the same DATA_DIR (LOG_LEVEL=info to see the readiness line)");
    const t0 = performance.now();
    const stopped = await stopChild(srv.child, 120000);
    run.shutdown = { ms: performance.now() - t0, exit: stopped };
    srv = await startServer({ dataDir, logLevel: "info" });
    const rssAtHealth = rssBytes(srv.child.proc.pid);
    await sleep(3000);
    const rssAfter = rssBytes(srv.child.proc.pid);
    const stats2 = await storeStats(srv.child);
    // +3 s falls inside the background scan that fills the attribute and geo indexes: the steady state is
    // read again once that scan (and the GC after it) is done, as after the fill
    const idle2 = await settle(srv.child.proc.pid, 0.1, 120);
    const rssRestartSettled = rssBytes(srv.child.proc.pid);
    run.restart = {
      healthMs: srv.healthMs,
      readyLogMs: srv.readyLogMs,
      rssAtHealth,
      rssAfter3s: rssAfter,
      settled: { ...idle2, rssBytes: rssRestartSettled },
      /** The service's own log lines of the start-up (store ready, listening, timings). */
      log: srv.child.tail.slice(),
      store: stats2,
    };
    say(
      `  /health 200 after ${(srv.healthMs / 1000).toFixed(2)} s, RSS ${rssAfter === undefined ? "?" : Math.round(rssAfter / MB)} MB; idle after ${idle2.waitedS} s more, RSS ${rssRestartSettled === undefined ? "?" : Math.round(rssRestartSettled / MB)} MB`,
    );

    say(`\n[raw] N-Quads of the same ${total} entities, then raw store ingest`);
    await stopChild(srv.child, 120000);
    const source = nquadsSource();
    const nquads = await nquadsOf(total, source);
    const quads = nquads.reduce((a, q) => a + q.split("\n").length - 1, 0);
    run.nquads = { source, entities: total, quads, bytes: nquads.reduce((a, q) => a + q.length, 0) };
    let raw: RawIngestResult | undefined;
    try {
      raw = await rawIngest(nquads, s.batchSize);
      run.rawIngest = raw;
    } catch (e) {
      run.rawIngest = { error: (e as Error).message };
      say(`  raw ingest failed: ${(e as Error).message}`);
    }

    const rawEps = raw?.entitiesPerSec;
    rows.push(
      info(
        "raw-ingest",
        "entities/s",
        rawEps,
        "ent/s",
        raw ? `${Math.round(raw.quadsPerSec)} quads/s` : "not measured",
      ),
    );
    rows.push(
      atLeast(
        "POST /entities",
        `req/s, ${s.postConnections} connections`,
        post.okPerSec,
        "req/s",
        2500,
        flags(post),
      ),
    );
    rows.push(
      atLeast("POST /entities", "ratio to raw ingest", rawEps ? post.okPerSec / rawEps : undefined, "", 0.75),
    );
    rows.push(
      info(
        "POST /entities",
        "latency p50/p99/max",
        post.latencyMs.p99,
        "ms p99",
        `p50 ${post.latencyMs.p50} max ${post.latencyMs.max}`,
      ),
    );
    rows.push(cpuPerItem("POST /entities", "server CPU per request", post.cpu, post.okPerSec));
    rows.push(atLeast("GET /entities/{id}", "req/s", get.okPerSec, "req/s", 10000, flags(get)));
    rows.push(
      info(
        "GET /entities/{id}",
        "latency p50/p99/max",
        get.latencyMs.p99,
        "ms p99",
        `p50 ${get.latencyMs.p50} max ${get.latencyMs.max}`,
      ),
    );
    rows.push(info("batch upsert x1000", "entities/s", batch.entitiesPerSec, "ent/s", flags(batch)));
    rows.push(cpuPerItem("batch upsert x1000", "server CPU per entity", batch.cpu, batch.entitiesPerSec));
    rows.push(
      atLeast(
        "batch upsert x1000",
        "ratio to raw ingest",
        rawEps ? batch.entitiesPerSec / rawEps : undefined,
        "",
        0.85,
      ),
    );
    rows.push(
      below(
        "start-up",
        `with ${total} entities`,
        srv.healthMs / 1000,
        "s",
        40,
        srv.readyLogMs === undefined
          ? "no readiness line logged"
          : `ready logged at ${(srv.readyLogMs / 1000).toFixed(2)} s`,
      ),
    );
    rows.push(
      below(
        "RSS",
        `with ${total} entities (after fill)`,
        rss === undefined ? undefined : rss / GB,
        "GB",
        2.5,
      ),
    );
    rows.push(info("RSS", "bytes per entity (after fill)", rss === undefined ? undefined : rss / total, "B"));
    rows.push(
      below(
        "RSS",
        "same, once idle after the fill",
        rssSettled === undefined ? undefined : rssSettled / GB,
        "GB",
        2.5,
        `service idle after ${idle.waitedS} s${idle.settled ? "" : " (did not settle)"}`,
      ),
    );
    rows.push(
      info(
        "RSS",
        "bytes per entity (after restart)",
        rssAfter === undefined ? undefined : rssAfter / total,
        "B",
      ),
    );
    rows.push(
      below(
        "RSS",
        "same, after restart (+3 s)",
        rssAfter === undefined ? undefined : rssAfter / GB,
        "GB",
        2.5,
      ),
    );
    rows.push(
      below(
        "RSS",
        "same, once idle after restart (indexes filled)",
        rssRestartSettled === undefined ? undefined : rssRestartSettled / GB,
        "GB",
        2.5,
        `service idle ${idle2.waitedS} s after +3 s${idle2.settled ? "" : " (did not settle)"}`,
      ),
    );
  } finally {
    await stopChild(srv.child, 120000);
    if (process.env.BENCH_KEEP_DATA !== "1") rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
