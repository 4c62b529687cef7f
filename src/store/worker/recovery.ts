import fs from "node:fs";
import path from "node:path";
import { replayJournal, type JournalScan } from "../journal/journal-replay";
import { describeRecovery } from "../journal/recovery-log";
import { isEntityGraph, type ReplayedGraphs } from "../graph-store";
import { readAppliedMarker, removeNativeStores } from "../native/applied-marker";
import { NativeDatasets } from "../native/native-datasets";
import { NATIVE_DIR } from "../native/tenant-folders";
import { latestCheckpoint, removeStaleCheckpoints, restoreCheckpoint } from "../snapshot/checkpoint-files";
import { graphRuns } from "../snapshot/graph-runs";
import { readChunks, readManifest, removeStaleSnapshots } from "../snapshot/snapshot-files";

type Log = (level: "info" | "warn" | "error", msg: string, fields?: object) => void;

/** What start-up recovered. */
export interface Recovered {
  datasets: NativeDatasets;
  lastSeq: number;
  replayed: number;
  /** Segment to continue appending to (undefined: start a new one at lastSeq + 1). */
  tailStart: number | undefined;
  /** Bytes of records in that segment (JournalScan.tailBytes). */
  tailBytes: number;
  /**
   * The seq the replay began after (the stores were durable through it) and the entity graphs it wrote
   * (not listed past {@link MAX_REPLAYED_GRAPHS}).
   */
  replayedGraphs: ReplayedGraphs;
}

/**
 * Most entity graphs a start lists as replayed: past that, the derived indexes read every graph anyway
 * (docs/decisions/0019-native-store.md "At start").
 */
export const MAX_REPLAYED_GRAPHS = 250_000;

/** Graphs of a snapshot applied per store transaction while the stores are built from it. */
const SNAPSHOT_BATCH_GRAPHS = 2000;

/**
 * Start-up (docs/decisions/0019-native-store.md): the RocksDB stores are durable through the seq of their
 * marker, so only the journal after it is replayed. Without a marker (a new folder, a restored backup, a
 * write that failed part-way) the stores are built anew from the latest checkpoint, or else from an N-Quads
 * snapshot (an import, a folder or backup of an earlier version), then the journal after it is replayed.
 * Stray files of an interrupted compaction are removed first.
 */
export function recover(dir: string, log: Log): Recovered {
  fs.mkdirSync(dir, { recursive: true });
  const checkpoint = latestCheckpoint(dir);
  removeStaleCheckpoints(dir, checkpoint?.name);
  const manifest = checkpoint ? undefined : readManifest(dir);
  removeStaleSnapshots(dir, manifest);
  const base = checkpoint?.seq ?? manifest?.seq ?? 0;
  const marker = readAppliedMarker(dir);
  if (marker !== undefined && fs.existsSync(path.join(dir, NATIVE_DIR))) {
    const t0 = Date.now();
    const datasets = new NativeDatasets(dir);
    log("info", "store opened", { seq: marker, tenants: datasets.tenants().length, ms: Date.now() - t0 });
    const r = replay(dir, datasets, marker, log);
    if (!journalBehind(r.scan, marker, base)) return r.recovered;
    // the journal lost records the stores had applied (damage): the journal is the record of truth
    log(
      "warn",
      "store journal ends before what the stores applied; rebuilding them from checkpoint and journal",
      { storesThrough: marker, journalThrough: Math.max(r.scan.lastRecordSeq, base) },
    );
    datasets.close();
  }
  removeNativeStores(dir);
  const t0 = Date.now();
  if (checkpoint) restoreCheckpoint(dir, checkpoint);
  const datasets = new NativeDatasets(dir);
  let from = 0;
  if (checkpoint) {
    from = checkpoint.seq;
    log("info", "store built from its checkpoint", { seq: from, ms: Date.now() - t0 });
  } else if (manifest) {
    let graphs = 0;
    for (const t of manifest.tenants)
      graphs += loadSnapshot(datasets, t.tenant, path.join(dir, t.file), t.file);
    from = manifest.seq;
    log("info", "store built from its snapshot", { seq: from, graphs, ms: Date.now() - t0 });
  }
  return replay(dir, datasets, from, log).recovered;
}

/**
 * True when damage cut the journal below the stores' marker: the stores hold commits the journal and the
 * checkpoint (or snapshot) at `baseSeq` no longer have.
 */
function journalBehind(scan: JournalScan, marker: number, baseSeq: number): boolean {
  if (scan.droppedBytes === 0 && !scan.setAside) return false;
  return Math.max(scan.lastRecordSeq, baseSeq) < marker;
}

/** Replays the journal after `from` into the stores, logging what it found. */
function replay(
  dir: string,
  datasets: NativeDatasets,
  from: number,
  log: Log,
): { recovered: Recovered; scan: JournalScan } {
  const t1 = Date.now();
  let replayed = 0;
  let lastReport = t1;
  let seq = from;
  let graphs: Map<string, [string, string, number]> | undefined = new Map();
  const scan = replayJournal(dir, from, (r) => {
    datasets.apply(r.tenant, r.writes, true);
    seq = r.seq;
    replayed++;
    for (const w of r.writes) {
      if (!graphs || !isEntityGraph(w.graph)) continue;
      graphs.set(`${r.tenant}\u0000${w.graph}`, [r.tenant, w.graph, r.seq]);
      if (graphs.size > MAX_REPLAYED_GRAPHS) graphs = undefined;
    }
    if (Date.now() - lastReport > 5000) {
      lastReport = Date.now();
      log("info", "store journal replay in progress", { records: replayed, seq, ms: lastReport - t1 });
    }
  });
  for (const e of describeRecovery(scan)) log(e.level, e.msg, e.fields);
  log("info", "store journal replayed", { records: replayed, seq, ms: Date.now() - t1 });
  return {
    recovered: {
      datasets,
      lastSeq: seq,
      replayed,
      tailStart: scan.tailStart,
      tailBytes: scan.tailBytes,
      replayedGraphs: { after: from, graphs: graphs && [...graphs.values()] },
    },
    scan,
  };
}

/**
 * Applies one tenant's snapshot (N-Quads, each graph's lines together) to the stores, a batch of graphs per
 * transaction. Returns the number of graphs.
 */
function loadSnapshot(datasets: NativeDatasets, tenant: string, file: string, source: string): number {
  let batch: { graph: string; triples: string }[] = [];
  let graph = "";
  let text = "";
  let count = 0;
  const close = (): void => {
    if (graph) batch.push({ graph, triples: text });
    if (batch.length >= SNAPSHOT_BATCH_GRAPHS) flush();
  };
  const flush = (): void => {
    if (batch.length) datasets.apply(tenant, batch, true);
    batch = [];
  };
  for (const run of graphRuns(readChunks(file), source)) {
    if (run.graph !== graph) {
      close();
      graph = run.graph;
      text = "";
      count++;
    }
    const suffix = ` <${run.graph}> .`;
    for (const line of run.buf.toString("utf8", run.start, run.end).split("\n")) {
      if (line.endsWith(suffix)) text += line.slice(0, -suffix.length) + " .\n";
    }
  }
  close();
  flush();
  return count;
}
