import fs from "node:fs";
import { HISTORY_GRAPH_PREFIX, INTERNAL_GRAPH_PREFIX } from "../graph-store";
import { INSTANCES_GRAPH_PREFIX } from "../native/history-instances";
import { nativeAddon, type NativeGraphDump } from "../native/native-addon";
import { tenantFolders } from "../native/tenant-folders";

/** The formats a tenant's graph is exported in. */
export type ExportFormat = "nquads" | "trig";

/** Options of {@link exportText} and {@link openTenantExport}. */
export interface ExportOptions {
  format: ExportFormat;
  /** Include the sealed hours of the temporal history (`urn:citygraph:history:` graphs). */
  history: boolean;
  /** Called with the quads written so far, every `progressEvery` quads and at the end. */
  progress?: (quads: number, graphs: number) => void;
  progressEvery?: number;
  /**
   * N-Quads read from the store per step (default 256 KiB): what the caller's thread turns into the
   * export's text at once, and about what is held in memory ahead of the reader.
   */
  chunkBytes?: number;
}

/**
 * The graphs an export leaves out: the broker's internal graphs (users, keys, subscriptions; they live in
 * the tenant's internal store, skipped here too for safety), the instance graphs (the store derives them
 * from the history segments: src/store/native/history-instances.ts), and without `history` the segments.
 */
export function exportSkipPrefixes(history: boolean): string[] {
  const always = [INTERNAL_GRAPH_PREFIX, INSTANCES_GRAPH_PREFIX];
  return history ? always : [...always, HISTORY_GRAPH_PREFIX];
}

/**
 * N-Quads text chunks of whole lines as the export's text: N-Quads as they are, or TriG with one
 * `<graph> { ... }` block per run of a graph's lines, kept open across chunks while the graph goes on.
 * Every line ends with ` <graph> .` (or ` _:b .`), so the graph is the last term before ` .`.
 */
export async function* exportText(
  nquads: AsyncIterable<string> | Iterable<string>,
  opts: ExportOptions,
): AsyncGenerator<string> {
  const every = opts.progressEvery ?? 1_000_000;
  let quads = 0;
  let graphs = 0;
  let graph = "";
  let nextReport = every;
  for await (const text of nquads) {
    let out = "";
    for (let at = 0; at < text.length;) {
      const nl = text.indexOf("\n", at);
      const end = nl - 2; // the line ends with " .\n"
      const sp = text.lastIndexOf(" ", end - 1);
      if (nl < 0 || sp < at)
        throw new Error(`export: a line without a graph near ${text.slice(at, at + 80)}`);
      if (end - sp - 1 !== graph.length || !text.startsWith(graph, sp + 1)) {
        if (opts.format === "trig" && graphs > 0) out += "}\n";
        graph = text.slice(sp + 1, end);
        graphs++;
        if (opts.format === "trig") out += `${graph} {\n`;
      }
      if (opts.format === "trig") out += text.slice(at, sp) + " .\n";
      quads++;
      at = nl + 1;
    }
    yield opts.format === "nquads" ? text : out;
    if (quads >= nextReport) {
      opts.progress?.(quads, graphs);
      nextReport = quads + every;
    }
  }
  if (opts.format === "trig" && graphs > 0) yield "}\n";
  opts.progress?.(quads, graphs);
}

/**
 * `first`, then the dump's further chunks of `bytes`, each read on a thread of the addon while the one
 * before is handed on (one chunk ahead at most).
 */
async function* dumpChunks(first: string, dump: NativeGraphDump, bytes: number): AsyncGenerator<string> {
  const ahead = () => {
    const p = dump.nextAsync(bytes);
    // a chunk read ahead for a consumer that stops is never awaited: its failure is not unhandled
    p.catch(() => undefined);
    return p;
  };
  let next = ahead();
  yield first;
  for (let c = await next; c !== null; c = await next) {
    next = ahead();
    yield c;
  }
}

/** An export under way: its text chunks, and `close` to let go of its snapshot and store handle. */
export interface TenantExport {
  chunks: AsyncGenerator<string>;
  close(): void;
}

/**
 * A tenant's graph for an export, read from its public RocksDB store (`storeDir` = `<dataDir>/store`)
 * over one snapshot taken now, so writes made while it streams are not in it: every entity graph, with
 * `history` the sealed history segments too (see {@link exportSkipPrefixes}). The handle is the one the
 * store worker writes through (one per folder in the process: native/store/core/src/handles.rs). The
 * quads are decoded on the addon's threads, not the caller's. Undefined when the tenant has no store or
 * its store no named graph. The caller must `close` it, at the end or not.
 */
export async function openTenantExport(
  storeDir: string,
  tenant: string,
  opts: ExportOptions,
): Promise<TenantExport | undefined> {
  const dir = tenantFolders(storeDir, tenant).public;
  // a tenant that never wrote has no folder: none is made here, for a request of any name
  if (!fs.existsSync(dir)) return undefined;
  const store = nativeAddon().NativeStore.open(dir);
  let dump: NativeGraphDump | undefined;
  const close = () => {
    dump?.close();
    store.close();
  };
  try {
    const bytes = opts.chunkBytes ?? 256 * 1024;
    dump = store.dumpNamedGraphs(exportSkipPrefixes(opts.history));
    const first = await dump.nextAsync(bytes);
    if (first === null) {
      const none = dump.skippedQuads === 0;
      close();
      // graphs there, all left out (history segments without `history`): an export without a quad
      return none ? undefined : { chunks: exportText([], opts), close };
    }
    return { chunks: exportText(dumpChunks(first, dump, bytes), opts), close };
  } catch (e) {
    close();
    throw e;
  }
}
