import { AppError } from "../../errors";

/** One principal's running queries and the queries waiting for them. */
interface Slots {
  running: number;
  waiting: (() => void)[];
}

/**
 * Queries running at once per principal (SPARQL_MAX_PER_PRINCIPAL), with a short queue behind them
 * (SPARQL_QUEUE_PER_PRINCIPAL): one client's heavy queries cannot hold every SPARQL thread while others wait.
 * Past the queue the answer is at once a 503 with Retry-After.
 */
export class PrincipalSlots {
  private readonly byKey = new Map<string, Slots>();

  constructor(
    private readonly maxRunning: number,
    private readonly maxWaiting: number,
    /** Seconds the 503 tells the client to wait. */
    private readonly retryAfterS: number,
  ) {}

  /** Runs `work` in one of `key`'s slots, waiting in its queue when they are taken; 503 when that is full. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    let s = this.byKey.get(key);
    if (!s) this.byKey.set(key, (s = { running: 0, waiting: [] }));
    if (s.running < this.maxRunning) s.running++;
    else if (s.waiting.length < this.maxWaiting)
      await new Promise<void>((resolve) => s.waiting.push(resolve));
    else {
      throw new AppError(
        "ServiceUnavailable",
        `Too many SPARQL queries of this client at once (${s.running} running, ${s.waiting.length} waiting): retry in ${this.retryAfterS} s`,
        { retry_after: this.retryAfterS },
      );
    }
    try {
      return await work();
    } finally {
      this.release(key, s);
    }
  }

  /** Queries of `key` running now (for tests and metrics). */
  running(key: string): number {
    return this.byKey.get(key)?.running ?? 0;
  }

  /** Hands the slot to the next waiting query of the same key, or frees it. */
  private release(key: string, s: Slots): void {
    const next = s.waiting.shift();
    if (next) return next();
    if (--s.running === 0) this.byKey.delete(key);
  }
}
