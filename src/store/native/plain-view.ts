import { CITYGRAPH_STORE_NS } from "../../rdf/vocab";

// A line whose object is a blank node: the attribute-node triples of the normative NGSI-LD RDF.
const BLANK_OBJECT = /\s_:\S+\s*\.\s*$/;

/**
 * The plain triples of an entity graph, which SPARQL reads in the default graph (docs/design.md "Values
 * are also plain triples"): those whose subject is the entity and whose object is not an attribute node,
 * i.e. its types, its entity-level system attributes and the shortcut value triples, without storage-only
 * predicates (CITYGRAPH_STORE_NS). So `?acc traffic:severity ?s` has one answer per value instead of also
 * matching the attribute's blank node; `GRAPH ?g { ... }` reads the full NGSI-LD RDF of each entity.
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
