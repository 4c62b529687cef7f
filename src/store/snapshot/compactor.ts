import fs from "node:fs";
import type { JournalWriter } from "../journal/journal-writer";
import { fsyncDir, listSegments, segmentName } from "../journal/journal-files";
import {
  type Checkpoint,
  finishCheckpoint,
  latestCheckpoint,
  removeStaleCheckpoints,
  startCheckpoint,
} from "./checkpoint-files";
import { removeStaleSnapshots } from "./snapshot-files";

/** A cut held for a backup ({@link Compactor.compactAndHold}). */
export interface HeldCut {
  /** Every commit through `seq` is in the checkpoint or in `segments`, none after it. */
  seq: number;
  checkpoint: Checkpoint;
  /** Names of the closed journal segments (in the store folder) to replay after the checkpoint. */
  segments: string[];
}

/** What the compactor needs from the worker. */
export interface CompactorHost {
  dir: string;
  journal: JournalWriter;
  /** Seq of the last commit applied to the datasets. */
  lastSeq(): number;
  /** Flushes the stores' memtables on threads of their own, so that the checkpoint has little left to flush. */
  flush(): Promise<void>;
  /**
   * Writes a RocksDB checkpoint of every store under the new folder `dir`, off the store worker's thread:
   * it holds every commit applied before the call, and perhaps some applied while it runs.
   */
  checkpoint(dir: string): Promise<void>;
  /**
   * Called once the journal is durable through `seq` and the checkpoint at `seq` is in place: every store
   * is durable through `seq` (the checkpoint flushed them).
   */
  durableThrough?(seq: number): void;
  log(level: "info" | "warn" | "error", msg: string, fields?: object): void;
}

/**
 * Compaction (docs/decisions/0019-native-store.md "Durability"), in an order that loses nothing if killed at
 * any point: (1) flush the stores in the background; (2) at the seq of the last applied commit, rotate the
 * journal (so records up to `seq` are durable in old segments, later ones in the new segment) and take a
 * checkpoint of every store into `checkpoint-<seq>.tmp`; (3) rename the checkpoint's folder; (4) mark the
 * stores durable through `seq`; only then (5) delete the old segments, the older checkpoint and any N-Quads
 * snapshot. Before (3), a rebuild uses the previous checkpoint and all segments; after it, the new checkpoint
 * and the new segment (old segments still present are skipped by seq). Commits go on while the checkpoint is
 * taken, so it may hold some after `seq`: the replay after `seq` writes their graphs again, to the same
 * content, as every record replaces whole graphs.
 */
export class Compactor {
  private running: Promise<void> | undefined;
  /** Resolves when the snapshot kept by {@link compactAndHold} is released; later compactions wait for it. */
  private gate: Promise<void> = Promise.resolve();
  private openGate: (() => void) | undefined;
  /** The cut kept by {@link compactAndHold} until {@link release}. */
  private held: HeldCut | undefined;
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
   * Refuses later compactions and ends the running one before its checkpoint, if it has not got there (at
   * close, which flushes and marks the stores itself). What it wrote so far is left for the next start to
   * remove; the journal it rotated keeps every record.
   */
  stop(): void {
    this.stopped = true;
  }

  /** Runs a compaction; if one is running, runs another after it (so the caller's commits are in). */
  async compact(): Promise<void> {
    await this.queue(() => this.run());
  }

  /**
   * Runs a compaction and keeps its files: no later compaction starts (and so none deletes them) until
   * {@link release}. Resolves with a consistent cut at `seq`: the checkpoint, and when commits came while
   * it was taken (it may hold some of them, whole or in part), the journal segment of those commits,
   * closed by a rotation at `seq`, which a rebuild from the checkpoint replays.
   */
  compactAndHold(): Promise<HeldCut> {
    return this.queue(async () => {
      const checkpoint = await this.run();
      this.gate = new Promise((resolve) => (this.openGate = resolve));
      this.held = { seq: checkpoint.seq, checkpoint, segments: [] };
      return this.extendHold();
    });
  }

  /**
   * Extends the held cut to the last applied commit: the journal segment in use (it began right after the
   * cut: the compaction or the last extension rotated it there) is closed by a rotation and added.
   */
  async extendHold(): Promise<HeldCut> {
    const held = this.held;
    if (!held) throw new Error("no cut is held");
    const seq = this.host.lastSeq();
    if (seq === held.seq) return held;
    const rotated = this.host.journal.rotate(seq + 1);
    this.held = { seq, checkpoint: held.checkpoint, segments: [...held.segments, segmentName(held.seq + 1)] };
    await rotated;
    return this.held;
  }

  /** Lets compactions run again after {@link compactAndHold}. */
  release(): void {
    this.held = undefined;
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

  private async run(): Promise<Checkpoint> {
    const { dir, journal } = this.host;
    if (this.stopped) throw new Error("the store is closing");
    const t0 = Date.now();
    await this.host.flush();
    if (this.stopped) throw new Error("the store is closing");
    // the seq and the rotation in one step of the store worker, before its next commit
    const seq = this.host.lastSeq();
    const latest = latestCheckpoint(dir);
    if (latest?.seq === seq) return latest; // no commit since the last checkpoint: it is the cut
    const rotated = journal.rotate(seq + 1);
    const t1 = Date.now();
    await startCheckpoint(dir, seq, (tmp) => this.host.checkpoint(tmp));
    const tookMs = Date.now() - t1;
    await rotated;
    const checkpoint = finishCheckpoint(dir, seq);
    this.host.durableThrough?.(seq);
    for (const s of listSegments(dir)) if (s.startSeq <= seq) fs.rmSync(s.file, { force: true });
    removeStaleCheckpoints(dir, checkpoint.name);
    removeStaleSnapshots(dir, undefined);
    fsyncDir(dir);
    this.completed++;
    this.host.log("info", "store compacted", { seq, checkpointMs: tookMs, ms: Date.now() - t0 });
    return checkpoint;
  }
}
