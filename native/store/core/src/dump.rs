//! The named graphs of a store as N-Quads text in chunks, read over one snapshot: what a graph export
//! streams (src/store/backup/graph-export.ts).

use crate::writes::BULK_GATE;
use crate::StoreError;
use oxigraph::model::GraphName;
use oxigraph::store::{QuadIter, Store};
use std::fmt::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

enum State {
    /// Not read yet: the snapshot is taken by the first `next_chunk`.
    Ready(Arc<Store>),
    /// Oxigraph's `QuadIter<'static>` owns its reader, the RocksDB snapshot.
    Reading(QuadIter<'static>),
    /// At the end, or closed: the snapshot is let go.
    Done,
}

/// A walk over every quad of a store's named graphs, leaving out the default graph and the graphs whose
/// IRI starts with one of `skip_prefixes`, over one RocksDB snapshot taken by the first `next_chunk`:
/// writes made later are not seen, and it never falls between the two steps of a bulk write
/// ([`BULK_GATE`]), so it holds whole writes only. On RocksDB each graph's quads come together (the GSPO
/// index, after the default graph's DSPO one).
pub struct GraphDump {
    state: State,
    skip_prefixes: Vec<String>,
    /// Quads of named graphs left out so far.
    skipped: u64,
    /// Set by another thread to end the dump (see [`GraphDump::stopper`]).
    stop: Arc<AtomicBool>,
}

impl GraphDump {
    pub fn new(store: Arc<Store>, skip_prefixes: Vec<String>) -> Self {
        GraphDump { state: State::Ready(store), skip_prefixes, skipped: 0, stop: Arc::new(AtomicBool::new(false)) }
    }

    /// The next N-Quads lines, whole ones, until the text reaches `max_bytes` (at least one line), or None
    /// at the end. The first call may wait for a bulk write under way.
    pub fn next_chunk(&mut self, max_bytes: usize) -> Result<Option<String>, StoreError> {
        if self.stop.load(Ordering::Relaxed) {
            self.state = State::Done;
        }
        if let State::Ready(store) = &self.state {
            let _gate = BULK_GATE.read().unwrap_or_else(|e| e.into_inner());
            self.state = State::Reading(store.iter());
        }
        let State::Reading(quads) = &mut self.state else { return Ok(None) };
        let mut out = String::with_capacity(max_bytes.min(1 << 24) + 1024);
        let mut seen = 0u32;
        while out.len() < max_bytes {
            seen = seen.wrapping_add(1);
            // a call may walk far through left-out graphs: it looks at the stop flag now and then
            if seen % 4096 == 0 && self.stop.load(Ordering::Relaxed) {
                self.state = State::Done;
                return Ok(None);
            }
            let Some(q) = quads.next() else {
                self.state = State::Done;
                break;
            };
            let q = q.map_err(StoreError::failed)?;
            let keep = match &q.graph_name {
                GraphName::DefaultGraph => false,
                GraphName::NamedNode(g) => !self.skip_prefixes.iter().any(|p| g.as_str().starts_with(p.as_str())),
                GraphName::BlankNode(_) => true,
            };
            if keep {
                let _ = writeln!(out, "{q} .");
            } else if !q.graph_name.is_default_graph() {
                self.skipped += 1;
            }
        }
        Ok(if out.is_empty() { None } else { Some(out) })
    }

