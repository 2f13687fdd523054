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

/// A build without embeddings (lexical), the review tests' usual build.
pub fn build_lexical(input: &Path, out: &Path, cache: &Path) -> BuildSummary {
    build_with(input, out, cache, |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off
    })
}

/// The URL of every page an index holds, sorted.
pub fn indexed_urls(out: &Path) -> Vec<String> {
    let index = aidocs_reader::LocalIndex::open(out).expect("the index opens");
    let mut urls: Vec<String> = (0..index.searcher.meta_shard_count())
        .flat_map(|i| index.meta_shard(i).expect("a metadata shard").pages.clone())
        .map(|p| p.url)
        .collect();
    urls.sort();
    urls
}

/// Writes `text` to `root/rel`, making its directories (a test site's file).
pub fn write_file(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A lexical index (no embeddings) of `input` in a temporary directory, opened: the directory lives
/// as long as the returned guard.
pub fn lexical_index(input: &Path) -> (tempfile::TempDir, aidocs_reader::LocalIndex) {
    let (tmp, out) = lexical_build(input, aidocs_index::export::LanguageLayout::default());
    let index = aidocs_reader::LocalIndex::open(&out).expect("the index opens");
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

/// Every byte a reader or a scraper could get from the files under `dir`: each file raw, plus its
/// shard payload inflated, plus any zlib, gzip or raw deflate stream it is (a served `.gz`, a cache
/// that compresses). Used to look for canaries that must not be there.
pub fn readable_bytes(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    if !dir.exists() {
        return out;
    }
    for (name, bytes) in files(dir) {
        if let Ok(h) = envelope::read_header(&bytes) {
            if let Ok(p) = envelope::open(&bytes, h.kind) {
                out.push((format!("{name} (shard payload)"), p));
            }
        }
        if let Ok(p) = miniz_oxide::inflate::decompress_to_vec_zlib(&bytes) {
            out.push((format!("{name} (zlib)"), p));
        }
        if let Some(p) = gunzip(&bytes) {
            out.push((format!("{name} (gzip)"), p));
        }
        out.push((name, bytes));
    }
    out
}

/// The payload of a gzip member, when `bytes` is one.
fn gunzip(bytes: &[u8]) -> Option<Vec<u8>> {
    if bytes.len() < 18 || bytes[..3] != [0x1f, 0x8b, 8] {
        return None;
    }
    let flags = bytes[3];
    let mut i = 10;
    if flags & 4 != 0 {
        let n = u16::from_le_bytes([*bytes.get(i)?, *bytes.get(i + 1)?]) as usize;
        i += 2 + n;
    }
    for bit in [8, 16] {
        if flags & bit != 0 {
            i += bytes.get(i..)?.iter().position(|&b| b == 0)? + 1;
        }
    }
    if flags & 2 != 0 {
        i += 2;
    }
    miniz_oxide::inflate::decompress_to_vec(bytes.get(i..)?).ok()
}

/// The canaries of `canaries` found in any readable byte under `dir`, with where: each canary is
/// looked for whole and by its last 8 characters (term shards front-code their terms).
pub fn canaries_in(dir: &Path, canaries: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (name, bytes) in readable_bytes(dir) {
        let text = String::from_utf8_lossy(&bytes).to_lowercase();
        for c in canaries {
            let c = c.to_lowercase();
            let tail = &c[c.len().saturating_sub(8)..];
            if text.contains(&c) || text.contains(tail) {
                found.push(format!("{c} in {name}"));
            }
        }
    }
    found
}

/// Each of `words` is somewhere in the output under `out`.
pub fn assert_shown(out: &Path, words: &[&str]) {
    for shown in words {
        assert!(!canaries_in(out, &[shown]).is_empty(), "{shown} is missing");
    }
}

/// A site of one page, `a.mdx` with `text`, built lexically: the guard and the output.
pub fn build_one_page(text: &str) -> (tempfile::TempDir, PathBuf) {
    let (tmp, out, _) = build_listed_site(&["a"], &[("a.mdx", text)]);
    (tmp, out)
}

/// A site of `files` (path, text) whose docs.json lists `pages` in one group, built lexically:
/// the guard, the output and the build's summary.
pub fn build_listed_site(
    pages: &[&str],
    files: &[(&str, &str)],
) -> (tempfile::TempDir, PathBuf, BuildSummary) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    let nav = serde_json::json!({"navigation": {"groups": [{"group": "G", "pages": pages}]}});
    write_file(&root, "docs.json", &nav.to_string());
    for (rel, text) in files {
        write_file(&root, rel, text);
    }
    let out = tmp.path().join("www/out");
    let summary = build_lexical(&root, &out, &tmp.path().join("cache"));
    (tmp, out, summary)
}

/// The URL Mintlify gives a page file or navigation key (`guides/x.mdx` → `/guides/x`,
/// `x/index` → `/x`, `index` → `/`), written here independently of the indexer.
pub fn page_url_of(rel: &str) -> String {
    let key = rel
        .strip_suffix(".mdx")
        .or_else(|| rel.strip_suffix(".md"))
        .unwrap_or(rel);
    let key = key.strip_suffix("/index").unwrap_or(key);
    if key == "index" {
        "/".into()
    } else {
        format!("/{key}")
    }
}

/// Copies the directory tree `from` to `to` (a fixture site a test then edits).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}
