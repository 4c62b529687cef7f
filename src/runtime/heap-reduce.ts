import type { Server } from "node:http";
import v8 from "node:v8";
import { performance } from "node:perf_hooks";
import { loadMallocTrim } from "./malloc-trim";

/**
 * Gives a thread's dead heap back to the kernel once the thread goes idle after a burst of work
 * (docs/decisions/0004-malloc-trim-and-heap-reduce.md).
 *
 * V8 collects garbage when an old generation reaches its limit, which it sets at a multiple of what the
 * last full GC kept, and it never returns the free space inside its pages: after a large fill both the
 * main thread and the store worker held far more old generation than was live, and idleness changed
 * nothing (V8's own memory reducer did not start). A GC with V8's "reduce memory footprint" flag, which
 * only a memory-pressure signal starts, frees the dead heap and gives the free pages back. This module
 * sends that signal (the optional addon's `reduceHeap`, native/malloc-trim) when the thread is idle and
 * its heap has grown well past its level after the last such GC, so a busy thread's latency is never
 * touched and an idle one is not collected over and over. The main thread also counts as idle when no
 * HTTP request was served over the tick ({@link watchRequests}): after a fill it goes on for seconds with
 * background work nobody waits for (the history's sealing), which is the time to do it.
 *
 * It imports nothing of the service, so the store worker (src/store/worker) can start it in its own thread.
 */

/** Event-loop utilization over one tick below which the thread counts as idle. */
export const IDLE_UTILIZATION = 0.05;
/** Growth (bytes) above the floor that an idle tick needs to reduce, at least. */
export const REDUCE_MIN_GROWTH_BYTES = 32 * 1024 * 1024;
/** Growth above the floor that an idle tick needs to reduce, as a share of the floor (whichever is larger). */
export const REDUCE_MIN_GROWTH_SHARE = 0.1;
/** Least time (ms) between two reductions of one thread. */
export const REDUCE_MIN_INTERVAL_MS = 10_000;

/** What a reduction is logged with: bytes now and at the floor (MB), utilization, no request served. */
export interface ReduceFields {
  mb: number;
  floorMb: number;
  utilization: number;
  quiet: boolean;
}

/** What the ticks remember between them. */
export interface ReduceState {
  /** Lowest {@link reclaimableBytes} seen since the last reduction (or since the start). */
  floor: number;
  /** Time (ms, performance.now) of the last reduction; -Infinity before the first. */
  reducedAt: number;
}

/**
 * Whether a tick should signal memory pressure: the thread was idle over the tick ({@link IDLE_UTILIZATION}),
 * the last reduction is {@link REDUCE_MIN_INTERVAL_MS} old, and the heap grew past the floor by
 * {@link REDUCE_MIN_GROWTH_BYTES} and {@link REDUCE_MIN_GROWTH_SHARE} of it. A reduction that frees little
 * (the live heap grew) leaves a new, higher floor, so an idle thread is not collected again for nothing.
 */
export function shouldReduce(state: ReduceState, utilization: number, bytes: number, now: number): boolean {
  if (utilization >= IDLE_UTILIZATION || now - state.reducedAt < REDUCE_MIN_INTERVAL_MS) return false;
  const growth = bytes - state.floor;
  return growth >= REDUCE_MIN_GROWTH_BYTES && growth >= state.floor * REDUCE_MIN_GROWTH_SHARE;
}

/** This thread's resident V8 heap pages plus its Buffers' and ArrayBuffers' memory, in bytes. */
export function reclaimableBytes(): number {
  return v8.getHeapStatistics().total_physical_size + process.memoryUsage().arrayBuffers;
}

/**
 * Every `intervalMs` (0 = off) measures this thread's event-loop utilization and {@link reclaimableBytes},
 * and calls `reduce` (the addon's `reduceHeap`: it starts the GC and returns at once) when
 * {@link shouldReduce} says so. The timer does not keep the thread alive. Returns a function that stops it.
 */
export function startHeapReduce(
  intervalMs: number,
  reduce: () => unknown,
  onReduce?: (fields: ReduceFields) => void,
  /** Called once per tick: true when nobody waited on this thread over the tick (no request served). */
  quiet?: () => boolean,
  /** What is measured (tests give their own figures). */
  measure: () => number = reclaimableBytes,
): () => void {
  if (intervalMs <= 0) return () => {};
  const state: ReduceState = { floor: measure(), reducedAt: -Infinity };
  let elu = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const nowElu = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(nowElu, elu).utilization;
    elu = nowElu;
    const quietTick = quiet?.() === true;
    const bytes = measure();
    const now = performance.now();
    if (!shouldReduce(state, quietTick ? 0 : utilization, bytes, now)) {
      state.floor = Math.min(state.floor, bytes);
      return;
    }
    onReduce?.({
      mb: Math.round(bytes / 1e6),
      floorMb: Math.round(state.floor / 1e6),
      utilization,
      quiet: quietTick,
    });
    reduce();
    // the GC runs on after this turn; the next ticks lower the floor to what it leaves
    state.floor = bytes;
    state.reducedAt = now;
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * {@link startHeapReduce} in the calling thread with the addon's `reduceHeap`; a no-op (returns why) when the
 * addon, or that call of it, is missing.
 */
export function startThreadHeapReduce(
  intervalMs: number,
  onReduce?: (fields: ReduceFields) => void,
  quiet?: () => boolean,
): string | (() => void) {
  const addon = loadMallocTrim();
  if (typeof addon === "string") return addon;
  const reduce = addon.reduceHeap;
  if (typeof reduce !== "function") return "the addon has no reduceHeap (built without it)";
  return startHeapReduce(intervalMs, () => reduce.call(addon), onReduce, quiet);
}

/**
 * Watches `server`'s requests: the returned function tells, once per call, whether no request is in flight
 * and none started or ended since the previous call.
 */
export function watchRequests(server: Pick<Server, "on">): () => boolean {
  let inFlight = 0;
  let seen = false; // a request started or ended since the last call
  server.on("request", (_req, res) => {
    inFlight++;
    seen = true;
    res.once("close", () => {
      inFlight--;
      seen = true;
    });
  });
  return () => {
    const quiet = inFlight === 0 && !seen;
    seen = false;
    return quiet;
  };
}
