/** The key of the subscriptions without locations (the whole city). */
const CITY = "";

/**
 * The alert subscriptions in memory, by id and by district entity id, so that matching a fact reads
 * the subscriptions of its district and the city-wide ones instead of scanning all of them, and the
 * change feed's "any subscription at all?" is a size check rather than a copy.
 */
export class SubscriptionIndex<S extends { districts: readonly string[] }> {
  private readonly byId = new Map<string, S>();
  private readonly byDistrict = new Map<string, Set<string>>();

  get size(): number {
    return this.byId.size;
  }

  /** Puts (or replaces) the subscription kept under `key`; null removes it. */
  set(key: string, s: S | null): void {
    const old = this.byId.get(key);
    if (old) for (const d of districtKeys(old)) this.byDistrict.get(d)?.delete(key);
    if (!s) {
      this.byId.delete(key);
      return;
    }
    this.byId.set(key, s);
    for (const d of districtKeys(s)) {
      let ids = this.byDistrict.get(d);
      if (!ids) this.byDistrict.set(d, (ids = new Set()));
      ids.add(key);
    }
  }

  get(key: string): S | undefined {
    return this.byId.get(key);
  }

  all(): S[] {
    return [...this.byId.values()];
  }

  /** The subscriptions that may want a fact in `district` (its own and the city-wide ones). */
  forDistrict(district: string | undefined): S[] {
    const out: S[] = [];
    for (const d of district === undefined ? [CITY] : [CITY, district])
      for (const key of this.byDistrict.get(d) ?? []) out.push(this.byId.get(key)!);
    return out;
  }
}

function districtKeys(s: { districts: readonly string[] }): readonly string[] {
  return s.districts.length === 0 ? [CITY] : s.districts;
}
