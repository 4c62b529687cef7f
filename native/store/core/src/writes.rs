//! Atomic writes: one call, one RocksDB transaction, all of its operations or none.

use crate::terms::{graph_name, subject};
use crate::StoreError;
use oxigraph::io::{RdfFormat, RdfParser};
use oxigraph::model::{BlankNode, GraphName, GraphNameRef, NamedOrBlankNode, Quad, Term};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{OnceLock, RwLock};
use oxigraph::store::{Store, Transaction};

/// What one operation of a write does to its graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    /// Removes every quad of the graph (and a named graph's name).
    Clear,
    /// Removes the quads of the graph whose subject is `subject`.
    ClearSubject,
    /// Adds the N-Triples `triples` to the graph; blank-node labels are scoped to this operation.
    Insert,
    /// Removes the N-Triples `triples` (which hold no blank node) from the graph.
    Delete,
    /// Adds the N-Quads `triples` (each line names its graph; `graph` is not used), blank-node labels
    /// scoped to this operation.
    InsertQuads,
}

/// One operation of a write. `graph` is a named graph's IRI, or "" for the default graph.
#[derive(Debug, Clone)]
pub struct WriteOp {
    pub kind: WriteKind,
    pub graph: String,
    /// The subject (`<iri>`) of a ClearSubject.
    pub subject: Option<String>,
    /// N-Triples of an Insert or Delete.
    pub triples: Vec<u8>,
}

/// Inserted quads from which a write takes the bulk path (see [`apply`]). Below it a transaction is
/// cheaper: each bulk load ingests SST files of its own, and many small ones slow reads until RocksDB
/// has compacted them.
pub const BULK_MIN_QUADS: usize = 10_000;

/// Applies `ops` and returns the change in quads (inserted minus removed; a triple given twice in one
/// insert counts twice). `lenient` parses without validating IRIs: for text a strict parse accepted
/// before (journal replay). Every insert is parsed before anything is written, so bad text refuses the
/// whole write with nothing applied.
///
/// A write of fewer than [`BULK_MIN_QUADS`] inserted quads is one RocksDB transaction. A larger one is
/// its removals in one transaction, then its inserts through Oxigraph's bulk loader (sorted SST files
/// ingested at once): several times faster than a transaction, which puts every key of every index
/// into the memtable's skip list. The result is the same; a query that runs between the two steps may
/// see the removed graphs gone and the new ones not yet there (a graph dump does not: [`BULK_GATE`]). If
/// the bulk step fails after the removals were committed, the error says so ([`StoreError::Failed`]) and
/// the store no longer holds a consistent state: the caller rebuilds it from its journal.
pub fn apply(store: &Store, ops: &[WriteOp], lenient: bool) -> Result<i64, StoreError> {
    apply_with(store, ops, lenient, BULK_MIN_QUADS)
}

/// Held for writing across the two steps of a bulk write, and for reading while a [`crate::GraphDump`]
/// takes its snapshot: no dump starts between a write's removals and its inserts. One for the process,
/// since the store worker applies its writes one at a time anyway.
pub(crate) static BULK_GATE: RwLock<()> = RwLock::new(());

/// [`apply`] with the bulk threshold given.
pub fn apply_with(store: &Store, ops: &[WriteOp], lenient: bool, bulk_min_quads: usize) -> Result<i64, StoreError> {
    let inserts = ops
        .iter()
        .map(|op| parse_insert(op, lenient))
        .collect::<Result<Vec<_>, _>>()?;
    let inserted: usize = inserts.iter().map(Vec::len).sum();
    if inserted >= bulk_min_quads {
        apply_bulk(store, ops, inserts)
    } else {
        apply_transaction(store, ops, inserts)
    }
}

/// The quads an Insert or InsertQuads adds (fresh blank nodes); empty for other operations.
fn parse_insert(op: &WriteOp, lenient: bool) -> Result<Vec<Quad>, StoreError> {
    let parser = match op.kind {
        WriteKind::Insert => parser(&graph_name(&op.graph)?, lenient),
        WriteKind::InsertQuads => {
            let p = RdfParser::from_format(RdfFormat::NQuads);
            if lenient {
                p.lenient()
            } else {
                p
            }
        }
        _ => return Ok(Vec::new()),
    };
    let mut labels = HashMap::new();
    parser
        .for_slice(&op.triples)
        .map(|q| {
            q.map(|q| relabel(q, &mut labels)).map_err(|e| match op.kind {
                WriteKind::Insert => StoreError::Refused(format!("invalid N-Triples for {}: {e}", op.graph)),
                _ => StoreError::Refused(format!("invalid N-Quads: {e}")),
            })
        })
        .collect()
}

