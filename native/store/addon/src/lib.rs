//! The Node-API face of citygraph's store engine (`citygraph-store-core`): a `NativeStore` class over one
//! RocksDB folder, SPARQL on threads of its own resolved as promises, a dump of its named graphs, and the
//! process's malloc controls (docs/decisions/0019-native-store.md). Errors carry a code: `Refused` for the
//! caller's input, `Cancelled` for a stopped query, `Failed` for the store.

mod malloc;
mod promise;

use citygraph_store_core as core;
use core::{CancellationToken, Store, StoreError, WriteKind};
use napi::bindgen_prelude::*;
use napi::Task;
use napi_derive::napi;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

pub(crate) fn to_js(e: StoreError) -> Error {
    let code = match e {
        StoreError::Refused(_) => "Refused",
        StoreError::Cancelled => "Cancelled",
        StoreError::Failed(_) => "Failed",
    };
    Error::new(Status::GenericFailure, format!("{code}: {e}"))
}

/// One operation of a write (see `NativeStore.apply`).
#[napi(object)]
pub struct WriteOp {
    /// "clear" | "clearSubject" | "insert" | "delete" | "insertQuads".
    pub op: String,
    /// A named graph's IRI, or "" for the default graph.
    pub graph: String,
    /// The subject (`<iri>`) of a clearSubject.
    pub subject: Option<String>,
    /// N-Triples of an insert or delete.
    pub triples: Option<Buffer>,
}

/// A serialized SPARQL answer.
#[napi(object)]
pub struct QueryAnswer {
    pub body: String,
    pub rows: u32,
    pub truncated: bool,
}

impl From<core::QueryAnswer> for QueryAnswer {
    fn from(a: core::QueryAnswer) -> Self {
        QueryAnswer { body: a.body, rows: a.rows as u32, truncated: a.truncated }
    }
}

/// Stops a running query (`NativeStore.query`): its promise rejects with code Cancelled.
#[napi]
pub struct QueryCancel {
    token: CancellationToken,
}

#[napi]
impl QueryCancel {
    #[napi(constructor)]
    pub fn new() -> Self {
        QueryCancel { token: CancellationToken::new() }
    }

    #[napi]
    pub fn cancel(&self) {
        self.token.cancel();
    }
}

impl Default for QueryCancel {
    fn default() -> Self {
        Self::new()
    }
}

/// An open Oxigraph store: a RocksDB folder shared by every thread of the process, or an empty store in
/// memory (what a query over a tenant that holds nothing runs on).
#[napi]
pub struct NativeStore {
    /// None once closed.
    store: Option<Arc<Store>>,
    path: Option<String>,
}

impl NativeStore {
    fn store(&self) -> Result<&Arc<Store>> {
        self.store.as_ref().ok_or_else(|| Error::new(Status::GenericFailure, "Failed: the store is closed"))
    }
}

fn kind_of(op: &str) -> Result<WriteKind> {
    Ok(match op {
        "clear" => WriteKind::Clear,
        "clearSubject" => WriteKind::ClearSubject,
        "insert" => WriteKind::Insert,
        "delete" => WriteKind::Delete,
        "insertQuads" => WriteKind::InsertQuads,
        other => return Err(Error::new(Status::InvalidArg, format!("unknown write op {other}"))),
    })
}

#[napi]
impl NativeStore {
    /// Opens (creating) the store in `path`; every open of one folder in this process shares one handle.
    #[napi(factory)]
    pub fn open(path: String) -> Result<NativeStore> {
        let store = core::open_shared(&path).map_err(to_js)?;
        Ok(NativeStore { store: Some(store), path: Some(path) })
    }

    #[napi(factory)]
    pub fn in_memory() -> Result<NativeStore> {
        let store = Store::new().map_err(|e| to_js(StoreError::Failed(e.to_string())))?;
        Ok(NativeStore { store: Some(Arc::new(store)), path: None })
    }

