//! citygraph's graph store engine over Oxigraph's RocksDB store (docs/decisions/0019-native-store.md):
//! one shared handle per folder, atomic writes of named graphs, graph and quad-pattern reads, SPARQL
//! answered serialized with a cancellation token, the named graphs dumped as N-Quads over one snapshot.
//! The Node-API addon in `../addon` is a thin layer over it.

mod dump;
mod error;
mod handles;
mod import;
mod query;
mod reads;
mod terms;
mod writes;

pub use dump::GraphDump;
pub use error::StoreError;
pub use handles::{open_shared, release};
pub use import::{group_by_graph, GroupedQuads};
pub use oxigraph::sparql::CancellationToken;
pub use oxigraph::store::Store;
pub use query::{run_query, QueryAnswer};
pub use reads::{quads_for_pattern, read_graph};
pub use writes::{apply, bulk_load_nquads, WriteKind, WriteOp};
