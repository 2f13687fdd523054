//! `aidocs-reader`: the native query side. It opens an index directory written by `aidocs-index build`
//! and answers queries with the same `aidocs-core` query session the wasm module drives, so a query
//! ranks the same in the CLI as in the browser.
//!
//! - [`local_index`]: [`LocalIndex`], an index on disk: the language partitions, a cache of decoded
//!   files, and the fetch loop over [`aidocs_core::QuerySession`] (reads files instead of fetching).
//! - [`query_encoder`]: [`QueryEncoder`], a query text as a vector: the full model or the index's static
//!   encoder.
//! - [`eval`]: relevance (nDCG@10, recall, MRR) and cold bytes against judged queries.
//! - [`inspect`]: what an index directory holds, every checksum verified.
//!
//! Nothing here writes an index, and the build side (`aidocs-index`'s library) never depends on this
//! crate; the `aidocs-index` binary uses both.

pub mod eval;
pub mod eval_evidence;
pub mod inspect;
pub mod local_index;
pub mod query_encoder;

pub use local_index::{LocalIndex, QueryError};
pub use query_encoder::{EncodeError, QueryEncoder};
