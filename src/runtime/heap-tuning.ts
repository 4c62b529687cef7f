import v8 from "node:v8";

/**
 * Caps how far V8 lets each thread's old generation grow past what the last full GC kept
 * (`--heap-growing-percent`; config `HEAP_GROWING_PERCENT`, 0 = V8's own factor). The flag is read at every
 * full GC's limit computation and is process-wide, so the worker threads started later follow it too;
 * main.ts sets it before start-up allocates anything large. V8's own factor let the main thread's heap hold
 * ~900 MB for ~560 MB live after the 100k-entity fill; at 30 % it held ~700 MB, but the more frequent full
 * GCs doubled the paced type+q p99, hence off by default (docs/decisions/0002-memory-at-scale.md).
 */
export function tuneHeap(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
