import { DEFAULT_GRAPH_CACHE_BYTES } from "../../config/config";
import type { CommitEvent } from "../graph-store";

/** Commits of at most this many graph writes add the graphs they wrote to the cache (see GraphCache). */
export const CACHE_NEW_GRAPHS_UP_TO = 16;

/**
 * A bounded, least-recently-used cache of entity graphs as N-Triples text (docs/design.md "Indexes beside the
 * store, derived from it"). Reads that hit it skip the store read. It holds the graphs that were
 * read (an update reads its entity first, so updated entities are in it too) and is kept current by the
 * change feed: a committed write replaces the text of a cached graph or removes it, so it never serves
 * stale data once the write is acknowledged. A small commit (at most {@link CACHE_NEW_GRAPHS_UP_TO} graphs:
 * a create, an update) also adds the graphs it wrote, since a client often reads back what it just wrote; a
 * bulk commit (a batch upsert) adds its graphs only while the cache has room, so a fill never evicts the
 * graphs being read, and the first reads after it find the graphs it wrote instead of decoding them from
 * RocksDB, about 0.5 ms of a thread each (docs/decisions/0010-graph-cache.md).
 *
 * Bounded by characters of text (config `GRAPH_CACHE_BYTES`), not by entries, since a bound by entries held
 * far more heap than it seemed to (docs/decisions/0010-graph-cache.md).
 *
 * A read from the store and a commit of the same graph may cross: the read, taken before the commit was
 * applied, can come back after its event. So a read's text is kept ({@link keepRead}) only if no commit wrote
 * that graph since the read began ({@link beginRead}).
 */
export class GraphCache {
  private readonly map = new Map<string, string>();
  private bytes = 0;
  /** Commits seen so far. */
  private epoch = 0;
  private readsUnderWay = 0;
  /** Graph -> the epoch of its last write, kept only while reads are under way. */
  private readonly writtenAt = new Map<string, number>();

  /** @param capacityBytes total length of the cached texts, in characters */
  constructor(private readonly capacityBytes = DEFAULT_GRAPH_CACHE_BYTES) {}

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

  /** Starts a read from the store; its result goes to {@link keepRead} with the ticket returned. */
  beginRead(): number {
    this.readsUnderWay++;
    return this.epoch;
  }

  /**
   * Ends the read of `ticket` (also when it failed: then with no graphs): keeps each graph read unless a
   * commit wrote it after the read began.
   */
  keepRead(ticket: number, tenant: string, graphs: [graph: string, triples: string | null][]): void {
    for (const [graph, triples] of graphs) {
      const written = this.writtenAt.get(tenant + "\u0000" + graph);
      if (triples !== null && (written === undefined || written <= ticket)) this.set(tenant, graph, triples);
    }
    if (--this.readsUnderWay === 0) this.writtenAt.clear();
  }

  /** Remembers the triples of a graph as they are now in the store. */
  set(tenant: string, graph: string, triples: string): void {
    const key = tenant + "\u0000" + graph;
    this.forget(key);
    if (triples.length > this.capacityBytes) return;
    this.map.set(key, triples);
    this.bytes += triples.length;
    while (this.bytes > this.capacityBytes) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
  }

  /**
   * The change-feed listener: cached graphs that were written are replaced, dropped ones forgotten; a small
   * commit's new graphs are added, a bulk commit's only while they fit without evicting any.
   */
  apply(event: CommitEvent): void {
    const addNew = event.writes.length <= CACHE_NEW_GRAPHS_UP_TO;
    this.epoch++;
    for (const w of event.writes) {
      const key = event.tenant + "\u0000" + w.graph;
      if (this.readsUnderWay > 0) this.writtenAt.set(key, this.epoch);
      if (w.triples === null) this.forget(key);
      else if (addNew || this.map.has(key) || this.bytes + w.triples.length <= this.capacityBytes)
        this.set(event.tenant, w.graph, w.triples);
    }
  }

  /** Number of cached graphs. */
  get size(): number {
    return this.map.size;
  }

  /** Characters of cached text. */
  get cachedBytes(): number {
    return this.bytes;
  }

  private forget(key: string): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.bytes -= old.length;
    this.map.delete(key);
  }
}
