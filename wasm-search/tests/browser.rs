//! `wasm-pack test --headless --chrome -- --test browser`: the shared wasm tests in Chromium.
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
mod common;
mod fixture;
