import path from "node:path";
import { reportLogs } from "../store/journal/journal-report";

/**
 * `citygraph repair [DATA_DIR]` (npm run repair -- DATA_DIR; default ./data or env DATA_DIR): tells what
 * the logs of a data directory hold and where they are damaged, changing nothing. A start recovers on its
 * own (the journal to the last record before any damage, the rest set aside in `.damaged-*` files, logged);
 * this report says what those files still hold. Exit code 0 when no file is damaged, 2 otherwise.
 */
function main(): void {
  const dataDir = path.resolve(process.argv[2] ?? process.env.DATA_DIR ?? "./data");
  const reports = reportLogs(dataDir);
  let damaged = 0;
  for (const r of reports) {
    const seqs = r.firstSeq === undefined ? "" : ` seq ${r.firstSeq}..${r.lastSeq}`;
    const bad = r.damage
      ? ` DAMAGED at byte ${r.damage.offset}: ${r.damage.reason}${r.damage.torn ? " (torn end)" : ""}`
      : "";
    if (r.damage || r.file.includes(".damaged-")) damaged++;
    process.stdout.write(
      `${path.relative(dataDir, r.file)}: ${r.bytes} bytes, ${r.records} records${seqs}${bad}\n`,
    );
  }
  process.stdout.write(
    reports.length === 0
      ? `no logs in ${dataDir}\n`
      : damaged === 0
        ? "no damage found\n"
        : `${damaged} file(s) damaged or set aside; the service starts from the records before the damage\n`,
  );
  process.exitCode = damaged === 0 ? 0 : 2;
}

main();
