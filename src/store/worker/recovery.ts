import fs from "node:fs";
import path from "node:path";
import oxigraph from "oxigraph";
import { replayJournal } from "../journal/journal-replay";
import { listSegments, type Segment } from "../journal/journal-files";
import { describeRecovery } from "../journal/recovery-log";
import { pinStoreFiles } from "../snapshot/pinned-files";
import { readChunks, readManifest, removeStaleSnapshots } from "../snapshot/snapshot-files";
import type { TenantDatasets } from "./tenant-datasets";

type Log = (level: "info" | "warn" | "error", msg: string, fields?: object) => void;

/** What recovery loads into: the tenant datasets, or a filter in front of them (the SPARQL replica). */
export type RecoveryTarget = Pick<TenantDatasets, "apply" | "loadSnapshot" | "quads">;

/** What start-up recovered. */
export interface Recovered {
  lastSeq: number;
  replayed: number;
  /** Segment to continue appending to (undefined: start a new one at lastSeq + 1). */
  tailStart: number | undefined;
  /** Bytes of records in that segment (JournalScan.tailBytes). */
  tailBytes: number;
}

/**
 * Grows the WASM memory once, up front, by handing Oxigraph a zero-filled buffer that it copies into its
 * heap and refuses at the first byte; the freed block is reused by later allocations. Each growth of
 * the WASM memory triggers full GCs, so one growth at start makes loads faster for that much RSS and a
 * moment of start-up (docs/decisions/0017-oxigraph-in-the-store-worker.md).
 */
export function preGrowWasmMemory(bytes: number): void {
  if (bytes <= 0) return;
  const s = new oxigraph.Store();
  try {
    s.load(new Uint8Array(bytes), { format: "application/n-triples" });
  } catch {
    // expected: the zero bytes are not N-Triples
  } finally {
    (s as unknown as { free?: () => void }).free?.(); // in the JS, not in node.d.ts
  }
}

/**
 * Start-up = latest snapshot + journal replay (docs/design.md "Durability is ours to build"). Stray temp
 * and unreferenced snapshot files of an interrupted compaction are removed first. `readOnly` reads
 * beside a live store worker (the SPARQL replica): it removes and truncates nothing, and reads a snapshot
 * and segments it holds open (pinStoreFiles), so a compaction or a rotation meanwhile does not cut its read.
 */
export function recover(dir: string, datasets: RecoveryTarget, log: Log, readOnly = false): Recovered {
  fs.mkdirSync(dir, { recursive: true });
  if (!readOnly) {
    const manifest = readManifest(dir);
    removeStaleSnapshots(dir, manifest);
    const snapshots = (manifest?.tenants ?? []).map((t) => ({ ...t, source: path.join(dir, t.file) }));
    return load(dir, manifest?.seq, snapshots, listSegments(dir), datasets, log, false);
  }
  const pinned = pinStoreFiles(dir);
  try {
    const snapshots = pinned.snapshots.map((t) => ({ ...t, source: t.fd }));
    return load(dir, pinned.manifest?.seq, snapshots, pinned.segments, datasets, log, true);
  } finally {
    pinned.close();
  }
}

function load(
  dir: string,
  snapshotSeq: number | undefined,
  /** Each tenant's snapshot: its file name and a path or descriptor to read it from. */
  snapshots: { tenant: string; file: string; source: string | number }[],
  segments: Segment[],
  datasets: RecoveryTarget,
  log: Log,
  readOnly: boolean,
): Recovered {
  const t0 = Date.now();
  let lastSeq = 0;
  if (snapshotSeq !== undefined) {
    for (const t of snapshots) datasets.loadSnapshot(t.tenant, readChunks(t.source), t.file);
    lastSeq = snapshotSeq;
    log("info", "store snapshot loaded", { seq: lastSeq, quads: datasets.quads, ms: Date.now() - t0 });
  }
  const t1 = Date.now();
  let replayed = 0;
  let lastReport = t1;
  const scan = replayJournal(
    dir,
    lastSeq,
    (r) => {
      datasets.apply(r.tenant, r.writes, true);
      lastSeq = r.seq;
      replayed++;
      if (Date.now() - lastReport > 5000) {
        lastReport = Date.now();
        log("info", "store journal replay in progress", {
          records: replayed,
          quads: datasets.quads,
          ms: lastReport - t1,
        });
      }
    },
    readOnly,
    segments,
  );
  if (!readOnly) for (const e of describeRecovery(scan)) log(e.level, e.msg, e.fields);
  log("info", "store journal replayed", { records: replayed, quads: datasets.quads, ms: Date.now() - t1 });
  return { lastSeq, replayed, tailStart: scan.tailStart, tailBytes: scan.tailBytes };
}