/// One transaction, the operations in their order.
fn apply_transaction(store: &Store, ops: &[WriteOp], inserts: Vec<Vec<Quad>>) -> Result<i64, StoreError> {
    let mut tx = store.start_transaction().map_err(StoreError::failed)?;
    let mut delta = 0i64;
    for (op, quads) in ops.iter().zip(inserts) {
        delta += match op.kind {
            WriteKind::Insert | WriteKind::InsertQuads => {
                for q in &quads {
                    tx.insert(q);
                }
                quads.len() as i64
            }
            _ => remove(&mut tx, op)?,
        };
    }
    tx.commit().map_err(StoreError::failed)?;
    Ok(delta)
}

/// The quads still to insert, by graph and subject, so that a later removal in the same write can drop
/// the ones it would have removed.
type Pending = HashMap<GraphName, HashMap<NamedOrBlankNode, Vec<Quad>>>;

/// The removals in one transaction, then the inserts that no later removal undid, in bulk.
fn apply_bulk(store: &Store, ops: &[WriteOp], inserts: Vec<Vec<Quad>>) -> Result<i64, StoreError> {
    let _gate = BULK_GATE.write().unwrap_or_else(|e| e.into_inner());
    let mut tx = store.start_transaction().map_err(StoreError::failed)?;
    let mut pending = Pending::new();
    let mut delta = 0i64;
    for (op, quads) in ops.iter().zip(inserts) {
        match op.kind {
            WriteKind::Insert | WriteKind::InsertQuads => {
                for q in quads {
                    let by_subject = pending.entry(q.graph_name.clone()).or_default();
                    by_subject.entry(q.subject.clone()).or_default().push(q);
                }
            }
            _ => {
                // a Delete counts each of its triples as removed: those found pending never were stored
                delta += drop_pending(&mut pending, op)? + remove(&mut tx, op)?;
            }
        }
    }
    tx.commit().map_err(StoreError::failed)?;
    let quads: Vec<Quad> = pending.into_values().flat_map(HashMap::into_values).flatten().collect();
    delta += quads.len() as i64;
    if !quads.is_empty() {
        let mut loader = store.bulk_loader();
        loader
            .load_quads(quads)
            .and_then(|()| loader.commit())
            .map_err(|e| StoreError::Failed(format!("bulk load after the removals were committed: {e}")))?;
    }
    Ok(delta)
}

/// Drops the pending inserts a removal applies to; returns how many a Delete dropped.
fn drop_pending(pending: &mut Pending, op: &WriteOp) -> Result<i64, StoreError> {
    let graph = graph_name(&op.graph)?;
    match op.kind {
        WriteKind::Clear => {
            pending.remove(&graph);
        }
        WriteKind::ClearSubject => {
            let s = subject(op.subject.as_deref().unwrap_or_default())?;
            if let Some(by_subject) = pending.get_mut(&graph) {
                by_subject.remove(&s);
            }
        }
        WriteKind::Delete => {
            let Some(by_subject) = pending.get_mut(&graph) else { return Ok(0) };
            let mut dropped = 0;
            for q in parser(&graph, true).for_slice(&op.triples) {
                let q = q.map_err(|e| StoreError::Refused(format!("invalid N-Triples for {graph}: {e}")))?;
                if let Some(quads) = by_subject.get_mut(&q.subject) {
                    let before = quads.len();
                    quads.retain(|p| *p != q);
                    dropped += (before - quads.len()) as i64;
                }
            }
            return Ok(dropped);
        }
        WriteKind::Insert | WriteKind::InsertQuads => {}
    }
    Ok(0)
}

