import type { JournalWriter } from "../journal/journal-writer";
import type { Compactor } from "../snapshot/compactor";
import { recover } from "./recovery";
import type { TenantDatasets } from "./tenant-datasets";

type Log = (level: "info" | "warn" | "error", msg: string, fields?: object) => void;

/** What the reclaimer needs from the store worker. */
export interface ReclaimHost {
  dir: string;
  datasets: TenantDatasets;
  journal: JournalWriter;
  compactor: Compactor;
  /** Seq of the last commit applied to the datasets. */
  lastSeq(): number;
  /**
   * Holds incoming requests until `resume` (the datasets are empty meanwhile); resolves once no commit is
   * still being applied (a large one is applied in steps, see store-worker.ts).
   */
  pause(): Promise<void> | void;
  resume(): void;
  /** The store cannot go on (the reload failed): refuse everything from now on. */
  die(message: string): void;
  log: Log;
}

/**
 * Gives the memory of dropped quads back (docs/decisions/0006-store-reclaim.md). Oxigraph's in-memory
 * store keeps the memory of every removed quad: a service whose live feed replaces the same entity graphs
 * every minute grows without bound until the WASM memory traps. Once the dropped quads pass `minDropped`
 * and the live ones, the worker compacts (a snapshot written off-thread, commits go on), then holds
 * requests, waits for the journal to be durable, frees every Oxigraph store and reloads snapshot +
 * journal tail into fresh ones, whose allocations reuse the freed memory. The pause is the reload time
 * (the record gives it); requests wait, they are not refused.
 */
export class MemoryReclaimer {
  private running = false;
  private count = 0;

  constructor(
    private readonly host: ReclaimHost,
    private readonly minDropped: number,
  ) {}

  /** Reloads so far. */
  get reclaims(): number {
    return this.count;
  }

  /** Called after each commit: starts a reclaim when enough memory is held by dropped quads. */
  check(): void {
    const d = this.host.datasets;
    if (this.running || d.droppedQuads < Math.max(this.minDropped, d.quads)) return;
    this.running = true;
    this.run()
      .catch((e: Error) => this.host.log("error", "store memory reclaim failed", { error: e.message }))
      .finally(() => (this.running = false));
  }

  private async run(): Promise<void> {
    const h = this.host;
    const dropped = h.datasets.droppedQuads;
    await h.compactor.compact();
    const t0 = Date.now();
    await h.pause();
    try {
      await h.journal.flush();
      const seq = h.lastSeq();
      h.datasets.clear();
      const r = recover(h.dir, h.datasets, h.log);
      if (r.lastSeq !== seq) throw new Error(`reloaded up to seq ${r.lastSeq}, expected ${seq}`);
      this.count++;
      h.log("info", "store memory reclaimed", { dropped, quads: h.datasets.quads, pauseMs: Date.now() - t0 });
    } catch (e) {
      h.die(`the store could not reload after freeing memory: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    } finally {
      h.resume();
    }
  }
}
