/*
 * glibc calls Node does not expose (docs/performance.md "Session 5: glibc's free memory"):
 *   trimAsync()      -> malloc_trim(0): gives the free pages inside every malloc arena back to the kernel
 *                       (glibc's free() only ever shrinks the top of an arena); a Promise of 1 if memory
 *                       was released.
 *   freeBytesAsync() -> mallinfo2().fordblks: bytes in free chunks over all arenas (resident or already
 *                       trimmed), a Promise; -1 when unknown.
 * Both run on a libuv pool thread: they walk every free chunk of every arena (2.5 ms for 100k free chunks),
 * and the calling thread runs on meanwhile (it only waits if it mallocs in an arena they hold).
 * On a C library other than glibc they are no-ops (0 and -1).
 *   reduceHeap()     -> V8's moderate memory-pressure signal for the calling thread's isolate
 *                       (heap_pressure.cc): an incremental GC that gives free heap pages back; returns at
 *                       once, synchronously, on the JS thread (an isolate cannot be signalled from the pool).
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static double DoTrim(void) {
#if defined(__GLIBC__)
  return malloc_trim(0);
#else
  return 0;
#endif
}

static double DoFreeBytes(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 mi = mallinfo2();
  return (double)mi.fordblks;
#else
  return -1;
#endif
}

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  double (*call)(void);
  double result;
} Job;

static void Execute(napi_env env, void *data) {
  (void)env;
  Job *job = (Job *)data;
  job->result = job->call();
}

static void Complete(napi_env env, napi_status status, void *data) {
  Job *job = (Job *)data;
  napi_value out;
  napi_create_double(env, status == napi_ok ? job->result : -1, &out);
  napi_resolve_deferred(env, job->deferred, out);
  napi_delete_async_work(env, job->work);
  free(job);
}

static napi_value Queue(napi_env env, double (*call)(void)) {
  napi_value promise, name;
  Job *job = (Job *)calloc(1, sizeof(Job));
  if (job == NULL) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  job->call = call;
  napi_create_promise(env, &job->deferred, &promise);
  napi_create_string_utf8(env, "malloc_trim", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, NULL, name, Execute, Complete, job, &job->work);
  napi_queue_async_work(env, job->work);
  return promise;
}

static napi_value TrimAsync(napi_env env, napi_callback_info info) {
  (void)info;
  return Queue(env, DoTrim);
}

static napi_value FreeBytesAsync(napi_env env, napi_callback_info info) {
  (void)info;
  return Queue(env, DoFreeBytes);
}

int citygraph_reduce_heap(void); /* heap_pressure.cc */

static napi_value ReduceHeap(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value out;
  napi_get_boolean(env, citygraph_reduce_heap() != 0, &out);
  return out;
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"trimAsync", NULL, TrimAsync, NULL, NULL, NULL, napi_default, NULL},
      {"freeBytesAsync", NULL, FreeBytesAsync, NULL, NULL, NULL, napi_default, NULL},
      {"reduceHeap", NULL, ReduceHeap, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
