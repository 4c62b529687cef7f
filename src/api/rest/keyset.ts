import type { KeyPart } from "./cursor-codec";

/**
 * How a list is ordered for keyset paging: a sort key per item whose last part is unique (the id), and
 * the direction of each part. Keys compare part by part: numbers numerically, strings by code unit.
 */
export interface KeysetOrder<T> {
  key(item: T): KeyPart[];
  /** true where a part sorts descending (e.g. newest first); ascending when absent. */
  descending?: readonly boolean[];
}

/** Compares two sort keys under the directions of an order. */
export function compareKeys(
  a: readonly KeyPart[],
  b: readonly KeyPart[],
  descending: readonly boolean[] = [],
): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = comparePart(a[i], b[i]);
    if (c !== 0) return descending[i] ? -c : c;
  }
  return a.length - b.length;
}

function comparePart(a: KeyPart, b: KeyPart): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One keyset page: the items, whether more follow, and the key of the last item returned. */
export interface KeysetPage<T> {
  items: T[];
  hasMore: boolean;
  last?: KeyPart[];
}

/**
 * The first `limit` items strictly after `after` in the order (from the start when `after` is
 * undefined). The position is a sort key, not an offset: items inserted before it never shift the
 * walk, so a walk returns no item twice and skips none that existed when it started, as long as an
 * item's sort key does not change.
 */
export function keysetPage<T>(
  items: readonly T[],
  order: KeysetOrder<T>,
  after: readonly KeyPart[] | undefined,
  limit: number,
): KeysetPage<T> {
  const dirs = order.descending ?? [];
  const keyed = items.map((item) => ({ item, key: order.key(item) }));
  const rest = after ? keyed.filter((k) => compareKeys(k.key, after, dirs) > 0) : keyed;
  rest.sort((x, y) => compareKeys(x.key, y.key, dirs));
  const page = rest.slice(0, limit);
  return {
    items: page.map((k) => k.item),
    hasMore: rest.length > limit,
    last: page.length > 0 ? page[page.length - 1].key : undefined,
  };
}

/**
 * A list sorted once in a keyset order, with each item's key kept: pages are found by binary search,
 * for lists asked for many times between changes.
 */
export class SortedList<T> {
  readonly items: readonly T[];
  private readonly keys: KeyPart[][];
  private readonly dirs: readonly boolean[];

  constructor(items: readonly T[], order: KeysetOrder<T>) {
    this.dirs = order.descending ?? [];
    const keyed = items.map((item) => ({ item, key: order.key(item) }));
    keyed.sort((x, y) => compareKeys(x.key, y.key, this.dirs));
    this.items = keyed.map((k) => k.item);
    this.keys = keyed.map((k) => k.key);
  }

  /** Like {@link keysetPage}: the first `limit` items strictly after `after`. */
  page(after: readonly KeyPart[] | undefined, limit: number): KeysetPage<T> {
    let lo = 0;
    if (after) {
      let hi = this.keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareKeys(this.keys[mid], after, this.dirs) > 0) hi = mid;
        else lo = mid + 1;
      }
    }
    const end = Math.min(this.items.length, lo + limit);
    return {
      items: this.items.slice(lo, end),
      hasMore: end < this.items.length,
      last: end > lo ? this.keys[end - 1] : undefined,
    };
  }
}
