import { DEFAULT_STORE_RECLAIM_QUADS } from "../../config/config";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { AppError } from "../../errors";
import { toAppError } from "../worker/wire-error";
import type { CommitEvent, GraphStore } from "../graph-store";
import type {
  ReplicaAnswer,
  ReplicaMessage,
  ReplicaQuery,
  ReplicaRequest,
  ReplicaWorkerOptions,
} from "./replica-protocol";

type Log = (level: "debug" | "info" | "warn" | "error", msg: string, fields?: object) => void;

/** Options of {@link SparqlReplica}. */
export interface SparqlReplicaOptions {
  /** DATA_DIR of the store (its snapshot and journal are read, never written). */
  dataDir: string;
  /** The primary store, whose change feed the replica follows. */
  store: Pick<GraphStore, "onCommit">;
  /** A query running longer is stopped (SPARQL_TIMEOUT). */
  timeoutMs: number;
  /** Load at once instead of on the first query (SPARQL_REPLICA=eager). */
  eager?: boolean;
  /** Queries waiting beyond this many are refused with 503 (default 64). */
  maxQueue?: number;
  /** JS heap ceiling of the worker in MiB, so a huge answer kills the worker, not the service (default 1024). */
  maxHeapMb?: number;
  /** Dropped quads after which the replica is reloaded to free their memory (default: `STORE_RECLAIM_QUADS`'s). */
  reclaimDroppedQuads?: number;
  /** WASM memory grown at start (default 64 MiB). */
  wasmPreGrowBytes?: number;
  /** Tick (ms) of the worker's idle heap reduction (src/runtime/heap-reduce.ts); 0 or omitted = off. */
  heapReduceIntervalMs?: number;
  log?: Log;
}

interface Waiting {
  query: ReplicaQuery;
  resolve: (a: ReplicaAnswer) => void;
  reject: (e: AppError) => void;
}

/**
 * The main-thread side of the SPARQL read replica (docs/design.md "The store lives
 * in a worker thread"). A second Oxigraph in its own worker, started on the first query (it costs a
 * second copy of the graph in memory, so a service nobody queries with SPARQL never pays it), loaded
 * from the store's snapshot and journal and then kept current by the change feed. Queries run one at
 * a time in that worker, never on the HTTP event loop nor in the store worker; a query past the
 * timeout is really stopped by terminating the worker, which is then started again from disk.
 *
 * Consistency: the change feed emits a commit after it is durable and before its writer is answered;
 * the replica receives it before any query sent later, so a client that wrote through NGSI-LD and then
 * queries SPARQL sees its write.
 */
export class SparqlReplica {
  private worker: Worker | undefined;
  private state: "idle" | "starting" | "ready" = "idle";
  private buffered: CommitEvent[] = [];
  private readonly queue: Waiting[] = [];
  private inFlight: (Waiting & { id: number; timer: NodeJS.Timeout }) | undefined;
  private nextId = 1;
  private failures = 0;
  private reloadWhenIdle = false;
  private loaded: { quads: number; ms: number } | undefined;
  private closed = false;
  private readonly unsubscribe: () => void;
  private readonly log: Log;

  constructor(private readonly opts: SparqlReplicaOptions) {
    this.log = opts.log ?? (() => undefined);
    this.unsubscribe = opts.store.onCommit((e) => this.follow(e));
    if (opts.eager) this.start();
  }

