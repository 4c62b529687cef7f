import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";
import { restoreArchive } from "../src/store/backup/restore-archive";
import { stopChild } from "./lib/child";
import { batchUpsert } from "./lib/http-scenarios";
import { formatTable, info, machineFacts, writeResults, type Row } from "./lib/report";
import { freshDataDir, startServer, storeStats } from "./lib/server";
import { readSettings } from "./lib/settings";

/**
 * Backup and restore of a filled store (docs/operations.md "Backup and restore"): BENCH_ENTITIES (default
 * 100,000) TrafficFlowObserved entities upserted in batches, then `POST /v1/admin/backups` streamed to a
 * file (time, size), the archive restored into an empty folder (time), a service started on it (time to
 * /health = 200, quads against the original), and `GET /v1/admin/export` of the default tenant as gzip
 * N-Quads (time, size).
 */
async function download(
  url: string,
  init: RequestInit,
  file: string,
): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  if (res.status !== 200 || !res.body) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  await pipeline(Readable.fromWeb(res.body as ReadableStream<Uint8Array>), fs.createWriteStream(file));
  return { ms: performance.now() - t0, bytes: fs.statSync(file).size };
}

async function main(): Promise<void> {
  const s = readSettings();
  const dataDir = freshDataDir();
  const restored = `${dataDir}-restored`;
  const archive = `${dataDir}.tar`;
  const exported = `${dataDir}.nq.gz`;
  const say = (m: string) => process.stdout.write(`${m}\n`);
  const rows: Row[] = [];
  const run: Record<string, unknown> = { machine: machineFacts(), entities: s.entities };
  let srv = await startServer({ dataDir });
  try {
    const batches = Math.ceil(s.entities / s.batchSize);
    say(`[1/4] filling: ${batches} batches of ${s.batchSize} entities`);
    await batchUpsert(srv.child.url, s, 0, batches);
    const quads = (await storeStats(srv.child))?.quads;
    say("[2/4] backup: POST /v1/admin/backups");
    const backup = await download(`${srv.child.url}/v1/admin/backups`, { method: "POST" }, archive);
    say("[3/4] export: GET /v1/admin/export (gzip N-Quads)");
    const exp = await download(`${srv.child.url}/v1/admin/export?format=nquads`, {}, exported);
    await stopChild(srv.child);
    say("[4/4] restore into an empty folder, then start on it");
    const t0 = performance.now();
    restoreArchive(archive, restored);
    const restoreMs = performance.now() - t0;
    srv = await startServer({ dataDir: restored });
    const restoredQuads = (await storeStats(srv.child))?.quads;
    Object.assign(run, { quads, restoredQuads, backup, export: exp, restoreMs, startMs: srv.healthMs });
    rows.push(
      info("backup", "time", backup.ms / 1000, "s", `${s.entities} entities, ${quads} quads`),
      info("backup", "size", backup.bytes / 1e6, "MB"),
      info("restore", "time", restoreMs / 1000, "s", "check + write + read back"),
      info("restore", "start on it", srv.healthMs / 1000, "s", `quads ${restoredQuads} (original ${quads})`),
      info("export N-Quads gzip", "time", exp.ms / 1000, "s"),
      info("export N-Quads gzip", "size", exp.bytes / 1e6, "MB"),
    );
    if (restoredQuads !== quads) throw new Error(`restored store holds ${restoredQuads} quads, not ${quads}`);
  } finally {
    await stopChild(srv.child);
    for (const p of [dataDir, restored, archive, exported]) fs.rmSync(p, { recursive: true, force: true });
  }
  say(formatTable(rows));
  say(`results: ${path.relative(process.cwd(), writeResults(run, "backup-"))}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
