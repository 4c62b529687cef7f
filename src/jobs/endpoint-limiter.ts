/**
 * Bounds the deliveries in flight per endpoint, so
 * one slow receiver cannot hold every slot and a burst cannot open thousands of sockets to one host.
 * Waiters are served in arrival order.
 */
export class EndpointLimiter {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly perKey: number) {}

  /** Runs `fn` once fewer than `perKey` runs of the same key are in flight. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if ((this.active.get(key) ?? 0) >= this.perKey) {
      await new Promise<void>((resolve) => {
        const q = this.waiting.get(key);
        if (q) q.push(resolve);
        else this.waiting.set(key, [resolve]);
      });
    } else this.active.set(key, (this.active.get(key) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      const q = this.waiting.get(key);
      const next = q?.shift();
      if (q && q.length === 0) this.waiting.delete(key);
      if (next) next();
      else {
        const n = (this.active.get(key) ?? 1) - 1;
        if (n === 0) this.active.delete(key);
        else this.active.set(key, n);
      }
    }
  }
}

/** The key per-endpoint limits apply to: scheme, host and port of the URI. */
export function endpointKey(uri: string): string {
  try {
    const u = new URL(uri);
    return `${u.protocol}//${u.host}`;
  } catch {
    return uri;
  }
}
