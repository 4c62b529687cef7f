/**
 * The variants kept for one key of a two-level cache (key -> variant -> value), created on first use.
 * The outer map holds at most `capacity` keys: creating one more evicts the oldest inserted key (FIFO
 * by insertion order of the Map). Shared by the entity view cache and the GET response cache
 * (docs/design.md "Indexes beside the store, derived from it": bounded caches beside the store, kept
 * current by the change feed).
 */
export function variantsOf<V>(
  map: Map<string, Map<string, V>>,
  key: string,
  capacity: number,
): Map<string, V> {
  let variants = map.get(key);
  if (!variants) {
    map.set(key, (variants = new Map()));
    if (map.size > capacity) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
  }
  return variants;
}
