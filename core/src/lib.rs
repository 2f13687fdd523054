//! `aidocs-core`: what the build side and the query side share byte for byte.
//!
//! - [`analyzer`]: the tokenizer/stemmer both sides run;
//! - [`envelope`] and [`format`]: shard format v1 (writer and reader side by side);
//! - [`filter`]: per-shard binary-fuse filters for "term absent" without a fetch;
//! - [`search`]: query planning, BM25F, boosts, aggregation;
//! - [`json`]: the result JSON both sides print byte for byte.
//!
//! Invariant: this crate does no I/O and builds for `wasm32-unknown-unknown`. If a query ranks differently
//! in the browser than in the CLI, the bug is here.

pub mod analyzer;
mod bytes;
pub mod envelope;
pub mod error;
pub mod fieldnorm;
pub mod filter;
pub mod format;
pub mod json;
pub mod search;

pub use analyzer::{Analyzer, Token, TokenKind, ANALYZER_VERSION};
pub use envelope::{ShardKind, FORMAT_VERSION};
pub use error::{FormatError, ShardError};
pub use filter::TermFilter;
pub use format::{
    ApiMeta, Audience, Bm25Params, ChunkMeta, Field, Kind, Manifest, MetaShard, MetaShardEntry,
    PageEntry, PageMeta, Posting, TermPostings, TermShard, TermShardEntry, FIELD_COUNT,
    MANIFEST_FILE, SCORED_FIELDS,
};
pub use search::{PageHit, QueryPlan, SearchError, SearchOptions, SearchResult, Searcher};
