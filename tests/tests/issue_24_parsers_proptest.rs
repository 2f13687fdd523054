//! Issue 24: the parsers never panic and stay linear on arbitrary input. Generated text from a
//! hostile alphabet (MDX's and Markdown's delimiters, multi-byte characters, ESM keywords, fences)
//! goes through the Markdown/MDX-to-text pass in both dialects, the frontmatter splitter, the
//! nesting check, OpenAPI loading (JSON and YAML) and every shard decoder; a panic fails. Doubling
//! an input is checked by counting work, not by timing: the output of a doubled input is at most
//! about twice as long. CI runs a fixed seed and budget; `AIDOCS_PROPTEST_CASES=N` and
//! `AIDOCS_PROPTEST_SEED=S` run more.

use std::path::Path;

use aidocs_index::mdx::{split_frontmatter, to_markdown, Dialect, IncludePolicy, SnippetResolver};
use aidocs_index::openapi::{load_spec_text, LoadedOperations};
use aidocs_index::visibility::{check_nesting, Declared, SiteRoot, VisibilityRules};
use aidocs_index::Visibility;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

/// Pieces a hostile page is made of.
const PIECES: &[&str] = &[
    "<",
    ">",
    "{",
    "}",
    "`",
    "```",
    "````",
    "~~~",
    "\n",
    "\n\n",
    " ",
    "-",
    "---\n",
    "!",
    "'",
    "\"",
    "/",
    "*",
    "<!--",
    "-->",
    "{/*",
    "*/}",
    "import ",
    "export ",
    "const x = `",
    "${",
    "é",
    "स्",
    "日",
    "\u{301}",
    "\u{200d}",
    "<Card title={",
    "<Snippet file=\"",
    "/>",
    "</Card>",
    "#",
    "## ",
    "a",
    "word",
    "\\",
    "[",
    "]",
    "(",
    ")",
    ":",
    "&",
    "=",
    "\t",
    "    ",
    "|",
    "openapi: ",
    "visibility: ",
    "<<: *d",
    "&d ",
    "!x ",
    "%7B",
    "$ref",
    "\"#/",
    "\r\n",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..200).prop_map(|v| v.concat())
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn runner(default_cases: u32) -> (TestRunner, u32, u64) {
    let cases = env_u64("AIDOCS_PROPTEST_CASES").map_or(default_cases, |c| c as u32);
    let seed = env_u64("AIDOCS_PROPTEST_SEED").unwrap_or(24);
    let runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    });
    (runner, cases, seed)
}

fn convert(site: &SiteRoot, src: &str, dialect: Dialect) -> String {
    let rules = VisibilityRules::default();
    let operations = LoadedOperations::default();
    let mut r = SnippetResolver::new(IncludePolicy {
        site,
        rules: &rules,
        operations: &operations,
        audience: Visibility::Public,
    });
    to_markdown(src, dialect, &site.root, &mut r)
}

#[test]
fn issue_24_page_text_passes_never_panic_and_stay_linear() {
    let dir = tempfile::tempdir().unwrap();
    let site = SiteRoot::new(dir.path(), 1 << 20).unwrap();
    let (mut runner, cases, seed) = runner(2_000);
    let result = runner.run(&text(), |src| {
        for dialect in [Dialect::Mdx, Dialect::Markdown] {
            let once = convert(&site, &src, dialect);
            let twice = convert(&site, &format!("{src}\n\n{src}"), dialect);
            // Text out is bounded by text in: nothing is duplicated or invented.
            prop_assert!(
                once.len() <= 2 * src.len() + 64,
                "{dialect:?}: {} from {}",
                once.len(),
                src.len()
            );
            prop_assert!(twice.len() <= 2 * once.len() + 2 * src.len() + 128);
        }
        let _ = split_frontmatter(&src);
        let _ = split_frontmatter(&format!("---\n{src}\n---\nbody"));
        let _ = check_nesting(&src);
        Ok(())
    });
    eprintln!("issue 24 property: {cases} generated pages, seed {seed}");
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn issue_24_openapi_and_shard_decoders_never_panic() {
    let (mut runner, cases, seed) = runner(1_000);
    let bytes = prop::collection::vec(any::<u8>(), 0..512);
    let result = runner.run(&(text(), bytes), |(src, raw)| {
        for name in ["s.json", "s.yaml"] {
            let _ = load_spec_text(&src, Path::new(name), name, Declared::Absent);
            let doc =
                format!("{{\"openapi\": \"3.0.0\", \"paths\": {{\"/a\": {{\"get\": {src}}}}}}}");
            let _ = load_spec_text(&doc, Path::new(name), name, Declared::Absent);
        }
        let _ = aidocs_core::Manifest::decode_payload(&raw);
        let _ = aidocs_core::Manifest::decode(&raw);
        let _ = aidocs_core::TermShard::decode_payload(&raw, 1 << 20);
        let _ = aidocs_core::MetaShard::decode_payload(&raw);
        let _ = aidocs_core::partitions::PartitionTable::decode_payload(&raw);
        let _ = aidocs_core::positions::PositionShard::decode_payload(&raw, 1 << 20);
        let _ = aidocs_core::term_rows::TermRowShard::decode_payload(&raw);
        let _ = aidocs_core::typos::TypoShard::decode_payload(&raw);
        let _ = aidocs_core::typos::TypoDirectory::decode_payload(&raw);
        Ok(())
    });
    eprintln!("issue 24 property: {cases} generated specs and shards, seed {seed}");
    if let Err(e) = result {
        panic!("{e}");
    }
}
