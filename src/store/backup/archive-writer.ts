import { createHash } from "node:crypto";
import fs from "node:fs";
import {
  BACKUP_FORMAT,
  type BackupFile,
  type BackupManifest,
  CHECKSUM_ENTRY,
  MANIFEST_ENTRY,
} from "./backup-manifest";
import { BLOCK, encodeHeader, paddingOf } from "./tar-header";

/** Bytes read from a file at a time. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Writes a backup archive as a stream of buffers (a ustar file: docs/operations.md "Backup and restore"):
 * one entry per file, then the manifest (each file's size and SHA-256), then the SHA-256 of every byte
 * before the checksum entry, then the two zero blocks that end a tar file.
 */
export class ArchiveWriter {
  private readonly hash = createHash("sha256");
  private readonly files: BackupFile[] = [];
  /** Bytes written so far. */
  bytes = 0;

  private out(b: Buffer): Buffer {
    this.hash.update(b);
    this.bytes += b.length;
    return b;
  }

  /**
   * The entry of `file` (on disk) as `path` in the archive, read in chunks from one open descriptor: the
   * size at open is what is copied (an append meanwhile is left out). Nothing when the file is gone.
   */
  async *file(path: string, file: string): AsyncGenerator<Buffer> {
    let fh: fs.promises.FileHandle;
    try {
      fh = await fs.promises.open(file, "r");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
      throw e;
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) return;
      yield this.out(encodeHeader({ path, size: st.size, mode: st.mode & 0o777, mtime: st.mtimeMs / 1000 }));
      const h = createHash("sha256");
      for (let done = 0; done < st.size;) {
        const buf = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, st.size - done));
        const { bytesRead } = await fh.read(buf, 0, buf.length, done);
        if (bytesRead === 0) throw new Error(`${file} shrank while it was copied`);
        const chunk = buf.subarray(0, bytesRead);
        h.update(chunk);
        done += bytesRead;
        yield this.out(chunk);
      }
      const pad = paddingOf(st.size);
      if (pad) yield this.out(Buffer.alloc(pad));
      this.files.push({ path, bytes: st.size, sha256: h.digest("hex") });
    } finally {
      await fh.close();
    }
  }

  /** The manifest, the checksum entry and the end of the archive. */
  *finish(storeSeq: number): Generator<Buffer> {
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      storeSeq,
      files: this.files,
    };
    yield* this.entry(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 1) + "\n"), true);
    yield* this.entry(CHECKSUM_ENTRY, Buffer.from(this.hash.digest("hex") + "\n"), false);
    yield Buffer.alloc(2 * BLOCK);
  }

  private *entry(path: string, data: Buffer, hashed: boolean): Generator<Buffer> {
    const parts = [
      encodeHeader({ path, size: data.length, mode: 0o644, mtime: Date.now() / 1000 }),
      data,
      Buffer.alloc(paddingOf(data.length)),
    ];
    for (const p of parts) yield hashed ? this.out(p) : p;
  }
}
