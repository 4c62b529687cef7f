import fs from "node:fs";
import path from "node:path";
import { ResourceLimits, Worker } from "node:worker_threads";
import type { JournalWriter } from "../journal/journal-writer";
import { fsyncDir, listSegments } from "../journal/journal-files";
import { removeStaleSnapshots, SnapshotManifest, writeManifest } from "./snapshot-files";

/**
 * Heap limits of a compaction worker: a young generation smaller than V8's default lowers the worker's
 * peak RSS at the same CPU (docs/decisions/0002-memory-at-scale.md). The old generation is not capped:
 * the map of last writes grows with the graphs.
 */
export const COMPACTION_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 8 };

/** What the compactor needs from the worker. */
export interface CompactorHost {
  dir: string;
  journal: JournalWriter;
  /** Seq of the last commit applied to the datasets. */
  lastSeq(): number;
  /**
   * Called once the journal is durable through `seq` (after its rotation); runs while the snapshot is
   * written, and the compaction ends once both are done.
   */
  durableThrough?(seq: number): void | Promise<void>;
  log(level: "info" | "warn" | "error", msg: string, fields?: object): void;
}

/**
 * Compaction (docs/design.md "Durability is ours to build"), in an order that loses nothing if killed at any
 * point: (1) rotate the journal, so records up to `seq` are durable in old segments and later ones go
 * to a new segment; (2) write every tenant's snapshot file (temp + fsync + rename) in a worker thread
 * of its own, from the previous snapshot and those segments, without the Oxigraph store (dumping the store
 * graph by graph held up commits for tens of seconds: docs/decisions/0002-memory-at-scale.md); (3) write the
 * manifest naming them, atomically; only then (4) delete old segments and old snapshot files. Before
 * (3) completes, start-up uses the previous manifest + all segments; after it, the new snapshot + the
 * new segment (old segments still present are skipped by seq).
 */
export class Compactor {
  private running: Promise<void> | undefined;
  /** Resolves when the snapshot kept by {@link compactAndHold} is released; later compactions wait for it. */
  private gate: Promise<void> = Promise.resolve();
  private openGate: (() => void) | undefined;
  /** The merge worker of the running compaction. */
  private worker: Worker | undefined;
  private stopped = false;
  /** Compactions finished since the store opened (a metric). */
  completed = 0;

  constructor(private readonly host: CompactorHost) {}

  /** True while a compaction runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves when no compaction is running (failures ignored). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /**
   * Stops the running compaction, if any, and refuses later ones (at close: its merge can take minutes at a
   * million entities). What it wrote so far is left for the next start to remove; the journal it rotated
   * keeps every record.
   */
  stop(): void {
    this.stopped = true;
    void this.worker?.terminate();
  }

  /** Runs a compaction; if one is running, runs another after it (so the caller's commits are in). */
  async compact(): Promise<void> {
    await this.queue(() => this.run());
  }

  /**
   * Runs a compaction and keeps its snapshot: no later compaction starts (and so none deletes its files)
   * until {@link release}. Resolves with the manifest of that snapshot (a consistent cut at its seq).
   */
  compactAndHold(): Promise<SnapshotManifest> {
    return this.queue(async () => {
      const manifest = await this.run();
      this.gate = new Promise((resolve) => (this.openGate = resolve));
      return manifest;
    });
  }

  /** Lets compactions run again after {@link compactAndHold}. */
  release(): void {
    this.openGate?.();
    this.openGate = undefined;
  }

  /** Runs `task` after the compaction running (if any) and after a held snapshot is released. */
  private queue<T>(task: () => Promise<T>): Promise<T> {
    const next = (this.running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.gate)
      .then(task);
    const mine: Promise<void> = next.then(
      () => undefined,
      () => undefined,
    );
    this.running = mine;
    void mine.then(() => {
      if (this.running === mine) this.running = undefined;
    });
    return next;
  }

  private async run(): Promise<SnapshotManifest> {
    const { dir, journal } = this.host;
    if (this.stopped) throw new Error("the store is closing");
    const t0 = Date.now();
    const seq = this.host.lastSeq();
    await journal.rotate(seq + 1);
    const durable = Promise.resolve(this.host.durableThrough?.(seq));
    const manifest = await mergeInWorker(dir, seq, COMPACTION_LIMITS, (w) => (this.worker = w)).finally(
      () => (this.worker = undefined),
    );
    await durable;
    if (this.stopped) throw new Error("the store is closing");
    writeManifest(dir, manifest);
    for (const s of listSegments(dir)) if (s.startSeq <= seq) fs.rmSync(s.file, { force: true });
    removeStaleSnapshots(dir, manifest);
    fsyncDir(dir);
    this.completed++;
    const quads = manifest.tenants.reduce((n, t) => n + t.quads, 0);
    const bytes = manifest.tenants.reduce((n, t) => n + t.bytes, 0);
    this.host.log("info", "store compacted", { seq, quads, bytes, ms: Date.now() - t0 });
    return manifest;
  }
}

/**
 * Runs snapshot-merge.ts in a fresh worker thread (docs/design.md "The store lives in a worker thread");
 * resolves with the manifest to write. `resourceLimits` is for measuring (bench/compaction-memory.ts); `started` gets the worker (to stop it).
 */
export function mergeInWorker(
  dir: string,
  seq: number,
  resourceLimits: ResourceLimits = COMPACTION_LIMITS,
  started?: (w: Worker) => void,
): Promise<SnapshotManifest> {
  return new Promise((resolve, reject) => {
    const w = new Worker(path.join(__dirname, "compaction-worker.js"), {
      workerData: { dir, seq },
      resourceLimits,
    });
    started?.(w);
    let done = false;
    w.once("message", (m: { manifest?: SnapshotManifest; error?: string }) => {
      done = true;
      if (m.manifest) resolve(m.manifest);
      else reject(new Error(`snapshot merge failed: ${m.error ?? "no answer"}`));
      void w.terminate();
    });
    w.once("error", (e) => {
      done = true;
      reject(e);
    });
    w.once("exit", (code) => {
      if (!done) reject(new Error(`compaction worker exited with code ${code}`));
    });
  });
}
