/*
 * Two glibc calls Node does not expose (docs/performance.md "Session 5: glibc's free memory"):
 *   trim()      -> malloc_trim(0): gives the free pages inside every malloc arena back to the kernel
 *                  (glibc's free() only ever shrinks the top of an arena); returns 1 if memory was released.
 *   trimAsync() -> the same on a libuv pool thread, a Promise of its result: the calling thread runs on
 *                  (it only waits if it mallocs in an arena while that arena is being trimmed).
 *   freeBytes() -> mallinfo2().fordblks: bytes in free chunks over all arenas (resident or already trimmed).
 * On a C library other than glibc these are no-ops (trim() -> 0, freeBytes() -> -1).
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdlib.h>
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif

static int DoTrim(void) {
#if defined(__GLIBC__)
  return malloc_trim(0);
#else
  return 0;
#endif
}

static napi_value Trim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value out;
  napi_create_int32(env, DoTrim(), &out);
  return out;
}

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  int released;
} TrimJob;

static void TrimExecute(napi_env env, void *data) {
  (void)env;
  ((TrimJob *)data)->released = DoTrim();
}

static void TrimComplete(napi_env env, napi_status status, void *data) {
  TrimJob *job = (TrimJob *)data;
  napi_value out;
  napi_create_int32(env, status == napi_ok ? job->released : 0, &out);
  napi_resolve_deferred(env, job->deferred, out);
  napi_delete_async_work(env, job->work);
  free(job);
}

static napi_value TrimAsync(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value promise, name;
  TrimJob *job = (TrimJob *)calloc(1, sizeof(TrimJob));
  if (job == NULL) return NULL;
  napi_create_promise(env, &job->deferred, &promise);
  napi_create_string_utf8(env, "malloc_trim", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, NULL, name, TrimExecute, TrimComplete, job, &job->work);
  napi_queue_async_work(env, job->work);
  return promise;
}

static napi_value FreeBytes(napi_env env, napi_callback_info info) {
  (void)info;
  double bytes = -1;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 mi = mallinfo2();
  bytes = (double)mi.fordblks;
#endif
  napi_value out;
  napi_create_double(env, bytes, &out);
  return out;
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"trim", NULL, Trim, NULL, NULL, NULL, napi_default, NULL},
      {"trimAsync", NULL, TrimAsync, NULL, NULL, NULL, napi_default, NULL},
      {"freeBytes", NULL, FreeBytes, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
