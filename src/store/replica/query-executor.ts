import oxigraph from "oxigraph";
import { AppError } from "../../errors";
import {
  cutJsonSolutions,
  isGraphForm,
  serializeBoolean,
  serializeSolutions,
  solutionsFromJson,
} from "../../rdf/sparql-results";
import { isWasmTrap } from "../worker/tenant-datasets";
import type { ReplicaAnswer, ReplicaQuery } from "./replica-protocol";

const DUMP_FORMAT = {
  turtle: "text/turtle",
  ntriples: "application/n-triples",
  jsonld: "application/ld+json",
};
const JSON_RESULTS = "application/sparql-results+json";

/**
 * Runs one read query on one tenant's dataset and serializes the answer (SPARQL 1.1 Protocol §2.1).
 * The default graph is the plain view of the entities (see ReplicaDatasets), so queries read
 * naturally without GRAPH; `GRAPH ?g` names an entity's own graph with its full NGSI-LD RDF. Answers
 * past `maxRows` are cut. A query Oxigraph refuses (syntax, unsupported feature) is BadRequestData
 * carrying the parser's message.
 *
 * SELECT solutions are written by Oxigraph's own JSON serializer, never handed to JS as terms (a JS object
 * per term is most of a large answer's time, docs/decisions/0013); the other solution formats are written
 * from that JSON.
 */
export function executeQuery(store: oxigraph.Store, q: ReplicaQuery): ReplicaAnswer {
  const result = run(store, q);
  if (typeof result === "boolean")
    return { body: serializeBoolean(q.format, result), rows: 1, truncated: false };
  if (typeof result === "string") {
    if (q.format === "json") return cutJsonSolutions(result, q.maxRows);
    const { vars, rows } = solutionsFromJson(result);
    const truncated = rows.length > q.maxRows;
    const kept = truncated ? rows.slice(0, q.maxRows) : rows;
    return { body: serializeSolutions(q.format, vars, kept), rows: kept.length, truncated };
  }
  const truncated = result.length > q.maxRows;
  const kept = truncated ? result.slice(0, q.maxRows) : result;
  const graph = new oxigraph.Store(kept as oxigraph.Quad[]);
  const format = DUMP_FORMAT[q.format as keyof typeof DUMP_FORMAT] ?? DUMP_FORMAT.turtle;
  const body = graph.dump({ format, from_graph_name: oxigraph.defaultGraph() });
  (graph as unknown as { free?: () => void }).free?.(); // release its WASM memory now, not at GC
  return { body, rows: kept.length, truncated };
}

/** The query's answer: a boolean (ASK), quads (CONSTRUCT, DESCRIBE) or SELECT solutions as JSON text. */
function run(store: oxigraph.Store, q: ReplicaQuery): boolean | string | unknown[] {
  try {
    return isGraphForm(q.form) || q.form === "ASK"
      ? (store.query(q.sparql) as boolean | unknown[])
      : (store.query(q.sparql, { results_format: JSON_RESULTS }) as string);
  } catch (e) {
    if (isWasmTrap(e)) throw e; // the Oxigraph instance is dead: not the user's fault
    throw new AppError(
      "BadRequestData",
      `SPARQL query refused: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
