import { isHistoryGraph, isInternalGraph } from "../graph-store";
import { graphRunsOfFile } from "../snapshot/graph-runs";

/** The formats a tenant's graph is exported in. */
export type ExportFormat = "nquads" | "trig";

/** Options of {@link exportSnapshot}. */
export interface ExportOptions {
  format: ExportFormat;
  /** Include the sealed hours of the temporal history (`urn:citygraph:history:` graphs). */
  history: boolean;
  /** Called with the quads written so far, every `progressEvery` quads and at the end. */
  progress?: (quads: number, graphs: number) => void;
  progressEvery?: number;
}

/** ` <graph> .` at the end of a snapshot line: the N-Triples part is what comes before it. */
function triplesOf(lines: string): string {
  let out = "";
  for (let at = 0; at < lines.length;) {
    const nl = lines.indexOf("\n", at);
    const g = lines.lastIndexOf(" <", nl);
    out += lines.slice(at, g) + " .\n";
    at = nl + 1;
  }
  return out;
}

/**
 * A tenant's graph as N-Quads or TriG text chunks, read from its snapshot file (a held snapshot: see
 * GraphStore.holdSnapshot): every entity graph, with `history` the sealed history segments too, never the
 * broker's internal graphs (users, keys, subscriptions). The text is the store's own, so an import of it
 * gives the same quads.
 */
export function* exportSnapshot(file: string, opts: ExportOptions): Generator<string> {
  let quads = 0;
  let graphs = 0;
  let last = "";
  let nextReport = opts.progressEvery ?? 1_000_000;
  for (const run of graphRunsOfFile(file)) {
    if (isInternalGraph(run.graph) || (!opts.history && isHistoryGraph(run.graph))) continue;
    const text = run.buf.toString("utf8", run.start, run.end);
    if (run.graph !== last) graphs++;
    last = run.graph;
    quads += run.lines;
    yield opts.format === "nquads" ? text : `<${run.graph}> {\n${triplesOf(text)}}\n`;
    if (quads >= nextReport) {
      opts.progress?.(quads, graphs);
      nextReport = quads + (opts.progressEvery ?? 1_000_000);
    }
  }
  opts.progress?.(quads, graphs);
}
