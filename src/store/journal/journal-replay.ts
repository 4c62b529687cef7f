import fs from "node:fs";
import type { JournalRecord } from "./record-codec";
import { forEachRecordInFile } from "./segment-file";
import { listSegments } from "./journal-files";
import { salvageRecords } from "./record-salvage";

/** What reading the journal found. */
export interface JournalScan {
  /** Start sequence of the segment to continue appending to, if any segment exists. */
  tailStart: number | undefined;
  /** Bytes of records in that segment: where appending continues (zeros written ahead may follow). */
  tailBytes: number;
  /**
   * Bytes cut from an unreadable last record, if any: a write cut short by a crash (never acknowledged)
   * or damage to a record that was; which one, and its seq, cannot be told from the bytes.
   */
  droppedBytes: number;
  /** Why the tail was cut, if it was. */
  droppedReason?: string;
  /** The last commit read (the snapshot's seq when the journal adds none). */
  lastSeq: number;
  /** The highest seq of a readable record, whether applied or skipped (0 when there is none). */
  lastRecordSeq: number;
  /**
   * Damage that was followed by more data (a flipped byte mid-segment, garbage after the zeros ahead, a
   * damaged earlier segment): the journal was recovered to the last record before it, and what followed
   * was moved aside into these files (`<segment>.damaged-<time>`) for `citygraph repair` or a person.
   * `readable`: the records in them that their checksums still vouch for (record-salvage.ts).
   */
  setAside?: {
    files: string[];
    bytes: number;
    reason: string;
    afterSeq: number;
    readable: { records: number; firstSeq?: number; lastSeq?: number };
  };
}

/**
 * Reads every journal segment in `dir` and hands each record with seq > `afterSeq` to `apply`, in order
 * (docs/design.md "Durability is ours to build": start-up = snapshot + replay). A torn last record of the
 * LAST segment (truncated, or a bad checksum with nothing valid after it) is cut off and reported: a
 * crash mid-write leaves one that was never acknowledged, but damage to an acknowledged record looks the
 * same. Damage followed by more data, or damage in an earlier
 * segment, never stops a start either: the journal is recovered to the last record before the damage (a
 * consistent prefix of the acknowledged commits), and everything after it is moved aside, whole, into
 * `.damaged-<time>` files and reported ({@link JournalScan.setAside}) for `citygraph repair`.
 * Segments are read a window at a time and their records applied as they are decoded, so memory holds
 * neither a whole segment nor its decoded records. Records before damage are applied before the damage
 * is found: refused damage throws, which fails start-up anyway. Zeros after the last record of a segment
 * are the unused part of a preallocated segment (journal-writer.ts), not damage, and are left in place.
 */
export function replayJournal(dir: string, afterSeq: number, apply: (r: JournalRecord) => void): JournalScan {
  const segments = listSegments(dir);
  let lastSeq = afterSeq;
  const scan: JournalScan = {
    tailStart: segments.at(-1)?.startSeq,
    tailBytes: 0,
    droppedBytes: 0,
    lastSeq: afterSeq,
    lastRecordSeq: 0,
  };
  segments.forEach((seg, i) => {
    if (scan.setAside) return; // recovered before this segment: it was set aside, not replayed
    // each record is applied as it is decoded (no list of the segment's records held meanwhile)
    const end = forEachRecordInFile<JournalRecord>(seg.file, (r) => {
      scan.lastRecordSeq = Math.max(scan.lastRecordSeq, r.seq);
      if (r.seq <= lastSeq) return;
      if (r.seq !== lastSeq + 1) {
        throw new Error(`journal corrupt: ${seg.file} jumps from seq ${lastSeq} to ${r.seq}`);
      }
      apply(r);
      lastSeq = r.seq;
    });
    // what the journal holds: its last readable record, even one at or before `afterSeq` (the stores may
    // have applied more than a damaged journal still has: recovery.ts compares)
    scan.lastSeq = scan.lastRecordSeq > 0 ? scan.lastRecordSeq : lastSeq;
    scan.tailBytes = end.validBytes;
    const d = end.damage;
    if (d) {
      const last = i === segments.length - 1;
      if (!last || !d.torn) {
        scan.tailStart = seg.startSeq;
        scan.setAside = setAside(
          seg.file,
          end.validBytes,
          segments.slice(i + 1).map((x) => x.file),
        );
        scan.setAside.reason = `${d.reason} at byte ${d.offset} of ${seg.file}`;
        scan.setAside.afterSeq = scan.lastSeq;
        return;
      }
      scan.droppedBytes = end.fileBytes - end.validBytes;
      scan.droppedReason = d.reason;
      fs.truncateSync(seg.file, end.validBytes);
    }
  });
  return scan;
}

/**
 * Moves the bytes of `file` from `from` on, and the whole of each of `later`, into `.damaged-<time>` files
 * beside them (fsynced before `file` is cut), so nothing is destroyed by a recovery.
 */
function setAside(file: string, from: number, later: string[]): NonNullable<JournalScan["setAside"]> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const files: string[] = [];
  let bytes = 0;
  const size = fs.statSync(file).size;
  if (size > from) {
    const tail = Buffer.alloc(size - from);
    const fd = fs.openSync(file, "r");
    try {
      fs.readSync(fd, tail, 0, tail.length, from);
    } finally {
      fs.closeSync(fd);
    }
    const out = `${file}.damaged-${stamp}`;
    const wfd = fs.openSync(out, "w");
    try {
      fs.writeSync(wfd, tail);
      fs.fsyncSync(wfd);
    } finally {
      fs.closeSync(wfd);
    }
    files.push(out);
    bytes += tail.length;
  }
  for (const f of later) {
    const out = `${f}.damaged-${stamp}`;
    bytes += fs.statSync(f).size;
    fs.renameSync(f, out);
    files.push(out);
  }
  fs.truncateSync(file, from);
  const readable: { records: number; firstSeq?: number; lastSeq?: number } = { records: 0 };
  for (const f of files) {
    const s = salvageRecords(f);
    readable.records += s.records;
    readable.firstSeq ??= s.firstSeq;
    readable.lastSeq = s.lastSeq ?? readable.lastSeq;
  }
  return { files, bytes, reason: "", afterSeq: 0, readable };
}
