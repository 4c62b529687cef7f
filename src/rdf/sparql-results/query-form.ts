/**
 * What a SPARQL request text is, read from its first keyword after the prologue (SPARQL 1.1 Query
 * §19.8 grammar rules [1] QueryUnit and [2] Query; SPARQL 1.1 Update §3): the service must know the
 * form before it runs anything, to refuse updates and to negotiate the result format.
 */
export type QueryForm = "SELECT" | "ASK" | "CONSTRUCT" | "DESCRIBE" | "UPDATE" | "UNKNOWN";

// Prologue: whitespace, comments, PREFIX and BASE declarations.
const PROLOGUE_THEN_KEYWORD =
  /^(?:\s+|#[^\n]*(?:\n|$)|PREFIX\s*[^\s:]*:\s*<[^>]*>|BASE\s*<[^>]*>)*([A-Za-z]+)/i;

const UPDATE_KEYWORDS = new Set([
  "INSERT",
  "DELETE",
  "LOAD",
  "CLEAR",
  "CREATE",
  "DROP",
  "COPY",
  "MOVE",
  "ADD",
  "WITH",
]);

/** The form of a SPARQL text: the four query forms, an update operation, or unknown (a syntax error). */
export function queryFormOf(text: string): QueryForm {
  const kw = PROLOGUE_THEN_KEYWORD.exec(text)?.[1]?.toUpperCase() ?? "";
  if (kw === "SELECT" || kw === "ASK" || kw === "CONSTRUCT" || kw === "DESCRIBE") return kw;
  return UPDATE_KEYWORDS.has(kw) ? "UPDATE" : "UNKNOWN";
}

/** True for the forms whose answer is a graph (CONSTRUCT, DESCRIBE) rather than solutions. */
export function isGraphForm(form: QueryForm): boolean {
  return form === "CONSTRUCT" || form === "DESCRIBE";
}
