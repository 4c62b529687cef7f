import oxigraph from "oxigraph";
import { isHistoryGraph, isInternalGraph, type GraphWrite } from "../graph-store";
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
 * The plain view of one run of a graph's snapshot lines (N-Quads, each ending with ` <graph> .`), as
 * default-graph N-Quads: {@link plainTriplesOf} of the same lines.
 */
export function plainQuadsOfRun(graph: string, nquads: string): string {
  const subject = `<${graph}> `;
  const suffix = ` <${graph}> .`;
  let nt = "";
  for (const line of nquads.split("\n")) {
    if (line.startsWith(subject) && line.endsWith(suffix)) nt += line.slice(0, -suffix.length) + " .\n";
  }
  return nt === "" ? "" : plainTriplesOf(graph, nt);
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

  /**
   * Applies one commit of the change feed (or of the journal) to both views. Only a graph held before
   * has a plain view to remove (one SPARQL DELETE each); the new plain triples go in one load.
   */
  apply(tenant: string, writes: GraphWrite[]): void {
    const visible = writes.filter((w) => !isInternalGraph(w.graph));
    if (visible.length === 0) return;
    const held = visible.filter((w) => !isHistoryGraph(w.graph) && this.datasets.has(tenant, w.graph));
    this.datasets.apply(tenant, visible, true);
    const store = this.datasets.storeFor(tenant)!;
    for (const w of held) store.update(`DELETE WHERE { <${w.graph}> ?p ?o }`);
    let plain = "";
    for (const w of visible)
      if (w.triples !== null && !isHistoryGraph(w.graph)) plain += plainTriplesOf(w.graph, w.triples);
    if (plain) store.load(plain, { format: NT, no_transaction: true });
  }

  /**
   * Loads a snapshot with the plain view of each entity graph in the same bulk load, derived from the
   * lines as {@link apply} derives it (not a SPARQL INSERT over the loaded graphs afterwards, which
   * materialized every solution at once: docs/decisions/0016-capacity.md), then drops internal graphs.
   */
  loadSnapshot(tenant: string, chunks: Iterable<Uint8Array>, source?: string): void {
    this.datasets.loadSnapshot(tenant, chunks, source, undefined, (run) =>
      isHistoryGraph(run.graph) || isInternalGraph(run.graph)
        ? ""
        : plainQuadsOfRun(run.graph, run.buf.toString("utf8", run.start, run.end)),
    );
    const hidden = this.datasets.graphs(tenant).filter(isInternalGraph);
    if (hidden.length > 0) {
      this.datasets.apply(
        tenant,
        hidden.map((graph) => ({ graph, triples: null })),
        true,
      );
    }
  }
}
