//! Atomic writes: one call, one RocksDB transaction, all of its operations or none.

use crate::terms::{graph_name, subject};
use crate::StoreError;
use oxigraph::io::{RdfFormat, RdfParser};
use oxigraph::model::{BlankNode, GraphName, GraphNameRef, NamedOrBlankNode, Quad, Term};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
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

/// Applies `ops` in one transaction and returns the change in quads (inserted minus removed; a triple
/// given twice in one insert counts twice). `lenient` parses without validating IRIs: for text a strict
/// parse accepted before (journal replay).
pub fn apply(store: &Store, ops: &[WriteOp], lenient: bool) -> Result<i64, StoreError> {
    let mut tx = store.start_transaction().map_err(StoreError::failed)?;
    let mut delta = 0i64;
    for op in ops {
        let graph = graph_name(&op.graph)?;
        delta += match op.kind {
            WriteKind::Clear => clear(&mut tx, &graph)?,
            WriteKind::ClearSubject => {
                let s = subject(op.subject.as_deref().unwrap_or_default())?;
                clear_subject(&mut tx, &graph, &s)?
            }
            WriteKind::Insert => insert(&mut tx, &graph, &op.triples, lenient)?,
            WriteKind::Delete => delete(&mut tx, &graph, &op.triples)?,
            WriteKind::InsertQuads => insert_quads(&mut tx, &op.triples, lenient)?,
        };
    }
    tx.commit().map_err(StoreError::failed)?;
    Ok(delta)
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

fn insert(tx: &mut Transaction<'_>, graph: &GraphName, text: &[u8], lenient: bool) -> Result<i64, StoreError> {
    let mut n = 0i64;
    let mut labels = HashMap::new();
    for q in parser(graph, lenient).for_slice(text) {
        let q = q.map_err(|e| StoreError::Refused(format!("invalid N-Triples for {graph}: {e}")))?;
        tx.insert(&relabel(q, &mut labels));
        n += 1;
    }
    Ok(n)
}

fn insert_quads(tx: &mut Transaction<'_>, text: &[u8], lenient: bool) -> Result<i64, StoreError> {
    let p = RdfParser::from_format(RdfFormat::NQuads);
    let p = if lenient { p.lenient() } else { p };
    let mut n = 0i64;
    let mut labels = HashMap::new();
    for q in p.for_slice(text) {
        let q = q.map_err(|e| StoreError::Refused(format!("invalid N-Quads: {e}")))?;
        tx.insert(&relabel(q, &mut labels));
        n += 1;
    }
    Ok(n)
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

    #[test]
    fn delete_removes_the_given_triples() {
        let store = Store::new().unwrap();
        let t = "<urn:a> <urn:p> \"1\" .\n<urn:a> <urn:p> \"2\" .\n";
        apply(&store, &[op(WriteKind::Insert, "urn:g", t)], false).unwrap();
        apply(&store, &[op(WriteKind::Delete, "urn:g", "<urn:a> <urn:p> \"1\" .\n")], false).unwrap();
        assert_eq!(store.len().unwrap(), 1);
    }
}
