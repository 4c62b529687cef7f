import type { CommitEvent } from "../graph-store";

/**
 * A bounded, least-recently-used cache of entity graphs as N-Triples text (DESIGN.md "Indexes beside the
 * store, derived from it"). Reads that hit it skip the worker round trip. It is kept current by the change
 * feed: every committed write replaces or removes the cached text, so it never serves stale data once the
 * write is acknowledged.
 */
export class GraphCache {
  private readonly map = new Map<string, string>();

  constructor(private readonly capacity = 20_000) {}

  /** The cached triples of `graph` in `tenant`, refreshing its recency. */
  get(tenant: string, graph: string): string | undefined {
    const key = tenant + "\u0000" + graph;
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  /** Remembers the triples of a graph read from the store. */
  set(tenant: string, graph: string, triples: string): void {
    const key = tenant + "\u0000" + graph;
    this.map.delete(key);
    this.map.set(key, triples);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }

  /** The change-feed listener: written graphs are cached, dropped graphs forgotten. */
  apply(event: CommitEvent): void {
    for (const w of event.writes) {
      if (w.triples === null) this.map.delete(event.tenant + "\u0000" + w.graph);
      else this.set(event.tenant, w.graph, w.triples);
    }
  }

  /** Number of cached graphs. */
  get size(): number {
    return this.map.size;
  }
}
