import oxigraph from "oxigraph";
import { AppError } from "../../errors";
import { isGraphForm, queryFormOf } from "../../rdf/sparql-results";
import type { GraphWrite, SelectRow } from "../graph-store";
import { graphRuns, type GraphRun } from "../snapshot/graph-runs";
import { assertGraphIri, lineCount } from "./ntriples-text";

const NT = "application/n-triples";

/** True for a WebAssembly trap (`RuntimeError: unreachable`...): after one, the Oxigraph instance is dead. */
export function isWasmTrap(e: unknown): e is Error {
  return e instanceof Error && e.name === "RuntimeError";
}
const NQ = "application/n-quads";
/** `replace`'s flag for text that a strict load accepted before (journal replay): parsed leniently. */
const TRUSTED = true;

/**
 * A write as the datasets take it: a {@link GraphWrite} whose N-Triples may also be UTF-8 bytes (the store
 * worker loads a commit's text straight from its journal record; Oxigraph's `load` takes either).
 */
export interface TextWrite {
  graph: string;
  triples: string | Uint8Array | null;
}

/** A commit being applied in steps ({@link TenantDatasets.begin}). */
export interface ApplyJob {
  /** Applies writes until `budgetMs` is spent (at least one); true once every write is applied. */
  step(budgetMs: number): boolean;
}

/**
 * The Oxigraph datasets of all tenants (docs/design.md "Tenants", "Entities are named graphs"): one `Store`
 * per tenant, so no query of one tenant can see another's graphs, plus a quad count per named graph
 * (Oxigraph's `size` walks the whole store, so counts are kept here:
 * docs/decisions/0017-oxigraph-in-the-store-worker.md).
 *
 * Blank nodes: Oxigraph renames every blank-node label to a fresh random id on each `load` call
 * (verified on 0.5.11: `_:b0` loaded in two calls gives two distinct nodes; within one call it is one
 * node). Each graph write is loaded by its own call, so a label in a write's text is scoped to that
 * graph and that write: `_:b0` of entity A never meets `_:b0` of entity B, and a replace never reuses
 * the old nodes. Reads return Oxigraph's labels (stable until the graph is rewritten).
 */
export class TenantDatasets {
  private readonly stores = new Map<string, oxigraph.Store>();
  private readonly counts = new Map<string, Map<string, number>>();
  private total = 0;
  private dropped = 0;

  /**
   * @param maxQuads ceiling of the quads held in memory, over all tenants.
   * @param diskOnly prefixes of graph IRIs that are never loaded here (docs/architecture.md "Temporal
   *   history in the graph", "Files in DATA_DIR"): their writes are accepted (IRI checked) and skipped on
   *   commit, replay and snapshot load, so they hold no memory, count no quads and drop none. The store
   *   worker still journals them, so compaction and the SPARQL replica (its own datasets, without this
   *   list) carry them. Oxigraph does not parse their text here: the writer vouches for it.
   */
  constructor(
    private readonly maxQuads: number,
    private readonly diskOnly: readonly string[] = [],
  ) {}

  /** True if `graph` is loaded into memory (not under a disk-only prefix). */
  inMemory(graph: string): boolean {
    for (const p of this.diskOnly) if (graph.startsWith(p)) return false;
    return true;
  }

  /** The writes that go to memory (every write when no prefix is disk-only). */
  private kept<W extends TextWrite>(writes: W[]): W[] {
    return this.diskOnly.length === 0 ? writes : writes.filter((w) => this.inMemory(w.graph));
  }

  /**
   * Quads removed (by replacement or deletion) since these datasets were filled. Oxigraph's in-memory
   * store never gives their memory back, so the store worker reloads its datasets when this grows large
   * (memory-reclaim.ts, docs/decisions/0006-store-reclaim.md).
   */
  get droppedQuads(): number {
    return this.dropped;
  }

  /** Frees every tenant's Oxigraph store and forgets all counts (before a reload from disk). */
  clear(): void {
    for (const s of this.stores.values()) (s as unknown as { free?: () => void }).free?.();
    this.stores.clear();
    this.counts.clear();
    this.total = 0;
    this.dropped = 0;
  }

  /** Estimated quads in memory in all tenants (line counts of the writes and of the snapshot). */
  get quads(): number {
    return this.total;
  }

  /** Tenants that hold at least one graph in memory (disk-only graphs do not count). */
  tenants(): string[] {
    return [...this.counts.entries()].filter(([, m]) => m.size > 0).map(([t]) => t);
  }

  /** The Oxigraph store of `tenant`, if it ever held a graph (for read-only queries: the SPARQL replica). */
  storeFor(tenant: string): oxigraph.Store | undefined {
    return this.stores.get(tenant);
  }

