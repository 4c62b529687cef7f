import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { AppError } from "../../errors";
import type { StoreStats } from "../graph-store";
import { JournalWriter } from "../journal/journal-writer";
import { commitRecordWrites, type GraphWriteBytes, sealJournalRecord } from "../journal/record-codec";
import { Compactor, type HeldCut } from "../snapshot/compactor";
import { checkpointFiles } from "../snapshot/checkpoint-files";
import type {
  AppliedNotice,
  StoreMessage,
  StoreRequest,
  StoreResponse,
  WireError,
  WorkerEvent,
  WorkerOptions,
} from "./protocol";
import { QuietTrigger } from "./quiet-trigger";
import { recover } from "./recovery";
import { startThreadHeapReduce } from "../../runtime/heap-reduce";
import { SlicedQueue } from "./sliced-queue";
import { forgetAppliedMarker, writeAppliedMarker } from "../native/applied-marker";
import type { NativeDatasets } from "../native/native-datasets";
import { DiskGauge } from "../native/disk-gauge";

/*
 * The store worker (docs/design.md "The store lives in a worker thread"): writes the RocksDB stores, owns
 * the journal and the checkpoints (docs/decisions/0019-native-store.md). A commit is applied to the stores
 * (one transaction per store, or refused with nothing applied), then its record is appended to the
 * journal (group commit), and it is acknowledged only after the record is on disk (O_DSYNC write).
 * Requests run in arrival order; graph reads do not come here (the main thread reads RocksDB itself,
 * native/graph-reader.ts).
 */
const port = parentPort;
if (!port) throw new Error("store-worker must run in a worker thread");
const opts = workerData as WorkerOptions;
const dir = path.join(opts.dataDir, "store");
let datasets: NativeDatasets;
/** Answers of this turn, posted together in one message at the end of it (protocol StoreMessage). */
let outbox: (StoreResponse | WorkerEvent | AppliedNotice)[] = [];
const flush = (): void => {
  if (outbox.length === 0) return;
  const out = outbox;
  outbox = [];
  port.postMessage(out.length === 1 ? out[0] : out);
};
const send = (m: StoreResponse | WorkerEvent | AppliedNotice): void => {
  const first = outbox.push(m) === 1;
  // events (logs of a long recovery, fatal) go out at once, after what was queued before them
  if ("event" in m) flush();
  else if (first) queueMicrotask(flush);
};
const log = (level: "info" | "warn" | "error", msg: string, fields?: object): void =>
  send({ event: "log", level, msg, fields });

/**
 * How long the worker runs queued requests before it lets the turn end (answers posted, the journal's group
 * write started): a turn's small commits stay in one journal write, a large one is answered at once.
 */
const SLICE_MS = 10;

let seq = 0;
/** Seq through which the stores are durable without the journal (StoreStats.durableSeq). */
let durableSeq = 0;
let journal: JournalWriter;
/** Runs a due compaction once commits have paused for `compactQuietMs` (see compactWhenDue). */
const quiet = new QuietTrigger(opts.compactQuietMs, () => {
  if (journal.size > opts.journalCompactBytes) compactNow();
});
let compactor: Compactor;
let disk: DiskGauge;
let dead: string | undefined;
let closing = false;

function stats(): StoreStats {
  const d = disk.read();
  return {
    quads: datasets.quads,
    tenants: datasets.tenants().length,
    journalBytes: journal.size,
    lastSeq: seq,
    storeBytes: d.storeBytes,
    diskFreeBytes: d.freeBytes,
    minFreeBytes: opts.minFreeBytes,
    capacityUsed: d.used,
    compactions: compactor.completed,
    durableSeq,
    journalSyncs: journal.syncs.count,
    journalSyncSeconds: journal.syncs.seconds,
  };
}

function wireError(e: unknown): WireError {
  if (e instanceof AppError) return { kind: e.kind, message: e.message, details: e.details };
  return { kind: "InternalError", message: e instanceof Error ? e.message : String(e) };
}

/**
 * Applies one commit to the stores (refused whole with StoreFull when the disk is nearly full, or with
 * BadRequestData for text the store refuses), then journals and answers it.
 */
function commit(id: number, wire: Uint8Array, notifyApplied?: boolean): void {
  if (journal.failure)
    throw new AppError("InternalError", `The journal is not writable: ${journal.failure.message}`);
  const record = Buffer.from(wire.buffer, wire.byteOffset, wire.byteLength);
  let parsed: { tenant: string; writes: GraphWriteBytes[] };
  try {
    parsed = commitRecordWrites(record);
  } catch (e) {
    throw new AppError("InternalError", `Unreadable commit message: ${(e as Error).message}`);
  }
  disk.assertRoom();
  try {
    datasets.apply(parsed.tenant, parsed.writes);
  } catch (e) {
    if (!(e instanceof AppError)) storesBroken(e);
    throw e;
  }
  committed(id, record, notifyApplied);
}

/**
 * A write failed in RocksDB itself and may have left part of it applied: the stores no longer match the
 * journal, so no later commit is taken and the next start rebuilds them from checkpoint and journal.
 */
function storesBroken(e: unknown): void {
  const message = e instanceof Error ? e.message : String(e);
  dead = `The graph store failed a write and takes no more; restart the service to rebuild it: ${message}`;
  forgetAppliedMarker(dir);
  log("error", "store write failed in RocksDB; the next start rebuilds the stores", { error: message });
}

/**
 * The applied commit's notice, journal record (the commit's own bytes, sealed with its seq; answered once
 * durable), and the upkeep it may start.
 */
