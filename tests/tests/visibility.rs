//! Issue 2: internal and private content never reaches a public build; private never reaches any build.

use aidocs_e2e::{build, contains_ci, files, fixture, inflate};
use aidocs_index::Visibility;
use aidocs_reader::LocalIndex;

const INTERNAL: &[&str] = &[
    "CANARY-INTERNAL-7f3a",
    "CANARY-INTERNAL-GLOB-55d1",
    "CANARY-INTERNAL-API-3d9e",
    "CANARY-INTERNAL-NAV-4b1f",
];
const PRIVATE: &[&str] = &[
    "CANARY-PRIVATE-91c2",
    "CANARY-PRIVATE-SNIPPET-0b7e",
    "CANARY-PRIVATE-TITLE-a1e0",
    "CANARY-PRIVATE-RECORD-77aa",
];

/// Each canary as the analyzer indexes it too: whole identifier and distinctive parts.
fn forms(canary: &str) -> Vec<String> {
    let mut v = vec![canary.to_lowercase()];
    v.push(canary.rsplit('-').next().unwrap_or(canary).to_lowercase());
    v
}

/// Whether `hay` holds `needle` (any case) other than inside a hash: the canaries' last parts are
/// four hex digits, which the hex fingerprints a cache stores hold by chance (one in ~16 builds of
/// the example site), so an occurrence within a run of 16 or more hex digits does not count.
fn holds(hay: &[u8], needle: &str) -> bool {
    if !contains_ci(hay, needle) {
        return false;
    }
    let hay = String::from_utf8_lossy(hay).to_lowercase();
    let b = hay.as_bytes();
    hay.match_indices(&needle.to_lowercase()).any(|(at, m)| {
        let before = b[..at]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        let after = (b[at + m.len()..].iter())
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        !m.bytes().all(|c| c.is_ascii_hexdigit()) || before + m.len() + after < 16
    })
}

fn assert_absent(dir: &std::path::Path, canaries: &[&str], what: &str) {
    for (name, bytes) in files(dir) {
        let payload = inflate(&bytes);
        for c in canaries {
            for f in forms(c) {
                assert!(
                    !holds(&payload, &f),
                    "{what}: `{f}` (from {c}) found in {name}"
                );
                assert!(
                    !holds(&bytes, &f),
                    "{what}: `{f}` (from {c}) found raw in {name}"
                );
            }
        }
    }
}

#[test]
fn issue_2_public_build_has_no_internal_or_private_canary() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, cache) = (tmp.path().join("www/out"), tmp.path().join("cache"));
    let s = build(&fixture("example-site"), &out, &cache, Visibility::Public);
    assert!(
        s.pages >= 8,
        "fixture should index its public pages, got {}",
        s.pages
    );
    assert!(s.withheld_by_visibility >= 4);
    assert_absent(&out, INTERNAL, "public output");
    assert_absent(&out, PRIVATE, "public output");
    // The build cache is filtered too: the filter runs before anything is indexed.
    assert_absent(&cache, INTERNAL, "public cache");
    assert_absent(&cache, PRIVATE, "public cache");
    let index = LocalIndex::open(&out).unwrap();
    for q in [
        "incident runbook failover",
        "on-call rotation",
        "impersonate",
        "signing secrets",
    ] {
        let r = index.search(q, &Default::default()).unwrap();
        assert!(
            r.iter().all(|r| !r.id.starts_with("internal/")
                && !r.id.starts_with("private/")
                && !r.id.starts_with("ops/")
                && r.id != "api/impersonateUser"),
            "{q}: {r:?}"
        );
    }
}

#[test]
fn issue_2_internal_build_has_internal_but_never_private() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, cache) = (tmp.path().join("www/out"), tmp.path().join("cache"));
    build(&fixture("example-site"), &out, &cache, Visibility::Internal);
    assert_absent(&out, PRIVATE, "internal output");
    assert_absent(&cache, PRIVATE, "internal cache");
    let all: Vec<u8> = files(&out)
        .into_iter()
        .flat_map(|(_, b)| inflate(&b))
        .collect();
    for c in INTERNAL {
        assert!(contains_ci(&all, c), "internal build should contain {c}");
    }
}

#[test]
fn issue_2_private_jsonl_records_are_withheld() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, cache) = (tmp.path().join("www/out"), tmp.path().join("cache"));
    build(&fixture("bad.jsonl"), &out, &cache, Visibility::Internal);
    assert_absent(&out, PRIVATE, "jsonl output");
}
