import fs from "node:fs";
import type { JournalWriter } from "../journal/journal-writer";
import { fsyncDir, listSegments } from "../journal/journal-files";
import type { TenantDatasets } from "../worker/tenant-datasets";
import { removeStaleSnapshots, writeManifest } from "./snapshot-files";
import { writeSnapshotFiles } from "./snapshot-writer";

/** What the compactor needs from the worker. */
export interface CompactorHost {
  dir: string;
  datasets: TenantDatasets;
  journal: JournalWriter;
  /** Seq of the last commit applied to the datasets. */
  lastSeq(): number;
  log(level: "info" | "warn" | "error", msg: string, fields?: object): void;
}

/**
 * Compaction (DESIGN.md "Durability is ours to build"), in an order that loses nothing if killed at any
 * point: (1) rotate the journal, so records up to `seq` are durable in old segments and later ones go
 * to a new segment; (2) write every tenant's snapshot file (temp + fsync + rename); (3) write the
 * manifest naming them, atomically; only then (4) delete old segments and old snapshot files. Before
 * (3) completes, start-up uses the previous manifest + all segments; after it, the new snapshot + the
 * new segment (old segments still present are skipped by seq).
 */
export class Compactor {
  private running: Promise<void> | undefined;

  constructor(private readonly host: CompactorHost) {}

  /** True while a compaction runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves when no compaction is running (failures ignored). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /** Runs a compaction; if one is running, runs another after it (so the caller's commits are in). */
  compact(): Promise<void> {
    const next = (this.running ?? Promise.resolve()).catch(() => undefined).then(() => this.run());
    const mine = next.finally(() => {
      if (this.running === mine) this.running = undefined;
    });
    this.running = mine;
    return mine;
  }

  private async run(): Promise<void> {
    const { dir, datasets, journal } = this.host;
    const t0 = Date.now();
    const seq = this.host.lastSeq();
    await journal.rotate(seq + 1);
    const manifest = await writeSnapshotFiles(dir, seq, datasets);
    writeManifest(dir, manifest);
    for (const s of listSegments(dir)) if (s.startSeq <= seq) fs.rmSync(s.file, { force: true });
    removeStaleSnapshots(dir, manifest);
    fsyncDir(dir);
    const quads = manifest.tenants.reduce((n, t) => n + t.quads, 0);
    const bytes = manifest.tenants.reduce((n, t) => n + t.bytes, 0);
    this.host.log("info", "store compacted", { seq, quads, bytes, ms: Date.now() - t0 });
  }
}
