import fs from "node:fs";
import { forEachRecord, type JournalRecord, type SegmentBytes, type SegmentEnd } from "./record-codec";

/**
 * A window on a segment file (`windowBytes` read at a time, a record longer than that whole), moved
 * forward as records are decoded, so decoding holds one window of the file instead of all of it. The
 * bytes handed out are valid until the next call (SegmentBytes): the window's buffer is reused.
 */
class FileWindow implements SegmentBytes {
  private mem = Buffer.alloc(0);
  private buf = Buffer.alloc(0);
  private start = 0;

  constructor(
    private readonly fd: number,
    readonly length: number,
    private readonly windowBytes: number,
  ) {}

  bytes(offset: number, n: number): Buffer {
    if (offset < this.start || offset + n > this.start + this.buf.length) {
      const size = Math.min(Math.max(n, this.windowBytes), this.length - offset);
      // one buffer, reused while it is large enough: a new buffer per window left dead ArrayBuffers
      // piling up in a compaction worker (docs/decisions/0002-memory-at-scale.md)
      if (this.mem.length < size) this.mem = Buffer.allocUnsafe(size);
      let got = 0;
      while (got < size) {
        const r = fs.readSync(this.fd, this.mem, got, size - got, offset + got);
        if (r === 0) throw new Error(`segment file shrank while it was read (at byte ${offset + got})`);
        got += r;
      }
      this.buf = this.mem.subarray(0, size);
      this.start = offset;
    }
    return this.buf.subarray(offset - this.start, offset - this.start + n);
  }
}

/**
 * {@link forEachRecord} over a segment file read a window at a time (docs/design.md "Durability is ours to
 * build"): start-up replays, the temporal history's log and compaction read segments of hundreds of MB
 * this way without a buffer of the whole file, which, surviving the replay, lived in the old generation
 * until the next full GC (docs/decisions/0002-memory-at-scale.md). Also returns the file's length.
 * `windowBytes`: bytes read at a time. `file` may be a descriptor opened earlier (left open): a reader beside
 * the writer holds its segments open so that a compaction deleting them does not cut its read.
 */
export function forEachRecordInFile<T = JournalRecord>(
  file: string | number,
  each: (r: T) => void,
  windowBytes = 8 * 1024 * 1024,
): SegmentEnd & { fileBytes: number } {
  return withFileBytes(
    file,
    (bytes) => ({ ...forEachRecord<T>(bytes, each), fileBytes: bytes.length }),
    windowBytes,
  );
}

/**
 * Runs `read` on the bytes of a segment file seen through a moving window ({@link forEachRecordInFile});
 * `file` may be a descriptor opened earlier (left open).
 */
export function withFileBytes<R>(
  file: string | number,
  read: (bytes: SegmentBytes) => R,
  windowBytes = 8 * 1024 * 1024,
): R {
  const fd = typeof file === "number" ? file : fs.openSync(file, "r");
  try {
    return read(new FileWindow(fd, fs.fstatSync(fd).size, windowBytes));
  } finally {
    if (typeof file !== "number") fs.closeSync(fd);
  }
}
