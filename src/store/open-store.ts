import { DEFAULT_JOURNAL_COMPACT_BYTES, DEFAULT_STORE_MIN_FREE_BYTES } from "../config/config";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { AppError } from "../errors";
import type {
  CommitEvent,
  GraphStore,
  GraphWrite,
  HeldSnapshot,
  ReplayedGraphs,
  SelectRow,
  StoreStats,
} from "./graph-store";
import type {
  AppliedNotice,
  StoreMessage,
  StoreRequest,
  StoreResponse,
  WorkerEvent,
  WorkerOptions,
} from "./worker/protocol";
import { encodeCommitRecord } from "./journal/record-codec";
import { GraphReader } from "./native/graph-reader";
import { RequestOutbox } from "./request-outbox";
import { toAppError } from "./worker/wire-error";

/**
 * Bytes of a commit record from which it is posted to the worker at once rather than at the end of the
 * turn (a few dozen entities): a batch slice then starts loading while the main thread prepares the
 * next (docs/decisions/0001-write-path.md).
 */
const LARGE_COMMIT_BYTES = 256 * 1024;

/** How long (ms) a small request may wait for the end of the turn before it is sent (request-outbox.ts). */
const OUTBOX_MAX_WAIT_MS = 1;

/**
 * The buffers of `requests` to transfer rather than copy: each commit's record, when it owns its whole
 * ArrayBuffer (encodeCommitRecord makes it so; a view into a shared pool would give the pool away).
 */
function transferables(requests: StoreRequest[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const r of requests) {
    if (r.op !== "commit") continue;
    const b = r.record.buffer;
    if (b instanceof ArrayBuffer && r.record.byteOffset === 0 && r.record.byteLength === b.byteLength)
      out.push(b);
  }
  return out;
}

/** Options of {@link openGraphStore}. */
export interface OpenStoreOptions {
  /** DATA_DIR; the store keeps its journal and snapshots in `<dataDir>/store`. */
  dataDir: string;
  /** Free bytes of the disk below which commits are refused with 507 (default: `STORE_MIN_FREE_BYTES`'s). */
  minFreeBytes?: number;
  /** Journal bytes that trigger an automatic compaction (default: `JOURNAL_COMPACT_BYTES`'s). */
  journalCompactBytes?: number;
  /**
   * A due compaction waits for this long without a commit (ms; default 0 = starts at once), so that it does
   * not compete with a write burst for the cores (store-worker.ts `compactWhenDue`).
   */
  compactQuietMs?: number;
  /** Journal bytes past which a due compaction starts at once all the same (default 4x journalCompactBytes). */
  journalCompactMaxBytes?: number;
  /** Tick (ms) of the worker's idle heap reduction (src/runtime/heap-reduce.ts); 0 or omitted = off. */
  heapReduceIntervalMs?: number;
  /** Told the seconds each acknowledged commit took, from the call to its durable journal record (a metric). */
  onCommitted?: (seconds: number) => void;
  log?: (level: "debug" | "info" | "warn" | "error", msg: string, fields?: object) => void;
}

type Ok = { id: number; ok: true; value?: unknown };
type Pending = { resolve: (v: Ok) => void; reject: (e: AppError) => void; applied?: (seq: number) => void };
/** Distributes Omit over a union, so each request variant loses its `id`. */
type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

/**
 * Starts the store worker, waits for snapshot load + journal replay, and returns the main-thread proxy
 * implementing {@link GraphStore} (docs/design.md "The store lives in a worker thread", "Durability is ours
 * to build"). Only text crosses the thread boundary; change-feed listeners see each commit once it is
 * durable (journal record and `onApplied`), in seq order. Worker errors come back as
 * AppError of the same kind (StoreFull, BadRequestData, InternalError...).
 */
