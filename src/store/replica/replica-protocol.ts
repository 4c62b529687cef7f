import type { GraphWrite } from "../graph-store";
import type { WireError } from "../worker/protocol";
import type { QueryForm, ResultFormat } from "../../rdf/sparql-results";

/** One SPARQL query for the replica. */
export interface ReplicaQuery {
  tenant: string;
  sparql: string;
  form: QueryForm;
  format: ResultFormat["kind"];
  /** Rows (solutions) or triples kept; the rest is cut off and reported. */
  maxRows: number;
}

/** A serialized answer. */
export interface ReplicaAnswer {
  body: string;
  /** Solutions or triples in the body. */
  rows: number;
  /** True when the answer was cut at `maxRows`. */
  truncated: boolean;
}

/** Main thread -> replica worker. Applies arrive in seq order; a query sees every apply sent before it. */
export type ReplicaRequest =
  | { op: "apply"; seq: number; tenant: string; writes: GraphWrite[] }
  | { op: "query"; id: number; query: ReplicaQuery };

/** Replica worker -> main thread. */
export type ReplicaMessage =
  | { event: "ready"; lastSeq: number; quads: number; ms: number }
  | { event: "log"; level: "info" | "warn" | "error"; msg: string; fields?: object }
  | { event: "fatal"; message: string }
  | { event: "gap"; expected: number; got: number }
  | { event: "reclaim"; droppedQuads: number }
  | { id: number; ok: true; value: ReplicaAnswer }
  | { id: number; ok: false; error: WireError };

/** Options the replica worker starts with. */
export interface ReplicaWorkerOptions {
  dataDir: string;
  wasmPreGrowBytes: number;
  /** Dropped quads (and at least the live ones) after which the replica asks to be reloaded. */
  reclaimDroppedQuads: number;
  /** Tick of the worker's idle heap reduction, ms (0 = off; src/runtime/heap-reduce.ts). */
  heapReduceIntervalMs: number;
}
