/**
 * What a SPARQL request text is, read from its first keyword after the prologue (SPARQL 1.1 Query
 * §19.8 grammar rules [1] QueryUnit and [2] Query; SPARQL 1.1 Update §3): the service must know the
 * form before it runs anything, to refuse updates and to negotiate the result format.
 */
export type QueryForm = "SELECT" | "ASK" | "CONSTRUCT" | "DESCRIBE" | "UPDATE" | "UNKNOWN";

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
  const kw = firstKeyword(text);
  if (kw === "SELECT" || kw === "ASK" || kw === "CONSTRUCT" || kw === "DESCRIBE") return kw;
  return UPDATE_KEYWORDS.has(kw) ? "UPDATE" : "UNKNOWN";
}

/** True for the forms whose answer is a graph (CONSTRUCT, DESCRIBE) rather than solutions. */
export function isGraphForm(form: QueryForm): boolean {
  return form === "CONSTRUCT" || form === "DESCRIBE";
}

const isSpace = (c: string) =>
  c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v";
const isLetter = (c: string) => (c >= "A" && c <= "Z") || (c >= "a" && c <= "z");

/**
 * The first keyword after the prologue (white space, comments, PREFIX and BASE declarations), upper case,
 * or "" when there is none. One pass over the text, each character read once: a regular expression with a
 * repeated group here backtracked exponentially on a run of spaces that ends in no keyword.
 */
function firstKeyword(text: string): string {
  let i = 0;
  const n = text.length;
  const word = (): string => {
    const start = i;
    while (i < n && isLetter(text[i])) i++;
    return text.slice(start, i).toUpperCase();
  };
  const skipSpace = () => {
    while (i < n && isSpace(text[i])) i++;
  };
  const skipIri = (): boolean => {
    if (text[i] !== "<") return false;
    const close = text.indexOf(">", i + 1);
    if (close < 0) return false;
    i = close + 1;
    return true;
  };
  for (;;) {
    skipSpace();
    if (i >= n) return "";
    if (text[i] === "#") {
      const eol = text.indexOf("\n", i);
      i = eol < 0 ? n : eol + 1;
      continue;
    }
    const kw = word();
    if (kw === "BASE") {
      skipSpace();
      if (!skipIri()) return kw;
    } else if (kw === "PREFIX") {
      skipSpace();
      while (i < n && !isSpace(text[i]) && text[i] !== ":") i++;
      if (text[i] !== ":") return kw;
      i++;
      skipSpace();
      if (!skipIri()) return kw;
    } else return kw;
  }
}