export async function openGraphStore(opts: OpenStoreOptions): Promise<GraphStore> {
  const log = opts.log ?? (() => undefined);
  const workerOpts: WorkerOptions = {
    dataDir: opts.dataDir,
    minFreeBytes: opts.minFreeBytes ?? DEFAULT_STORE_MIN_FREE_BYTES,
    journalCompactBytes: opts.journalCompactBytes ?? DEFAULT_JOURNAL_COMPACT_BYTES,
    journalCompactMaxBytes:
      opts.journalCompactMaxBytes ?? 4 * (opts.journalCompactBytes ?? DEFAULT_JOURNAL_COMPACT_BYTES),
    compactQuietMs: opts.compactQuietMs ?? 0,
    heapReduceIntervalMs: opts.heapReduceIntervalMs ?? 0,
  };
  const worker = new Worker(path.join(__dirname, "worker", "store-worker.js"), { workerData: workerOpts });
  const pending = new Map<number, Pending>();
  const listeners = new Set<(e: CommitEvent) => void>();
  let nextId = 1;
  let fatal: string | undefined;
  let replayedGraphs: ReplayedGraphs | undefined;
  let closed = false;

  // reads go straight to RocksDB from this thread, never behind the worker's commits (graph-reader.ts)
  const reader = new GraphReader(path.join(opts.dataDir, "store"));

  const failAll = (message: string): void => {
    fatal ??= message;
    void reader.close(); // a dead store's handles are let go, so that the folder can be opened again
    for (const p of pending.values()) p.reject(new AppError("InternalError", message));
    pending.clear();
  };

  await new Promise<void>((resolve, reject) => {
    const receive = (m: StoreResponse | WorkerEvent | AppliedNotice): void => {
      if ("applied" in m) {
        pending.get(m.id)?.applied?.(m.seq);
        return;
      }
      if ("event" in m) {
        if (m.event === "ready") {
          log("info", "store ready", { ...m.stats, replayed: m.replayed, ms: m.ms });
          replayedGraphs = m.replayedGraphs;
          resolve();
        } else if (m.event === "log") log(m.level, m.msg, m.fields);
        else {
          log("error", "store failed", { error: m.message });
          fatal = m.message;
          failAll(m.message);
          reject(new Error(`graph store failed: ${m.message}`));
          void worker.terminate(); // a dead or half-started worker serves nothing
        }
        return;
      }
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.ok) p.resolve(m);
      else p.reject(toAppError(m.error));
    };
    worker.on("message", (m: StoreMessage<StoreResponse | WorkerEvent | AppliedNotice>) => {
      if (Array.isArray(m)) for (const x of m) receive(x);
      else receive(m);
    });
    worker.on("error", (e) => {
      log("error", "store worker crashed", { error: e.message });
      failAll(`The store worker crashed: ${e.message}`);
      reject(e);
    });
    worker.on("exit", (code) => {
      if (!closed) log("error", "store worker exited", { code });
      failAll(`The store worker exited (code ${code})`);
      reject(new Error(`store worker exited with code ${code} before it was ready`));
    });
  });

  // requests go to the worker in batches, one message each (protocol StoreMessage; see request-outbox.ts)
  const outbox = new RequestOutbox<StoreRequest>((out) => {
    if (!fatal) worker.postMessage(out.length === 1 ? out[0] : out, transferables(out));
  }, OUTBOX_MAX_WAIT_MS);
  const call = (
    req: WithoutId<StoreRequest>,
    applied?: (seq: number) => void,
    large = false,
  ): Promise<Ok> => {
    if (fatal) return Promise.reject(new AppError("InternalError", fatal));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, applied });
      // a large commit goes at once (with what waits before it): the worker can load it while this
      // thread prepares the next one, instead of waiting for the end of a turn that may run many more
      outbox.push({ ...req, id } as StoreRequest, large);
    });
  };

  const emit = (event: CommitEvent): void => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (e) {
        log("error", "change-feed listener failed", { error: e instanceof Error ? e.message : String(e) });
      }
    }
  };

  // The latest commit whose event waits for its durable state or for an earlier commit's event.
  let waiting: Promise<void> | undefined;

  return {
    async commit(
      tenant: string,
      writes: GraphWrite[],
      onApplied?: (seq: number) => Promise<void> | undefined,
    ): Promise<number> {
      let alongside: Promise<void> | undefined;
      const start = (seq: number): void => {
        alongside = onApplied?.(seq);
        alongside?.catch(() => undefined); // awaited below; an early rejection is not unhandled
      };
      const notifyApplied = onApplied !== undefined;
      const record = encodeCommitRecord(tenant, writes);
      const large = record.length >= LARGE_COMMIT_BYTES;
      const t0 = opts.onCommitted ? performance.now() : 0;
      // acks arrive in seq order and each resolves in that order, so the code below runs in seq order
      const seq = (await call({ op: "commit", record, notifyApplied }, start, large)).value as number;
      opts.onCommitted?.((performance.now() - t0) / 1000);
      const event: CommitEvent = { seq, tenant, writes };
      if (alongside === undefined && waiting === undefined) emit(event);
      else {
        // the event follows the commit's durable state (even when that failed: the journal holds the
        // write) and the events of the commits before it
        const durable = alongside?.then(
          () => undefined,
          () => undefined,
        );
        const turn: Promise<void> = Promise.all([waiting, durable]).then(() => {
          if (waiting === turn) waiting = undefined;
          emit(event);
        });
        waiting = turn;
        await turn;
      }
      await alongside;
      return seq;
    },
    async readGraphs(tenant, graphs) {
      if (fatal) throw new AppError("InternalError", fatal);
      if (closed) throw new AppError("ServiceUnavailable", "The store is closing");
      return reader.read(tenant, graphs);
    },
    async select(tenant, sparql) {
      return (await call({ op: "select", tenant, sparql })).value as SelectRow[];
    },
    async tenants() {
      return (await call({ op: "tenants" })).value as string[];
    },
    onCommit(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async stats() {
      return (await call({ op: "stats" })).value as StoreStats;
    },
    async compact() {
      await call({ op: "compact" });
    },
    async holdSnapshot() {
      const held = (await call({ op: "hold" })).value as Omit<HeldSnapshot, "dir" | "extend" | "release">;
      let released = false;
      return {
        ...held,
        dir: path.join(opts.dataDir, "store"),
        extend: async () => (await call({ op: "extend" })).value as { seq: number; files: string[] },
        release: async () => {
          if (released || fatal || closed) return; // a closed store released it on its way out
          released = true;
          await call({ op: "release" });
        },
      };
    },
    takeReplayedGraphs() {
      const r = replayedGraphs;
      replayedGraphs = undefined;
      return r;
    },
    async health() {
      if (fatal) return { ok: false, journalWritable: false, detail: fatal };
      return (await call({ op: "health" })).value as {
        ok: boolean;
        journalWritable: boolean;
        detail?: string;
      };
    },
    async close() {
      if (closed) return;
      try {
        closed = true;
        await reader.close();
        if (!fatal) await call({ op: "close" });
      } finally {
        closed = true;
        await worker.terminate();
      }
    },
  };
}
