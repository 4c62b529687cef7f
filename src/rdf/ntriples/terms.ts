/**
 * RDF terms as read from N-Triples (RDF 1.1 Concepts §3.2–3.4, shaped like the RDF/JS data model).
 * A literal always carries its datatype (xsd:string for simple literals, rdf:langString when
 * tagged) and a language ("" when none), so every term has one monomorphic shape.
 */
export interface NtTerm {
  termType: "NamedNode" | "BlankNode" | "Literal";
  /** The IRI, the blank node label (without "_:"), or the literal's lexical form. */
  value: string;
  /** Datatype IRI of a literal; "" for IRIs and blank nodes. */
  datatype: string;
  /** Language tag of a literal, "" when none. */
  language: string;
}

/** One triple (RDF 1.1 Concepts §3.1); the predicate is always an IRI. */
export interface NtTriple {
  subject: NtTerm;
  predicate: string;
  object: NtTerm;
}
