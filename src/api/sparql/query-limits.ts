import { badRequest } from "../../errors";
import { sparqlStringEnd } from "../../rdf/sparql-lexing";

/** Limits of a SPARQL query text, checked before it reaches the parser (docs/configuration.md "Limits"). */
export interface SparqlTextLimits {
  /** Characters of the query text (SPARQL_MAX_QUERY_LENGTH). */
  maxLength: number;
  /** Depth of nested `{}`, `()` and `[]` outside strings, IRIs and comments. */
  maxNesting: number;
  /** `&&` and `||` operators: Oxigraph's parser takes quadratic time in a chain of them. */
  maxLogical: number;
}

/**
 * Depth of nesting allowed, well below the depth that fails Oxigraph's parser
 * (docs/decisions/0017-oxigraph-in-the-store-worker.md).
 */
export const DEFAULT_SPARQL_NESTING = 64;
/**
 * Logical operators allowed, well below the count whose parse takes seconds or crashes the parser
 * (docs/decisions/0017-oxigraph-in-the-store-worker.md).
 */
export const DEFAULT_SPARQL_LOGICAL = 256;

/**
 * Throws 400 if a SPARQL text is longer, deeper or holds more logical operators than `limits`: such texts
 * ran the WebAssembly parser out of memory, and Oxigraph's parser recurses on nesting, so a deep one would
 * overflow its thread's stack. One pass, no recursion; strings, IRIs and comments are skipped so that
 * their characters never count.
 */
export function checkSparqlText(text: string, limits: SparqlTextLimits): void {
  const refuse = (why: string) => badRequest(`The SPARQL query is refused: ${why}`, { parameter: "query" });
  if (text.length > limits.maxLength) throw refuse(`it is longer than ${limits.maxLength} characters`);
  let depth = 0;
  let logical = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text[i];
    if (c === "#") {
      const eol = text.indexOf("\n", i);
      i = eol < 0 ? n : eol;
    } else if (c === '"' || c === "'") {
      i = sparqlStringEnd(text, i) - 1;
    } else if (c === "<" && iriEnd(text, i) > 0) {
      i = iriEnd(text, i) - 1;
    } else if (c === "{" || c === "(" || c === "[") {
      if (++depth > limits.maxNesting) throw refuse(`it nests groups deeper than ${limits.maxNesting}`);
    } else if (c === "}" || c === ")" || c === "]") {
      depth--;
    } else if ((c === "&" || c === "|") && text[i + 1] === c) {
      if (++logical > limits.maxLogical)
        throw refuse(`it has more than ${limits.maxLogical} && and || operators`);
      i++;
    }
  }
}

/** Index past the IRI reference starting at `i` (`<...>` without spaces), or 0 when it is no IRI (`<` as less-than). */
function iriEnd(s: string, i: number): number {
  for (let j = i + 1; j < s.length && j < i + 4096; j++) {
    const c = s[j];
    if (c === ">") return j + 1;
    if (c === " " || c === "\n" || c === "\t" || c === "<" || c === '"' || c === "{" || c === "}") return 0;
  }
  return 0;
}
