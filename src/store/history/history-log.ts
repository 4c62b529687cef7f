import fs from "node:fs";
import path from "node:path";
import { fsyncDir, listSegments } from "../journal/journal-files";
import { JournalWriter } from "../journal/journal-writer";
import { encodeRecord } from "../journal/record-codec";
import { forEachRecordInFile } from "../journal/segment-file";

/** Name of the compacted base of generation `gen` (the state of every segment before `gen`). */
const baseName = (gen: number) => `base-${String(gen).padStart(16, "0")}.log`;
const BASE = /^base-(\d{16})\.log$/;

/** What opening the log found. */
export interface HistoryLogScan {
  records: number;
  /** Bytes cut from an unreadable last record (a crash mid-write, or damage to an acknowledged one). */
  droppedBytes: number;
  ms: number;
}

/**
 * The durable log of the temporal history (docs/design.md "Durability is ours to build"): its own
 * append-only segments in `<dataDir>/history`, written by the store's {@link JournalWriter} (group
 * commit, one fdatasync per group, an append resolves only once its bytes are on disk) with the
 * journal's CRC framing, so an acknowledged history write survives kill -9 like an entity write.
 *
 * Layout: `journal-<gen>.log` segments and at most one `base-<gen>.log`, the compacted state of every
 * segment before `gen`. Opening = apply the base, then every later segment in order; a torn last record
 * of the last segment is cut off. Compaction ({@link compact}) starts a new segment, writes the caller's
 * snapshot of its state as the new base (temp file, fsync, rename), then deletes what it replaces.
 */
export class HistoryLog<T> {
  private compacting: Promise<void> | undefined;
  private copying: Promise<void> | undefined;

  private constructor(
    private readonly dir: string,
    private readonly writer: JournalWriter,
    private gen: number,
  ) {}

  /** Opens (creating) the log in `dir`, handing every stored record to `apply` in order. */
  static open<T>(dir: string, apply: (r: T) => void): { log: HistoryLog<T>; scan: HistoryLogScan } {
    const started = Date.now();
    fs.mkdirSync(dir, { recursive: true });
    const bases = fs
      .readdirSync(dir)
      .map((f) => BASE.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    const baseGen = bases.at(-1) ?? 0;
    let records = 0;
    const each = (r: T): void => {
      apply(r);
      records++;
    };
    if (bases.length) {
      // records are applied as they are decoded: no list of a file's records is held meanwhile
      const end = forEachRecordInFile<T>(path.join(dir, baseName(baseGen)), each);
      if (end.damage) throw new Error(`history base ${baseName(baseGen)} is damaged: ${end.damage.reason}`);
    }
    const segments = listSegments(dir).filter((s) => s.startSeq >= baseGen);
    let droppedBytes = 0;
    let tailBytes = 0;
    segments.forEach((seg, i) => {
      const end = forEachRecordInFile<T>(seg.file, each);
      tailBytes = end.validBytes; // zeros written ahead may follow (journal-writer.ts)
      const d = end.damage;
      if (d) {
        if (i !== segments.length - 1 || !d.torn) {
          throw new Error(
            `history log corrupt: ${seg.file} has a ${d.reason} at byte ${d.offset}; acknowledged history would be lost, refusing to start`,
          );
        }
        droppedBytes = end.fileBytes - end.validBytes;
        fs.truncateSync(seg.file, end.validBytes);
      }
    });
    removeBefore(dir, baseGen);
    const gen = segments.at(-1)?.startSeq ?? baseGen;
    const log = new HistoryLog<T>(dir, JournalWriter.open(dir, gen, segments.length ? tailBytes : 0), gen);
    return { log, scan: { records, droppedBytes, ms: Date.now() - started } };
  }

  /** Appends one record; resolves once it is on disk. */
  append(r: T): Promise<void> {
    return this.writer.append(encodeRecord(r));
  }

  /** Bytes in the current segment (what compaction would reclaim). */
  get size(): number {
    return this.writer.size;
  }

  /**
   * Replaces everything written so far by `snapshot`, which must be the caller's state as of this call
   * (taken synchronously: records appended after the call go to the new segment and replay on top).
   */
  compact(snapshot: Iterable<T>): Promise<void> {
    // during a backup: afterwards (the snapshot is iterated only then, so it is the state of that moment)
    if (this.copying) return this.copying.then(() => this.compact(snapshot));
    if (this.compacting) return this.compacting;
    const gen = this.gen + 1;
    const rotated = this.writer.rotate(gen);
    const chunks: Buffer[] = [];
    for (const r of snapshot) chunks.push(encodeRecord(r));
    this.compacting = (async () => {
      try {
        await rotated;
        this.gen = gen;
        const file = path.join(this.dir, baseName(gen));
        const tmp = file + ".tmp";
        const fd = fs.openSync(tmp, "w");
        try {
          for (let i = 0; i < chunks.length; i += 4096) {
            fs.writeSync(fd, Buffer.concat(chunks.slice(i, i + 4096)));
          }
          fs.fdatasyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(tmp, file);
        fsyncDir(this.dir);
        removeBefore(this.dir, gen);
      } finally {
        this.compacting = undefined;
      }
    })();
    return this.compacting;
  }

  /**
   * A consistent cut while appends go on: once every record appended before this call is on disk, the
   * writer moves to a new segment and the log's files up to there (names in `dir`) are handed out; they
   * change no more, and no compaction deletes them until `release` (compactions asked for meanwhile run
   * after it). Restoring those files gives the log as of this call, plus what was appended while the
   * segment was being closed.
   */
  async holdFiles(): Promise<{ dir: string; files: string[]; release: () => void }> {
    while (this.compacting || this.copying) {
      await this.idle();
      await this.copying;
    }
    let release = noop;
    this.copying = new Promise<void>((r) => (release = r)).then(() => (this.copying = undefined));
    try {
      const gen = this.gen + 1;
      await this.writer.rotate(gen);
      this.gen = gen;
      const files = fs.readdirSync(this.dir).filter((f) => {
        const base = BASE.exec(f);
        const seg = /^journal-(\d{16})\.log$/.exec(f);
        return (base !== null && Number(base[1]) < gen) || (seg !== null && Number(seg[1]) < gen);
      });
      return { dir: this.dir, files: files.sort(), release };
    } catch (e) {
      release();
      throw e;
    }
  }

  /** Resolves once no compaction runs (one started before a change it must include has finished). */
  async idle(): Promise<void> {
    await this.compacting?.catch(() => undefined);
  }

  /** Flushes and closes the current segment. */
  async close(): Promise<void> {
    await this.compacting?.catch(() => undefined);
    await this.writer.close();
  }
}

const noop = (): void => undefined;

/** Deletes segments and bases older than generation `gen` (replaced by the base of `gen`). */
function removeBefore(dir: string, gen: number): void {
  let removed = false;
  for (const s of listSegments(dir)) {
    if (s.startSeq < gen) {
      fs.rmSync(s.file, { force: true });
      removed = true;
    }
  }
  for (const f of fs.readdirSync(dir)) {
    const m = BASE.exec(f);
    if ((m && Number(m[1]) < gen) || f.endsWith(".tmp")) {
      fs.rmSync(path.join(dir, f), { force: true });
      removed = true;
    }
  }
  if (removed) fsyncDir(dir);
}
