import { createHash } from "node:crypto";
import fs from "node:fs";
import {
  BACKUP_FORMAT,
  type BackupManifest,
  CHECKSUM_ENTRY,
  isSafeBackupPath,
  MANIFEST_ENTRY,
} from "./backup-manifest";
import { BLOCK, decodeHeader, isZeros, paddingOf, type TarHeader } from "./tar-header";

/** A backup that fails a check: truncated, a byte changed, or not a backup at all. */
export class DamagedBackupError extends Error {}

/** The checksum entry (header + one block) and the two end blocks. */
const TRAILER_BYTES = 4 * BLOCK;
const CHUNK_BYTES = 1024 * 1024;

/** Receives each data file's bytes while the archive is read (see {@link readArchive}). */
export interface EntrySink {
  begin(h: TarHeader): void;
  data(chunk: Buffer): void;
  end(): void;
}

function damaged(file: string, why: string): never {
  throw new DamagedBackupError(`${file} is not an intact citygraph backup: ${why}`);
}

function readAt(fd: number, buf: Buffer, pos: number, file: string): void {
  for (let got = 0; got < buf.length;) {
    const n = fs.readSync(fd, buf, got, buf.length - got, pos + got);
    if (n === 0) damaged(file, "it ends early (truncated)");
    got += n;
  }
}

/** Checks the checksum entry and the end of the archive; returns the checksum it holds. */
function readTrailer(fd: number, size: number, file: string): string {
  const t = Buffer.alloc(TRAILER_BYTES);
  readAt(fd, t, size - TRAILER_BYTES, file);
  let h: TarHeader;
  try {
    h = decodeHeader(t.subarray(0, BLOCK));
  } catch (e) {
    return damaged(file, `its checksum entry is missing or damaged (${(e as Error).message}; truncated?)`);
  }
  if (h.path !== CHECKSUM_ENTRY || h.size !== 65) damaged(file, "its checksum entry is missing (truncated?)");
  const sum = t.subarray(BLOCK, BLOCK + 64).toString("latin1");
  if (!/^[0-9a-f]{64}$/.test(sum) || t[BLOCK + 64] !== 0x0a) damaged(file, "its checksum entry is damaged");
  if (!isZeros(t.subarray(BLOCK + 65))) damaged(file, "the bytes after its checksum were changed");
  return sum;
}

/**
 * Reads a backup archive (archive-writer.ts) from start to end, checking every byte: the SHA-256 of all
 * bytes before the checksum entry against it, each tar header's own checksum, the zeros of every padding,
 * each file's size and SHA-256 against the manifest, and that the manifest lists exactly the files there
 * are. Each data file's bytes go to `sink` as they are read (checked only at the end: write them where a
 * failure can be cleaned up). Throws {@link DamagedBackupError} on any mismatch; returns the manifest.
 */
export function readArchive(file: string, sink?: EntrySink): BackupManifest {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    if (size < TRAILER_BYTES + 2 * BLOCK || size % BLOCK !== 0)
      damaged(file, `its size (${size} bytes) is not that of a complete archive (truncated?)`);
    const expected = readTrailer(fd, size, file);
    const all = createHash("sha256");
    const end = size - TRAILER_BYTES;
    const seen = new Map<string, { bytes: number; sha256: string }>();
    let manifestText: string | undefined;
    const block = Buffer.alloc(BLOCK);
    for (let pos = 0; pos < end;) {
      readAt(fd, block, pos, file);
      all.update(block);
      pos += BLOCK;
      let h: TarHeader;
      try {
        h = decodeHeader(block);
      } catch (e) {
        return damaged(file, `a damaged entry header at byte ${pos - BLOCK} (${(e as Error).message})`);
      }
      if (manifestText !== undefined) damaged(file, "an entry follows the manifest");
      const isManifest = h.path === MANIFEST_ENTRY;
      if (!isManifest && (!isSafeBackupPath(h.path) || seen.has(h.path)))
        damaged(file, `an entry with a path it may not hold: ${JSON.stringify(h.path)}`);
      const padded = h.size + paddingOf(h.size);
      if (pos + padded > end) damaged(file, `the entry ${h.path} runs past the end (truncated?)`);
      const sha = createHash("sha256");
      const parts: Buffer[] = [];
      if (!isManifest) sink?.begin(h);
      for (let left = h.size; left > 0;) {
        const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, left));
        readAt(fd, chunk, pos, file);
        all.update(chunk);
        sha.update(chunk);
        if (isManifest) parts.push(chunk);
        else sink?.data(chunk);
        pos += chunk.length;
        left -= chunk.length;
      }
      if (!isManifest) sink?.end();
      const pad = Buffer.alloc(paddingOf(h.size));
      readAt(fd, pad, pos, file);
      all.update(pad);
      pos += pad.length;
      if (!isZeros(pad)) damaged(file, `the padding after ${h.path} was changed`);
      if (isManifest) manifestText = Buffer.concat(parts).toString("utf8");
      else seen.set(h.path, { bytes: h.size, sha256: sha.digest("hex") });
    }
    if (all.digest("hex") !== expected) damaged(file, "its checksum does not match its content");
    if (manifestText === undefined) damaged(file, "it has no manifest");
    const manifest = parseManifest(manifestText, file);
    for (const f of manifest.files) {
      const got = seen.get(f.path);
      if (!got) damaged(file, `the file ${f.path} of its manifest is missing`);
      if (got.bytes !== f.bytes || got.sha256 !== f.sha256)
        damaged(file, `the file ${f.path} does not match its SHA-256`);
      seen.delete(f.path);
    }
    if (seen.size) damaged(file, `files its manifest does not list: ${[...seen.keys()].join(", ")}`);
    return manifest;
  } finally {
    fs.closeSync(fd);
  }
}

function parseManifest(text: string, file: string): BackupManifest {
  let m: BackupManifest;
  try {
    m = JSON.parse(text) as BackupManifest;
  } catch {
    return damaged(file, "its manifest is not JSON");
  }
  if (
    m.format !== BACKUP_FORMAT ||
    m.version !== 1 ||
    !Array.isArray(m.files) ||
    !Number.isInteger(m.storeSeq)
  )
    damaged(file, "its manifest is not that of a citygraph backup (version 1)");
  return m;
}
