import type { ReplayedGraphs, StoreStats } from "../graph-store";

/** Requests from the main thread to the store worker (docs/design.md "The store lives in a worker thread"). */
export type StoreRequest =
  | {
      id: number;
      op: "commit";
      /**
       * Tenant and writes as the journal record without seq and header (record-codec.ts
       * `encodeCommitRecord`), transferred with the message: the worker loads the N-Triples bytes from it
       * and appends the same buffer to the journal once sealed.
       */
      record: Uint8Array;
      /** Ask for an {@link AppliedNotice} once the write is applied, before its journal record is durable. */
      notifyApplied?: boolean;
    }
  | { id: number; op: "select"; tenant: string; sparql: string }
  | { id: number; op: "tenants" }
  | { id: number; op: "stats" }
  | { id: number; op: "compact" }
  /** Compacts and keeps that checkpoint's files until "release" (a consistent cut for a backup). */
  | { id: number; op: "hold" }
  /** Extends the held cut to the last commit (HeldSnapshot.extend). */
  | { id: number; op: "extend" }
  | { id: number; op: "release" }
  | { id: number; op: "health" }
  | { id: number; op: "ping" }
  | { id: number; op: "close" };

/**
 * One postMessage carries one request or several: the main thread sends every request of one event-loop
 * turn together, and the worker sends the answers of one turn together (a message costs tens of µs).
 */
export type StoreMessage<T> = T | T[];

/** Options the worker is started with (see `openGraphStore`). */
export interface WorkerOptions {
  dataDir: string;
  /** Free bytes of the store's disk below which commits are refused with StoreFull (507). */
  minFreeBytes: number;
  journalCompactBytes: number;
  /** Journal size past which a due compaction starts at once instead of waiting for a pause in commits. */
  journalCompactMaxBytes: number;
  /** Pause in commits (ms) that a due compaction waits for (0 = none). */
  compactQuietMs: number;
  /** Tick of the worker's idle heap reduction, ms (0 = off; src/runtime/heap-reduce.ts). */
  heapReduceIntervalMs: number;
}

/** A worker error carried back as data; the proxy turns it into an AppError of the same kind. */
export interface WireError {
  kind: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Answers of the worker; `value` holds the result (the seq for commits). */
export type StoreResponse =
  { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: WireError };

/**
 * Sent for a commit with `notifyApplied` once it is applied in memory: it can no longer be refused, only
 * fail with the disk. Always before the commit's answer. Lets the main thread write state that must be
 * as durable as the commit (the temporal history) while the journal record is being fsynced.
 */
export interface AppliedNotice {
  id: number;
  applied: true;
  /** The commit's journal sequence number (what its answer will carry). */
  seq: number;
}

/** Unsolicited messages: the worker is ready, wants something logged, or has failed for good. */
export type WorkerEvent =
  | {
      event: "ready";
      stats: StoreStats;
      replayed: number;
      ms: number;
      replayedGraphs: ReplayedGraphs;
    }
  | { event: "log"; level: "debug" | "info" | "warn" | "error"; msg: string; fields?: object }
  | { event: "fatal"; message: string };
