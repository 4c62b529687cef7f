import path from "node:path";
import { parseArgs } from "node:util";
import { readArchive } from "../../store/backup/archive-reader";
import { reportLogs } from "../../store/journal/journal-report";
import { restoreArchive } from "../../store/backup/restore-archive";
import { runTool } from "./download";

/**
 * `DATA_DIR=DIR npm run restore -- FILE` (docs/operations.md "Backup and restore"): checks the backup and
 * fills the empty folder DIR with it, then checks what it wrote (each file's SHA-256, the logs' records);
 * the service then starts on DIR. `--check` only checks the archive. Refuses a non-empty DIR and a damaged
 * archive, with exit code 1 and nothing written.
 */
runTool(async () => {
  const { values, positionals } = parseArgs({
    options: { check: { type: "boolean", default: false } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (!file || positionals.length > 1)
    throw new Error("usage: DATA_DIR=DIR npm run restore -- [--check] FILE");
  const t0 = Date.now();
  if (values.check) {
    const m = readArchive(file);
    process.stdout.write(
      `${file} is intact: ${m.files.length} files, store seq ${m.storeSeq}, taken ${m.createdAt}\n`,
    );
    return;
  }
  if (!process.env.DATA_DIR) throw new Error("set DATA_DIR to the empty folder to restore into");
  const dataDir = path.resolve(process.env.DATA_DIR);
  const m = restoreArchive(file, dataDir);
  const damaged = reportLogs(dataDir).filter((r) => r.damage);
  if (damaged.length) throw new Error(`restored logs are damaged: ${damaged.map((r) => r.file).join(", ")}`);
  const bytes = m.files.reduce((n, f) => n + f.bytes, 0);
  process.stdout.write(
    `restored ${m.files.length} files (${bytes} bytes, store seq ${m.storeSeq}, taken ${m.createdAt}) into ${dataDir} in ${Date.now() - t0} ms\n`,
  );
});