  /** Runs a query; resolves with the serialized answer, or rejects with an AppError (400, 503). */
  query(query: ReplicaQuery): Promise<ReplicaAnswer> {
    if (this.closed)
      return Promise.reject(new AppError("ServiceUnavailable", "The SPARQL service is closing"));
    if (this.queue.length >= (this.opts.maxQueue ?? 64)) {
      return Promise.reject(
        new AppError("ServiceUnavailable", "Too many SPARQL queries are waiting; try again shortly", {
          waiting: this.queue.length,
        }),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ query, resolve, reject });
      this.pump();
    });
  }

  /** Whether the replica is loaded, and what its last load held and took (for /health). */
  status(): { state: "idle" | "loading" | "ready"; quads?: number; loadMs?: number } {
    const state = this.state === "starting" ? "loading" : this.state;
    return state === "ready" ? { state, quads: this.loaded?.quads, loadMs: this.loaded?.ms } : { state };
  }

  /** Queries running or waiting here. */
  pending(): number {
    return this.queue.length + (this.inFlight ? 1 : 0);
  }

  /** Stops the worker and refuses what waits. */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    this.rejectAll(new AppError("ServiceUnavailable", "The SPARQL service is closing"));
    await this.stop();
  }

  private follow(e: CommitEvent): void {
    if (this.state === "starting") this.buffered.push(e);
    else if (this.state === "ready")
      this.post({ op: "apply", seq: e.seq, tenant: e.tenant, writes: e.writes });
  }

  private post(m: ReplicaRequest): void {
    this.worker?.postMessage(m);
  }

  private pump(): void {
    if (this.reloadWhenIdle && !this.inFlight && this.state === "ready") {
      this.reloadWhenIdle = false;
      void this.stop().then(() => (this.opts.eager ? this.start() : this.pump()));
      return;
    }
    if (this.closed || this.queue.length === 0) return;
    if (this.state === "idle") return this.start();
    if (this.state !== "ready" || this.inFlight) return;
    const next = this.queue.shift()!;
    const id = this.nextId++;
    const timer = setTimeout(() => this.timeout(id), this.opts.timeoutMs);
    this.inFlight = { ...next, id, timer };
    this.post({ op: "query", id, query: next.query });
  }

  private timeout(id: number): void {
    if (this.inFlight?.id !== id) return;
    const { reject } = this.inFlight;
    this.inFlight = undefined;
    this.log("warn", "sparql query stopped at the timeout; restarting the replica", {
      ms: this.opts.timeoutMs,
    });
    reject(
      new AppError(
        "ServiceUnavailable",
        `The SPARQL query ran past the ${this.opts.timeoutMs} ms limit and was stopped`,
        {
          timeoutMs: this.opts.timeoutMs,
        },
      ),
    );
    void this.stop().then(() => this.pump());
  }

  private start(): void {
    this.state = "starting";
    this.buffered = [];
    // typed: the reclaim threshold was once left out here, so the replica never reloaded
    const workerData: ReplicaWorkerOptions = {
      dataDir: this.opts.dataDir,
      wasmPreGrowBytes: this.opts.wasmPreGrowBytes ?? 64 * 1024 * 1024,
      reclaimDroppedQuads: this.opts.reclaimDroppedQuads ?? DEFAULT_STORE_RECLAIM_QUADS,
      heapReduceIntervalMs: this.opts.heapReduceIntervalMs ?? 0,
    };
    const w = new Worker(path.join(__dirname, "replica-worker.js"), {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.opts.maxHeapMb ?? 1024 },
    });
    this.worker = w;
    w.on("message", (m: ReplicaMessage) => this.receive(m));
    w.on("error", (e) => this.lost(`the SPARQL worker failed: ${e.message}`));
    w.on("exit", (code) => {
      if (this.worker === w) this.lost(`the SPARQL worker exited (code ${code})`);
    });
  }

  private receive(m: ReplicaMessage): void {
    if (!("event" in m)) {
      const f = this.inFlight;
      if (!f || f.id !== m.id) return;
      clearTimeout(f.timer);
      this.inFlight = undefined;
      if (m.ok) f.resolve(m.value);
      else f.reject(toAppError(m.error));
      return this.pump();
    }
    switch (m.event) {
      case "ready":
        for (const e of this.buffered)
          if (e.seq > m.lastSeq) this.post({ op: "apply", seq: e.seq, tenant: e.tenant, writes: e.writes });
        this.buffered = [];
        this.state = "ready";
        this.failures = 0;
        this.loaded = { quads: m.quads, ms: m.ms };
        this.log("info", "sparql replica ready", { seq: m.lastSeq, quads: m.quads, ms: m.ms });
        return this.pump();
      case "log":
        return this.log(m.level, m.msg, m.fields);
      case "gap":
        this.log("warn", "sparql replica missed a commit; reloading it", {
          expected: m.expected,
          got: m.got,
        });
        return void this.stop().then(() => this.pump());
      case "fatal":
        return this.lost(m.message);
      case "reclaim":
        // Reload once idle, so no query is cut: the next query (or eager mode) starts a fresh replica.
        this.log("info", "sparql replica holds dropped quads; reloading it", { dropped: m.droppedQuads });
        this.reloadWhenIdle = true;
        return this.pump();
    }
  }

  /**
   * The worker is gone or unusable: fail its query, and start again (up to 3 tries in a row). The reason
   * goes to the log only: it may name files of DATA_DIR, which no answer carries.
   */
  private lost(reason: string): void {
    this.log("error", "sparql replica lost", { reason });
    const f = this.inFlight;
    this.inFlight = undefined;
    if (f) {
      clearTimeout(f.timer);
      f.reject(new AppError("ServiceUnavailable", "The SPARQL query could not finish: its replica stopped"));
    }
    const wasStarting = this.state === "starting";
    void this.stop().then(() => {
      if (wasStarting && ++this.failures >= 3) {
        this.failures = 0;
        this.rejectAll(
          new AppError("ServiceUnavailable", "The SPARQL service cannot load the graph; try again shortly"),
        );
        return;
      }
      setTimeout(() => this.pump(), wasStarting ? 200 * this.failures : 0);
    });
  }

  private async stop(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.state = "idle";
    this.buffered = [];
    if (w) {
      w.removeAllListeners();
      w.on("error", () => undefined); // a late error of a worker being stopped is of no interest
      await w.terminate();
    }
  }

  private rejectAll(e: AppError): void {
    for (const q of this.queue.splice(0)) q.reject(e);
    if (this.inFlight) {
      clearTimeout(this.inFlight.timer);
      this.inFlight.reject(e);
      this.inFlight = undefined;
    }
  }
}
