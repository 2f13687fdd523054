//! `wasm-pack test --node -- --test node`: the shared wasm tests in Node.
mod common;
mod fixture;
