import fs from "node:fs";
import { parseArgs } from "node:util";
import { readArchive } from "../../store/backup/archive-reader";
import { adminAuthorization, download, runTool } from "./download";

/**
 * `npm run backup -- --url URL --out FILE` (docs/operations.md "Backup and restore"): asks a running
 * service for a backup (`POST /v1/admin/backups`, credentials from CITYGRAPH_TOKEN or ADMIN_PASSWORD),
 * checks the archive it got, and only then gives it its name. Exit code 1 on any failure.
 */
runTool(async () => {
  const { values } = parseArgs({ options: { url: { type: "string" }, out: { type: "string" } } });
  if (!values.url || !values.out) throw new Error("usage: npm run backup -- --url URL --out FILE");
  const t0 = Date.now();
  const partial = `${values.out}.partial`;
  try {
    const headers = await adminAuthorization(values.url);
    const bytes = await download(
      new URL("/v1/admin/backups", values.url),
      { method: "POST", headers },
      partial,
    );
    const manifest = readArchive(partial);
    fs.renameSync(partial, values.out);
    process.stdout.write(
      `backup written to ${values.out}: ${bytes} bytes, ${manifest.files.length} files, store seq ${manifest.storeSeq}, ${Date.now() - t0} ms\n`,
    );
  } finally {
    fs.rmSync(partial, { force: true });
  }
});
