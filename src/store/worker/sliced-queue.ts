/**
 * A FIFO of work items run in arrival order, in slices: once the items run since the slice began took
 * `sliceMs`, the rest waits for the next turn of the event loop (`setImmediate`), so that what the
 * finished items started at the end of their turn goes out at once instead of after the whole backlog.
 *
 * Why the store worker needs it (docs/decisions/0001-write-path.md): the main thread may
 * send several large commits in one message (batches of a batch upsert, each long to load).
 * Run back to back in one turn, the first commit's answers ("applied", then its journal group write,
 * which starts at the end of the turn) waited for all three loads: its fsync and the main thread's
 * history append and change-feed work could not overlap the next loads. Small items (a turn's dozen
 * POSTs, a fraction of a millisecond each) still run in one slice, so their journal records still go
 * out in one write.
 *
 * An item may also take several turns: when `run` returns a promise, the queue runs nothing else until it
 * settles (the store worker applies a large commit in steps, so that its journal I/O callbacks, which
 * need the event loop, are not held up by the whole load).
 *
 * Items pushed while a slice is pending are queued behind the ones already waiting: order is kept.
 */
export class SlicedQueue<T> {
  private items: T[] = [];
  private head = 0;
  private scheduled = false;
  private running = false;

  /**
   * @param run handles one item: synchronously, or by a promise the queue waits for (it must not throw or
   *   reject)
   * @param sliceMs how long one turn may run items before the rest is deferred
   * @param now the clock (ms)
   */
  constructor(
    private readonly run: (item: T) => void | Promise<void>,
    private readonly sliceMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Items waiting (not yet run). */
  get length(): number {
    return this.items.length - this.head;
  }

  /**
   * Queues `items` (in order); runs them, after what waits before them, now unless a slice is already
   * pending or running.
   */
  push(...items: T[]): void {
    for (const it of items) this.items.push(it);
    if (!this.scheduled && !this.running) this.drain();
  }

  /**
   * Puts `items` (in order) before every waiting item and runs them unless a slice is already pending or
   * running: for items that were taken from this queue and held back, which come before what waits.
   */
  unshift(...items: T[]): void {
    this.items.splice(this.head, 0, ...items);
    if (!this.scheduled && !this.running) this.drain();
  }

  private drain(): void {
    this.scheduled = false;
    this.running = true;
    const start = this.now();
    try {
      while (this.head < this.items.length) {
        const item = this.items[this.head];
        this.items[this.head++] = undefined as T; // not kept alive by the queue
        const later = this.run(item);
        if (later) {
          this.scheduled = true;
          void later.then(() => this.drain());
          return;
        }
        if (this.head < this.items.length && this.now() - start >= this.sliceMs) {
          this.scheduled = true;
          setImmediate(() => this.drain());
          return;
        }
      }
      this.items = [];
      this.head = 0;
    } finally {
      this.running = false;
    }
  }
}
