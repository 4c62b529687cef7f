import { eventKey, type LiveChannel, type LiveEvent } from "./live-event";

/** Which events a subscriber wants: one channel of one tenant, optionally only some keys (zones, severities). */
export interface LiveFilter {
  tenant: string;
  channel: LiveChannel;
  /** Zones (traffic) or severities (accidents); undefined = every event of the channel. */
  keys?: readonly string[];
}

interface Bucket<S> {
  all: Set<S>;
  byKey: Map<string, Set<S>>;
}

/**
 * Subscribers filed by tenant, channel and key, so that an event reaches its subscribers by two map
 * lookups (the subscribers of its key and those of every key) instead of a test of every subscriber.
 */
export class SubscriberIndex<S> {
  private readonly buckets = new Map<string, Bucket<S>>();
  private count = 0;

  /** Files `s` under `filter`. Returns its removal (idempotent). */
  add(s: S, filter: LiveFilter): () => void {
    const id = bucketId(filter.tenant, filter.channel);
    let b = this.buckets.get(id);
    if (!b) this.buckets.set(id, (b = { all: new Set(), byKey: new Map() }));
    const bucket = b;
    const keys = filter.keys === undefined ? undefined : [...new Set(filter.keys)];
    if (keys === undefined) bucket.all.add(s);
    else
      for (const k of keys) {
        let set = bucket.byKey.get(k);
        if (!set) bucket.byKey.set(k, (set = new Set()));
        set.add(s);
      }
    this.count++;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.count--;
      if (keys === undefined) bucket.all.delete(s);
      else
        for (const k of keys) {
          const set = bucket.byKey.get(k);
          set?.delete(s);
          if (set?.size === 0) bucket.byKey.delete(k);
        }
      if (bucket.all.size === 0 && bucket.byKey.size === 0) this.buckets.delete(id);
    };
  }

  /** Calls `fn` once for each subscriber the event is for. */
  forEachMatch(e: LiveEvent, fn: (s: S) => void): void {
    const b = this.buckets.get(bucketId(e.tenant, e.channel));
    if (!b) return;
    for (const s of b.all) fn(s);
    const key = eventKey(e);
    if (key === undefined) return;
    const keyed = b.byKey.get(key);
    if (keyed) for (const s of keyed) fn(s);
  }

  /** Number of filed subscriptions. */
  get size(): number {
    return this.count;
  }
}

function bucketId(tenant: string, channel: LiveChannel): string {
  return `${channel}\u0000${tenant}`;
}
