import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../log/logger";
import { ArchiveWriter } from "../../store/backup/archive-writer";
import { CHECKSUM_ENTRY, MANIFEST_ENTRY } from "../../store/backup/backup-manifest";
import { INDEX_IMAGE_DIR, INDEX_IMAGE_FILE } from "../../store/indexes/index-image";
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

/** What a backup asks of the derived indexes. */
export interface BackupIndexImage {
  /**
   * Writes the image of the indexes as they are now as `name` in `DATA_DIR/indexes`; the seq of the last
   * commit they applied, or undefined when none was written.
   */
  writeAs(name: string): Promise<number | undefined>;
}

/** The name of the image a backup writes, in `DATA_DIR/indexes` (left out of the copy of DATA_DIR). */
const BACKUP_IMAGE = "backup.img";

/**
 * The backup archive of DATA_DIR while the service runs (docs/operations.md "Backup and restore"), as a
 * stream of chunks. A consistent cut: `beforeCut` writes what is held in memory (the subscriptions'
 * delivery statuses); then the temporal history's log closes its segment and keeps its
 * files (every history write acknowledged so far is in them); then the store compacts and keeps that
 * checkpoint (every write acknowledged so far is in it, and every hour the history says it sealed). Then
 * the image of the derived indexes is written and the cut extended to the commits they applied, so the
 * restored service loads it and reads only the graphs written after it. The cut's files are copied and let
 * go, then the image, the history's files, then every other file of DATA_DIR. The archive ends with a
 * manifest (each file's SHA-256) and a checksum of all of it.
 */
export async function* backupArchive(
  storage: Storage,
  dataDir: string,
  log: Logger,
  beforeCut?: () => Promise<void>,
  image?: BackupIndexImage,
): AsyncGenerator<Buffer> {
  const t0 = Date.now();
  const w = new ArchiveWriter();
  // state kept in memory between writes (subscriptions' delivery counters) goes to the graph first
  await beforeCut?.();
  const history = await storage.temporal.holdFiles();
  const imageFile = path.join(dataDir, INDEX_IMAGE_DIR, BACKUP_IMAGE);
  let seq: number;
  try {
    const held = await storage.store.holdSnapshot();
    let { files } = held;
    seq = held.seq;
    try {
      // the indexes have applied no commit the store has not: the cut reaches the image's seq once extended
      const imageSeq = await image?.writeAs(BACKUP_IMAGE);
      if (imageSeq !== undefined && imageSeq > seq) ({ seq, files } = await held.extend());
      log.info("backup started", { seq, imageSeq, ms: Date.now() - t0 });
      for (const f of files) yield* w.file(`store/${f}`, path.join(held.dir, f));
      if (imageSeq !== undefined) yield* w.file(`${INDEX_IMAGE_DIR}/${INDEX_IMAGE_FILE}`, imageFile);
    } finally {
      fs.rmSync(imageFile, { force: true });
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
