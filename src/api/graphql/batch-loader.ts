/**
 * A DataLoader-style loader, one per request: the keys asked for during one turn of the event loop
 * are read in one call of `batch` (a page of 100 accidents with their cameras is one read of cameras,
 * not 100), and each key is read once per request.
 */
export class BatchLoader<K, V> {
  private readonly cache = new Map<K, Promise<V>>();
  private pending: { key: K; resolve: (v: V) => void; reject: (e: unknown) => void }[] = [];
  /** Number of calls of `batch` so far (tests and logs). */
  batches = 0;

  constructor(private readonly batch: (keys: K[]) => Promise<V[]> | V[]) {}

  load(key: K): Promise<V> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const p = new Promise<V>((resolve, reject) => {
      // after the promise jobs of this turn (as DataLoader does), so that sibling resolvers join in
      if (this.pending.length === 0)
        void Promise.resolve().then(() => process.nextTick(() => this.dispatch()));
      this.pending.push({ key, resolve, reject });
    });
    this.cache.set(key, p);
    return p;
  }

  private dispatch(): void {
    const jobs = this.pending;
    this.pending = [];
    this.batches++;
    Promise.resolve()
      .then(() => this.batch(jobs.map((j) => j.key)))
      .then(
        (values) => jobs.forEach((j, i) => j.resolve(values[i])),
        (e: unknown) => jobs.forEach((j) => j.reject(e)),
      );
  }
}