/// One removal (Clear, ClearSubject or Delete) in the transaction; the negative change in quads.
fn remove(tx: &mut Transaction<'_>, op: &WriteOp) -> Result<i64, StoreError> {
    let graph = graph_name(&op.graph)?;
    match op.kind {
        WriteKind::Clear => clear(tx, &graph),
        WriteKind::ClearSubject => {
            let s = subject(op.subject.as_deref().unwrap_or_default())?;
            clear_subject(tx, &graph, &s)
        }
        WriteKind::Delete => delete(tx, &graph, &op.triples),
        WriteKind::Insert | WriteKind::InsertQuads => Ok(0),
    }
}

fn count(tx: &Transaction<'_>, graph: GraphNameRef<'_>, s: Option<&NamedOrBlankNode>) -> Result<Vec<Quad>, StoreError> {
    tx.quads_for_pattern(s.map(|s| s.as_ref()), None, None, Some(graph))
        .collect::<Result<Vec<_>, _>>()
        .map_err(StoreError::failed)
}

fn clear(tx: &mut Transaction<'_>, graph: &GraphName) -> Result<i64, StoreError> {
    let n = tx
        .quads_for_pattern(None, None, None, Some(graph.as_ref()))
        .try_fold(0i64, |n, q| q.map(|_| n + 1))
        .map_err(StoreError::failed)?;
    match graph {
        GraphName::NamedNode(g) => tx.remove_named_graph(g.as_ref()),
        _ => tx.clear_graph(graph.as_ref()),
    }
    .map_err(StoreError::failed)?;
    Ok(-n)
}

fn clear_subject(tx: &mut Transaction<'_>, graph: &GraphName, s: &NamedOrBlankNode) -> Result<i64, StoreError> {
    let quads = count(tx, graph.as_ref(), Some(s))?;
    for q in &quads {
        tx.remove(q);
    }
    Ok(-(quads.len() as i64))
}

fn parser(graph: &GraphName, lenient: bool) -> RdfParser {
    let p = RdfParser::from_format(RdfFormat::NTriples).with_default_graph(graph.clone());
    if lenient {
        p.lenient()
    } else {
        p
    }
}

/**
 * Fresh blank nodes, in increasing order: this process's start time in nanoseconds in the high 64 bits and
 * a counter in the low ones. RocksDB orders a graph's triples by their terms, and a blank node's key is its
 * id (big-endian), so an attribute's instances read back in the order they were written.
 */
fn fresh_blank_node() -> BlankNode {
    static BASE: OnceLock<u128> = OnceLock::new();
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let base = *BASE.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or_default();
        u128::from(nanos) << 64
    });
    BlankNode::new_from_unique_id(base | u128::from(COUNTER.fetch_add(1, Ordering::Relaxed)))
}

/// The quad with each blank-node label replaced by a fresh node, the same for one label within `labels`.
fn relabel(mut q: Quad, labels: &mut HashMap<String, BlankNode>) -> Quad {
    let mut fresh = |b: &BlankNode| labels.entry(b.as_str().to_string()).or_insert_with(fresh_blank_node).clone();
    if let NamedOrBlankNode::BlankNode(b) = &q.subject {
        q.subject = fresh(b).into();
    }
    if let Term::BlankNode(b) = &q.object {
        q.object = fresh(b).into();
    }
    q
}

fn delete(tx: &mut Transaction<'_>, graph: &GraphName, text: &[u8]) -> Result<i64, StoreError> {
    let mut n = 0i64;
    for q in parser(graph, true).for_slice(text) {
        let q = q.map_err(|e| StoreError::Refused(format!("invalid N-Triples for {graph}: {e}")))?;
        tx.remove(&q);
        n += 1;
    }
    Ok(-n)
}

