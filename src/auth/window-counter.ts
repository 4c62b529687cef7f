/** A key's window as {@link WindowCounter.hit} leaves it: requests counted so far and when the window ends. */
export interface Window {
  readonly count: number;
  /** ms since epoch. */
  readonly endsAt: number;
}

/**
 * Requests counted per key in a fixed window, in memory and synchronously: a key's window starts at its
 * first request and lasts `windowMs`, as rate-limiter-flexible's RateLimiterMemory counts, but without the
 * promise and result objects that library makes per call (the counter runs on every authenticated
 * request). Ended windows are dropped once per `windowMs`.
 */
export class WindowCounter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private sweepAt = 0;

  constructor(readonly windowMs: number) {}

  /** Counts one request of `key`; the returned window is the counter's own, valid until the next call. */
  hit(key: string, now = Date.now()): Window {
    if (now >= this.sweepAt) this.sweep(now);
    let w = this.windows.get(key);
    if (w === undefined) this.windows.set(key, (w = { count: 0, endsAt: now + this.windowMs }));
    else if (w.endsAt <= now) {
      w.count = 0;
      w.endsAt = now + this.windowMs;
    }
    w.count++;
    return w;
  }

  /** Number of keys with a window kept (ended ones included until the next sweep). */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
    this.sweepAt = now + this.windowMs;
  }
}
