import { parseNTriples } from "../../rdf/ntriples/parse";
import { CGH, segmentInstanceTriples } from "./segment-instances";

/** Graphs `<urn:citygraph:instances:<entity id>>`: the raw history instances of one entity, as rows. */
export const INSTANCES_GRAPH_PREFIX = "urn:citygraph:instances:";

/** The parts of a history segment graph that its instance rows come from. */
interface SegmentFacts {
  entity: string;
  start: number;
  json: string;
}

/** The entity, start and `cgh:instances` JSON of a segment graph's N-Triples, if it holds them. */
export function segmentFacts(ntriples: string): SegmentFacts | undefined {
  let entity: string | undefined;
  let start: number | undefined;
  let json: string | undefined;
  for (const t of parseNTriples(ntriples)) {
    if (t.predicate === `${CGH}entity`) entity = t.object.value;
    else if (t.predicate === `${CGH}start`) start = Date.parse(t.object.value);
    else if (t.predicate === `${CGH}instances`) json = t.object.value;
  }
  return entity !== undefined && start !== undefined && json !== undefined
    ? { entity, start, json }
    : undefined;
}

/**
 * The instance rows a segment contributes to its entity's instance graph (docs/sparql.md "Every
 * observation"): the graph's IRI and the rows as N-Triples, or undefined for a segment without instances.
 */
export function instanceRowsOf(ntriples: string | null): { graph: string; text: string } | undefined {
  if (ntriples === null) return undefined;
  const facts = segmentFacts(ntriples);
  if (!facts) return undefined;
  const { text, triples } = segmentInstanceTriples(facts.json, facts.start);
  return triples === 0 ? undefined : { graph: `${INSTANCES_GRAPH_PREFIX}${facts.entity}`, text };
}
