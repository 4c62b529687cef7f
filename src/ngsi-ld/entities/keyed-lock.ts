/**
 * Serializes read-modify-write operations per key (tenant + entity id), so that two concurrent
 * updates of one entity never lose each other's changes. Keys are taken in sorted order by
 * {@link KeyedLock.runAll} so batch operations cannot deadlock.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `fn` once every earlier holder of `key` is done. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.runAll([key], fn);
  }

  /** Runs `fn` holding every key in `keys`. */
  async runAll<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const waits: Promise<void>[] = [];
    for (const k of sorted) {
      const prev = this.tails.get(k);
      if (prev) waits.push(prev);
      this.tails.set(k, mine);
    }
    try {
      if (waits.length) await Promise.all(waits);
      return await fn();
    } finally {
      release();
      for (const k of sorted) if (this.tails.get(k) === mine) this.tails.delete(k);
    }
  }
}
