/**
 * A small least-recently-used map: `get` refreshes an entry, `set` evicts the oldest entry once
 * `capacity` is exceeded. Backed by a Map's insertion order, so both are O(1).
 */
export class ContextLru<V> {
  private readonly map = new Map<string, V>();

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error("LRU capacity must be at least 1");
  }

  /** The value of `key`, marking it most recently used. */
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  /** Stores `value` under `key`, evicting the least recently used entry when full. */
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }

  /** Drops every entry. */
  clear(): void {
    this.map.clear();
  }

  /** Number of entries. */
  get size(): number {
    return this.map.size;
  }
}
