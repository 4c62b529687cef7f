/**
 * Puts background work off while foreground writes keep coming, for a bounded time (a write burst and the
 * work it leaves behind, such as the temporal sealer's, compete for the same cores:
 * docs/decisions/0005-maintenance-after-a-burst.md).
 *
 * The work is put off while the latest write is younger than `quietMs`, and for at most `maxDeferMs` from
 * the first time it was put off: a burst longer than that pays for its background work as before, so
 * what is put off is bounded and a steady stream of writes does not starve it.
 */
export class WriteBurstDeferral {
  private deferredSince: number | undefined;

  /**
   * @param quietMs how long without a write counts as the end of a burst (ms; 0 = never put off)
   * @param maxDeferMs longest time the work is put off in a row (ms)
   */
  constructor(
    private readonly quietMs: number,
    private readonly maxDeferMs: number,
  ) {}

  /**
   * True when the work should wait: the latest write (`lastWriteAt`, epoch ms) is younger than `quietMs`
   * at `now` and the work has not been put off for `maxDeferMs` yet. False resets the count.
   */
  defer(lastWriteAt: number, now: number): boolean {
    if (this.quietMs <= 0 || now - lastWriteAt >= this.quietMs) {
      this.deferredSince = undefined;
      return false;
    }
    this.deferredSince ??= now;
    if (now - this.deferredSince >= this.maxDeferMs) {
      this.deferredSince = undefined;
      return false;
    }
    return true;
  }

  /** Since when (epoch ms) the work has been put off, if it is now. */
  get since(): number | undefined {
    return this.deferredSince;
  }
}
