//! glibc's `malloc_trim` and free-chunk figures, and V8's memory-pressure signal
//! (docs/decisions/0004-malloc-trim-and-heap-reduce.md; src/runtime/malloc-trim.ts calls them).

use crate::promise;
use napi::bindgen_prelude::*;
use napi_derive::napi;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() -> f64 {
    unsafe { libc::malloc_trim(0) as f64 }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn free_bytes() -> f64 {
    unsafe { libc::mallinfo2().fordblks as f64 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() -> f64 {
    0.0
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn free_bytes() -> f64 {
    -1.0
}

/// `malloc_trim(0)` off the JavaScript thread: 1 if memory was released.
#[napi(ts_return_type = "Promise<number>")]
pub fn trim_async(env: &Env) -> Result<Object<'_>> {
    promise::spawn(env, "citygraph-trim", || Ok(trim()))
}

/// `mallinfo2().fordblks` off the JavaScript thread: bytes in free chunks over all arenas, -1 if unknown.
#[napi(ts_return_type = "Promise<number>")]
pub fn free_bytes_async(env: &Env) -> Result<Object<'_>> {
    promise::spawn(env, "citygraph-mallinfo", || Ok(free_bytes()))
}

// V8's C++ API as the node binary exports it (Itanium mangling, x86-64 and aarch64 Linux): the
// addon is built without Node's headers, so it names the two calls it needs.
#[cfg(target_os = "linux")]
extern "C" {
    #[link_name = "_ZN2v87Isolate10GetCurrentEv"]
    fn v8_isolate_get_current() -> *mut std::ffi::c_void;
    #[link_name = "_ZN2v87Isolate26MemoryPressureNotificationENS_19MemoryPressureLevelE"]
    fn v8_memory_pressure_notification(isolate: *mut std::ffi::c_void, level: i32);
}

/// V8's moderate memory-pressure signal for the calling thread's isolate: starts a GC that gives free
/// heap pages back, and returns at once (src/runtime/heap-reduce.ts). Call it from JavaScript only.
#[napi]
pub fn reduce_heap() -> bool {
    #[cfg(target_os = "linux")]
    unsafe {
        let isolate = v8_isolate_get_current();
        if isolate.is_null() {
            return false;
        }
        v8_memory_pressure_notification(isolate, 1); // MemoryPressureLevel::kModerate
        true
    }
    #[cfg(not(target_os = "linux"))]
    false
}
