import type { QueryForm, ResultFormat } from "../../rdf/sparql-results";

/** One SPARQL query of a client. */
export interface SparqlQuery {
  tenant: string;
  sparql: string;
  form: QueryForm;
  format: ResultFormat["kind"];
  /** Rows (solutions) or triples kept; the rest is cut off and reported. */
  maxRows: number;
}

/** A serialized answer. */
export interface SparqlAnswer {
  body: string;
  /** Solutions or triples in the body. */
  rows: number;
  /** True when the answer was cut at `maxRows`. */
  truncated: boolean;
}