    /// Applies `ops` (one RocksDB transaction, or for a large write its removals in one and its inserts
    /// by the bulk loader: core `apply`) and returns the change in quads. `lenient` skips IRI
    /// validation, for text a strict parse accepted before (journal replay). A "Refused:" error applied
    /// nothing; after a "Failed:" one the store may hold part of the write.
    #[napi]
    pub fn apply(&self, ops: Vec<WriteOp>, lenient: Option<bool>) -> Result<i64> {
        let ops = ops
            .into_iter()
            .map(|o| {
                Ok(core::WriteOp {
                    kind: kind_of(&o.op)?,
                    graph: o.graph,
                    subject: o.subject,
                    triples: o.triples.map(|b| b.to_vec()).unwrap_or_default(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        core::apply(self.store()?, &ops, lenient.unwrap_or(false)).map_err(to_js)
    }

    /// Loads N-Quads in bulk (not atomic): imports and restores into an empty store.
    #[napi]
    pub fn bulk_load_nquads(&self, data: Buffer) -> Result<()> {
        core::bulk_load_nquads(self.store()?, &data).map_err(to_js)
    }

    /// The N-Triples of each graph ("" = the default graph), or null where it holds no quad.
    #[napi]
    pub fn read_graphs(&self, graphs: Vec<String>) -> Result<Vec<Option<String>>> {
        graphs.iter().map(|g| core::read_graph(self.store()?, g).map_err(to_js)).collect()
    }

    /// `readGraphs` on libuv's thread pool (a read takes well under a millisecond), over the state at
    /// the call: the caller goes on applying writes meanwhile.
    #[napi(ts_return_type = "Promise<Array<string | null>>")]
    pub fn read_graphs_async(&self, graphs: Vec<String>) -> Result<AsyncTask<ReadGraphs>> {
        Ok(AsyncTask::new(ReadGraphs { store: self.store()?.clone(), graphs }))
    }

    /// The quads of a pattern (terms in N-Triples syntax, null for any; graph "" = default) as N-Quads.
    #[napi]
    pub fn quads_for_pattern(
        &self,
        subject: Option<String>,
        predicate: Option<String>,
        object: Option<String>,
        graph: Option<String>,
        limit: Option<u32>,
    ) -> Result<String> {
        core::quads_for_pattern(
            self.store()?,
            subject.as_deref(),
            predicate.as_deref(),
            object.as_deref(),
            graph.as_deref(),
            limit.map_or(usize::MAX, |l| l as usize),
        )
        .map_err(to_js)
    }

    /// Every quad counted (a full scan: at start and in tests, not per request).
    #[napi]
    pub fn count_quads(&self) -> Result<f64> {
        Ok(self.store()?.len().map_err(|e| to_js(StoreError::Failed(e.to_string())))? as f64)
    }

    /// The count of `countQuads` on a thread of its own, over a snapshot taken at the call.
    #[napi(ts_return_type = "Promise<number>")]
    pub fn count_quads_async<'env>(&self, env: &'env Env) -> Result<Object<'env>> {
        let store = self.store()?.clone();
        promise::spawn(env, "citygraph-count", move || {
            store.len().map(|n| n as f64).map_err(|e| to_js(StoreError::Failed(e.to_string())))
        })
    }

    /// Runs a query on this thread (the store's own short queries); see `query`.
    #[napi]
    pub fn query_sync(&self, sparql: String, format: String, max_rows: u32) -> Result<QueryAnswer> {
        core::run_query(self.store()?, &sparql, &format, max_rows as usize, None)
            .map(QueryAnswer::from)
            .map_err(to_js)
    }

    /// Runs a read query on a thread of its own, over a snapshot of the store taken as it starts, and
    /// resolves with the answer in `format` (json, xml, csv, tsv; turtle, ntriples, nquads, jsonld), cut
    /// after `maxRows` rows. `cancel.cancel()` stops it.
    #[napi(ts_return_type = "Promise<QueryAnswer>")]
    pub fn query<'env>(
        &self,
        env: &'env Env,
        sparql: String,
        format: String,
        max_rows: u32,
        cancel: &QueryCancel,
    ) -> Result<Object<'env>> {
        let store = self.store()?.clone();
        let token = cancel.token.clone();
        promise::spawn(env, "citygraph-sparql", move || {
            promise::lower_priority();
            core::run_query(&store, &sparql, &format, max_rows as usize, Some(token))
                .map(QueryAnswer::from)
                .map_err(to_js)
        })
    }

    /// The N-Quads of every named graph except those whose IRI starts with one of `skipPrefixes`, read
    /// chunk by chunk over one snapshot taken by the first `next` (a graph export: core `GraphDump`).
    #[napi]
    pub fn dump_named_graphs(&self, skip_prefixes: Vec<String>) -> Result<GraphDump> {
        let dump = core::GraphDump::new(self.store()?.clone(), skip_prefixes);
        Ok(GraphDump { stop: dump.stopper(), dump: Arc::new(Mutex::new(dump)) })
    }

    /// Writes the memtables to synced SST files: every write applied before the call survives a crash.
    #[napi]
    pub fn flush(&self) -> Result<()> {
        self.store()?.flush().map_err(|e| to_js(StoreError::Failed(e.to_string())))
    }

    /// `flush` on a thread of its own, so the caller goes on serving reads and writes meanwhile.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn flush_async<'env>(&self, env: &'env Env) -> Result<Object<'env>> {
        let store = self.store()?.clone();
        promise::spawn(env, "citygraph-flush", move || {
            store.flush().map_err(|e| to_js(StoreError::Failed(e.to_string())))
        })
    }

