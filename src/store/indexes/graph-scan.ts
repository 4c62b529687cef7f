import type { GraphStore } from "../graph-store";

/**
 * A derived index that can be filled from one pass over the stored entity graphs (docs/design.md "Indexes
 * beside the store, derived from it"). The same index also follows the change feed (its own `apply`);
 * {@link scanGraphs} never hands it a graph that a commit touched after the scan began, so what the
 * feed applied always wins over what the scan read.
 */
export interface GraphScanConsumer {
  /** Called once before the first graph: forget what a previous fill left. */
  beginScan(): void;
  /** One entity graph of `tenant` as N-Triples text. */
  scanGraph(tenant: string, id: string, triples: string): void;
  /** Called once after the last graph (bulk loads and the like). */
  endScan(): void;
}

/** Options of {@link scanGraphs}. */
export interface ScanOptions {
  /**
   * Graphs per store round trip (default 250; the store reads the next chunk while this one is decoded).
   * Small enough that a request queued behind a chunk, in the worker or on this thread, waits little.
   */
  chunk?: number;
  /** Progress and the final duration; called every `chunk * 80` graphs and at the end. */
  progress?: (fields: { tenant: string; graphs: number; total: number; ms: number }) => void;
}

/**
 * Reads every graph of `idsOf(tenant)` of every tenant once, in chunks, and hands each to every consumer
 * (start-up: the attribute and geo indexes are filled by this one pass instead of one rebuild each).
 * Commits that arrive meanwhile are seen through `store.onCommit`: their graphs are skipped for the rest
 * of the scan (the consumers' own change-feed listeners have the newer state). Resolves with the number
 * of graphs handed out.
 */
export async function scanGraphs(
  store: GraphStore,
  idsOf: (tenant: string) => Iterable<string>,
  consumers: GraphScanConsumer[],
  opts: ScanOptions = {},
): Promise<number> {
  const started = performance.now();
  const chunk = opts.chunk ?? 250;
  const touched = new Set<string>();
  const unsubscribe = store.onCommit((e) => {
    for (const w of e.writes) touched.add(e.tenant + "\u0000" + w.graph);
  });
  let handed = 0;
  try {
    for (const c of consumers) c.beginScan();
    for (const tenant of await store.tenants()) {
      const ids = [...idsOf(tenant)];
      const fetch = (i: number) => store.readGraphs(tenant, ids.slice(i, i + chunk));
      let next = ids.length ? fetch(0) : undefined;
      for (let i = 0; next; i += chunk) {
        const graphs = await next;
        next = i + chunk < ids.length ? fetch(i + chunk) : undefined;
        graphs.forEach((g, k) => {
          const id = ids[i + k];
          if (g === null || touched.has(tenant + "\u0000" + id)) return;
          handed++;
          for (const c of consumers) c.scanGraph(tenant, id, g);
        });
        // let HTTP requests and commits in between chunks (a prefetched chunk would resolve at once)
        await new Promise<void>((r) => setImmediate(r));
        const done = Math.min(i + chunk, ids.length);
        if (done % (chunk * 80) === 0 || done === ids.length)
          opts.progress?.({
            tenant,
            graphs: done,
            total: ids.length,
            ms: Math.round(performance.now() - started),
          });
      }
    }
    for (const c of consumers) c.endScan();
    return handed;
  } finally {
    unsubscribe();
  }
}
