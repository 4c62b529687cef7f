import fs from "node:fs";

/**
 * Bytes of zeros written ahead of a segment's records at a time: small, since a larger chunk stalled the
 * records' writes longer while the zeros were written (docs/decisions/0001-write-path.md).
 */
export const PREALLOCATE_BYTES = 2 * 1024 * 1024;

/** Zeros to write from: one 1 MiB buffer, handed to `writev` as often as a chunk needs. */
const ZEROS = Buffer.alloc(1024 * 1024);

/**
 * The zeros written ahead of a segment's records (docs/decisions/0001-write-path.md). An O_DSYNC write
 * that only overwrites bytes already in the file waits for its data; one that makes the file longer also
 * waits for an ext4 journal commit of the new size, and the journal's and the history's appends queue
 * behind each other's commits, several times slower at the tail. So a segment is kept `chunk` bytes of
 * zeros ahead of its records, written on libuv's pool off the path of the records (an O_DSYNC
 * descriptor: the zeros and the new size are on disk when the write returns).
 *
 * Durability never depends on it: a record beyond the zeros still appends (O_DSYNC covers the size), and
 * readers take zeros from a record boundary on as the end of the segment (record-codec.ts). What it must
 * prevent is zeros landing on a record: {@link reserve} waits when a record would reach bytes whose zeros
 * are still being written.
 */
export class Preallocation {
  private extending: Promise<void> | undefined;

  /** `allocated`: the file's length now (zeros from the writer's offset up to it). */
  constructor(
    private readonly fd: number,
    private allocated: number,
    private readonly chunk = PREALLOCATE_BYTES,
  ) {}

  /**
   * Call before writing bytes `from` to `end` (one caller at a time): waits if zeros are being written
   * there, and starts writing the next chunk of zeros once fewer than half a chunk are left after `end`,
   * unless the write is large (a quarter chunk or more, such as a batch upsert's record): its size change
   * costs one commit for megabytes of data, and zeros written ahead would only double its bytes on disk.
   */
  async reserve(from: number, end: number): Promise<void> {
    if (this.extending && end > this.allocated) await this.extending;
    if (!this.extending && end - from < this.chunk / 4 && this.allocated - end < this.chunk / 2) {
      this.extending = this.extend(Math.max(this.allocated, end));
    }
  }

  /** Resolves once no zeros are being written (before the descriptor is closed). */
  async settle(): Promise<void> {
    await this.extending;
  }

  private extend(from: number): Promise<void> {
    const pieces: Buffer[] = [];
    for (let n = 0; n < this.chunk; n += ZEROS.length) {
      pieces.push(ZEROS.subarray(0, Math.min(ZEROS.length, this.chunk - n)));
    }
    return new Promise<void>((resolve) =>
      fs.writev(this.fd, pieces, from, (err, written) => {
        // a failure (a full disk) only means that records append as they did without zeros ahead
        if (!err) this.allocated = Math.max(this.allocated, from + written);
        this.extending = undefined;
        resolve();
      }),
    );
  }
}
