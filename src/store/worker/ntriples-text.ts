import { AppError } from "../../errors";

/**
 * Estimated number of triples in N-Triples text: its line count (DESIGN.md "Durability is ours to
 * build", quad ceiling). Blank lines, comments or duplicates make it an over-estimate, never an under one
 * for well-formed one-triple-per-line text.
 */
export function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  if (text.length > 0 && !text.endsWith("\n")) n++;
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

/** Turns a graph's N-Triples (as Oxigraph writes them: one `s p o .` per line) into N-Quads of `graph`. */
export function triplesToQuads(ntriples: string, graph: string): string {
  return ntriples.replaceAll(" .\n", ` <${graph}> .\n`);
}
