import { AppError } from "../../errors";

/**
 * Estimated number of triples in N-Triples text, as a string or UTF-8 bytes: its line count (docs/design.md
 * "Durability is ours to build", quad ceiling). Blank lines, comments or duplicates make it an
 * over-estimate, never an under one for well-formed one-triple-per-line text.
 */
export function lineCount(text: string | Uint8Array): number {
  if (typeof text !== "string") return byteLineCount(text);
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  if (text.length > 0 && !text.endsWith("\n")) n++;
  return n;
}

/** {@link lineCount} of UTF-8 bytes (a newline byte never occurs inside a multi-byte character). */
function byteLineCount(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) n++;
  return n;
}

// IRIREF of N-Triples / SPARQL: no controls, space, <>"{}|^`\ (we do not accept \u escapes in names).
const BAD_IRI_CHARS = new Set('<>"{}|^`\\');

function hasBadIriChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) <= 0x20 || BAD_IRI_CHARS.has(s[i])) return true;
  return false;
}

/**
 * Checks that a graph name can be written as `<iri>` inside SPARQL text without changing its meaning
 * (it goes into `DROP SILENT GRAPH <g>`); throws BadRequestData otherwise.
 */
export function assertGraphIri(graph: string): void {
  if (graph.length === 0 || hasBadIriChar(graph) || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(graph)) {
    throw new AppError("BadRequestData", `Not a valid graph IRI: ${JSON.stringify(graph.slice(0, 200))}`);
  }
}

/**
 * Turns N-Triples into N-Quads of `graph` with every blank-node label `L` written as `_:<prefix>L`
 * (N-Triples §2.4 BLANK_NODE_LABEL; N-Quads §2.1). A snapshot is loaded in ONE load call, where
 * equal labels are one node, so labels that are only unique per write (the codec's `_:b0`...) need a
 * prefix unique per write. Expects one `S P O .` per line with single spaces, as the codec and
 * Oxigraph write: a blank subject opens the line, a blank object follows the predicate's `> `.
 */
export function triplesToQuadsRelabelled(ntriples: string, graph: string, prefix: string): string {
  const tail = ` <${graph}> .\n`;
  let out = "";
  let at = 0;
  while (at < ntriples.length) {
    let end = ntriples.indexOf("\n", at);
    if (end === -1) end = ntriples.length;
    let line = ntriples.slice(at, end);
    at = end + 1;
    if (!line.endsWith(" .")) {
      if (line.trim() === "") continue;
      throw new Error(`not an N-Triples line: ${JSON.stringify(line.slice(0, 200))}`);
    }
    if (line.startsWith("_:")) line = `_:${prefix}${line.slice(2)}`;
    const subjectEnd = line.indexOf(" ");
    const objectAt = line.indexOf("> ", subjectEnd + 1) + 2;
    if (line.startsWith("_:", objectAt))
      line = `${line.slice(0, objectAt)}_:${prefix}${line.slice(objectAt + 2)}`;
    out += line.slice(0, -2) + tail;
  }
  return out;
}
