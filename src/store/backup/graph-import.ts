import fs from "node:fs";
import path from "node:path";
import { INTERNAL_GRAPH_PREFIX } from "../graph-store";
import { nativeAddon, nativeMessage } from "../native/native-addon";
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
 * Loads N-Quads or TriG text (parsed strictly by Oxigraph's parser in the native addon) as the snapshot of `tenant` in an empty
 * store folder `storeDir` (docs/operations.md "Export and import"): quads are grouped by named graph, as
 * the store keeps them, and the store then starts from that snapshot. Quads of the default graph and of
 * the broker's internal graphs are left out (counted in `skipped`). Holds the input and the quads in memory
 * while grouping them.
 */
export async function importToSnapshot(
  input: AsyncIterable<Buffer | string>,
  format: keyof typeof IMPORT_FORMATS,
  tenant: string,
  storeDir: string,
  progress?: (quads: number) => void,
): Promise<ImportResult> {
  const parts: Buffer[] = [];
  for await (const chunk of input) parts.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  let grouped: ReturnType<ReturnType<typeof nativeAddon>["groupByGraph"]>;
  try {
    grouped = nativeAddon().groupByGraph(Buffer.concat(parts), format, INTERNAL_GRAPH_PREFIX);
  } catch (e) {
    throw new Error(nativeMessage(e));
  }
  const { quads, skipped } = grouped;
  progress?.(quads);
  fs.mkdirSync(storeDir, { recursive: true });
  const name = snapshotFileName(0, tenant);
  const file = path.join(storeDir, name);
  const fd = fs.openSync(file, "w");
  let bytes = 0;
  try {
    const chunk = Buffer.from(grouped.nquads, "utf8");
    fs.writeSync(fd, chunk);
    bytes += chunk.length;
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
  return { quads, graphs: grouped.graphs, skipped };
}
