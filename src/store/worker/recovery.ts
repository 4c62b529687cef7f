import fs from "node:fs";
import path from "node:path";
import { replayJournal } from "../journal/journal-replay";
import { readAppliedMarker, removeNativeStores } from "../native/applied-marker";
import { NativeDatasets } from "../native/native-datasets";
import { NATIVE_DIR } from "../native/tenant-folders";
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
}

/** Graphs of a snapshot applied per store transaction while the stores are built from it. */
const SNAPSHOT_BATCH_GRAPHS = 2000;

/**
 * Start-up (docs/decisions/0019-native-store.md): the RocksDB stores are durable through the seq of their
 * marker, so only the journal after it is replayed. Without a marker (a new folder, a restored backup, a
 * folder of an earlier engine) the stores are built anew from the latest snapshot, then the journal after
 * the snapshot is replayed. Stray files of an interrupted compaction are removed first.
 */
export function recover(dir: string, log: Log): Recovered {
  fs.mkdirSync(dir, { recursive: true });
  const manifest = readManifest(dir);
  removeStaleSnapshots(dir, manifest);
  const t0 = Date.now();
  let lastSeq = readAppliedMarker(dir);
  let datasets: NativeDatasets;
  if (lastSeq !== undefined && fs.existsSync(path.join(dir, NATIVE_DIR))) {
    datasets = new NativeDatasets(dir);
    log("info", "store opened", { seq: lastSeq, tenants: datasets.tenants().length, ms: Date.now() - t0 });
  } else {
    removeNativeStores(dir);
    datasets = new NativeDatasets(dir);
    lastSeq = 0;
    if (manifest) {
      let graphs = 0;
      for (const t of manifest.tenants) graphs += loadSnapshot(datasets, t.tenant, path.join(dir, t.file), t.file);
      lastSeq = manifest.seq;
      log("info", "store built from its snapshot", { seq: lastSeq, graphs, ms: Date.now() - t0 });
    }
  }
  const t1 = Date.now();
  let replayed = 0;
  let lastReport = t1;
  let seq = lastSeq;
  const scan = replayJournal(dir, lastSeq, (r) => {
    datasets.apply(r.tenant, r.writes, true);
    seq = r.seq;
    replayed++;
    if (Date.now() - lastReport > 5000) {
      lastReport = Date.now();
      log("info", "store journal replay in progress", { records: replayed, seq, ms: lastReport - t1 });
    }
  });
  if (scan.droppedBytes > 0) {
    log("warn", "store journal: cut a torn last record (it was never acknowledged)", {
      bytes: scan.droppedBytes,
      reason: scan.droppedReason,
    });
  }
  if (scan.setAside) {
    log("error", "store journal: damage recovered; acknowledged commits after it were set aside", {
      reason: scan.setAside.reason,
      recoveredToSeq: scan.setAside.afterSeq,
      setAsideBytes: scan.setAside.bytes,
      files: scan.setAside.files,
      repair: "citygraph repair <DATA_DIR> tells what they hold",
    });
  }
  log("info", "store journal replayed", { records: replayed, seq, ms: Date.now() - t1 });
  return { datasets, lastSeq: seq, replayed, tailStart: scan.tailStart, tailBytes: scan.tailBytes };
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
