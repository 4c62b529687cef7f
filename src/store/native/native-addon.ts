import path from "node:path";

/**
 * The Node-API addon over Oxigraph's RocksDB store (native/store, built by `npm ci`;
 * docs/decisions/0019-native-store.md). Errors it throws carry their kind as the message's first word:
 * `Refused:` (the caller's input), `Cancelled:` (a stopped query), `Failed:` (the store).
 */

/** One operation of an atomic write; `graph` "" is the default graph. */
export interface NativeWriteOp {
  op: "clear" | "clearSubject" | "insert" | "delete" | "insertQuads";
  graph: string;
  /** The subject (`<iri>`) of a clearSubject. */
  subject?: string;
  /** N-Triples of an insert or delete; N-Quads of an insertQuads. */
  triples?: Buffer;
}

/** A serialized SPARQL answer. */
export interface NativeAnswer {
  body: string;
  rows: number;
  truncated: boolean;
}

/** Stops a running query. */
export interface NativeQueryCancel {
  cancel(): void;
}

/**
 * The N-Quads of a store's named graphs over one snapshot, taken by the first `next` or `nextAsync` (see
 * NativeStore.dumpNamedGraphs); on RocksDB each graph's lines come together.
 */
export interface NativeGraphDump {
  /** The next whole lines, about `maxBytes` of them, or null at the end (where the snapshot is let go). */
  next(maxBytes: number): string | null;
  /** `next` on a thread of its own at low priority; calls run one after the other. */
  nextAsync(maxBytes: number): Promise<string | null>;
  /** The quads of named graphs left out so far (under a skipped prefix). */
  readonly skippedQuads: number;
  /** Lets go of the snapshot before the end, at once: a `nextAsync` under way resolves null. */
  close(): void;
}

/** One open store (a RocksDB folder shared by the threads of the process, or empty in memory). */
export interface NativeStore {
  apply(ops: NativeWriteOp[], lenient?: boolean): number;
  bulkLoadNquads(data: Buffer): void;
  readGraphs(graphs: string[]): (string | null)[];
  /** `readGraphs` on libuv's thread pool, over the state at the call. */
  readGraphsAsync(graphs: string[]): Promise<(string | null)[]>;
  quadsForPattern(
    subject: string | null,
    predicate: string | null,
    object: string | null,
    graph: string | null,
    limit?: number,
  ): string;
  /** Every named graph but those whose IRI starts with one of `skipPrefixes`, read chunk by chunk. */
  dumpNamedGraphs(skipPrefixes: string[]): NativeGraphDump;
  countQuads(): number;
  countQuadsAsync(): Promise<number>;
  querySync(sparql: string, format: string, maxRows: number): NativeAnswer;
  query(sparql: string, format: string, maxRows: number, cancel: NativeQueryCancel): Promise<NativeAnswer>;
  flush(): void;
  /** `flush` on a thread of its own. */
  flushAsync(): Promise<void>;
  /**
   * A RocksDB checkpoint in the new folder `dir`, on a thread of its own: it holds every write applied before
   * the call, and perhaps some applied while it runs.
   */
  checkpoint(dir: string): Promise<void>;
  optimize(): void;
  readonly path: string | undefined;
  close(): void;
}

/** The addon's exports. */
export interface NativeAddon {
  NativeStore: { open(path: string): NativeStore; inMemory(): NativeStore };
  QueryCancel: new () => NativeQueryCancel;
  trimAsync(): Promise<number>;
  freeBytesAsync(): Promise<number>;
  reduceHeap(): boolean;
  /** An import (N-Quads or TriG) parsed strictly and grouped by named graph, without the default graph
   * and the graphs under `skipPrefix`. */
  groupByGraph(
    data: Buffer,
    format: "nquads" | "trig",
    skipPrefix: string,
  ): { nquads: string; quads: number; graphs: number; skipped: number };
}

/** Where `npm ci` puts the built addon (native/store/build.js). */
export const ADDON_FILE = path.join(
  __dirname,
  "..",
  "..",
  "..",
  "..",
  "native",
  "store",
  "citygraph-store.node",
);

let loaded: NativeAddon | undefined;

/** The addon, loaded once per thread; throws with the way to build it when it is missing. */
export function nativeAddon(): NativeAddon {
  if (loaded) return loaded;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require(ADDON_FILE) as NativeAddon;
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    throw new Error(
      `the native store addon is not built (${why}); run \`npm ci\` or \`node native/store/build.js\``,
    );
  }
  return loaded;
}

/** The kind of a native error: what its message starts with. */
export function nativeErrorKind(e: unknown): "Refused" | "Cancelled" | "Failed" {
  const m = e instanceof Error ? e.message : String(e);
  if (m.startsWith("Refused:")) return "Refused";
  if (m.startsWith("Cancelled:")) return "Cancelled";
  return "Failed";
}

/** A native error's message without its kind. */
export function nativeMessage(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/^(Refused|Cancelled|Failed): /, "");
}
