import fs from "node:fs";
import path from "node:path";
import { restoreArchive } from "../src/store/backup/restore-archive";
import { download } from "./lib/backup-restore";
import { stopChild, type Child } from "./lib/child";
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
/** The service's quad count once its background count is in (it reads -1 until then). */
async function countedQuads(child: Child): Promise<unknown> {
  for (;;) {
    const quads = (await storeStats(child))?.quads;
    if (quads !== -1) return quads;
    await new Promise((r) => setTimeout(r, 200));
  }
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
    const restoredQuads = await countedQuads(srv.child);
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
