//! Terms and graph names from their N-Triples syntax.

use crate::StoreError;
use oxigraph::model::{GraphName, NamedNode, NamedOrBlankNode, Term};
use std::str::FromStr;

/// A named graph from its IRI (without brackets), or the default graph for "".
pub fn graph_name(iri: &str) -> Result<GraphName, StoreError> {
    if iri.is_empty() {
        return Ok(GraphName::DefaultGraph);
    }
    Ok(NamedNode::new(iri)
        .map_err(|e| StoreError::Refused(format!("invalid graph IRI <{iri}>: {e}")))?
        .into())
}

/// A subject in N-Triples syntax (`<iri>` or `_:b`).
pub fn subject(text: &str) -> Result<NamedOrBlankNode, StoreError> {
    match term(text)? {
        Term::NamedNode(n) => Ok(n.into()),
        Term::BlankNode(b) => Ok(b.into()),
        _ => Err(StoreError::Refused(format!("invalid subject {text}: not an IRI or a blank node"))),
    }
}

/// A term in N-Triples syntax.
pub fn term(text: &str) -> Result<Term, StoreError> {
    Term::from_str(text).map_err(|e| StoreError::Refused(format!("invalid term {text}: {e}")))
}

/// A predicate in N-Triples syntax (`<iri>`).
pub fn predicate(text: &str) -> Result<NamedNode, StoreError> {
    NamedNode::from_str(text).map_err(|e| StoreError::Refused(format!("invalid predicate {text}: {e}")))
}
