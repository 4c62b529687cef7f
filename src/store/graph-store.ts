/** Name of the default tenant (no `NGSILD-Tenant` header). */
export const DEFAULT_TENANT = "";

/**
 * The contract of the graph store (docs/design.md "One graph, many faces", "Durability is ours to build").
 *
 * The store owns every fact: Oxigraph's RocksDB stores per tenant, written by a worker thread, plus a
 * journal and snapshots in DATA_DIR (docs/decisions/0019-native-store.md). Everything crossing this interface is N-Quads / N-Triples text,
 * never term objects, which cost far more per quad as the store grows
 * (docs/decisions/0017-oxigraph-in-the-store-worker.md).
 */

/**
 * Named graphs whose IRI starts with this hold the broker's own state (subscriptions, registries):
 * they are journaled like entities but never visible to SPARQL.
 */
export const INTERNAL_GRAPH_PREFIX = "urn:citygraph:internal:";

/** True if `graph` holds the broker's own state rather than an entity (see INTERNAL_GRAPH_PREFIX). */
export function isInternalGraph(graph: string): boolean {
  return graph.startsWith(INTERNAL_GRAPH_PREFIX);
}

/**
 * Named graphs whose IRI starts with this hold sealed segments of the temporal history (layout in
 * docs/architecture.md "Temporal history in the graph"): visible to SPARQL (`GRAPH ?seg`), never entities.
 */
export const HISTORY_GRAPH_PREFIX = "urn:citygraph:history:";

/** True if `graph` is a segment of the temporal history (see HISTORY_GRAPH_PREFIX). */
export function isHistoryGraph(graph: string): boolean {
  return graph.startsWith(HISTORY_GRAPH_PREFIX);
}

/** True if `graph` holds an entity: neither the broker's internal state nor a history segment. */
export function isEntityGraph(graph: string): boolean {
  return !isInternalGraph(graph) && !isHistoryGraph(graph);
}

/**
 * The entity part of a commit: the event without its writes to internal graphs, or undefined when it
 * wrote only internal or history graphs. Every index derived from entities (id/type, graph cache, attribute,
 * geo, discovery) listens through this, so neither a subscription nor a history segment shows up as an entity.
 */
export function entityWrites(event: CommitEvent): CommitEvent | undefined {
  if (event.writes.every((w) => isEntityGraph(w.graph))) return event;
  const writes = event.writes.filter((w) => isEntityGraph(w.graph));
  return writes.length ? { ...event, writes } : undefined;
}

/** One change to one named graph of a tenant. */
export interface GraphWrite {
  /** IRI of the named graph (for entities: the entity id). */
  graph: string;
  /**
   * The complete new content of the graph as N-Triples text (triples only; the store puts them
   * in `graph`), or `null` to drop the graph. A write always replaces the whole graph.
   */
  triples: string | null;
}

/** What a committed write tells the change feed. */
export interface CommitEvent {
  /** Monotonic sequence number of the commit in the journal. */
  seq: number;
  tenant: string;
  writes: GraphWrite[];
}

/** Row of a SPARQL SELECT answer: variable name -> term in N-Triples syntax (`<iri>`, `"lit"^^<dt>`, `_:b`). */
export type SelectRow = Record<string, string>;

/** Size figures of the store. */
export interface StoreStats {
  /** Quads in all tenants' stores (-1 while they are being counted after a start). */
  quads: number;
  tenants: number;
  journalBytes: number;
  lastSeq: number;
  /** Bytes of the RocksDB stores on disk. */
  storeBytes: number;
  /** Free bytes of the disk that holds DATA_DIR. */
  diskFreeBytes: number;
  /** Free bytes below which writes are refused with 507 (STORE_MIN_FREE_BYTES). */
  minFreeBytes: number;
  /** How full the disk is, 0 to 1. */
  capacityUsed: number;
  /** Compactions (a checkpoint each) finished since the store opened. */
  compactions: number;
  /**
   * Seq through which the stores are durable without the journal (the last compaction's, or the start's):
   * a start after a crash replays the journal after it.
   */
  durableSeq: number;
  /** Journal writes made durable (O_DSYNC, one per group commit) and the seconds they took in all. */
  journalSyncs: number;
  journalSyncSeconds: number;
}

