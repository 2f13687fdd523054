//! Helpers for the end-to-end tests in `tests/tests/*.rs`.

use std::path::{Path, PathBuf};

use aidocs_core::envelope;
use aidocs_index::{BuildOptions, BuildSummary, Visibility};

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

pub fn fixture(name: &str) -> PathBuf {
    repo().join("fixtures").join(name)
}

/// `../shared/data/<rel>` if present; tests that need it skip with a printed reason otherwise.
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let p = repo().join("..").join("shared").join("data").join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!(
            "skipped: {} is absent (shared data not mounted)",
            p.display()
        );
        None
    }
}

pub fn build(input: &Path, out: &Path, cache: &Path, audience: Visibility) -> BuildSummary {
    build_with(input, out, cache, |o| o.audience = audience)
}

/// Builds with options adjusted by `adjust`.
pub fn build_with(
    input: &Path,
    out: &Path,
    cache: &Path,
    adjust: impl FnOnce(&mut BuildOptions),
) -> BuildSummary {
    let mut opts = BuildOptions::new(input, out);
    opts.cache_dir = Some(cache.to_path_buf());
    adjust(&mut opts);
    aidocs_index::build(&opts)
        .unwrap_or_else(|e| panic!("build of {} failed: {e}", input.display()))
}

/// A lexical index (no embeddings) of `input` in a temporary directory, opened: the directory lives
/// as long as the returned guard.
pub fn lexical_index(input: &Path) -> (tempfile::TempDir, aidocs_index::LocalIndex) {
    let (tmp, out) = lexical_build(input, aidocs_index::export::LanguageLayout::default());
    let index = aidocs_index::LocalIndex::open(&out).expect("the index opens");
    (tmp, index)
}

/// A lexical index (no embeddings) of `input` written with `layout` in a temporary directory: the
/// guard and the index directory (a multilingual site's is opened per language).
pub fn lexical_build(
    input: &Path,
    layout: aidocs_index::export::LanguageLayout,
) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temporary directory");
    let out = tmp.path().join("www/out");
    build_with(input, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
        o.languages = layout;
    });
    (tmp, out)
}

/// Every file under `dir` (recursively), sorted by relative path.
pub fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(dir)
                    .expect("under dir")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read(&p).expect("readable file")));
            }
        }
    }
    out.sort();
    out
}

/// The inflated payload of a shard file (the raw bytes when it is not a shard).
pub fn inflate(bytes: &[u8]) -> Vec<u8> {
    match envelope::read_header(bytes) {
        Ok(h) => {
            envelope::open(bytes, h.kind).unwrap_or_else(|e| panic!("shard does not open: {e}"))
        }
        Err(_) => bytes.to_vec(),
    }
}

/// Case-insensitive byte search (the analyzer lowercases what it indexes).
pub fn contains_ci(hay: &[u8], needle: &str) -> bool {
    let hay = String::from_utf8_lossy(hay).to_lowercase();
    hay.contains(&needle.to_lowercase())
}

/// Whether the embedding model is installed. Tests that need it skip with a printed reason otherwise,
/// unless `AIDOCS_REQUIRE_MODEL=1` (set by `./dev.sh test`, hence CI), where they fail.
pub fn model_available() -> bool {
    match aidocs_index::embed::locate(None) {
        Ok(_) => true,
        Err(e) => {
            if std::env::var_os("AIDOCS_REQUIRE_MODEL").is_some() {
                panic!("AIDOCS_REQUIRE_MODEL is set but the model is missing: {e}");
            }
            eprintln!("skipped: {e}");
            false
        }
    }
}
