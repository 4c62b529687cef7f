import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { backupAndRestore } from "./lib/backup-restore";
import { rssBytes, stopChild, waitFor200, waitUntilQuiet } from "./lib/child";
import { entityId } from "./lib/entities";
import { batchUpsert, getEntities, NGSI } from "./lib/http-scenarios";
import { below, formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer, storeStats, type StartedServer } from "./lib/server";
import { readSettings, type Settings } from "./lib/settings";
import { INDEX_IMAGE_DIR, INDEX_IMAGE_FILE } from "../src/store/indexes/index-image";

/**
 * `npm run bench` with `BENCH_SCALE=<entities>` (e.g. 100000 or 1000000), or
 * `node dist/bench/capacity.js`: how far one service holds the bench's 10-attribute entities
 * (docs/decisions/0019-native-store.md). It fills a fresh DATA_DIR through the batch upsert, reads GET by
 * id at once (while the history is sealed and RocksDB compacts), waits for the service to settle, reads
 * GET by id, a type+q and a near query, restarts, sends the first SPARQL queries after the start (a
 * COUNT and a two-hop join), waits for /health/ready, reads the RSS with SPARQL in use, then takes an
 * online backup, restores it and starts a second service on it. Service environment from
 * `BENCH_CAPACITY_ENV` (`K=V,K=V`, e.g. `SPARQL_MAX_RUNNING=2`).
 */

const DC = "https://uri.etsi.org/ngsi-ld/default-context/";
const MB = 1e6;
const GB = 1e9;
const say = (s: string): void => void process.stdout.write(`${s}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The SPARQL the scenario sends after the restart. */
export const CAPACITY_SPARQL = {
  count: "SELECT (COUNT(*) AS ?n) WHERE { ?s a ?t }",
  // entity 1 -> its road segment -> every entity on that segment -> their lane
  twoHop: `SELECT (COUNT(*) AS ?n) WHERE { <${entityId(1)}> <${DC}refRoadSegment> ?seg .
  ?b <${DC}refRoadSegment> ?seg ; <${DC}laneId> ?lane }`,
};

/** Entities to fill: `BENCH_SCALE`, else BENCH_ENTITIES. */
export function capacityScale(s: Settings): number {
  const raw = process.env.BENCH_SCALE;
  const n = raw ? Number(raw) : s.entities;
  if (!Number.isInteger(n) || n < 1000)
    throw new Error(`BENCH_SCALE must be an integer >= 1000, got "${raw}"`);
  return n;
}

/** How long the bench waits for the service to settle after the fill: `BENCH_SETTLE_SECONDS` (900). */
function settleLimitMs(): number {
  const raw = process.env.BENCH_SETTLE_SECONDS ?? "900";
  const s = Number(raw);
  if (!Number.isFinite(s) || s <= 0)
    throw new Error(`BENCH_SETTLE_SECONDS must be a positive number, got "${raw}"`);
  return s * 1000;
}

function serviceEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const kv of (process.env.BENCH_CAPACITY_ENV ?? "").split(",").filter((x) => x.includes("="))) {
    const i = kv.indexOf("=");
    env[kv.slice(0, i).trim()] = kv.slice(i + 1).trim();
  }
  return env;
}

/** One timed GET (ms) that must answer 200; returns its time and body. */
async function timedGet(url: string, path: string): Promise<{ ms: number; body: string }> {
  const t0 = performance.now();
  const res = await fetch(url + path, { headers: { accept: "application/json" } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${body.slice(0, 300)}`);
  return { ms: performance.now() - t0, body };
}

/**
 * One SPARQL query (ms) and the number it counts; an answer that does not come within fetch's 300 s
 * header timeout is reported as NaN ms, not as a failed run.
 */
async function timedSparql(url: string, query: string): Promise<{ ms: number; n: number }> {
  return sparqlOnce(url, query).catch((e: unknown) => {
    say(`  /sparql gave no answer: ${e instanceof Error ? e.message : String(e)}`);
    return { ms: NaN, n: NaN };
  });
}

