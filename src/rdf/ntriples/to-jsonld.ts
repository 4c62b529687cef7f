import { RDF_LANGSTRING, RDF_TYPE, XSD_STRING } from "../vocab";
import { parseNTriples } from "./parse";
import type { NtTerm } from "./terms";

type JsonLdNode = { "@id": string; [predicate: string]: unknown };

/**
 * N-Triples as expanded, flattened JSON-LD (JSON-LD 1.1 API §8.4 "Serialize RDF as JSON-LD", with
 * useNativeTypes false and useRdfType false): one node object per subject in order of first appearance,
 * `rdf:type` as `@type`, literals as value objects with their datatype or language.
 */
export function ntriplesToJsonLd(text: string): JsonLdNode[] {
  const nodes = new Map<string, JsonLdNode>();
  for (const t of parseNTriples(text)) {
    const id = termId(t.subject);
    let node = nodes.get(id);
    if (!node) nodes.set(id, (node = { "@id": id }));
    if (t.predicate === RDF_TYPE && t.object.termType !== "Literal") {
      ((node["@type"] ??= []) as string[]).push(termId(t.object));
      continue;
    }
    ((node[t.predicate] ??= []) as unknown[]).push(objectOf(t.object));
  }
  return [...nodes.values()];
}

const termId = (t: NtTerm): string => (t.termType === "BlankNode" ? `_:${t.value}` : t.value);

function objectOf(o: NtTerm): object {
  if (o.termType !== "Literal") return { "@id": termId(o) };
  if (o.datatype === RDF_LANGSTRING) return { "@value": o.value, "@language": o.language };
  if (o.datatype === XSD_STRING) return { "@value": o.value };
  return { "@value": o.value, "@type": o.datatype };
}
