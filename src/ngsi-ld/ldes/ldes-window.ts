const HOUR_MS = 3_600_000;

/** Options of {@link LdesWindow}. */
export interface LdesWindowOptions {
  /** Length of a page (a time fragment of the stream), ms. */
  pageMs: number;
  /** The temporal history's raw window (TEMPORAL_RAW_RETENTION), ms; 0 = kept forever. */
  rawRetentionMs: number;
  /** How long after its end a page is closed: a write stamped inside it is historized by then, ms. */
  graceMs: number;
}

/**
 * The time fragmentation of the LDES view (docs/ldes.md): fixed pages of `pageMs` on the member's
 * timestamp (its modifiedAt), closed `graceMs` after their end, and which pages are still served while
 * the temporal history's retention drops raw instances. A page is derived only from instances that
 * retention keeps as long as the page is served, so a closed page never changes: an instance belongs
 * to its page only if its time (observedAt, else modifiedAt) is at most {@link marginMs} before the
 * page's start, and a page is served while the retention cut lies at least that margin before it.
 */
export class LdesWindow {
  /** How much older than its page an instance's time may be (writes of observations made earlier). */
  readonly marginMs = 6 * HOUR_MS;

  constructor(private readonly opts: LdesWindowOptions) {}

  get pageMs(): number {
    return this.opts.pageMs;
  }

  /** Start of the page holding time `t`. */
  pageOf(t: number): number {
    return t - (((t % this.opts.pageMs) + this.opts.pageMs) % this.opts.pageMs);
  }

  /** True once no write can add a member to page `start` any more. */
  closed(start: number, now: number): boolean {
    return now >= start + this.opts.pageMs + this.opts.graceMs;
  }

  /** The first page served at `now`, or -Infinity when the history keeps every raw instance. */
  firstPage(now: number): number {
    if (this.opts.rawRetentionMs <= 0) return -Infinity;
    const cut = Math.floor((now - this.opts.rawRetentionMs) / HOUR_MS) * HOUR_MS;
    const first = cut + this.marginMs;
    return this.pageOf(first) === first ? first : this.pageOf(first) + this.opts.pageMs;
  }

  /** The earliest instance time that page `start` takes members from. */
  minTime(start: number): number {
    return this.opts.rawRetentionMs <= 0 ? -Infinity : start - this.marginMs;
  }

  /**
   * How long a member stays in the stream at least (`ldes:DurationAgoPolicy`), as an xsd:duration, or
   * undefined when members are kept forever: the raw window less the margin, two pages and the hour the
   * retention cut is rounded to.
   */
  retention(): string | undefined {
    if (this.opts.rawRetentionMs <= 0) return undefined;
    const ms = this.opts.rawRetentionMs - this.marginMs - 2 * this.opts.pageMs - HOUR_MS;
    return `PT${Math.max(0, Math.floor(ms / 1000))}S`;
  }
}
