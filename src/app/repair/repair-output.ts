import path from "node:path";
import { reportLogs } from "../../store/journal/journal-report";
import type { Salvage } from "../../store/journal/record-salvage";
import type { SetAsideRecord } from "./set-aside-records";

const out = (line: string): boolean => process.stdout.write(`${line}\n`);

/** ` seq a..b` of a range, or nothing. */
const seqRange = (first?: number, last?: number): string =>
  first === undefined ? "" : ` seq ${first}..${last}`;

/** Prints what each log file of `dataDir` holds (`npm run repair`); returns the exit code: 2 if damaged. */
export function printReport(dataDir: string): number {
  const reports = reportLogs(dataDir);
  let damaged = 0;
  for (const r of reports) {
    let line = `${path.relative(dataDir, r.file)}: ${r.bytes} bytes, ${r.records} records${seqRange(r.firstSeq, r.lastSeq)}`;
    if (r.damage) {
      line += ` DAMAGED at byte ${r.damage.offset}: ${r.damage.reason}${r.damage.torn ? " (torn end)" : ""}`;
      const a = r.afterDamage;
      if (a) line += `; readable after it: ${a.records} records${seqRange(a.firstSeq, a.lastSeq)}`;
    }
    if (r.damage || r.file.includes(".damaged-")) damaged++;
    out(line);
  }
  out(
    reports.length === 0
      ? `no logs in ${dataDir}`
      : damaged === 0
        ? "no damage found"
        : `${damaged} file(s) damaged or set aside; the service starts from the records before the damage; ` +
          "--list FILE shows a file's readable records, --replay FILE --url URL replays them",
  );
  return damaged === 0 ? 0 : 2;
}

/** Prints each readable record of a set-aside file and the spans that hold none (`--list`). */
export function printListing(file: string, read: { records: SetAsideRecord[]; salvage: Salvage }): void {
  for (const r of read.records) {
    const graphs = r.writes.map((w) => `${w.triples === null ? "drop" : "write"} ${w.graph}`);
    out(`seq ${r.seq} tenant "${r.tenant}": ${graphs.join(", ")}`);
  }
  for (const u of read.salvage.unreadable)
    out(`unreadable: ${u.bytes} bytes at byte ${u.offset} (${u.reason})`);
  out(
    `${file}: ${read.records.length} readable records${seqRange(read.salvage.firstSeq, read.salvage.lastSeq)}`,
  );
}
