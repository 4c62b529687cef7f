import fs from "node:fs";
import { isInternalGraph } from "../graph-store";
import { nativeAddon, type NativeStore } from "./native-addon";
import { tenantFolders } from "./tenant-folders";

/**
 * Reads of named graphs from the thread that asks, straight through the RocksDB handles the store worker
 * writes through (one per folder in the process; docs/decisions/0019-native-store.md "Reads"). Each read
 * runs on libuv's thread pool over the state at the call, so it never waits behind the worker's commits:
 * every commit acknowledged before the call is seen, since the worker applies a write before it answers.
 * Internal graphs are read from the tenant's internal store, every other from its public store.
 *
 * A tenant whose folder does not exist yet reads as empty and is looked for again on the next read: this
 * reader never makes a folder, so a read of any tenant name leaves nothing behind.
 */
export class GraphReader {
  private readonly stores = new Map<string, NativeStore>();
  private readonly reading = new Set<Promise<unknown>>();
  private closed = false;

  /** `storeDir`: `<dataDir>/store`. */
  constructor(private readonly storeDir: string) {}

  /** The N-Triples of each graph of `tenant`, or null where the graph does not exist. */
  read(tenant: string, graphs: string[]): Promise<(string | null)[]> {
    if (this.closed) return Promise.reject(new Error("The graph reader is closed"));
    const internal = graphs.filter(isInternalGraph);
    const outside = graphs.filter((g) => !isInternalGraph(g));
    const read = Promise.all([
      this.readFrom(tenant, "internal", internal),
      this.readFrom(tenant, "public", outside),
    ]).then(([ins, outs]) => {
      let i = 0;
      let o = 0;
      return graphs.map((g) => (isInternalGraph(g) ? ins[i++] : outs[o++]));
    });
    const tracked = read.finally(() => this.reading.delete(tracked));
    this.reading.add(tracked);
    return tracked;
  }

  /**
   * Takes no more reads and lets go of the handles once the reads under way are done (RocksDB closes when
   * the store worker has let go of them too).
   */
  async close(): Promise<void> {
    this.closed = true;
    while (this.reading.size) await Promise.allSettled([...this.reading]);
    for (const s of this.stores.values()) s.close();
    this.stores.clear();
  }

  private readFrom(
    tenant: string,
    which: "public" | "internal",
    graphs: string[],
  ): Promise<(string | null)[]> | [] {
    if (graphs.length === 0) return [];
    const store = this.storeOf(tenant, which);
    return store ? store.readGraphsAsync(graphs) : Promise.resolve(graphs.map(() => null));
  }

  private storeOf(tenant: string, which: "public" | "internal"): NativeStore | undefined {
    const key = `${which}\u0000${tenant}`;
    let s = this.stores.get(key);
    if (s) return s;
    const dir = tenantFolders(this.storeDir, tenant)[which];
    if (!fs.existsSync(dir)) return undefined;
    s = nativeAddon().NativeStore.open(dir);
    this.stores.set(key, s);
    return s;
  }
}
