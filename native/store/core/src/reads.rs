//! Reads: one graph as N-Triples, quads of a pattern as N-Quads.

use crate::terms::{graph_name, predicate, subject, term};
use crate::StoreError;
use oxigraph::store::Store;
use std::fmt::Write;

/// The N-Triples of one graph ("" = the default graph), or None where it holds no quad.
pub fn read_graph(store: &Store, graph: &str) -> Result<Option<String>, StoreError> {
    let g = graph_name(graph)?;
    let mut out = String::new();
    for q in store.quads_for_pattern(None, None, None, Some(g.as_ref())) {
        let q = q.map_err(StoreError::failed)?;
        let _ = writeln!(out, "{} {} {} .", q.subject, q.predicate, q.object);
    }
    Ok(if out.is_empty() { None } else { Some(out) })
}

/// The quads matching a pattern (terms in N-Triples syntax, None for any; graph "" is the default
/// graph), as N-Quads lines, at most `limit`.
pub fn quads_for_pattern(
    store: &Store,
    s: Option<&str>,
    p: Option<&str>,
    o: Option<&str>,
    g: Option<&str>,
    limit: usize,
) -> Result<String, StoreError> {
    let s = s.map(subject).transpose()?;
    let p = p.map(predicate).transpose()?;
    let o = o.map(term).transpose()?;
    let g = g.map(graph_name).transpose()?;
    let mut out = String::new();
    let iter = store.quads_for_pattern(
        s.as_ref().map(|x| x.as_ref()),
        p.as_ref().map(|x| x.as_ref()),
        o.as_ref().map(|x| x.as_ref()),
        g.as_ref().map(|x| x.as_ref()),
    );
    for q in iter.take(limit) {
        let _ = writeln!(out, "{} .", q.map_err(StoreError::failed)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writes::{apply, WriteKind, WriteOp};

    #[test]
    fn a_graph_reads_back_as_ntriples_and_a_missing_one_as_none() {
        let store = Store::new().unwrap();
        let t = "<urn:e> <urn:p> \"x\" .\n";
        let op = WriteOp { kind: WriteKind::Insert, graph: "urn:e".into(), subject: None, triples: t.into() };
        apply(&store, &[op], false).unwrap();
        assert_eq!(read_graph(&store, "urn:e").unwrap().as_deref(), Some(t));
        assert_eq!(read_graph(&store, "urn:none").unwrap(), None);
        let lines = quads_for_pattern(&store, Some("<urn:e>"), None, None, None, 10).unwrap();
        assert_eq!(lines, "<urn:e> <urn:p> \"x\" <urn:e> .\n");
    }
}