/// Loads N-Quads in bulk (SST files written directly, not one transaction): for an import or a restore
/// into an empty store.
pub fn bulk_load_nquads(store: &Store, data: &[u8]) -> Result<(), StoreError> {
    let mut loader = store.bulk_loader();
    loader
        .load_from_slice(RdfParser::from_format(RdfFormat::NQuads), data)
        .map_err(|e| StoreError::Refused(e.to_string()))?;
    loader.commit().map_err(StoreError::failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(kind: WriteKind, graph: &str, triples: &str) -> WriteOp {
        WriteOp { kind, graph: graph.into(), subject: None, triples: triples.as_bytes().to_vec() }
    }

    #[test]
    fn replace_clears_the_graph_and_counts_the_change() {
        let store = Store::new().unwrap();
        let g = "urn:e:1";
        let t1 = "<urn:e:1> <urn:p> \"a\" .\n<urn:e:1> <urn:q> _:b0 .\n_:b0 <urn:v> \"1\" .\n";
        assert_eq!(apply(&store, &[op(WriteKind::Clear, g, ""), op(WriteKind::Insert, g, t1)], false).unwrap(), 3);
        let t2 = "<urn:e:1> <urn:p> \"b\" .\n";
        assert_eq!(apply(&store, &[op(WriteKind::Clear, g, ""), op(WriteKind::Insert, g, t2)], false).unwrap(), -2);
        assert_eq!(store.len().unwrap(), 1);
    }

    #[test]
    fn blank_nodes_of_two_inserts_never_meet() {
        let store = Store::new().unwrap();
        let t = "<urn:s> <urn:p> _:b0 .\n";
        apply(&store, &[op(WriteKind::Insert, "urn:a", t), op(WriteKind::Insert, "urn:b", t)], false).unwrap();
        let objects: std::collections::HashSet<_> = store.iter().map(|q| q.unwrap().object).collect();
        assert_eq!(objects.len(), 2);
    }

    #[test]
    fn instances_read_back_in_the_order_they_were_written() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let t = "<urn:e> <urn:a> _:z .\n_:z <urn:v> \"first\" .\n<urn:e> <urn:a> _:a .\n_:a <urn:v> \"second\" .\n";
        apply(&store, &[op(WriteKind::Insert, "urn:e", t)], false).unwrap();
        let text = crate::read_graph(&store, "urn:e").unwrap().unwrap();
        // the entity's two triples, in the order of their objects
        let objects: Vec<_> = text.lines().filter(|l| l.starts_with("<urn:e>")).collect();
        let label = |needle: &str| {
            let line = text.lines().find(|l| l.contains(needle)).unwrap();
            line.split(' ').next().unwrap().to_string()
        };
        assert_eq!(objects, vec![format!("<urn:e> <urn:a> {} .", label("first")), format!("<urn:e> <urn:a> {} .", label("second"))]);
    }

    #[test]
    fn a_bad_write_applies_nothing() {
        let store = Store::new().unwrap();
        let good = op(WriteKind::Insert, "urn:a", "<urn:s> <urn:p> \"x\" .\n");
        let bad = op(WriteKind::Insert, "urn:b", "<urn:s> <urn:p> \"x .\n");
        let err = apply(&store, &[good, bad], false).unwrap_err();
        assert!(matches!(err, StoreError::Refused(_)));
        assert_eq!(store.len().unwrap(), 0);
    }

    #[test]
    fn clear_subject_removes_one_subject_of_the_default_graph() {
        let store = Store::new().unwrap();
        let t = "<urn:a> <urn:p> \"1\" .\n<urn:b> <urn:p> \"2\" .\n";
        apply(&store, &[op(WriteKind::Insert, "", t)], false).unwrap();
        let clear = WriteOp { kind: WriteKind::ClearSubject, graph: "".into(), subject: Some("<urn:a>".into()), triples: vec![] };
        assert_eq!(apply(&store, &[clear], false).unwrap(), -1);
        assert_eq!(store.len().unwrap(), 1);
    }

    /// The store's quads as sorted N-Quads lines, blank nodes written as `_:b`.
    fn lines(store: &Store) -> Vec<String> {
        let mut out: Vec<String> = store
            .iter()
            .map(|q| {
                let q = q.unwrap();
                let s = if matches!(q.subject, NamedOrBlankNode::BlankNode(_)) { "_:b".to_string() } else { q.subject.to_string() };
                let o = if matches!(q.object, Term::BlankNode(_)) { "_:b".to_string() } else { q.object.to_string() };
                format!("{s} {} {o} {}", q.predicate, q.graph_name)
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn the_bulk_path_ends_where_the_transaction_does() {
        let seed = [
            op(WriteKind::Insert, "urn:g:1", "<urn:e:1> <urn:p> \"old\" .\n<urn:e:1> <urn:q> _:x .\n"),
            op(WriteKind::Insert, "", "<urn:e:1> <urn:p> \"old\" .\n<urn:e:2> <urn:p> \"kept\" .\n"),
            op(WriteKind::Insert, "urn:i:1", "<urn:e:1> <urn:r> \"row1\" .\n<urn:e:1> <urn:r> \"row2\" .\n"),
        ];
        let clear_subject = |s: &str| WriteOp { kind: WriteKind::ClearSubject, graph: "".into(), subject: Some(s.into()), triples: vec![] };
        let write = [
            // a replace, then a second replace of the same graph within the write
            op(WriteKind::Clear, "urn:g:1", ""),
            op(WriteKind::Insert, "urn:g:1", "<urn:e:1> <urn:p> \"first\" .\n"),
            op(WriteKind::Clear, "urn:g:1", ""),
            op(WriteKind::Insert, "urn:g:1", "<urn:e:1> <urn:p> \"new\" .\n<urn:e:1> <urn:q> _:y .\n"),
            // a subject of the default graph replaced twice, another left alone
            clear_subject("<urn:e:1>"),
            op(WriteKind::Insert, "", "<urn:e:1> <urn:p> \"first\" .\n"),
            clear_subject("<urn:e:1>"),
            op(WriteKind::Insert, "", "<urn:e:1> <urn:p> \"new\" .\n"),
            // rows deleted and added, one of the added ones deleted again
            op(WriteKind::Delete, "urn:i:1", "<urn:e:1> <urn:r> \"row1\" .\n"),
            op(WriteKind::Insert, "urn:i:1", "<urn:e:1> <urn:r> \"row3\" .\n<urn:e:1> <urn:r> \"row4\" .\n"),
            op(WriteKind::Delete, "urn:i:1", "<urn:e:1> <urn:r> \"row3\" .\n"),
            op(WriteKind::InsertQuads, "", "<urn:e:3> <urn:p> \"q\" <urn:g:3> .\n"),
        ];
        let (bulk, transaction) = (Store::new().unwrap(), Store::new().unwrap());
        let dir = tempfile::tempdir().unwrap();
        let on_disk = Store::open(dir.path()).unwrap();
        for s in [&bulk, &transaction, &on_disk] {
            apply(s, &seed, false).unwrap();
        }
        let a = apply_with(&bulk, &write, false, 1).unwrap();
        let b = apply_with(&transaction, &write, false, usize::MAX).unwrap();
        let c = apply_with(&on_disk, &write, false, 1).unwrap();
        assert_eq!(lines(&bulk), lines(&transaction));
        assert_eq!(lines(&on_disk), lines(&transaction));
        assert!(lines(&transaction).contains(&"<urn:e:1> <urn:r> \"row4\" <urn:i:1>".to_string()));
        assert!(lines(&transaction).contains(&"<urn:e:2> <urn:p> \"kept\" DEFAULT".to_string()));
        assert_eq!((a, b, c), (b, b, b));
        assert_eq!(transaction.len().unwrap(), 2 + 2 + 2 + 1);
    }

    #[test]
    fn a_bad_bulk_write_applies_nothing() {
        let store = Store::new().unwrap();
        apply(&store, &[op(WriteKind::Insert, "urn:a", "<urn:s> <urn:p> \"x\" .\n")], false).unwrap();
        let write = [op(WriteKind::Clear, "urn:a", ""), op(WriteKind::Insert, "urn:b", "<urn:s> <urn:p> \"x .\n")];
        assert!(matches!(apply_with(&store, &write, false, 1).unwrap_err(), StoreError::Refused(_)));
        assert_eq!(store.len().unwrap(), 1);
    }

    #[test]
    fn delete_removes_the_given_triples() {
        let store = Store::new().unwrap();
        let t = "<urn:a> <urn:p> \"1\" .\n<urn:a> <urn:p> \"2\" .\n";
        apply(&store, &[op(WriteKind::Insert, "urn:g", t)], false).unwrap();
        apply(&store, &[op(WriteKind::Delete, "urn:g", "<urn:a> <urn:p> \"1\" .\n")], false).unwrap();
        assert_eq!(store.len().unwrap(), 1);
    }
}
