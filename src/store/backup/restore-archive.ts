import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fsyncDir } from "../journal/journal-files";
import { DamagedBackupError, readArchive } from "./archive-reader";
import type { BackupManifest } from "./backup-manifest";

/** True when `dir` is missing or holds nothing: the only place a restore writes to. */
export function isEmptyDir(dir: string): boolean {
  return !fs.existsSync(dir) || (fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length === 0);
}

/** Writes each entry of the archive to its file under `dataDir` (mode as archived), fsynced. */
function writeEntries(file: string, dataDir: string): BackupManifest {
  const dirs = new Set<string>([dataDir]);
  let fd: number | undefined;
  return readArchive(file, {
    begin(h) {
      const target = path.join(dataDir, ...h.path.split("/"));
      const dir = path.dirname(target);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      for (let d = dir; d.length > dataDir.length; d = path.dirname(d)) dirs.add(d);
      fd = fs.openSync(target, "wx", h.mode & 0o777 || 0o600);
    },
    data(chunk) {
      fs.writeSync(fd as number, chunk);
    },
    end() {
      fs.fsyncSync(fd as number);
      fs.closeSync(fd as number);
      fd = undefined;
    },
  });
  for (const d of dirs) fsyncDir(d);
}

/** Reads every restored file back and compares it with the manifest; returns what differs. */
export function checkRestored(dataDir: string, manifest: BackupManifest): string[] {
  const bad: string[] = [];
  for (const f of manifest.files) {
    const target = path.join(dataDir, ...f.path.split("/"));
    if (!fs.existsSync(target)) {
      bad.push(`${f.path}: missing`);
      continue;
    }
    const h = createHash("sha256");
    const fd = fs.openSync(target, "r");
    try {
      const buf = Buffer.allocUnsafe(1024 * 1024);
      for (let n = fs.readSync(fd, buf); n > 0; n = fs.readSync(fd, buf)) h.update(buf.subarray(0, n));
    } finally {
      fs.closeSync(fd);
    }
    if (h.digest("hex") !== f.sha256) bad.push(`${f.path}: SHA-256 differs`);
  }
  return bad;
}

/**
 * Restores a backup archive into the empty folder `dataDir` (docs/operations.md "Backup and restore"):
 * the whole archive is checked first and nothing is written unless it is intact
 * ({@link DamagedBackupError}); then its files are written and read back against the manifest. What was
 * written is removed again when a step fails.
 */
export function restoreArchive(file: string, dataDir: string): BackupManifest {
  if (!isEmptyDir(dataDir)) throw new Error(`${dataDir} is not empty: a restore fills an empty folder only`);
  readArchive(file);
  const created = !fs.existsSync(dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    const manifest = writeEntries(file, dataDir);
    const bad = checkRestored(dataDir, manifest);
    if (bad.length) throw new DamagedBackupError(`restored files differ from the backup: ${bad.join("; ")}`);
    return manifest;
  } catch (e) {
    emptyAgain(dataDir, created);
    throw e;
  }
}

/** After a failed restore or import: removes `dataDir` if it was `created`, else everything in it. */
export function emptyAgain(dataDir: string, created: boolean): void {
  if (created) fs.rmSync(dataDir, { recursive: true, force: true });
  else
    for (const f of fs.readdirSync(dataDir))
      fs.rmSync(path.join(dataDir, f), { recursive: true, force: true });
}
