import oxigraph from "oxigraph";
import { HISTORY_GRAPH_PREFIX, isHistoryGraph, isInternalGraph, type GraphWrite } from "../graph-store";
import { CITYGRAPH_STORE_NS } from "../../rdf/vocab";
import type { RecoveryTarget } from "../worker/recovery";
import type { TenantDatasets } from "../worker/tenant-datasets";

const NT = "application/n-triples";
// A line whose object is a blank node: the attribute-node triples of the normative NGSI-LD RDF.
const BLANK_OBJECT = /\s_:\S+\s*\.\s*$/;

/**
 * The plain triples of an entity graph: those whose subject is the entity and whose object is not an
 * attribute node, i.e. its types, its entity-level system attributes and the shortcut value triples
 * (docs/design.md "Values are also plain triples"), without storage-only predicates (CITYGRAPH_STORE_NS).
 */
export function plainTriplesOf(graph: string, triples: string): string {
  const subject = `<${graph}> `;
  const storageOnly = `${subject}<${CITYGRAPH_STORE_NS}`;
  let out = "";
  for (const line of triples.split("\n")) {
    if (line.startsWith(subject) && !BLANK_OBJECT.test(line) && !line.startsWith(storageOnly))
      out += line + "\n";
  }
  return out;
}

/**
 * The replica's datasets: each tenant's entity graphs as the store keeps them, plus a
 * DEFAULT graph that holds the plain view of every entity. A SPARQL query without GRAPH reads the plain
 * view, so `?acc traffic:severity ?s` has one answer per value instead of also matching the
 * attribute's blank node; `GRAPH ?g { ... }` reads the full NGSI-LD RDF of each entity. The broker's
 * internal graphs are never loaded; the temporal history's segment graphs are loaded but have no plain
 * view (their subject is the segment, read with `GRAPH ?seg`).
 */
export class ReplicaDatasets implements RecoveryTarget {
  constructor(private readonly datasets: TenantDatasets) {}

  get quads(): number {
    return this.datasets.quads;
  }

  /** Quads dropped by replacements (their memory is held until a reload: see TenantDatasets). */
  get droppedQuads(): number {
    return this.datasets.droppedQuads;
  }

  /** The Oxigraph store of a tenant, if it has one. */
  storeFor(tenant: string): oxigraph.Store | undefined {
    return this.datasets.storeFor(tenant);
  }

  /** Applies one commit of the change feed (or of the journal) to both views. */
  apply(tenant: string, writes: GraphWrite[]): void {
    const visible = writes.filter((w) => !isInternalGraph(w.graph));
    if (visible.length === 0) return;
    this.datasets.apply(tenant, visible, true);
    const store = this.datasets.storeFor(tenant)!;
    for (const w of visible) {
      if (isHistoryGraph(w.graph)) continue;
      store.update(`DELETE WHERE { <${w.graph}> ?p ?o }`);
      const plain = w.triples === null ? "" : plainTriplesOf(w.graph, w.triples);
      if (plain) store.load(plain, { format: NT, no_transaction: true });
    }
  }

  /** Loads a snapshot, drops internal graphs, and derives the plain view of everything it holds. */
  loadSnapshot(tenant: string, chunks: Iterable<Uint8Array>, source?: string): void {
    this.datasets.loadSnapshot(tenant, chunks, source);
    const hidden = this.datasets.graphs(tenant).filter(isInternalGraph);
    if (hidden.length > 0) {
      this.datasets.apply(
        tenant,
        hidden.map((graph) => ({ graph, triples: null })),
        true,
      );
    }
    this.datasets
      .storeFor(tenant)
      ?.update(
        `INSERT { ?s ?p ?o } WHERE { GRAPH ?s { ?s ?p ?o } FILTER(!isBlank(?o) && !STRSTARTS(STR(?s), "${HISTORY_GRAPH_PREFIX}")) }`,
      );
  }
}
