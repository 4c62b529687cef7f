import fs from "node:fs";
import type { JournalRecord } from "./record-codec";
import { forEachRecordInFile } from "./segment-file";
import { listSegments } from "./journal-files";

/** What reading the journal found. */
export interface JournalScan {
  /** Start sequence of the segment to continue appending to, if any segment exists. */
  tailStart: number | undefined;
  /** Bytes of records in that segment: where appending continues (zeros written ahead may follow). */
  tailBytes: number;
  /** Bytes cut from a torn last record, if any (never acknowledged, so nothing is lost). */
  droppedBytes: number;
  /** Why the tail was cut, if it was. */
  droppedReason?: string;
}

/**
 * Reads every journal segment in `dir` and hands each record with seq > `afterSeq` to `apply`, in order
 * (docs/design.md "Durability is ours to build": start-up = snapshot + replay). A torn last record of the
 * LAST segment (a crash mid-write: truncated, or a bad checksum with nothing valid after it) is cut off
 * and reported, never fatal: its commit was never acknowledged. Damage followed by more data, or damage
 * in any earlier segment, would lose acknowledged commits: that is an error with a clear message.
 * Segments are read a window at a time and their records applied as they are decoded, so memory holds
 * neither a whole segment nor its decoded records. Records before damage are applied before the damage
 * is found: refused damage throws, which fails start-up anyway. Zeros after the last record of a segment
 * are the unused part of a preallocated segment (journal-writer.ts), not damage, and are left in place.
 *
 * `readOnly` is for a reader beside a live writer (the SPARQL replica): nothing is truncated, and any
 * damage in the last segment only ends the read there, since the writer may be appending that record.
 */
export function replayJournal(
  dir: string,
  afterSeq: number,
  apply: (r: JournalRecord) => void,
  readOnly = false,
): JournalScan {
  const segments = listSegments(dir);
  let lastSeq = afterSeq;
  const scan: JournalScan = { tailStart: segments.at(-1)?.startSeq, tailBytes: 0, droppedBytes: 0 };
  segments.forEach((seg, i) => {
    // each record is applied as it is decoded (no list of the segment's records held meanwhile)
    const end = forEachRecordInFile<JournalRecord>(seg.file, (r) => {
      if (r.seq <= lastSeq) return;
      if (r.seq !== lastSeq + 1) {
        throw new Error(`journal corrupt: ${seg.file} jumps from seq ${lastSeq} to ${r.seq}`);
      }
      apply(r);
      lastSeq = r.seq;
    });
    scan.tailBytes = end.validBytes;
    const d = end.damage;
    if (d) {
      const last = i === segments.length - 1;
      if (!last || (!d.torn && !readOnly)) {
        throw new Error(
          `journal corrupt: ${seg.file} has a ${d.reason} at byte ${d.offset} of ${end.fileBytes}` +
            (last ? " followed by more data" : " and later segments exist") +
            "; acknowledged commits would be lost, refusing to start (restore the file or cut it at that offset by hand)",
        );
      }
      scan.droppedBytes = end.fileBytes - end.validBytes;
      scan.droppedReason = d.reason;
      if (!readOnly) fs.truncateSync(seg.file, end.validBytes);
    }
  });
  return scan;
}
