import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import oxigraph from "oxigraph";
import { AppError } from "../../errors";
import { preGrowWasmMemory, recover } from "../worker/recovery";
import { startThreadHeapReduce } from "../../runtime/heap-reduce";
import { isWasmTrap, TenantDatasets } from "../worker/tenant-datasets";
import { executeQuery } from "./query-executor";
import { ReplicaDatasets } from "./plain-view";
import { InstanceGraphs } from "./instance-graphs";
import type { ReplicaMessage, ReplicaRequest, ReplicaWorkerOptions } from "./replica-protocol";

/*
 * The SPARQL read replica (docs/design.md "The store lives in a worker thread": a long SPARQL query must
 * not hold up writes or reads). It loads the store's snapshot and journal read-only, then follows the
 * change feed that the main thread forwards; queries run here, so the main thread can stop one by
 * terminating this worker. See ReplicaDatasets for what the dataset holds.
 */
const port = parentPort;
if (!port) throw new Error("replica-worker must run in a worker thread");
const opts = workerData as ReplicaWorkerOptions;
const send = (m: ReplicaMessage): void => port.postMessage(m);
const log = (level: "info" | "warn" | "error", msg: string, fields?: object): void =>
  send({ event: "log", level, msg, fields });

/**
 * Lowers this thread's CPU priority (nice 10) on Linux, where a thread id from /proc/thread-self is
 * accepted by setpriority: a long query then yields the cores to the HTTP and store threads.
 */
function yieldCpu(): void {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, 10);
  } catch {
    // not Linux, or not permitted: queries run at normal priority
  }
}
yieldCpu();

const target = new ReplicaDatasets(new TenantDatasets(Number.MAX_SAFE_INTEGER));
const instances = new InstanceGraphs();

let lastSeq = 0;
let reclaimAsked = false;
const empty = new oxigraph.Store();

port.on("message", (m: ReplicaRequest) => {
  if (m.op === "apply") {
    if (m.seq <= lastSeq) return;
    if (m.seq !== lastSeq + 1) return send({ event: "gap", expected: lastSeq + 1, got: m.seq });
    target.apply(m.tenant, m.writes);
    instances.changed(m.tenant, m.writes);
    lastSeq = m.seq;
    const dropped = target.droppedQuads + instances.dropped;
    if (!reclaimAsked && dropped >= Math.max(opts.reclaimDroppedQuads, target.quads)) {
      reclaimAsked = true; // Oxigraph keeps dropped quads' memory: a fresh replica gives it back
      send({ event: "reclaim", droppedQuads: dropped });
    }
    return;
  }
  try {
    const store = target.storeFor(m.query.tenant) ?? empty;
    if (store !== empty) instances.prepare(m.query.tenant, store, m.query.sparql);
    send({ id: m.id, ok: true, value: executeQuery(store, m.query) });
  } catch (e) {
    if (e instanceof AppError) send({ id: m.id, ok: false, error: { kind: e.kind, message: e.message } });
    else {
      const message = e instanceof Error ? e.message : String(e);
      send({ id: m.id, ok: false, error: { kind: "InternalError", message } });
      if (isWasmTrap(e)) send({ event: "fatal", message });
    }
  }
});

try {
  const t0 = Date.now();
  preGrowWasmMemory(opts.wasmPreGrowBytes);
  lastSeq = recover(path.join(opts.dataDir, "store"), target, log, true).lastSeq;
  send({ event: "ready", lastSeq, quads: target.quads, ms: Date.now() - t0 });
  startThreadHeapReduce(opts.heapReduceIntervalMs); // the load's garbage, then each large answer's
} catch (e) {
  send({ event: "fatal", message: e instanceof Error ? e.message : String(e) });
}
