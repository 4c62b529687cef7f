import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../log/logger";
import { ArchiveWriter } from "../../store/backup/archive-writer";
import { CHECKSUM_ENTRY, MANIFEST_ENTRY } from "../../store/backup/backup-manifest";
import { INDEX_IMAGE_DIR } from "../../store/indexes/index-image";
import type { Storage } from "../storage";

/** Folders of DATA_DIR copied through a cut of their own, not as they are found. */
const CUT_FOLDERS = new Set(["store", "history"]);
/** Folders of DATA_DIR left out: the image of the derived indexes is for the next start of this service only. */
const LEFT_OUT = new Set([INDEX_IMAGE_DIR]);

/**
 * Every other file of DATA_DIR, relative and with "/" (hosted @contexts, the context cache, media, signing
 * and VAPID keys, the cursor key, the delivery logs...); temporary files (`*.tmp`) are left out.
 */
function otherFiles(dataDir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const entries = fs.readdirSync(path.join(dataDir, rel), { withFileTypes: true });
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && !(rel === "" && (CUT_FOLDERS.has(e.name) || LEFT_OUT.has(e.name)))) walk(p);
      else if (e.isFile() && !e.name.endsWith(".tmp") && p !== MANIFEST_ENTRY && p !== CHECKSUM_ENTRY)
        out.push(p);
    }
  };
  walk("");
  return out;
}

/**
 * The backup archive of DATA_DIR while the service runs (docs/operations.md "Backup and restore"), as a
 * stream of chunks. A consistent cut: `beforeCut` writes what is held in memory (the subscriptions'
 * delivery statuses); then the temporal history's log closes its segment and keeps its
 * files (every history write acknowledged so far is in them); then the store compacts and keeps that
 * checkpoint (every write acknowledged so far is in it, and every hour the history says it sealed). The
 * checkpoint's files are copied and let go, then the history's, then every other file of DATA_DIR. The
 * archive ends with a manifest (each file's SHA-256) and a checksum of all of it.
 */
export async function* backupArchive(
  storage: Storage,
  dataDir: string,
  log: Logger,
  beforeCut?: () => Promise<void>,
): AsyncGenerator<Buffer> {
  const t0 = Date.now();
  const w = new ArchiveWriter();
  // state kept in memory between writes (subscriptions' delivery counters) goes to the graph first
  await beforeCut?.();
  const history = await storage.temporal.holdFiles();
  let seq: number;
  try {
    const held = await storage.store.holdSnapshot();
    seq = held.seq;
    log.info("backup started", { seq, ms: Date.now() - t0 });
    try {
      for (const f of held.files) yield* w.file(`store/${f}`, path.join(held.dir, f));
    } finally {
      await held.release();
    }
    for (const f of history.files) yield* w.file(`history/${f}`, path.join(history.dir, f));
  } finally {
    history.release();
  }
  for (const f of otherFiles(dataDir)) yield* w.file(f, path.join(dataDir, f));
  yield* w.finish(seq);
  log.info("backup written", { seq, bytes: w.bytes, ms: Date.now() - t0 });
}
