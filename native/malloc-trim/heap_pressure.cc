/*
 * V8's memory-pressure signal for the calling thread's isolate (docs/performance.md "Session 6: the heap
 * left behind by a fill"). MemoryPressureNotification(kModerate) starts an incremental, concurrent
 * mark-compact with V8's "reduce memory footprint" flag, and returns at once: the sweeper then gives the
 * free space inside V8's pages back to the kernel, and the dead Buffers' backing stores (glibc memory) are
 * freed. Neither a GC V8 starts itself nor Node's gc() does this: after a 100k-entity fill both leave the
 * main thread's heap resident at its peak. Called only from the isolate's own thread (JS), never from the
 * libuv pool, so the isolate is the current one.
 */
#include <v8.h>

extern "C" int citygraph_reduce_heap(void) {
  v8::Isolate *isolate = v8::Isolate::GetCurrent();
  if (isolate == nullptr) return 0;
  isolate->MemoryPressureNotification(v8::MemoryPressureLevel::kModerate);
  return 1;
}
