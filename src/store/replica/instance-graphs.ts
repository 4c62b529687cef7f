import oxigraph from "oxigraph";
import { HISTORY_GRAPH_PREFIX, type GraphWrite } from "../graph-store";
import { CGH, segmentInstanceTriples } from "./segment-instances";

/** Graphs `<urn:citygraph:instances:<entity id>>`: the raw history instances of one entity, as rows. */
export const INSTANCES_GRAPH_PREFIX = "urn:citygraph:instances:";

/**
 * Instance triples kept loaded at most (all tenants), which bounds the replica's extra memory
 * (docs/decisions/0013-instance-graphs.md); past it the least recently queried entity goes.
 */
export const MAX_INSTANCE_TRIPLES = 500_000;

const NAMED = /<urn:citygraph:instances:([^<>\s"{}|\\^`]+)>/g;
// urn:citygraph:history:<hour or day start>[/P1D]:<entity id>
const SEGMENT = /^urn:citygraph:history:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z(?:\/P1D)?:(.+)$/;

interface Loaded {
  store: oxigraph.Store;
  graph: string;
  triples: number;
  stale: boolean;
}

/**
 * The instance graphs of the SPARQL replica (docs/sparql.md "Every observation"): a query that names
 * `<urn:citygraph:instances:<id>>` reads every raw instance of entity `id` in the history's segments as
 * triples, which the segments hold only as one `cgh:instances` JSON literal per hour. A graph is built
 * from the segments when a query first names it, kept for the next queries, rebuilt after a segment of
 * its entity changed, and dropped, least recently queried first, past {@link MAX_INSTANCE_TRIPLES}: the
 * memory is bounded by that and by what queries ask for, not by the length of the raw window.
 */
export class InstanceGraphs {
  /** Per tenant and entity, in order of last use. */
  private readonly loaded = new Map<string, Loaded>();
  private total = 0;
  /** Triples dropped from the stores (their memory is held until the replica reloads). */
  dropped = 0;

  /** Loads the instance graphs that `sparql` names and that are not current. */
  prepare(tenant: string, store: oxigraph.Store, sparql: string): void {
    for (const m of sparql.matchAll(NAMED)) {
      const id = m[1];
      const key = `${tenant}\n${id}`;
      const had = this.loaded.get(key);
      if (had && !had.stale) {
        this.loaded.delete(key); // most recently used last
        this.loaded.set(key, had);
        continue;
      }
      if (had) this.drop(key);
      const graph = `${INSTANCES_GRAPH_PREFIX}${id}`;
      const triples = this.build(store, id, graph);
      this.loaded.set(key, { store, graph, triples, stale: false });
      this.total += triples;
    }
    for (const [key] of this.loaded) {
      if (this.total <= MAX_INSTANCE_TRIPLES || this.loaded.size <= 1) break;
      this.drop(key);
    }
  }

  /** A commit reached the replica: the instance graphs of entities whose segments it wrote are stale. */
  changed(tenant: string, writes: readonly GraphWrite[]): void {
    if (this.loaded.size === 0) return;
    for (const w of writes) {
      if (!w.graph.startsWith(HISTORY_GRAPH_PREFIX)) continue;
      const id = SEGMENT.exec(w.graph)?.[1];
      const had = id === undefined ? undefined : this.loaded.get(`${tenant}\n${id}`);
      if (had) had.stale = true;
    }
  }

  /** Instance triples loaded now. */
  get triples(): number {
    return this.total;
  }

  private build(store: oxigraph.Store, id: string, graph: string): number {
    const rows = store.query(
      `SELECT ?start ?json WHERE { GRAPH ?seg { ?seg <${CGH}entity> <${id}> ; <${CGH}start> ?start ; <${CGH}instances> ?json } }`,
    ) as Map<string, oxigraph.Term>[];
    let triples = 0;
    for (const r of rows) {
      const segment = segmentInstanceTriples(r.get("json")!.value, Date.parse(r.get("start")!.value));
      if (segment.triples === 0) continue;
      // in a transaction: Oxigraph's bulk load (no_transaction) was slower here
      // (docs/decisions/0013-instance-graphs.md)
      store.load(segment.text, { format: "application/n-triples", to_graph_name: oxigraph.namedNode(graph) });
      triples += segment.triples;
    }
    return triples;
  }

  private drop(key: string): void {
    const had = this.loaded.get(key);
    if (!had) return;
    this.loaded.delete(key);
    this.total -= had.triples;
    this.dropped += had.triples;
    had.store.update(`DROP SILENT GRAPH <${had.graph}>`);
  }
}
