use std::fmt;

/// Why a store call failed: the caller's input (a 4xx), a cancelled query, or the store itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// The input was refused (bad N-Triples, a bad IRI, a SPARQL syntax error); the message says why.
    Refused(String),
    /// The query was stopped by its cancellation token.
    Cancelled,
    /// RocksDB or an I/O call failed.
    Failed(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Refused(m) | Self::Failed(m) => f.write_str(m),
            Self::Cancelled => f.write_str("the query was cancelled"),
        }
    }
}

impl std::error::Error for StoreError {}

impl StoreError {
    pub(crate) fn failed(e: impl fmt::Display) -> Self {
        Self::Failed(e.to_string())
    }
}
