/**
 * The main thread's side of the store worker's message channel: requests are sent in batches, one
 * `postMessage` for many (protocol StoreMessage; each message has a cost), but no request waits long
 * for its batch.
 *
 * A request goes out at the end of the event-loop turn that made it (`setImmediate`), together with the
 * others of that turn, unless it is urgent (a large commit: the worker can load it while this thread
 * prepares the next one) or the oldest request waiting has waited `maxWaitMs`: then everything waiting goes
 * at once. The second rule matters under load (docs/decisions/0001-write-path.md): one turn of the main
 * thread parses many POSTs, and sending them only at its end kept the worker idle meanwhile and then
 * made the last commit of a message wait for all the loads before it; sent every `maxWaitMs`, the worker
 * loads the first ones while this thread parses the rest.
 */
export class RequestOutbox<T> {
  private items: T[] = [];
  /** When the oldest waiting item was queued (clock ms). */
  private since = 0;
  private scheduled = false;

  /**
   * @param post sends a batch (never empty)
   * @param maxWaitMs how long the oldest item may wait for the end of its turn
   * @param now the clock (ms)
   * @param defer runs a function at the end of this turn
   */
  constructor(
    private readonly post: (items: T[]) => void,
    private readonly maxWaitMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly defer: (fn: () => void) => void = (fn) => void setImmediate(fn),
  ) {}

  /** Queues `item`; sends it with what waits now if `urgent` or the oldest waiting item waited long enough. */
  push(item: T, urgent = false): void {
    if (this.items.push(item) === 1) this.since = this.now();
    if (urgent || this.now() - this.since >= this.maxWaitMs) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      this.defer(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  /** Sends everything waiting, if anything. */
  flush(): void {
    if (this.items.length === 0) return;
    const out = this.items;
    this.items = [];
    this.post(out);
  }
}