  /** True if `tenant` holds `graph` in memory. */
  has(tenant: string, graph: string): boolean {
    return this.counts.get(tenant)?.has(graph) ?? false;
  }

  /** The graph names of `tenant` (a copy, safe to iterate while writes go on). */
  graphs(tenant: string): string[] {
    return [...(this.counts.get(tenant)?.keys() ?? [])];
  }

  /**
   * Applies the writes of one commit atomically. Refuses the whole commit with StoreFull, applying
   * nothing, when it would take the store (all tenants: they share one WASM memory) past `maxQuads`.
   * If Oxigraph refuses a write's text, every graph this commit touched is restored and the commit
   * fails with BadRequestData. `replay: true` is for journal replay of commits that were accepted
   * once: no ceiling and no undo copies (a failure there is fatal anyway), and Oxigraph parses the text
   * leniently (no IRI validation, less CPU per entity: docs/decisions/0007-lenient-trusted-loads.md),
   * since it passed a strict load when it was first committed. A new commit is always parsed strictly:
   * that load is where a bad IRI from a client is refused.
   * Writes to disk-only graphs are checked for their IRI and otherwise skipped (see the constructor).
   */
  apply(tenant: string, writes: TextWrite[], replay = false): void {
    if (replay) {
      for (const w of writes) assertGraphIri(w.graph);
      const kept = this.kept(writes);
      if (kept.length === 0) return;
      const store = this.storeOf(tenant);
      const counts = this.countsOf(tenant);
      for (const w of kept) this.replace(store, counts, w, undefined, TRUSTED);
      return;
    }
    this.begin(tenant, writes).step(Infinity);
  }

  /**
   * Starts applying the writes of one commit, as {@link apply} does, but in steps: the ceiling is checked
   * now (StoreFull, nothing applied), then each {@link ApplyJob.step} applies writes until its time budget
   * is spent. Between steps the datasets hold part of the commit: the caller must let nothing else read or
   * write them until the job is done (the store worker holds its request queue meanwhile). A failing write
   * restores every graph the job touched and throws BadRequestData, as {@link apply} does.
   */
  begin(tenant: string, all: TextWrite[]): ApplyJob {
    for (const w of all) assertGraphIri(w.graph);
    const writes = this.kept(all);
    if (writes.length === 0) return { step: () => true };
    const counts = this.countsOf(tenant);
    const sizes = new Map<string, number>();
    const lines: number[] = [];
    let delta = 0;
    for (const w of writes) {
      const before = sizes.get(w.graph) ?? counts.get(w.graph) ?? 0;
      const after = w.triples === null ? 0 : lineCount(w.triples);
      sizes.set(w.graph, after);
      lines.push(after);
      delta += after - before;
    }
    if (delta > 0 && this.total + delta > this.maxQuads) {
      throw new AppError(
        "StoreFull",
        `The store holds about ${this.total} quads; this write (+${delta}) would pass its ceiling of ${this.maxQuads}`,
        { quads: this.total, adding: delta, maxQuads: this.maxQuads },
      );
    }
    const store = this.storeOf(tenant);
    const undo: GraphWrite[] = [];
    let next = 0;
    return {
      step: (budgetMs: number): boolean => {
        const start = performance.now();
        try {
          while (next < writes.length) {
            const w = writes[next];
            const had = counts.has(w.graph);
            undo.push({ graph: w.graph, triples: had ? this.dump(store, w.graph) : null });
            this.replace(store, counts, w, lines[next++]);
            if (performance.now() - start >= budgetMs) break;
          }
        } catch (e) {
          if (isWasmTrap(e)) throw e; // a trap: the WASM store is dead, do not touch it
          for (const u of undo.reverse()) this.replace(store, counts, u);
          const msg = e instanceof Error ? e.message : String(e);
          throw new AppError("BadRequestData", `The store could not load a graph: ${msg}`);
        }
        return next === writes.length;
      },
    };
  }

