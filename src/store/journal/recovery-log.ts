import type { JournalScan } from "./journal-replay";

/** One line for the log. */
export interface LogEntry {
  level: "info" | "warn" | "error";
  msg: string;
  fields: Record<string, unknown>;
}

const REPAIR =
  "npm run repair -- <DATA_DIR> lists what they hold; --replay puts it back (docs/operations.md)";

/** `a..b` or `a` for a range of seqs. */
const seqs = (a: number, b: number): string => (a === b ? String(a) : `${a}..${b}`);

/**
 * What a start-up replay of the journal tells the operator, saying only what the bytes show
 * (docs/operations.md "Journal damage"): a cut last record may or may not have been acknowledged and its
 * seq is unknown; bytes set aside hold the commits their checksums vouch for, or none.
 */
export function describeRecovery(scan: JournalScan): LogEntry[] {
  const out: LogEntry[] = [];
  if (scan.droppedBytes > 0) {
    out.push({
      level: "warn",
      msg:
        "store journal: cut an unreadable last record; whether it had been acknowledged, and its seq, " +
        "cannot be known (a crash mid-write leaves one that was not, damage on disk one that was)",
      fields: { bytes: scan.droppedBytes, reason: scan.droppedReason, afterSeq: scan.lastSeq },
    });
  }
  const aside = scan.setAside;
  if (!aside) return out;
  const common = { reason: aside.reason, recoveredToSeq: aside.afterSeq, setAsideBytes: aside.bytes };
  const { records, firstSeq, lastSeq } = aside.readable;
  if (records === 0) {
    out.push({
      level: "warn",
      msg:
        "store journal: unreadable bytes after the last readable record were set aside; they hold no " +
        "readable record, so no commit is known to be in them",
      fields: { ...common, files: aside.files },
    });
    return out;
  }
  const fields: Record<string, unknown> = { ...common, readableRecords: records, files: aside.files };
  if (firstSeq !== undefined && lastSeq !== undefined) fields.readableSeqs = seqs(firstSeq, lastSeq);
  // commits between the recovered one and the first readable one were written before it: their records
  // are the damaged bytes
  if (firstSeq !== undefined && firstSeq > aside.afterSeq + 1)
    fields.unreadableSeqs = seqs(aside.afterSeq + 1, firstSeq - 1);
  fields.repair = REPAIR;
  out.push({
    level: "error",
    msg: `store journal: damage recovered to seq ${aside.afterSeq}; ${records} readable commits after it were set aside, not applied`,
    fields,
  });
  return out;
}
