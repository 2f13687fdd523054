//! `aidocs-index`: the build-time indexer.
//!
//! Pipeline: [`ingest`] (site or JSONL → fingerprinted pending pages, visibility filter first) →
//! [`ingest::parse`] ([`mdx`], [`chunk`], [`openapi`]) → [`tantivy_cache`] (tantivy, persistent cache) →
//! [`embed`] + [`vectors`] + [`static_fit`] (chunk vectors, partitions, the static query encoder's rows) →
//! [`export`] (the shard format of `aidocs-core`) → disk. The native query side (query, eval, inspect)
//! is the `aidocs-reader` crate, which this library never uses. [`assets`] installs the search box
//! next to the shards, [`demo`] renders a site with it and [`serve`] serves it.

pub mod assets;
pub mod build;
pub mod build_vectors;
pub mod chunk;
pub mod code_title;
pub mod config_refs;
pub mod demo;
pub mod document;
pub mod embed;
pub mod export;
mod export_record;
mod export_tables;
mod export_terms;
pub mod heading_id;
pub mod index_terms;
pub mod ingest;
pub mod json;
pub mod llms;
mod lock_wait;
pub mod mdx;
pub mod mint_upgrade;
pub mod mintignore;
pub mod openapi;
pub mod overlays;
pub mod pages;
pub mod retained_heap;
pub mod serve;
mod shard_cuts;
pub mod site;
pub mod static_fit;
pub mod tantivy_cache;
pub mod vectors;
pub mod visibility;

pub use build::{build, BuildError, BuildOptions, BuildSummary};
pub use document::{Diagnostic, Visibility};
