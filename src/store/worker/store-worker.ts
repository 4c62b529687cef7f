import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { AppError } from "../../errors";
import type { GraphWrite, StoreStats } from "../graph-store";
import { JournalWriter } from "../journal/journal-writer";
import { encodeJournalRecord } from "../journal/record-codec";
import { Compactor } from "../snapshot/compactor";
import type {
  AppliedNotice,
  StoreMessage,
  StoreRequest,
  StoreResponse,
  WireError,
  WorkerEvent,
  WorkerOptions,
} from "./protocol";
import { MemoryReclaimer } from "./memory-reclaim";
import { preGrowWasmMemory, recover } from "./recovery";
import { isWasmTrap, TenantDatasets } from "./tenant-datasets";

/*
 * The store worker (DESIGN.md "The store lives in a worker thread"): owns the Oxigraph datasets, the
 * journal and the snapshots. A commit is applied to Oxigraph at once (atomically, or refused with
 * nothing applied), then its record is appended to the journal (group commit), and it is acknowledged
 * only after the fdatasync. Reads run between messages and see applied commits.
 */
const port = parentPort;
if (!port) throw new Error("store-worker must run in a worker thread");
const opts = workerData as WorkerOptions;
const dir = path.join(opts.dataDir, "store");
const datasets = new TenantDatasets(opts.maxQuads);
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

let seq = 0;
let journal: JournalWriter;
let compactor: Compactor;
let reclaimer: MemoryReclaimer;
let dead: string | undefined;
let closing = false;
/** Requests held while the datasets reload (memory reclaim); undefined when not paused. */
let held: StoreRequest[] | undefined;

function stats(): StoreStats {
  return {
    quads: datasets.quads,
    tenants: datasets.tenants().length,
    journalBytes: journal.size,
    lastSeq: seq,
    maxQuads: opts.maxQuads,
    droppedQuads: datasets.droppedQuads,
    reclaims: reclaimer.reclaims,
  };
}

function wireError(e: unknown): WireError {
  if (e instanceof AppError) return { kind: e.kind, message: e.message, details: e.details };
  if (isWasmTrap(e)) {
    dead = `Oxigraph trapped (${e.message}); the in-memory store is unusable, restart to recover from disk`;
    log("error", "store worker: WASM trap, store is dead", { error: e.message });
    send({ event: "fatal", message: dead });
  }
  return { kind: "InternalError", message: e instanceof Error ? e.message : String(e) };
}

function commit(id: number, tenant: string, writes: GraphWrite[], notifyApplied?: boolean): void {
  if (journal.failure)
    throw new AppError("InternalError", `The journal is not writable: ${journal.failure.message}`);
  datasets.apply(tenant, writes);
  if (notifyApplied) send({ id, applied: true });
  const mySeq = ++seq;
  journal.append(encodeJournalRecord({ seq: mySeq, tenant, writes })).then(
    () => send({ id, ok: true, value: mySeq }),
    (e: Error) => {
      log("error", "store journal write failed; commits are refused from now on", { error: e.message });
      send({ id, ok: false, error: { kind: "InternalError", message: e.message } });
    },
  );
  if (journal.size > opts.journalCompactBytes && !compactor.busy) {
    compactor.compact().catch((e: Error) => log("error", "store compaction failed", { error: e.message }));
  }
  reclaimer.check();
}

function reply(id: number, p: Promise<unknown>): void {
  p.then(
    (value) => send({ id, ok: true, value }),
    (e: unknown) => send({ id, ok: false, error: wireError(e) }),
  );
}

function handle(req: StoreRequest): void {
  switch (req.op) {
    case "commit":
      return commit(req.id, req.tenant, req.writes, req.notifyApplied);
    case "read":
      return send({ id: req.id, ok: true, value: req.graphs.map((g) => datasets.readGraph(req.tenant, g)) });
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
    case "close":
      closing = true;
      return reply(
        req.id,
        (async () => {
          await compactor.idle();
          await journal.close();
        })(),
      );
  }
}

function receive(req: StoreRequest): void {
  if (held) {
    held.push(req);
    return;
  }
  if (dead || closing) {
    const message = dead ?? "The store is closing";
    return send({
      id: req.id,
      ok: false,
      error: { kind: dead ? "InternalError" : "ServiceUnavailable", message },
    });
  }
  try {
    handle(req);
  } catch (e) {
    send({ id: req.id, ok: false, error: wireError(e) });
  }
}

port.on("message", (m: StoreMessage<StoreRequest>) => {
  if (Array.isArray(m)) for (const r of m) receive(r);
  else receive(m);
});

try {
  const t0 = Date.now();
  preGrowWasmMemory(opts.wasmPreGrowBytes);
  const r = recover(dir, datasets, log);
  seq = r.lastSeq;
  journal = JournalWriter.open(dir, r.tailStart ?? seq + 1);
  compactor = new Compactor({ dir, journal, lastSeq: () => seq, log });
  reclaimer = new MemoryReclaimer(
    {
      dir,
      datasets,
      journal,
      compactor,
      lastSeq: () => seq,
      pause: () => (held ??= []),
      resume: () => {
        const requests = held ?? [];
        held = undefined;
        for (const r of requests) receive(r);
      },
      die: (message) => {
        dead = message;
        send({ event: "fatal", message });
      },
      log,
    },
    opts.reclaimDroppedQuads,
  );
  send({ event: "ready", stats: stats(), replayed: r.replayed, ms: Date.now() - t0 });
} catch (e) {
  send({ event: "fatal", message: e instanceof Error ? e.message : String(e) });
}
