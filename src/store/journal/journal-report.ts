import fs from "node:fs";
import path from "node:path";
import { listSegments } from "./journal-files";
import { salvageRecords } from "./record-salvage";
import { forEachRecordInFile } from "./segment-file";

/** What one log file (a journal or history segment, or a file set aside by a recovery) holds. */
export interface FileReport {
  file: string;
  bytes: number;
  records: number;
  /** Sequence numbers of the first and last records, for journal records (they carry one). */
  firstSeq?: number;
  lastSeq?: number;
  /** Where the readable records end, and why, when the file does not end there (zeros ahead excepted). */
  damage?: { offset: number; reason: string; torn: boolean };
  /** With damage: the records still readable after it, each vouched for by its checksum (record-salvage.ts). */
  afterDamage?: { records: number; firstSeq?: number; lastSeq?: number };
}

/**
 * Reads every log file of a data directory without changing anything (`citygraph repair`): the store's
 * journal segments, the history log's files, and the `.damaged-*` files a recovery set aside (whose
 * records, when they still decode, are what a person may want to replay by hand).
 */
export function reportLogs(dataDir: string): FileReport[] {
  const out: FileReport[] = [];
  for (const sub of ["store", "history"]) {
    const dir = path.join(dataDir, sub);
    if (!fs.existsSync(dir)) continue;
    const files = [
      ...listSegments(dir).map((s) => s.file),
      ...fs
        .readdirSync(dir)
        .filter((f) => /\.damaged-|^base-\d{16}\.log$/.test(f))
        .map((f) => path.join(dir, f)),
    ];
    for (const file of files) out.push(reportFile(file));
  }
  return out;
}

function reportFile(file: string): FileReport {
  let records = 0;
  let firstSeq: number | undefined;
  let lastSeq: number | undefined;
  const end = forEachRecordInFile<{ seq?: unknown }>(file, (r) => {
    records++;
    if (typeof r.seq === "number") {
      firstSeq ??= r.seq;
      lastSeq = r.seq;
    }
  });
  const report: FileReport = { file, bytes: end.fileBytes, records, firstSeq, lastSeq };
  if (end.damage) {
    report.damage = { offset: end.damage.offset, reason: end.damage.reason, torn: end.damage.torn };
    // the records before the damage come first: the one after them is the first past the damage
    let n = 0;
    let first: number | undefined;
    const all = salvageRecords<{ seq?: unknown }>(file, (r) => {
      if (n++ === records && typeof r.seq === "number") first = r.seq;
    });
    const after = all.records - records;
    report.afterDamage = { records: after, firstSeq: first, lastSeq: after > 0 ? all.lastSeq : undefined };
  }
  return report;
}
