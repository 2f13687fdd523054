//! Issue 2: every shard format version keeps a checked-in index (`tests/compat/v<N>/`, built from
//! `fixtures/example-site`) that the current reader must open, verify and query.
//!
//! `AIDOCS_BLESS=1 cargo test -p aidocs-e2e --test compat` rewrites the fixture of the *current* version
//! (and its expected results); older versions are never rewritten.

use aidocs_e2e::{build, fixture, repo};
use aidocs_index::{LocalIndex, Visibility};

fn run_queries(dir: &std::path::Path) -> String {
    let index = LocalIndex::open(dir)
        .unwrap_or_else(|e| panic!("compat index {} does not open: {e}", dir.display()));
    let queries =
        aidocs_index::eval::read_queries(&repo().join("tests/compat/queries.jsonl")).unwrap();
    let mut out = String::new();
    for (id, text) in queries {
        let results = index.search(&text, &Default::default()).unwrap();
        let ids: Vec<&str> = results.iter().map(|r| r.id.as_str()).collect();
        out.push_str(&format!("{id}\t{}\n", ids.join(" ")));
    }
    out
}

#[test]
fn issue_2_v1_compat_fixture_still_reads_and_ranks() {
    let dir = repo().join(format!("tests/compat/v{}", aidocs_core::FORMAT_VERSION));
    if std::env::var_os("AIDOCS_BLESS").is_some() {
        let tmp = tempfile::tempdir().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        build(
            &fixture("example-site"),
            &dir,
            &tmp.path().join("cache"),
            Visibility::Public,
        );
        std::fs::write(dir.join("expected.tsv"), run_queries(&dir)).unwrap();
    }
    let report = aidocs_index::inspect::inspect(&dir).unwrap();
    assert_eq!(report.errors, 0, "{:?}", report.shards);
    let expected = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
    assert_eq!(run_queries(&dir), expected);
}