async function sparqlOnce(url: string, query: string): Promise<{ ms: number; n: number }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/sparql`, {
    method: "POST",
    headers: { "Content-Type": "application/sparql-query", Accept: "application/sparql-results+json" },
    body: query,
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`/sparql answered ${res.status}: ${text.slice(0, 300)}`);
  const n = (JSON.parse(text) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0].n
    .value;
  return { ms: performance.now() - t0, n: Number(n) };
}

/** p50 and p99 of `samples` sequential calls of `f`, ms. */
async function sequential(samples: number, f: (i: number) => Promise<{ ms: number }>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) ms.push((await f(i)).ms);
  ms.sort((a, b) => a - b);
  return [ms[Math.floor(ms.length * 0.5)], ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))]];
}

/**
 * Waits (up to 5 min) for the running service to write the image of its indexes, SIGKILLs it and starts it
 * again: the times to `/health` and `/health/ready` of that start, and its log line on the image, if used.
 */
async function crashRestart(
  srv: StartedServer,
  dataDir: string,
  env: Record<string, string>,
): Promise<{
  srv: StartedServer;
  imageWaitMs: number;
  healthMs: number;
  readyMs: number;
  imageLine?: string;
}> {
  const image = path.join(dataDir, INDEX_IMAGE_DIR, INDEX_IMAGE_FILE);
  const t0 = performance.now();
  while (!existsSync(image) && performance.now() - t0 < 300_000) await sleep(500);
  const imageWaitMs = performance.now() - srv.child.spawnedAt;
  const exited = new Promise((r) => srv.child.proc.once("exit", r));
  srv.child.proc.kill("SIGKILL");
  await exited;
  const again = await startServer({ dataDir, env, logLevel: "info", timeoutMs: 1_800_000 });
  const readyMs = (await waitFor200(again.child, "/health/ready", 1_800_000)) - again.child.spawnedAt;
  const line = again.child.tail.find((l) => l.includes("derived indexes loaded from their image"));
  const loaded =
    line && (JSON.parse(line) as { seq: number; lastSeq: number; graphsReadAgain: number; ms: number });
  const imageLine =
    loaded &&
    `image at seq ${loaded.seq} of ${loaded.lastSeq}, ${loaded.graphsReadAgain} graphs read again, loaded in ${loaded.ms} ms`;
  return { srv: again, imageWaitMs, healthMs: again.healthMs, readyMs, imageLine };
}

/** The reads of a settled service holding `total` bench entities: GET by id under load, type+q and near. */
async function settledReads(url: string, s: Settings, total: number) {
  const get = await getEntities(url, s, total);
  const typeQ = await sequential(50, (i) =>
    timedGet(
      url,
      `${NGSI}/entities?type=TrafficFlowObserved&q=${encodeURIComponent(`intensity>${1900 + (i % 50)};laneId==1`)}&limit=20`,
    ),
  );
  const near = await sequential(50, (i) =>
    timedGet(
      url,
      `${NGSI}/entities?type=TrafficFlowObserved&georel=${encodeURIComponent("near;maxDistance==500")}&geometry=Point&coordinates=${encodeURIComponent(`[${(106.5 + (i % 40) * 0.01).toFixed(2)},10.77]`)}&limit=20`,
    ),
  );
  say(
    `  GET by id p99 ${get.latencyMs.p99} ms at ${Math.round(get.okPerSec)} req/s; type+q p50/p99 ${typeQ.map((x) => x.toFixed(1)).join("/")} ms; near ${near.map((x) => x.toFixed(1)).join("/")} ms`,
  );
  return { get, typeQ, near };
}

/**
 * The settled reads alone over a DATA_DIR an earlier run kept (`BENCH_KEEP_DATA=1`), named by
 * `BENCH_DATA_DIR`: the service starts on it, is waited for until ready and quiet, and is read; the folder
 * is left as it is.
 */
async function readsOfKeptDir(
  s: Settings,
  dataDir: string,
): Promise<{ rows: Row[]; run: Record<string, unknown> }> {
  const entities = capacityScale(s);
  const srv = await startServer({ dataDir, env: serviceEnv(), timeoutMs: 1_800_000 });
  try {
    const readyMs = (await waitFor200(srv.child, "/health/ready", 1_800_000)) - srv.child.spawnedAt;
    const settleMs = await waitUntilQuiet(srv.child.proc.pid, undefined, undefined, settleLimitMs());
    say(
      `  ${dataDir}: ready in ${(readyMs / 1000).toFixed(1)} s, quiet ${(settleMs / 1000).toFixed(0)} s later`,
    );
    const { get, typeQ, near } = await settledReads(srv.child.url, s, entities);
    const scenario = `capacity ${entities}, kept DATA_DIR`;
    const rows = [
      below(scenario, "GET by id p99", get.latencyMs.p99, "ms", 50, `${Math.round(get.okPerSec)} req/s`),
      below(scenario, "type+q p99", typeQ[1], "ms", 100, `p50 ${typeQ[0].toFixed(1)} ms, 50 sequential`),
      below(scenario, "near 500 m p99", near[1], "ms", 100, `p50 ${near[0].toFixed(1)} ms, 50 sequential`),
    ];
    return { rows, run: { entities, dataDir, readyMs, settleMs, reads: { get, typeQ, near } } };
  } finally {
    await stopChild(srv.child, 300_000);
  }
}

/** Runs the capacity scenario; returns its rows and figures. */
export async function benchCapacity(s: Settings): Promise<{ rows: Row[]; run: Record<string, unknown> }> {
  const kept = process.env.BENCH_DATA_DIR;
  if (kept) return readsOfKeptDir(s, kept);
  const entities = capacityScale(s);
  const env = serviceEnv();
  const dataDir = freshDataDir();
  const run: Record<string, unknown> = { entities, env, dataDir, loadavgAtStart: machineFacts().loadavg };
  const rows: Row[] = [];
  const scenario = `capacity ${entities}`;
  say(`\n[capacity] ${entities} entities through the batch upsert (${dataDir}, env ${JSON.stringify(env)})`);
  let srv = await startServer({ dataDir, env, timeoutMs: 1_800_000 });
  try {
    const batches = Math.ceil(entities / s.batchSize);
    const fill = await batchUpsert(srv.child.url, s, 0, batches);
    const total = fill.entities;
    await sleep(2000);
    const rssFill = rssBytes(srv.child.proc.pid);
    const storeFill = await storeStats(srv.child);
    run.fill = { entitiesPerSec: fill.entitiesPerSec, total, rssBytes: rssFill, store: storeFill };
    say(
      `  ${total} entities at ${Math.round(fill.entitiesPerSec)}/s, RSS ${Math.round((rssFill ?? 0) / MB)} MB`,
    );

    const getBusy = await getEntities(srv.child.url, s, total);
    const settleLimit = settleLimitMs();
    const settleMs = await waitUntilQuiet(srv.child.proc.pid, undefined, undefined, settleLimit);
    say(
      `  GET by id right after the fill p99 ${getBusy.latencyMs.p99} ms; settled after ${(settleMs / 1000).toFixed(0)} s`,
    );
    const { get, typeQ, near } = await settledReads(srv.child.url, s, total);
    run.reads = { getBusy, settleMs, get, typeQ, near };

    await stopChild(srv.child, 300_000);
    // from here the image of the indexes is written soon after a start, for the kill -9 below
    const restartEnv = { INDEX_IMAGE_EVERY: "30s", ...env };
    srv = await startServer({ dataDir, env: restartEnv, logLevel: "info", timeoutMs: 1_800_000 });
    const rssStart = rssBytes(srv.child.proc.pid);
    const count = await timedSparql(srv.child.url, CAPACITY_SPARQL.count);
    const twoHop = await timedSparql(srv.child.url, CAPACITY_SPARQL.twoHop);
    const countAgain = await timedSparql(srv.child.url, CAPACITY_SPARQL.count);
    const readyMs = (await waitFor200(srv.child, "/health/ready", 1_800_000)) - srv.child.spawnedAt;
    await sleep(3000);
    const rssSparql = rssBytes(srv.child.proc.pid);
    const storeRestart = await storeStats(srv.child);
    run.restart = {
      healthMs: srv.healthMs,
      readyMs,
      rssBytes: rssStart,
      store: storeRestart,
      log: srv.child.tail.slice(),
    };
    run.sparql = { count, twoHop, countAgain, rssBytes: rssSparql };
    say(
      `  restart: /health ${(srv.healthMs / 1000).toFixed(1)} s, ready ${(readyMs / 1000).toFixed(1)} s; first COUNT ${(count.ms / 1000).toFixed(1)} s (${count.n}), two-hop ${twoHop.ms.toFixed(0)} ms (${twoHop.n}), COUNT again ${countAgain.ms.toFixed(0)} ms; RSS ${Math.round((rssStart ?? 0) / MB)} -> ${Math.round((rssSparql ?? 0) / MB)} MB`,
    );
    const restartHealthMs = srv.healthMs;
    const crash = await crashRestart(srv, dataDir, restartEnv);
    srv = crash.srv;
    run.crashRestart = { ...crash, srv: undefined };
    say(
      `  kill -9 once the image was written (${(crash.imageWaitMs / 1000).toFixed(0)} s after the start): /health ${(crash.healthMs / 1000).toFixed(1)} s, ready ${(crash.readyMs / 1000).toFixed(1)} s; ${crash.imageLine ?? "image not used"}`,
    );
    const backup = await backupAndRestore(
      srv.child.url,
      env,
      async (url) => (await sparqlOnce(url, CAPACITY_SPARQL.count)).n,
    );
    run.backup = backup;
    say(
      `  online backup ${(backup.backupMs / 1000).toFixed(1)} s (${(backup.archiveBytes / GB).toFixed(2)} GB); restored in ${(backup.restoreMs / 1000).toFixed(1)} s, /health ${(backup.healthMs / 1000).toFixed(1)} s, ready ${(backup.readyMs / 1000).toFixed(1)} s, COUNT ${backup.count}`,
    );

    const quads = Number(storeFill?.quads ?? NaN);
    rows.push(info(scenario, "batch upsert", fill.entitiesPerSec, "ent/s"));
    rows.push(
      info(
        scenario,
        "RSS after fill per entity",
        (rssFill ?? NaN) / total,
        "B",
        `${(quads / total).toFixed(1)} quads/entity in the store`,
      ),
    );
    const storeBytes = Number(storeRestart?.storeBytes ?? storeFill?.storeBytes ?? NaN);
    rows.push(
      info(
        scenario,
        "disk per entity (RocksDB)",
        storeBytes / total,
        "B",
        `${Math.round(storeBytes / MB)} MB`,
      ),
    );
    rows.push(
      info(
        scenario,
        "GET by id p99 right after the fill",
        getBusy.latencyMs.p99,
        "ms",
        `${Math.round(getBusy.okPerSec)} req/s; settled ${(settleMs / 1000).toFixed(0)} s later`,
      ),
    );
    rows.push(
      below(
        scenario,
        "GET by id p99",
        get.latencyMs.p99,
        "ms",
        50,
        `${Math.round(get.okPerSec)} req/s, ${settleMs >= settleLimit ? `not settled after ${settleLimit / 1000} s` : "settled"}`,
      ),
    );
    rows.push(
      below(scenario, "type+q p99", typeQ[1], "ms", 100, `p50 ${typeQ[0].toFixed(1)} ms, 50 sequential`),
    );
    rows.push(
      below(scenario, "near 500 m p99", near[1], "ms", 100, `p50 ${near[0].toFixed(1)} ms, 50 sequential`),
    );
    rows.push(
      below(
        scenario,
        "restart ready",
        readyMs / 1000,
        "s",
        120,
        `/health ${(restartHealthMs / 1000).toFixed(1)} s; ready: indexes filled`,
      ),
    );
    rows.push(
      below(
        scenario,
        "first SPARQL COUNT after start",
        count.ms / 1000,
        "s",
        entities > 200_000 ? 5 : 1,
        `${count.n} rows counted`,
      ),
    );
    rows.push(
      info(
        scenario,
        "SPARQL two-hop join",
        twoHop.ms,
        "ms",
        `${twoHop.n} solutions; COUNT again ${countAgain.ms.toFixed(0)} ms`,
      ),
    );
    rows.push(
      info(
        scenario,
        "restart ready after kill -9",
        crash.readyMs / 1000,
        "s",
        `/health ${(crash.healthMs / 1000).toFixed(1)} s; ${crash.imageLine ? "indexes from the image written while running" : "every graph read"}`,
      ),
    );
    rows.push(
      below(
        scenario,
        "online backup",
        backup.backupMs / 1000,
        "s",
        60,
        `${(backup.archiveBytes / GB).toFixed(2)} GB; restore ${(backup.restoreMs / 1000).toFixed(1)} s, then /health in ${(backup.healthMs / 1000).toFixed(1)} s with COUNT ${backup.count} (${count.n} before), ready in ${(backup.readyMs / 1000).toFixed(1)} s`,
      ),
    );
    rows.push(
      below(
        scenario,
        "RSS with SPARQL in use",
        (rssSparql ?? NaN) / GB,
        "GB",
        entities > 200_000 ? 8 : 2,
        `${Math.round((rssSparql ?? 0) / total)} B/entity`,
      ),
    );
    return { rows, run };
  } catch (e) {
    // the service's last words (a fatal error goes to stderr, whatever LOG_LEVEL says)
    const p = srv.child.proc;
    say(
      `  the service: exit ${p.exitCode ?? p.signalCode ?? "none"}; its last lines:\n${srv.child.tail.join("\n")}`,
    );
    throw e;
  } finally {
    await stopChild(srv.child, 300_000);
    if (process.env.BENCH_KEEP_DATA !== "1") rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchCapacity(readSettings())
    .then(({ rows, run }) => {
      run.machine = machineFacts();
      const file = writeResults({ capacity: run, rows }, "capacity-");
      say(`\n${formatTable(rows)}\n\nJSON: ${file}`);
    })
    .catch((e: unknown) => {
      process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    });
}