    /// The quads of named graphs left out so far (those under a skipped prefix).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// A flag that, once set, ends the dump from another thread while a `next_chunk` runs: its call
    /// returns None within a few thousand quads, and so does every later one.
    pub fn stopper(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Lets go of the snapshot (or the store, before the first read) before the end.
    pub fn close(&mut self) {
        self.state = State::Done;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxigraph::io::RdfFormat;
    use std::collections::BTreeSet;

    const DATA: &str = "<urn:d> <urn:p> \"default\" .\n\
        <urn:a> <urn:p> \"a1\" <urn:a> .\n\
        <urn:a> <urn:p> \"a2 with a longer literal\" <urn:a> .\n\
        <urn:a> <urn:q> <urn:b> <urn:a> .\n\
        <urn:b> <urn:p> \"b1\" <urn:b> .\n\
        <urn:b> <urn:p> \"b \\\"quoted\\\"\\nline\" <urn:b> .\n\
        <urn:h> <urn:p> \"skipped\" <urn:skip:h> .\n\
        <urn:c> <urn:p> \"c1\" <urn:c> .\n";

    fn loaded(store: &Store) {
        store.load_from_slice(RdfFormat::NQuads, DATA).unwrap();
    }

    fn all_chunks(dump: &mut GraphDump, max_bytes: usize) -> Vec<String> {
        let mut chunks = Vec::new();
        while let Some(c) = dump.next_chunk(max_bytes).unwrap() {
            chunks.push(c);
        }
        chunks
    }

    fn expected() -> BTreeSet<String> {
        DATA.lines().filter(|l| !l.contains("default") && !l.contains("urn:skip:")).map(String::from).collect()
    }

    #[test]
    fn every_named_quad_once_in_chunks_of_whole_lines_without_default_or_skipped_graphs() {
        let store = Arc::new(Store::new().unwrap());
        loaded(&store);
        for max_bytes in [1, 40, 100, 1 << 20] {
            let mut dump = GraphDump::new(store.clone(), vec!["urn:skip:".into()]);
            let chunks = all_chunks(&mut dump, max_bytes);
            assert!(chunks.iter().all(|c| c.ends_with(" .\n")), "whole lines");
            if max_bytes == 1 {
                assert!(chunks.iter().all(|c| c.lines().count() == 1), "at least one line per chunk");
            }
            let lines: Vec<String> = chunks.iter().flat_map(|c| c.lines().map(String::from)).collect();
            assert_eq!(lines.len(), 6, "each quad once");
            assert_eq!(lines.into_iter().collect::<BTreeSet<_>>(), expected());
            assert_eq!(dump.next_chunk(max_bytes).unwrap(), None, "stays at the end");
            assert_eq!(dump.skipped(), 1, "the skipped graph's quad, not the default graph's");
        }
    }

    #[test]
    fn on_rocksdb_each_graph_comes_together_and_later_writes_are_not_seen() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(dir.path()).unwrap());
        loaded(&store);
        let mut dump = GraphDump::new(store.clone(), vec!["urn:skip:".into()]);
        let first = dump.next_chunk(1).unwrap().unwrap();
        store.load_from_slice(RdfFormat::NQuads, "<urn:a> <urn:p> \"later\" <urn:a> .\n").unwrap();
        store.clear_graph(oxigraph::model::NamedNodeRef::new("urn:c").unwrap()).unwrap();
        let mut lines: Vec<String> = first.lines().map(String::from).collect();
        for c in all_chunks(&mut dump, 1) {
            lines.extend(c.lines().map(String::from));
        }
        assert_eq!(lines.iter().cloned().collect::<BTreeSet<_>>(), expected(), "the state at the start");
        let graphs: Vec<&str> = lines.iter().map(|l| l.rsplit(' ').nth(1).unwrap()).collect();
        let mut runs = graphs.clone();
        runs.dedup();
        assert_eq!(runs.len(), 3, "one run per graph: {graphs:?}");
    }

    #[test]
    fn closed_or_stopped_dump_ends() {
        let store = Arc::new(Store::new().unwrap());
        loaded(&store);
        let mut dump = GraphDump::new(store.clone(), Vec::new());
        dump.close();
        assert_eq!(dump.next_chunk(100).unwrap(), None);
        let mut dump = GraphDump::new(store, Vec::new());
        assert!(dump.next_chunk(1).unwrap().is_some());
        // another thread's flag (what the addon's close sets while a call runs) ends it
        dump.stopper().store(true, Ordering::Relaxed);
        assert_eq!(dump.next_chunk(1).unwrap(), None);
        assert_eq!(dump.next_chunk(1).unwrap(), None, "and it stays ended");
    }

    #[test]
    fn a_dump_never_starts_between_the_two_steps_of_a_bulk_write() {
        use crate::writes::{apply_with, WriteKind, WriteOp};
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(dir.path()).unwrap());
        let graphs = 50;
        let generation = move |n: usize| -> Vec<WriteOp> {
            (0..graphs)
                .flat_map(|g| {
                    let graph = format!("urn:g:{g}");
                    let triples = format!("<{graph}> <urn:gen> \"{n}\" .\n<{graph}> <urn:p> \"{g}\" .\n");
                    [
                        WriteOp { kind: WriteKind::Clear, graph: graph.clone(), subject: None, triples: Vec::new() },
                        WriteOp { kind: WriteKind::Insert, graph, subject: None, triples: triples.into_bytes() },
                    ]
                })
                .collect()
        };
        apply_with(&store, &generation(0), false, 1).unwrap();
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writer = {
            let (store, done) = (store.clone(), done.clone());
            std::thread::spawn(move || {
                let mut n = 1;
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    // every write takes the bulk path: removals committed, then the inserts ingested
                    apply_with(&store, &generation(n), false, 1).unwrap();
                    n += 1;
                }
                n
            })
        };
        for _ in 0..200 {
            let mut dump = GraphDump::new(store.clone(), Vec::new());
            let text = all_chunks(&mut dump, 1 << 20).concat();
            let gens: BTreeSet<&str> =
                text.lines().filter(|l| l.contains("<urn:gen>")).map(|l| l.split('"').nth(1).unwrap()).collect();
            assert_eq!(text.lines().count(), 2 * graphs, "every graph whole");
            assert_eq!(gens.len(), 1, "one write's state: {gens:?}");
        }
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(writer.join().unwrap() > 1, "writes went on meanwhile");
    }
}
