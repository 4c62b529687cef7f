import v8 from "node:v8";

/**
 * Caps how far V8 lets each thread's old generation grow past what the last full GC kept
 * (`--heap-growing-percent`; config `HEAP_GROWING_PERCENT`, 0 = V8's own factor). The flag is read at every
 * full GC's limit computation and is process-wide, so the worker threads started later follow it too;
 * main.ts sets it before start-up allocates anything large. A lower cap holds less memory, but its more
 * frequent full GCs lengthened the query tail, hence off by default
 * (docs/decisions/0003-heap-growing-percent.md).
 */
export function tuneHeap(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