    /// An online backup: a RocksDB checkpoint in `dir` (a new folder), taken on a thread of its own while
    /// the caller goes on applying writes. It holds every write applied before the call, and perhaps some
    /// applied during it.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn checkpoint<'env>(&self, env: &'env Env, dir: String) -> Result<Object<'env>> {
        let store = self.store()?.clone();
        promise::spawn(env, "citygraph-checkpoint", move || {
            store.backup(dir).map_err(|e| to_js(StoreError::Failed(e.to_string())))
        })
    }

    /// Compacts RocksDB's levels, giving back the disk of deleted data.
    #[napi]
    pub fn optimize(&self) -> Result<()> {
        self.store()?.optimize().map_err(|e| to_js(StoreError::Failed(e.to_string())))
    }

    /// The folder (undefined in memory).
    #[napi(getter)]
    pub fn path(&self) -> Option<String> {
        self.path.clone()
    }

    /// Lets go of this handle; the folder closes once no thread of the process holds it.
    #[napi]
    pub fn close(&mut self) {
        self.store = None;
        if let Some(p) = self.path.take() {
            core::release(&p);
        }
    }
}

/// The named graphs of a store over one snapshot (`NativeStore.dumpNamedGraphs`); it holds the snapshot,
/// and the store open, until its end or `close`.
#[napi]
pub struct GraphDump {
    dump: Arc<Mutex<core::GraphDump>>,
    /// Ends a `nextAsync` under way without waiting for it (`close`).
    stop: Arc<AtomicBool>,
}

fn next_chunk(dump: &Mutex<core::GraphDump>, max_bytes: u32) -> Result<Option<String>> {
    let mut d = dump.lock().map_err(|e| to_js(StoreError::Failed(e.to_string())))?;
    d.next_chunk(max_bytes as usize).map_err(to_js)
}

#[napi]
impl GraphDump {
    /// The next N-Quads lines, whole ones, about `maxBytes` of them, or null at the end.
    #[napi]
    pub fn next(&self, max_bytes: u32) -> Result<Option<String>> {
        next_chunk(&self.dump, max_bytes)
    }

    /// `next` on a thread of its own at low priority: decoding the quads (a string-table read per IRI)
    /// costs microseconds a quad, which an export of a large tenant would otherwise take from the caller.
    /// Calls run one after the other.
    #[napi(ts_return_type = "Promise<string | null>")]
    pub fn next_async<'env>(&self, env: &'env Env, max_bytes: u32) -> Result<Object<'env>> {
        let dump = self.dump.clone();
        promise::spawn(env, "citygraph-export", move || {
            promise::lower_priority();
            next_chunk(&dump, max_bytes)
        })
    }

    /// The quads of named graphs left out so far (under a skipped prefix).
    #[napi(getter)]
    pub fn skipped_quads(&self) -> Result<f64> {
        let d = self.dump.lock().map_err(|e| to_js(StoreError::Failed(e.to_string())))?;
        Ok(d.skipped() as f64)
    }

    /// Lets go of the snapshot before the end, at once, or for a `nextAsync` under way as it stops (a
    /// few thousand quads later), without waiting for it.
    #[napi]
    pub fn close(&self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut d) = self.dump.try_lock() {
            d.close();
        }
    }
}

pub use malloc::{free_bytes_async, reduce_heap, trim_async};

/// An import (N-Quads or TriG) grouped by named graph.
#[napi(object)]
pub struct GroupedQuads {
    /// N-Quads, each named graph's lines together.
    pub nquads: String,
    pub quads: u32,
    pub graphs: u32,
    /// Quads left out: in the default graph or under the skipped prefix.
    pub skipped: u32,
}

/// Parses an import strictly (`nquads` or `trig`) and groups its quads by named graph, leaving out the
/// default graph and the graphs whose IRI starts with `skipPrefix`.
#[napi]
pub fn group_by_graph(data: Buffer, format: String, skip_prefix: String) -> Result<GroupedQuads> {
    let g = core::group_by_graph(&data, &format, &skip_prefix).map_err(to_js)?;
    Ok(GroupedQuads { nquads: g.nquads, quads: g.quads as u32, graphs: g.graphs as u32, skipped: g.skipped as u32 })
}

/// The work of `readGraphsAsync`.
pub struct ReadGraphs {
    store: Arc<Store>,
    graphs: Vec<String>,
}

impl Task for ReadGraphs {
    type Output = Vec<Option<String>>;
    type JsValue = Vec<Option<String>>;

    fn compute(&mut self) -> Result<Self::Output> {
        self.graphs.iter().map(|g| core::read_graph(&self.store, g).map_err(to_js)).collect()
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> Result<Self::JsValue> {
        Ok(output)
    }
}
