import fs from "node:fs";
import path from "node:path";
import { AppError } from "../../errors";

/** How long (ms) a reading of the disk is reused: a commit asks for it, and statfs costs a system call. */
const FRESH_MS = 1000;

/** A reading of the disk that holds DATA_DIR. */
export interface DiskReading {
  /** Bytes of the RocksDB stores. */
  storeBytes: number;
  /** Bytes free for this process's user. */
  freeBytes: number;
  /** Share of the disk in use, 0 to 1. */
  used: number;
}

/** Bytes of the files under `dir` (0 when it does not exist). */
function folderBytes(dir: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += folderBytes(p);
    else if (e.isFile()) total += fs.statSync(p, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

/** The size of the disk that holds `dir`, and its bytes free for this process's user. */
function diskOf(dir: string): { size: number; freeBytes: number } {
  const s = fs.statfsSync(dir);
  return { size: s.blocks * s.bsize, freeBytes: s.bavail * s.bsize };
}

/**
 * How full the store's disk is (docs/operations.md "Disk"): `/health` and `/metrics` show it, and a commit
 * is refused with StoreFull (507) while fewer than `minFreeBytes` are free, so the journal and RocksDB never
 * run out of room mid-write.
 */
export class DiskGauge {
  private last: (DiskReading & { at: number; stores: number }) | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly folders: () => string[],
    private readonly minFreeBytes: number,
  ) {}

  /** A reading, reused for {@link FRESH_MS} unless a tenant's stores were opened since. */
  read(): DiskReading {
    const now = Date.now();
    const folders = this.folders();
    if (this.last && now - this.last.at < FRESH_MS && this.last.stores === folders.length) return this.last;
    const { size, freeBytes } = diskOf(this.dataDir);
    const storeBytes = folders.reduce((n, f) => n + folderBytes(f), 0);
    const used = size > 0 ? Math.round(((size - freeBytes) / size) * 1000) / 1000 : 0;
    this.last = { storeBytes, freeBytes, used, at: now, stores: folders.length };
    return this.last;
  }

  /** Throws StoreFull when the disk has fewer than `minFreeBytes` free. */
  assertRoom(): void {
    const { freeBytes } = this.freeNow();
    if (freeBytes < this.minFreeBytes) {
      throw new AppError(
        "StoreFull",
        `The disk of the store has ${freeBytes} bytes free, below the ${this.minFreeBytes} kept in reserve`,
        { freeBytes, minFreeBytes: this.minFreeBytes },
      );
    }
  }

  /** The free bytes alone (no walk of the store folders), reused for {@link FRESH_MS}. */
  private freeNow(): { freeBytes: number } {
    const now = Date.now();
    if (this.last && now - this.last.at < FRESH_MS) return this.last;
    return diskOf(this.dataDir);
  }
}
