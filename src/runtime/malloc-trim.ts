import path from "node:path";
import type { Logger } from "../log/logger";

/**
 * Gives glibc's free memory back to the kernel (docs/decisions/0004-malloc-trim-and-heap-reduce.md).
 *
 * glibc's `free()` only shrinks an arena from its top. The batch write path allocates many MB per request
 * outside the JS heap (postMessage buffers of the N-Triples sent to the store worker, request bodies,
 * journal and history record buffers) and frees most of it only when a GC collects the Buffers, so after a
 * large fill the main arena holds many MB of free chunks between live ones (`malloc_info`), resident
 * until `malloc_trim(0)` is called. Node does not expose it, so the native store addon (native/store, built
 * at `npm ci`) does; without it this is a no-op with one log line.
 */

/** The addon's calls (native/store/addon/src/malloc.rs). */
export interface MallocTrimAddon {
  /** `malloc_trim(0)` on a libuv pool thread: 1 if memory was released. */
  trimAsync(): Promise<number>;
  /** `mallinfo2().fordblks` on a libuv pool thread: bytes in free chunks over all arenas, -1 when unknown. */
  freeBytesAsync(): Promise<number>;
  /**
   * V8's moderate memory-pressure signal for the calling thread's isolate: starts a GC that gives free heap
   * pages back, and returns at once (src/runtime/heap-reduce.ts). Absent from an addon built without it.
   */
  reduceHeap?(): boolean;
}

/** The native store addon, which carries these calls (built by native/store/build.js). */
const ADDON_FILE = path.join(__dirname, "..", "..", "..", "native", "store", "citygraph-store.node");

/** Free bytes below which a tick never trims. */
export const TRIM_MIN_FREE_BYTES = 16 * 1024 * 1024;
/** Change of the free bytes since the last trim that makes a tick trim. */
export const TRIM_MIN_CHANGE_BYTES = 8 * 1024 * 1024;
/** A tick trims at least this often (ms) while the free bytes stay above the minimum. */
export const TRIM_MAX_AGE_MS = 30_000;

/** What the ticks remember between them. */
export interface TrimState {
  /** Free bytes right after the last trim (-1: none yet). */
  freeAfterTrim: number;
  /** Time of the last trim (ms). */
  trimmedAt: number;
}

/**
 * Whether a tick should call `malloc_trim`: only with at least {@link TRIM_MIN_FREE_BYTES} free, and only
 * when the free chunks changed by {@link TRIM_MIN_CHANGE_BYTES} since the last trim (new free memory, or
 * trimmed memory reused and so resident again) or {@link TRIM_MAX_AGE_MS} passed. A quiet service does not
 * trim every tick: the free bytes count trimmed pages too, so they do not drop after a trim.
 */
export function shouldTrim(state: TrimState, free: number, now: number): boolean {
  if (free < TRIM_MIN_FREE_BYTES) return false;
  if (state.freeAfterTrim < 0) return true;
  return (
    Math.abs(free - state.freeAfterTrim) >= TRIM_MIN_CHANGE_BYTES || now - state.trimmedAt >= TRIM_MAX_AGE_MS
  );
}

/** The addon, or why it is not there (not built: no compiler at install, not glibc, `--ignore-scripts`). */
export function loadMallocTrim(): MallocTrimAddon | string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const addon = require(ADDON_FILE) as MallocTrimAddon;
    if (typeof addon.trimAsync !== "function" || typeof addon.freeBytesAsync !== "function")
      return "unexpected exports";
    return addon;
  } catch (e) {
    return e instanceof Error ? e.message.split("\n")[0] : String(e);
  }
}

/**
 * Every `intervalMs` (0 = off) reads the free bytes of glibc's arenas and trims them when
 * {@link shouldTrim} says so. Both calls run on a libuv pool thread, one check at a time, since on the main
 * thread each took milliseconds during a fill (docs/decisions/0004-malloc-trim-and-heap-reduce.md). The
 * timer does not keep the process alive. Returns a
 * function that stops it.
 */
export function startMallocTrim(
  intervalMs: number,
  log: Logger,
  addon: MallocTrimAddon | string = loadMallocTrim(),
): () => void {
  if (intervalMs <= 0) return () => {};
  if (typeof addon === "string") {
    log.info("malloc trim unavailable: glibc keeps freed memory resident", { reason: addon });
    return () => {};
  }
  const state: TrimState = { freeAfterTrim: -1, trimmedAt: 0 };
  let running = false;
  const tick = async (): Promise<void> => {
    const free = await addon.freeBytesAsync();
    const t0 = performance.now();
    if (!shouldTrim(state, free, t0)) return;
    await addon.trimAsync();
    state.freeAfterTrim = await addon.freeBytesAsync();
    state.trimmedAt = performance.now();
    log.debug("malloc trim", { freeMb: Math.round(free / 1048576), ms: +(state.trimmedAt - t0).toFixed(2) });
  };
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch((e: unknown) => log.warn("malloc trim failed", { error: String(e) }))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