function committed(id: number, record: Buffer, notifyApplied?: boolean): void {
  const mySeq = ++seq;
  if (notifyApplied) send({ id, applied: true, seq: mySeq });
  journal.append(sealJournalRecord(record, mySeq)).then(
    () => send({ id, ok: true, value: mySeq }),
    (e: Error) => {
      log("error", "store journal write failed; commits are refused from now on", { error: e.message });
      send({ id, ok: false, error: { kind: "InternalError", message: e.message } });
    },
  );
  compactWhenDue();
}

/** Starts a compaction now (unless one runs, or the store is closing or dead). */
function compactNow(): void {
  if (compactor.busy || closing || dead) return;
  compactor.compact().catch((e: Error) => {
    if (!closing) log("error", "store compaction failed", { error: e.message });
  });
}

/**
 * After a commit: once the journal has passed `journalCompactBytes`, a compaction waits for a pause in the
 * commits of `compactQuietMs` (a write burst and a compaction compete for the same cores), unless the
 * journal has passed `journalCompactMaxBytes`, where it starts at once. The journal replays at start-up at
 * about the cost per quad of a snapshot when it holds new graphs, more when it holds many replacements: the
 * cap bounds that (docs/decisions/0005-maintenance-after-a-burst.md).
 */
function compactWhenDue(): void {
  quiet.touch();
  if (journal.size <= opts.journalCompactBytes || compactor.busy) return;
  if (journal.size > opts.journalCompactMaxBytes) {
    quiet.cancel();
    compactNow();
  } else quiet.arm();
}

/** A held cut as the main thread copies it: its seq and files (relative to the store folder). */
function cutFiles(c: HeldCut): { seq: number; files: string[] } {
  return { seq: c.seq, files: [...checkpointFiles(dir, c.checkpoint), ...c.segments] };
}

function reply(id: number, p: Promise<unknown>): void {
  p.then(
    (value) => send({ id, ok: true, value }),
    (e: unknown) => send({ id, ok: false, error: wireError(e) }),
  );
}

function handle(req: StoreRequest): Promise<void> | void {
  switch (req.op) {
    case "commit":
      return commit(req.id, req.record, req.notifyApplied);
    case "select":
      return send({ id: req.id, ok: true, value: datasets.select(req.tenant, req.sparql) });
    case "tenants":
      return send({ id: req.id, ok: true, value: datasets.tenants() });
    case "stats":
      return send({ id: req.id, ok: true, value: stats() });
    case "ping":
      return send({ id: req.id, ok: true });
    case "health": {
      const journalWritable = journal.writable();
      const detail = dead ?? journal.failure?.message;
      return send({ id: req.id, ok: true, value: { ok: !dead && journalWritable, journalWritable, detail } });
    }
    case "compact":
      return reply(req.id, compactor.compact());
    case "hold":
      return reply(req.id, compactor.compactAndHold().then(cutFiles));
    case "extend":
      return reply(req.id, compactor.extendHold().then(cutFiles));
    case "release":
      compactor.release();
      return send({ id: req.id, ok: true });
    case "close":
      closing = true;
      quiet.cancel();
      compactor.release();
      compactor.stop();
      return reply(
        req.id,
        (async () => {
          await compactor.idle();
          await journal.close();
          // every commit is applied and journaled: the next start replays nothing (unless a failed write
          // left the stores to be rebuilt)
          datasets.flush();
          if (!dead) writeAppliedMarker(dir, seq);
          datasets.close();
        })(),
      );
  }
}

function receive(req: StoreRequest): Promise<void> | void {
  if (dead || closing) {
    const message = dead ?? "The store is closing";
    return send({
      id: req.id,
      ok: false,
      error: { kind: dead ? "InternalError" : "ServiceUnavailable", message },
    });
  }
  try {
    return handle(req);
  } catch (e) {
    send({ id: req.id, ok: false, error: wireError(e) });
  }
}

/** Requests in arrival order, run in slices (sliced-queue.ts) so a large commit's answers go out at once. */
const requests = new SlicedQueue<StoreRequest>(receive, SLICE_MS);
port.on("message", (m: StoreMessage<StoreRequest>) => {
  if (Array.isArray(m)) requests.push(...m);
  else requests.push(m);
});

try {
  const t0 = Date.now();
  const r = recover(dir, log);
  datasets = r.datasets;
  seq = r.lastSeq;
  durableSeq = r.replayedGraphs.after;
  disk = new DiskGauge(opts.dataDir, () => datasets.folders(), opts.minFreeBytes);
  journal = JournalWriter.open(dir, r.tailStart ?? seq + 1, r.tailStart === undefined ? 0 : r.tailBytes);
  compactor = new Compactor({
    dir,
    journal,
    lastSeq: () => seq,
    flush: () => datasets.flushInBackground(),
    checkpoint: (to) => datasets.checkpoint(to),
    // records through `cut` are durable in the journal and the checkpoint flushed the stores: say so, so
    // the next start replays only what follows
    durableThrough: (cut) => {
      if (dead || closing) return;
      writeAppliedMarker(dir, cut);
      durableSeq = cut;
    },
    log,
  });
  send({
    event: "ready",
    stats: stats(),
    replayed: r.replayed,
    ms: Date.now() - t0,
    replayedGraphs: r.replayedGraphs,
  });
  datasets.countInBackground((quads) => log("info", "store quads counted", { quads, ms: Date.now() - t0 }));
  startThreadHeapReduce(opts.heapReduceIntervalMs); // the replay's garbage
} catch (e) {
  send({ event: "fatal", message: e instanceof Error ? e.message : String(e) });
}