  /**
   * Loads a tenant's snapshot (N-Quads, as chunks of one file) in slices of whole graphs, one load
   * call each (a graph's blank-node labels must meet in one call; labels are unique per graph in a
   * snapshot), counting the lines of each graph on the way, parsed leniently: a snapshot holds only what
   * strict loads accepted (see {@link apply}'s `replay`). Slices of 8 MiB leave less WASM memory behind
   * than one load of the whole file, and counting the lines on the way spares a query that counts graphs
   * (docs/decisions/0002-memory-at-scale.md). A slice goes to Oxigraph as one buffer, not as the list of
   * its pieces, which cost more CPU than the copy saves (docs/decisions/0007-lenient-trusted-loads.md).
   * Disk-only graphs (see the constructor) are skipped. `derive`, if given, returns more N-Quads for each
   * run of a graph's lines, loaded in the same slice (the SPARQL replica's plain view).
   */
  loadSnapshot(
    tenant: string,
    chunks: Iterable<Uint8Array>,
    source = "snapshot",
    sliceBytes = 8 << 20,
    derive?: (run: GraphRun) => string,
  ): void {
    const store = this.storeOf(tenant);
    const counts = this.countsOf(tenant);
    let pending: Buffer[] = [];
    let size = 0;
    let last = "";
    const flush = (): void => {
      if (size > 0) store.load(Buffer.concat(pending), { format: NQ, no_transaction: true, lenient: true });
      pending = [];
      size = 0;
    };
    for (const run of graphRuns(chunks, source)) {
      if (!this.inMemory(run.graph)) continue; // a disk-only graph: journaled and snapshotted, not loaded
      if (run.graph !== last && size >= sliceBytes) flush();
      last = run.graph;
      pending.push(run.buf.subarray(run.start, run.end));
      size += run.end - run.start;
      const more = derive?.(run);
      if (more) {
        const bytes = Buffer.from(more, "utf8");
        pending.push(bytes);
        size += bytes.length;
      }
      counts.set(run.graph, (counts.get(run.graph) ?? 0) + run.lines);
      this.total += run.lines;
    }
    flush();
  }

  /**
   * The N-Triples of one graph, or null where it does not exist. A disk-only graph is never here, so it
   * reads as null: callers must not ask for one (the SPARQL replica holds them).
   */
  readGraph(tenant: string, graph: string): string | null {
    const store = this.stores.get(tenant);
    if (!store || !this.counts.get(tenant)?.has(graph)) return null;
    return this.dump(store, graph);
  }

  /**
   * SELECT rows (variable -> term in N-Triples syntax; unbound variables are absent). An ASK answers
   * as a solution sequence: `[{}]` for true, `[]` for false. Other query forms are BadRequestData.
   * Disk-only graphs are not seen.
   */
  select(tenant: string, sparql: string): SelectRow[] {
    if (isGraphForm(queryFormOf(sparql))) {
      throw new AppError("BadRequestData", "Only SPARQL SELECT and ASK queries are accepted here");
    }
    const store = this.stores.get(tenant) ?? new oxigraph.Store();
    let result: unknown;
    try {
      result = store.query(sparql);
    } catch (e) {
      throw new AppError(
        "BadRequestData",
        `SPARQL query refused: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    if (typeof result === "boolean") return result ? [{}] : [];
    if (!Array.isArray(result) || (result.length > 0 && !(result[0] instanceof Map))) {
      throw new AppError("BadRequestData", "Only SPARQL SELECT and ASK queries are accepted here");
    }
    return (result as Map<string, oxigraph.Term>[]).map((m) => {
      const row: SelectRow = {};
      for (const [k, v] of m) row[k] = v.toString();
      return row;
    });
  }

  /**
   * Replaces one graph; `lines` is the line count of `w.triples` when the caller has it already; `trusted`
   * text (accepted by a strict load before) is parsed leniently.
   */
  private replace(
    store: oxigraph.Store,
    counts: Map<string, number>,
    w: TextWrite,
    lines?: number,
    trusted = false,
  ): void {
    const old = counts.get(w.graph);
    if (old !== undefined) {
      store.update(`DROP SILENT GRAPH <${w.graph}>`);
      this.total -= old;
      this.dropped += old;
      counts.delete(w.graph);
    }
    if (w.triples !== null && w.triples.length > 0) {
      // no_transaction: faster (docs/decisions/0017-oxigraph-in-the-store-worker.md); a half-loaded graph
      // is dropped again by the caller's undo.
      counts.set(w.graph, 0);
      store.load(w.triples, {
        format: NT,
        to_graph_name: oxigraph.namedNode(w.graph),
        no_transaction: true,
        lenient: trusted,
      });
      const n = lines ?? lineCount(w.triples);
      counts.set(w.graph, n);
      this.total += n;
    }
  }

  private dump(store: oxigraph.Store, graph: string): string {
    return store.dump({ format: NT, from_graph_name: oxigraph.namedNode(graph) });
  }

  private storeOf(tenant: string): oxigraph.Store {
    let s = this.stores.get(tenant);
    if (!s) this.stores.set(tenant, (s = new oxigraph.Store()));
    return s;
  }

  private countsOf(tenant: string): Map<string, number> {
    let c = this.counts.get(tenant);
    if (!c) this.counts.set(tenant, (c = new Map()));
    return c;
  }
}
