//! Parsing of an import (N-Quads or TriG) into N-Quads grouped by named graph.

use crate::StoreError;
use oxigraph::io::{RdfFormat, RdfParser};
use oxigraph::model::GraphName;
use std::collections::HashMap;
use std::fmt::Write;

/// An import grouped by graph.
#[derive(Debug, Default)]
pub struct GroupedQuads {
    /// N-Quads, each named graph's lines together.
    pub nquads: String,
    pub quads: usize,
    pub graphs: usize,
    /// Quads left out: in the default graph, or in a graph whose IRI starts with the skipped prefix.
    pub skipped: usize,
}

/// Parses `data` strictly (`nquads` or `trig`) and groups its quads by named graph, leaving out the
/// default graph and graphs under `skip_prefix`. Blank-node labels are renamed, so two imports never share one.
pub fn group_by_graph(data: &[u8], format: &str, skip_prefix: &str) -> Result<GroupedQuads, StoreError> {
    let format = match format {
        "nquads" => RdfFormat::NQuads,
        "trig" => RdfFormat::TriG,
        other => return Err(StoreError::Refused(format!("unknown import format {other}"))),
    };
    let mut order: Vec<String> = Vec::new();
    let mut by_graph: HashMap<String, String> = HashMap::new();
    let mut out = GroupedQuads::default();
    for q in RdfParser::from_format(format).rename_blank_nodes().for_slice(data) {
        let q = q.map_err(|e| StoreError::Refused(format!("invalid import: {e}")))?;
        let GraphName::NamedNode(g) = &q.graph_name else {
            out.skipped += 1;
            continue;
        };
        if g.as_str().starts_with(skip_prefix) {
            out.skipped += 1;
            continue;
        }
        let lines = by_graph.entry(g.as_str().to_string()).or_insert_with(|| {
            order.push(g.as_str().to_string());
            String::new()
        });
        let _ = writeln!(lines, "{q} .");
        out.quads += 1;
    }
    out.graphs = order.len();
    for g in order {
        out.nquads.push_str(&by_graph.remove(&g).unwrap_or_default());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trig_is_grouped_by_graph_without_default_and_internal_graphs() {
        let trig = "<urn:a> { <urn:a> <urn:p> 1 . }\n<urn:b> { <urn:b> <urn:p> 2 . }\n<urn:a> { <urn:a> <urn:q> 3 . }\n<urn:s> <urn:p> 4 .\n<urn:x:i> { <urn:s> <urn:p> 5 . }";
        let g = group_by_graph(trig.as_bytes(), "trig", "urn:x:").unwrap();
        assert_eq!((g.quads, g.graphs, g.skipped), (3, 2, 2));
        let lines: Vec<_> = g.nquads.lines().collect();
        assert!(lines[0].contains("<urn:p>") && lines[1].contains("<urn:q>") && lines[2].contains("<urn:b>"));
    }

    #[test]
    fn bad_input_is_refused() {
        assert!(matches!(group_by_graph(b"<urn:a> <urn:p> .", "nquads", "x"), Err(StoreError::Refused(_))));
    }
}
