import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { createGunzip } from "node:zlib";
import { IMPORT_FORMATS, importToSnapshot } from "../../store/backup/graph-import";
import { emptyAgain, isEmptyDir } from "../../store/backup/restore-archive";
import { runTool } from "./download";

/** The format a file name says (`.nq`, `.nquads`, `.trig`, each maybe with `.gz`). */
function formatOf(file: string): keyof typeof IMPORT_FORMATS | undefined {
  const name = file.replace(/\.gz$/, "");
  if (/\.(nq|nquads)$/.test(name)) return "nquads";
  if (name.endsWith(".trig")) return "trig";
  return undefined;
}

/** True if the file starts with gzip's magic bytes. */
function isGzip(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const b = Buffer.alloc(2);
    return fs.readSync(fd, b, 0, 2, 0) === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `DATA_DIR=DIR npm run import -- FILE [--tenant T] [--format nquads|trig]` (docs/operations.md "Export and
 * import"): loads an N-Quads or TriG file (gzip or not; an export of this service or another's) as the
 * graph of tenant T (default: the default tenant) into the empty folder DIR; the service then starts on
 * DIR and serves those entities. Exit code 1 on a parse error (nothing kept) or a non-empty DIR.
 */
runTool(async () => {
  const { values, positionals } = parseArgs({
    options: { tenant: { type: "string", default: "" }, format: { type: "string" } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (!file || positionals.length > 1)
    throw new Error("usage: DATA_DIR=DIR npm run import -- FILE [--tenant T] [--format nquads|trig]");
  const format = values.format ?? formatOf(file);
  if (format !== "nquads" && format !== "trig")
    throw new Error("give --format nquads or --format trig (the file name says neither)");
  if (!process.env.DATA_DIR) throw new Error("set DATA_DIR to the empty folder to import into");
  const dataDir = path.resolve(process.env.DATA_DIR);
  if (!isEmptyDir(dataDir)) throw new Error(`${dataDir} is not empty: an import fills an empty folder only`);
  const t0 = Date.now();
  const raw = fs.createReadStream(file);
  const input: Readable = isGzip(file) ? raw.pipe(createGunzip()) : raw;
  raw.on("error", (e) => input.destroy(e));
  const created = !fs.existsSync(dataDir);
  try {
    const r = await importToSnapshot(
      input,
      format,
      values.tenant ?? "",
      path.join(dataDir, "store"),
      (quads) => process.stdout.write(`import progress: ${quads} quads\n`),
    );
    process.stdout.write(
      `imported ${r.quads} quads in ${r.graphs} graphs into ${dataDir} (${r.skipped} left out: default or internal graphs) in ${Date.now() - t0} ms\n`,
    );
  } catch (e) {
    emptyAgain(dataDir, created);
    throw e;
  }
});