/**
 * A checkpoint kept for a backup (GraphStore.holdSnapshot): every commit up to `seq`, in `files`
 * (docs/decisions/0019-native-store.md "Durability").
 */
export interface HeldSnapshot {
  seq: number;
  /** The store folder (`<dataDir>/store`). */
  dir: string;
  /**
   * The cut's files, relative to `dir`: the checkpoint's manifest, every RocksDB file of every store, then
   * the journal segments a rebuild replays after it.
   */
  files: string[];
  /**
   * Extends the cut to the last commit acknowledged now: the journal segment of the commits since the cut is
   * closed and added to the files. Returns the new seq and files.
   */
  extend(): Promise<{ seq: number; files: string[] }>;
  /** Lets compactions (which delete older checkpoints) run again. */
  release(): Promise<void>;
}

/**
 * The entity graphs the journal replay of a start wrote: every record with seq > `after` was replayed, and
 * each graph comes with its tenant and the seq of its last write there (undefined when too many to list).
 */
export interface ReplayedGraphs {
  after: number;
  graphs: [tenant: string, graph: string, seq: number][] | undefined;
}

/** The graph store, as seen from the main thread. */
export interface GraphStore {
  /**
   * Applies `writes` atomically to `tenant` and resolves once the journal record is on disk
   * (fsync, group commit). Rejects with AppError("StoreFull") when the disk is nearly full, with nothing
   * applied. Emits one CommitEvent to every listener once the commit is durable, in seq order.
   *
   * `onApplied`, if given, is called once the write is applied and can no longer be refused (only the
   * disk can still fail it), while its journal record is being written: for state that must be as
   * durable as the write and has its own log (the temporal history), so that both fsyncs overlap
   * instead of adding up. The commit is durable, and its event emitted, only once its promise has settled
   * too; the commit rejects with it. It is given the commit's journal seq, which that state records so
   * that it can be cut back to what a recovered journal holds (TemporalService.alignTo).
   */
  commit(
    tenant: string,
    writes: GraphWrite[],
    onApplied?: (seq: number) => Promise<void> | undefined,
  ): Promise<number>;
  /**
   * N-Triples of each named graph, or null where the graph does not exist. Read straight from the store,
   * not in line with the commits: every commit acknowledged before the call is seen, one still under way
   * may or may not be.
   */
  readGraphs(tenant: string, graphs: string[]): Promise<(string | null)[]>;
  /** SPARQL SELECT / ASK over one tenant's graphs, its internal ones included (the store's own queries). */
  select(tenant: string, sparql: string): Promise<SelectRow[]>;
  /** Tenants that have stores. */
  tenants(): Promise<string[]>;
  /** Listener for every committed write (the change feed). Returns an unsubscribe function. */
  onCommit(listener: (event: CommitEvent) => void): () => void;
  /** Store statistics. */
  stats(): Promise<StoreStats>;
  /** Writes a snapshot and truncates the journal (compaction). */
  compact(): Promise<void>;
  /**
   * A consistent cut while writes go on: compacts (every commit acknowledged before the call is in the
   * checkpoint) and keeps that checkpoint's files until `release`; later compactions wait until then.
   */
  holdSnapshot(): Promise<HeldSnapshot>;
  /** True if the worker answers and the journal is writable. */
  health(): Promise<{ ok: boolean; journalWritable: boolean; detail?: string }>;
  /**
   * The entity graphs this start's journal replay wrote, given once: a second call gets undefined. Derived
   * state saved at a seq the replay passed is brought up to date by reading just these graphs.
   */
  takeReplayedGraphs(): ReplayedGraphs | undefined;
  /** Finishes in-flight commits, flushes the journal, stops the worker. */
  close(): Promise<void>;
}
