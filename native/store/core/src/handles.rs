//! One RocksDB handle per folder for the whole process, shared by every thread that opens it
//! (RocksDB allows one open handle per folder).

use crate::StoreError;
use oxigraph::store::Store;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

struct Entry {
    store: Arc<Store>,
    /// Opens not yet released, over all threads.
    users: usize,
}

fn registry() -> &'static Mutex<HashMap<String, Entry>> {
    static REGISTRY: OnceLock<Mutex<HashMap<String, Entry>>> = OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(HashMap::new()))
}

fn key(path: &str) -> String {
    std::fs::canonicalize(path)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| path.to_string())
}

/// The shared handle of `path`, opening (and creating) the store on first use.
pub fn open_shared(path: &str) -> Result<Arc<Store>, StoreError> {
    std::fs::create_dir_all(path).map_err(StoreError::failed)?;
    let k = key(path);
    let mut map = registry().lock().map_err(StoreError::failed)?;
    if let Some(e) = map.get_mut(&k) {
        e.users += 1;
        return Ok(e.store.clone());
    }
    let store = Arc::new(Store::open(path).map_err(StoreError::failed)?);
    map.insert(k, Entry { store: store.clone(), users: 1 });
    Ok(store)
}

/// One user of `path` is done; with the last, the registry drops its handle (RocksDB closes once running
/// queries, which hold their own reference, end).
pub fn release(path: &str) {
    let k = key(path);
    if let Ok(mut map) = registry().lock() {
        if let Some(e) = map.get_mut(&k) {
            e.users -= 1;
            if e.users == 0 {
                map.remove(&k);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_opens_share_one_handle_and_release_closes_it() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().to_str().unwrap();
        let a = open_shared(p).unwrap();
        let b = open_shared(p).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        release(p);
        release(p);
        drop((a, b));
        // the folder can be opened again once every user let go
        let c = open_shared(p).unwrap();
        release(p);
        drop(c);
    }
}
