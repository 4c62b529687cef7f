//! Work on a thread of its own, settled as a JavaScript promise. Not libuv's pool: a long SPARQL query
//! there would hold a thread that file I/O (the journal's writes) waits for.

use napi::bindgen_prelude::*;

/// Runs `work` on a new thread named `name`; the returned promise settles with its result.
pub fn spawn<'env, T, F>(env: &'env Env, name: &str, work: F) -> Result<Object<'env>>
where
    T: ToNapiValue + Send + 'static,
    F: FnOnce() -> Result<T> + Send + 'static,
{
    let (deferred, promise) = env.create_deferred()?;
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || match work() {
            Ok(v) => deferred.resolve(move |_| Ok(v)),
            Err(e) => deferred.reject(e),
        })
        .map_err(|e| Error::from_reason(format!("Failed: cannot start a thread: {e}")))?;
    Ok(promise)
}

/// Lowers the calling thread's CPU priority (nice 10) on Linux, so a long query yields the cores to
/// the HTTP and store threads; elsewhere, or when refused, it runs at normal priority.
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}
