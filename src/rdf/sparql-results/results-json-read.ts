import type { ResultTerm, Solution } from "./result-term";

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN = 123;
const CLOSE = 125;
const END_ARRAY = 93;

/** The index of the quote that closes the JSON string opened at `open`. */
function stringEnd(text: string, open: number): number {
  let j = text.indexOf('"', open + 1);
  for (;;) {
    if (j < 0) return text.length;
    let b = j - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((j - 1 - b) % 2 === 0) return j; // an even run of backslashes escapes none of this quote
    j = text.indexOf('"', j + 1);
  }
}

/**
 * A SELECT answer in `application/sparql-results+json` (SPARQL 1.1 Query Results JSON Format §3) kept to
 * its first `max` solutions, without parsing it: the solutions are counted by the braces outside strings of
 * `results.bindings`. Returns the text (the same string when nothing is cut) and the solutions it holds.
 */
export function cutJsonSolutions(
  json: string,
  max: number,
): { body: string; rows: number; truncated: boolean } {
  const start = json.indexOf('"bindings":'); // a variable named so is followed by `,` or `]`
  let i = start < 0 ? json.length : json.indexOf("[", start) + 1;
  let depth = 0;
  let rows = 0;
  while (i > 0 && i < json.length) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(json, i);
    else if (c === OPEN) {
      if (depth === 0 && ++rows > max) {
        const kept = json.slice(0, i).replace(/,\s*$/, "");
        return { body: kept + json.slice(json.lastIndexOf("]")), rows: max, truncated: true };
      }
      depth++;
    } else if (c === CLOSE) depth--;
    else if (c === END_ARRAY && depth === 0) break;
    i++;
  }
  return { body: json, rows, truncated: false };
}

interface JsonTerm {
  type: string;
  value: unknown;
  "xml:lang"?: string;
  datatype?: string;
}

/** One term of the JSON format as the other writers take it (a quoted triple as its JSON text). */
function termOf(t: JsonTerm): ResultTerm {
  const value = typeof t.value === "string" ? t.value : JSON.stringify(t.value);
  if (t.type === "uri") return { termType: "NamedNode", value };
  if (t.type === "bnode") return { termType: "BlankNode", value };
  return {
    termType: "Literal",
    value,
    language: t["xml:lang"] ?? "",
    datatype: t.datatype === undefined ? undefined : { value: t.datatype },
  };
}

/** The variables and solutions of a SELECT answer in `application/sparql-results+json`. */
export function solutionsFromJson(json: string): { vars: string[]; rows: Solution[] } {
  const doc = JSON.parse(json) as {
    head: { vars?: string[] };
    results: { bindings: Record<string, JsonTerm>[] };
  };
  const rows = doc.results.bindings.map(
    (b) => new Map(Object.entries(b).map(([k, t]) => [k, termOf(t)] as [string, ResultTerm])),
  );
  return { vars: doc.head.vars ?? [], rows };
}
