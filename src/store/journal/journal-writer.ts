import fs from "node:fs";
import path from "node:path";
import { fsyncDir, segmentName } from "./journal-files";
import { Preallocation } from "./preallocation";

type Item =
  | { kind: "record"; data: Buffer; done: (err?: Error) => void }
  | { kind: "rotate"; startSeq: number; done: (err?: Error) => void };

/** Writes all of `data` at `position`; on an O_DSYNC descriptor it is on disk when this resolves. */
const write = (fd: number, data: Buffer, position: number, from = 0): Promise<void> =>
  new Promise<number>((resolve, reject) =>
    fs.write(fd, data, from, data.length - from, position + from, (e, n) => (e ? reject(e) : resolve(n))),
  ).then((n) => (from + n < data.length ? write(fd, data, position, from + n) : undefined));

/**
 * The append side of the journal with group commit (docs/design.md "Durability is ours to build"). Records
 * appended while a synchronous write (O_DSYNC, see openSegment) is in flight wait and go out together in
 * the next one; each append's promise resolves only once its bytes are on disk, in append order. The file I/O runs on libuv's pool,
 * so the worker keeps applying commits and answering reads meanwhile. After an I/O error the writer is
 * broken: that batch and every later append are rejected (the store must not acknowledge anything more).
 * Records overwrite zeros written ahead of them (preallocation.ts); a clean close cuts the unused zeros.
 */
export class JournalWriter {
  private queue: Item[] = [];
  private running = false;
  private broken: Error | undefined;
  private space: Preallocation;

  private constructor(
    private readonly dir: string,
    private startSeq: number,
    private fd: number,
    /** Offset of the next record: the end of the valid records (zeros may follow). */
    private bytes: number,
  ) {
    this.space = preallocate(fd, bytes);
  }

  /**
   * Opens (or creates) the segment starting at `startSeq` for appending after its first `validBytes`
   * bytes: the end of its records as reading it found (`SegmentEnd.validBytes`, 0 for a new segment);
   * zeros may follow them.
   */
  static open(dir: string, startSeq: number, validBytes: number): JournalWriter {
    return new JournalWriter(dir, startSeq, openSegment(dir, startSeq), validBytes);
  }

  /** Appends one encoded record; resolves once it is fsynced. */
  append(data: Buffer): Promise<void> {
    return this.enqueue((done) => ({ kind: "record", data, done }));
  }

  /**
   * Ends the current segment after every record appended so far is durable, and continues in a new
   * segment starting at `startSeq`; records appended after this call go to the new segment.
   */
  rotate(startSeq: number): Promise<void> {
    return this.enqueue((done) => ({ kind: "rotate", startSeq, done }));
  }

  /** Resolves once everything appended so far is on disk. */
  flush(): Promise<void> {
    return this.running || this.queue.length ? this.append(Buffer.alloc(0)) : Promise.resolve();
  }

  /** Synchronous writes done (each one fsync's worth of waiting) and the seconds they took: a metric. */
  readonly syncs = { count: 0, seconds: 0 };

  /** Bytes in the current segment. */
  get size(): number {
    return this.bytes;
  }

  /** Why the writer stopped accepting records, if it did. */
  get failure(): Error | undefined {
    return this.broken;
  }

  /** True if the segment can still be written (health check). */
  writable(): boolean {
    if (this.broken) return false;
    try {
      fs.fstatSync(this.fd);
      fs.accessSync(this.dir, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  /** Flushes and closes the segment, without the zeros after its records. */
  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    await this.space.settle();
    try {
      fs.ftruncateSync(this.fd, this.bytes);
    } catch {
      // the zeros stay: readers take them as the end of the segment
    }
    fs.closeSync(this.fd);
  }

  private enqueue(make: (done: (err?: Error) => void) => Item): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.queue.push(make((err) => (err ? reject(err) : resolve())));
      if (this.running) return;
      // start at the end of this turn: every record appended in the same turn goes in one write
      this.running = true;
      queueMicrotask(() => void this.run());
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (head.kind === "rotate") {
        this.queue.shift();
        try {
          // to the segment in use: nothing to do (a compaction with no commit since the last one)
          if (head.startSeq !== this.startSeq) {
            // the old segment keeps its unused zeros until compaction deletes it (replay skips them)
            await this.space.settle();
            fs.closeSync(this.fd);
            this.fd = openSegment(this.dir, head.startSeq);
            this.startSeq = head.startSeq;
            this.bytes = fs.fstatSync(this.fd).size; // 0: segments are named for their first seq
            this.space = preallocate(this.fd, this.bytes);
          }
          head.done();
        } catch (e) {
          this.fail(e as Error, [head]);
        }
        continue;
      }
      let n = 0;
      while (n < this.queue.length && this.queue[n].kind === "record") n++;
      const batch = this.queue.splice(0, n) as Extract<Item, { kind: "record" }>[];
      const data = batch.length === 1 ? batch[0].data : Buffer.concat(batch.map((b) => b.data));
      try {
        if (data.length > 0) {
          await this.space.reserve(this.bytes, this.bytes + data.length);
          const t0 = performance.now();
          await write(this.fd, data, this.bytes); // O_DSYNC: durable on return (see openSegment)
          this.syncs.count++;
          this.syncs.seconds += (performance.now() - t0) / 1000;
          this.bytes += data.length;
        }
        for (const b of batch) b.done();
      } catch (e) {
        this.fail(e as Error, batch);
      }
    }
    this.running = false;
  }

  private fail(err: Error, items: Item[]): void {
    this.broken = new Error(`journal write failed: ${err.message}`);
    for (const it of [...items, ...this.queue.splice(0)]) it.done(this.broken);
  }
}

/**
 * Opens a segment for appending with O_DSYNC: each write returns once its data (and the metadata needed to
 * read it back, such as the file size) is on disk, as write + fdatasync would, but in ONE round trip
 * through libuv's pool instead of two. Each round trip ends with a callback on this thread's event loop,
 * which a busy thread runs late: with two round trips, a batch upsert's records waited long to be
 * "durable" while the store worker loaded the next batches (docs/decisions/0001-write-path.md).
 */
function openSegment(dir: string, startSeq: number): number {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, segmentName(startSeq));
  const existed = fs.existsSync(file);
  const c = fs.constants;
  const fd = fs.openSync(file, c.O_WRONLY | c.O_CREAT | c.O_DSYNC, 0o666);
  if (!existed) fsyncDir(dir);
  return fd;
}

/** Tracks the zeros after `validBytes` in a segment and starts writing more ahead of the records. */
function preallocate(fd: number, validBytes: number): Preallocation {
  const size = fs.fstatSync(fd).size;
  if (validBytes > size)
    throw new Error(`journal segment is ${size} bytes, shorter than its ${validBytes} valid ones`);
  const space = new Preallocation(fd, size);
  void space.reserve(validBytes, validBytes);
  return space;
}
