import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";
import { restoreArchive } from "../../src/store/backup/restore-archive";
import { stopChild, waitFor200 } from "./child";
import { freshDataDir, startServer } from "./server";

/** GETs or POSTs `url` into `file`; the time until its last byte is on disk, and its size. */
export async function download(
  url: string,
  init: RequestInit,
  file: string,
): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  if (res.status !== 200 || !res.body) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  await pipeline(Readable.fromWeb(res.body as ReadableStream<Uint8Array>), createWriteStream(file));
  return { ms: performance.now() - t0, bytes: statSync(file).size };
}

/** What {@link backupAndRestore} measured. */
export interface BackupRestore {
  /** `POST /v1/admin/backups` until the last byte of the archive is on disk. */
  backupMs: number;
  archiveBytes: number;
  /** The archive checked and written into an empty folder (the restore tool's work). */
  restoreMs: number;
  /** A service started on the restored folder: until `/health` answers (SPARQL answers from then on). */
  healthMs: number;
  /** ... and until `/health/ready` (its indexes filled); NaN when not within `readyWaitMs`. */
  readyMs: number;
  /** What `count` gives on the restored service. */
  count: number;
}

/**
 * An online backup of the running service at `url` (docs/operations.md "Backup and restore"), then the
 * restore of that archive into an empty folder and a service started on it, each timed. `count` is asked
 * of the restored service (e.g. a SPARQL COUNT of the entities) once it answers `/health`, to show the
 * graph came back; then it is given `readyWaitMs` to be ready.
 */
export async function backupAndRestore(
  url: string,
  env: Record<string, string>,
  count: (url: string) => Promise<number>,
  readyWaitMs = 1_800_000,
): Promise<BackupRestore> {
  const work = mkdtempSync(path.join(os.tmpdir(), "citygraph-bench-backup-"));
  const restored = freshDataDir();
  try {
    const archive = path.join(work, "backup.tar");
    const backup = await download(`${url}/v1/admin/backups`, { method: "POST" }, archive);

    const t1 = performance.now();
    restoreArchive(archive, restored);
    const restoreMs = performance.now() - t1;
    rmSync(archive, { force: true });

    const srv = await startServer({ dataDir: restored, env, logLevel: "info", timeoutMs: 1_800_000 });
    try {
      const n = await count(srv.child.url);
      const readyMs = await waitFor200(srv.child, "/health/ready", readyWaitMs).then(
        (at) => at - srv.child.spawnedAt,
        () => NaN,
      );
      return {
        backupMs: backup.ms,
        archiveBytes: backup.bytes,
        restoreMs,
        healthMs: srv.healthMs,
        readyMs,
        count: n,
      };
    } finally {
      await stopChild(srv.child, 300_000);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(restored, { recursive: true, force: true });
  }
}
