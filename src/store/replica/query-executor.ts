import oxigraph from "oxigraph";
import { AppError } from "../../errors";
import {
  isGraphForm,
  projectedVariables,
  serializeBoolean,
  serializeSolutions,
  type Solution,
} from "../../rdf/sparql-results";
import { isWasmTrap } from "../worker/tenant-datasets";
import type { ReplicaAnswer, ReplicaQuery } from "./replica-protocol";

const DUMP_FORMAT = {
  turtle: "text/turtle",
  ntriples: "application/n-triples",
  jsonld: "application/ld+json",
};

/**
 * Runs one read query on one tenant's dataset and serializes the answer (SPARQL 1.1 Protocol §2.1).
 * The default graph is the plain view of the entities (see ReplicaDatasets), so queries read
 * naturally without GRAPH; `GRAPH ?g` names an entity's own graph with its full NGSI-LD RDF. Answers
 * past `maxRows` are cut. A query Oxigraph refuses (syntax, unsupported feature) is BadRequestData
 * carrying the parser's message.
 */
export function executeQuery(store: oxigraph.Store, q: ReplicaQuery): ReplicaAnswer {
  let result: unknown;
  try {
    result = store.query(q.sparql);
  } catch (e) {
    if (isWasmTrap(e)) throw e; // the Oxigraph instance is dead: not the user's fault
    throw new AppError(
      "BadRequestData",
      `SPARQL query refused: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (typeof result === "boolean")
    return { body: serializeBoolean(q.format, result), rows: 1, truncated: false };
  const items = result as unknown[];
  const truncated = items.length > q.maxRows;
  const kept = truncated ? items.slice(0, q.maxRows) : items;
  if (isGraphForm(q.form)) {
    const graph = new oxigraph.Store(kept as oxigraph.Quad[]);
    const format = DUMP_FORMAT[q.format as keyof typeof DUMP_FORMAT] ?? DUMP_FORMAT.turtle;
    const body = graph.dump({ format, from_graph_name: oxigraph.defaultGraph() });
    (graph as unknown as { free?: () => void }).free?.(); // release its WASM memory now, not at GC
    return { body, rows: kept.length, truncated };
  }
  const rows = kept as Solution[];
  const vars = projectedVariables(q.sparql) ?? variablesOf(rows);
  return { body: serializeSolutions(q.format, vars, rows), rows: rows.length, truncated };
}

/** The variables bound in any solution, in order of first appearance (for `SELECT *`). */
function variablesOf(rows: readonly Solution[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of r.keys()) seen.add(k);
  return [...seen];
}
