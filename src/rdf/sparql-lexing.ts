/**
 * Pieces of SPARQL's lexical grammar (SPARQL 1.1 Query §19.8) that the services' light readers of a query
 * text share, so that the characters of a string literal never count as syntax.
 */

/**
 * Index just past the string literal starting at `i` (STRING_LITERAL1/2 or the LONG forms, with escapes).
 * A short literal cannot hold a line break: it ends at the break.
 */
export function sparqlStringEnd(s: string, i: number): number {
  const q = s[i];
  const long = s.startsWith(q.repeat(3), i);
  const close = long ? q.repeat(3) : q;
  let j = i + close.length;
  while (j < s.length) {
    if (s[j] === "\\") j += 2;
    else if (s.startsWith(close, j)) return j + close.length;
    else if (!long && s[j] === "\n") return j;
    else j++;
  }
  return j;
}
