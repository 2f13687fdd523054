//! The commands of `aidocs-index`, one file each: its flags (an `Args` struct) and its `run_*`.
//! `common` holds what several commands share.

pub mod build;
mod common;
pub mod context;
pub mod demo;
pub mod embed;
pub mod eval;
pub mod inspect;
pub mod pages;
pub mod query;
pub mod serve;
pub mod variants;
