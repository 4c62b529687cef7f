import fs from "node:fs";
import path from "node:path";
import oxigraph from "oxigraph";
import { isInternalGraph } from "../graph-store";
import { fsyncDir } from "../journal/journal-files";
import { snapshotFileName, writeManifest } from "../snapshot/snapshot-files";

/** MIME types of the formats an import reads. */
export const IMPORT_FORMATS = { nquads: "application/n-quads", trig: "application/trig" } as const;

/** What an import loaded. */
export interface ImportResult {
  quads: number;
  graphs: number;
  /** Quads left out: in the default graph (an entity lives in a named graph) or in an internal graph. */
  skipped: number;
}

/**
 * Loads N-Quads or TriG text (streamed, parsed strictly by Oxigraph) as the snapshot of `tenant` in an empty
 * store folder `storeDir` (docs/operations.md "Export and import"): quads are grouped by named graph, as
 * the store keeps them, and the store then starts from that snapshot. Quads of the default graph and of
 * the broker's internal graphs are left out (counted in `skipped`). Holds the quads in memory while
 * grouping them.
 */
export async function importToSnapshot(
  input: AsyncIterable<Buffer | string>,
  format: keyof typeof IMPORT_FORMATS,
  tenant: string,
  storeDir: string,
  progress?: (quads: number) => void,
): Promise<ImportResult> {
  const byGraph = new Map<string, string[]>();
  let quads = 0;
  let skipped = 0;
  for await (const q of oxigraph.parse(input, { format: IMPORT_FORMATS[format] })) {
    const g = q.graph;
    if (g.termType !== "NamedNode" || isInternalGraph(g.value)) {
      skipped++;
      continue;
    }
    let lines = byGraph.get(g.value);
    if (!lines) byGraph.set(g.value, (lines = []));
    lines.push(`${q.toString()} .\n`);
    if (++quads % 500_000 === 0) progress?.(quads);
  }
  progress?.(quads);
  fs.mkdirSync(storeDir, { recursive: true });
  const name = snapshotFileName(0, tenant);
  const file = path.join(storeDir, name);
  const fd = fs.openSync(file, "w");
  let bytes = 0;
  try {
    for (const lines of byGraph.values()) {
      for (let i = 0; i < lines.length; i += 10_000) {
        const chunk = Buffer.from(lines.slice(i, i + 10_000).join(""), "utf8");
        fs.writeSync(fd, chunk);
        bytes += chunk.length;
      }
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  writeManifest(storeDir, {
    version: 1,
    seq: 0,
    tenants: [{ tenant, file: name, quads, bytes }],
    createdAt: new Date().toISOString(),
    ms: 0,
  });
  fsyncDir(storeDir);
  return { quads, graphs: byGraph.size, skipped };
}
