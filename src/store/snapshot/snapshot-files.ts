import fs from "node:fs";
import path from "node:path";
import { writeFileDurably } from "../journal/journal-files";

/**
 * An N-Quads snapshot of the graph and the manifest naming its files: what an import writes into an empty
 * store folder (docs/operations.md "Export and import"), and what data folders and backups of earlier
 * versions hold. A start without stores or a checkpoint builds the stores from it; the first compaction
 * after it writes a checkpoint (checkpoint-files.ts) and removes it. The manifest is written last and
 * atomically: a snapshot exists only once the manifest names it.
 */
export interface SnapshotManifest {
  version: 1;
  /** Every commit with seq <= `seq` is in the snapshot; replay starts after it. */
  seq: number;
  /** One entry per tenant: its N-Quads file (in the data folder) and quad count at dump time. */
  tenants: { tenant: string; file: string; quads: number; bytes: number }[];
  createdAt: string;
  ms: number;
}

/** File name of the manifest in the store folder. */
export const MANIFEST_FILE = "manifest.json";
const MANIFEST = MANIFEST_FILE;

/** File name of a tenant's snapshot at `seq`: carries the seq and the tenant (hex, `default` for ""). */
export function snapshotFileName(seq: number, tenant: string): string {
  const t = tenant === "" ? "default" : "t" + Buffer.from(tenant, "utf8").toString("hex");
  return `snapshot-${String(seq).padStart(16, "0")}-${t}.nq`;
}

/** True for names made by {@link snapshotFileName} (finished or temporary). */
export function isSnapshotFile(name: string): boolean {
  return /^snapshot-\d{16}-[a-z0-9]+\.nq(\.tmp)?$/.test(name);
}

/** Reads the manifest, or undefined when no snapshot was ever completed. */
export function readManifest(dir: string): SnapshotManifest | undefined {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) return undefined;
  const m = JSON.parse(fs.readFileSync(file, "utf8")) as SnapshotManifest;
  if (m.version !== 1 || !Number.isInteger(m.seq) || !Array.isArray(m.tenants)) {
    throw new Error(`snapshot manifest ${file} is not understood`);
  }
  return m;
}

/** Replaces the manifest atomically (temp file, fsync, rename, fsync of the folder). */
export function writeManifest(dir: string, m: SnapshotManifest): void {
  writeFileDurably(path.join(dir, MANIFEST), JSON.stringify(m, null, 1));
}

/** Deletes snapshot files (and temp files) that the manifest does not name; with no manifest, the manifest too. */
export function removeStaleSnapshots(dir: string, keep: SnapshotManifest | undefined): void {
  const keepNames = new Set(keep?.tenants.map((t) => t.file) ?? []);
  for (const f of fs.readdirSync(dir)) {
    if ((isSnapshotFile(f) && !keepNames.has(f)) || f === MANIFEST + ".tmp" || (!keep && f === MANIFEST))
      fs.rmSync(path.join(dir, f), { force: true });
  }
}

/**
 * The bytes of a snapshot file as chunks, read lazily: a tenant's N-Quads can pass V8's string limit
 * (docs/decisions/0002-memory-at-scale.md), so they are never held as one string. `file` may be a descriptor
 * opened earlier (read from its start, left open).
 */
export function* readChunks(file: string | number, chunkBytes = 8 * 1024 * 1024): Generator<Uint8Array> {
  const fd = typeof file === "number" ? file : fs.openSync(file, "r");
  let position = 0;
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(chunkBytes);
      const n = fs.readSync(fd, buf, 0, chunkBytes, position);
      if (n === 0) return;
      position += n;
      yield buf.subarray(0, n);
    }
  } finally {
    if (typeof file !== "number") fs.closeSync(fd);
  }
}
