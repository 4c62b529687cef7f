import { ntBlank, ntIri, ntLangLiteral, ntLiteral } from "../ntriples/write";
import { XSD_STRING } from "../vocab";

/**
 * An RDF term of a SPARQL solution, in the RDF/JS shape Oxigraph's terms have (RDF 1.1 Concepts §3.2
 * to §3.4). Only what the result formats need: a literal's `datatype` may be absent for simple ones.
 */
export interface ResultTerm {
  readonly termType: string;
  readonly value: string;
  readonly language?: string;
  readonly datatype?: { readonly value: string };
}

/** One solution: variable name (without `?`) -> term; unbound variables are absent. */
export type Solution = ReadonlyMap<string, ResultTerm>;

const RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";

/** The datatype IRI of a literal to show in results: undefined for simple and language-tagged literals. */
export function shownDatatype(t: ResultTerm): string | undefined {
  if (t.language) return undefined;
  const dt = t.datatype?.value;
  return dt === undefined || dt === XSD_STRING || dt === RDF_LANG_STRING ? undefined : dt;
}

/** The term in N-Triples syntax (`<iri>`, `_:b`, `"x"@en`, `"1"^^<dt>`), as TSV results write it. */
export function termToNt(t: ResultTerm): string {
  switch (t.termType) {
    case "NamedNode":
      return ntIri(t.value);
    case "BlankNode":
      return ntBlank(t.value);
    default:
      if (t.language) return ntLangLiteral(t.value, t.language);
      return ntLiteral(t.value, shownDatatype(t) ?? XSD_STRING);
  }
}
