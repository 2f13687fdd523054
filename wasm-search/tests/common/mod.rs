//! Tests shared by `node.rs` (`wasm-pack test --node`) and `browser.rs` (`--headless --chrome`): they run
//! the exported `SearchEngine` inside a real wasm runtime over the checked-in fixture index.

use aidocs_core::envelope::{self, ShardKind, HEADER_LEN};
use aidocs_wasm_search::{verify_envelope, SearchEngine};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::fixture::{EXPECTED, FILES, QUERIES};

const NO_LIMIT: u32 = 64 << 20;

fn file(name: &str) -> &'static [u8] {
    FILES
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("fixture has no {name}"))
        .1
}

fn open(limit: u32) -> SearchEngine {
    SearchEngine::new(file("manifest.bin"), None, limit, None).expect("fixture manifest opens")
}

/// The error's stable code (the first field of the string the JS wrapper parses).
fn code(e: JsValue) -> String {
    e.as_string()
        .expect("errors are strings")
        .split('\u{1f}')
        .next()
        .unwrap()
        .to_owned()
}

/// Starts a search (`k` results, `kinds`, `group`, `explain`, `mode`; facets and tag filters as
/// given) and returns its ticket.
#[allow(clippy::too_many_arguments)]
fn begin_with(
    engine: &mut SearchEngine,
    query: &str,
    k: u32,
    kinds: &str,
    group: &str,
    explain: bool,
    mode: &str,
    any: Option<&str>,
    none: Option<&str>,
    facets: bool,
) -> Result<u32, JsValue> {
    engine.begin(
        query,
        k,
        kinds,
        "",
        group,
        0.0,
        explain,
        mode,
        -1,
        None,
        None,
        None,
        any.map(str::to_owned),
        none.map(str::to_owned),
        Some(facets),
        None,
        None,
        None,
        None,
        None,
    )
}

fn begin(engine: &mut SearchEngine, query: &str, kinds: &str) -> Result<u32, JsValue> {
    begin_with(
        engine, query, 10, kinds, "", false, "lexical", None, None, false,
    )
}

/// Fetches what search `ticket` needs, round by round, until it needs nothing; returns the rounds.
fn fetch_rounds(
    engine: &mut SearchEngine,
    ticket: u32,
    mut fetch: impl FnMut(&str) -> Vec<u8>,
) -> Result<Vec<Vec<String>>, JsValue> {
    let mut rounds = Vec::new();
    for _ in 0..8 {
        let names = engine.need(ticket)?;
        if names.is_empty() {
            return Ok(rounds);
        }
        for name in &names {
            engine.add(name, &fetch(name), None)?;
        }
        rounds.push(names);
    }
    panic!("the engine kept asking for files: {rounds:?}");
}

/// A whole search as the JS wrapper runs it, with files from `fetch`.
fn search_with(
    engine: &mut SearchEngine,
    query: &str,
    kinds: &str,
    fetch: impl FnMut(&str) -> Vec<u8>,
) -> Result<String, JsValue> {
    let ticket = begin(engine, query, kinds)?;
    let out = fetch_rounds(engine, ticket, fetch).and_then(|_| engine.results(ticket));
    engine.release(ticket);
    out
}

fn search(engine: &mut SearchEngine, query: &str, kinds: &str) -> String {
    search_with(engine, query, kinds, |n| file(n).to_vec()).expect("search succeeds")
}

fn expected_line(id: &str) -> &'static str {
    EXPECTED
        .lines()
        .find(|l| l.starts_with(&format!("{{\"query_id\":\"{id}\",")))
        .unwrap()
}

fn batch_line(id: &str, results: &str) -> String {
    format!("{{\"query_id\":\"{id}\",\"results\":{results}}}")
}

#[wasm_bindgen_test]
fn issue_3_same_results_as_the_native_cli() {
    let mut engine = open(NO_LIMIT);
    for (id, text, kinds) in QUERIES {
        let got = batch_line(id, &search(&mut engine, text, kinds));
        assert_eq!(got, expected_line(id), "query {id} {text:?}");
    }
}

#[wasm_bindgen_test]
fn loads_only_the_shards_a_query_needs() {
    let mut engine = open(NO_LIMIT);
    let terms = FILES.iter().filter(|(n, _)| n.starts_with("t/")).count();
    let t = begin(&mut engine, "refresh tokens", "").unwrap();
    let needed = engine.need(t).unwrap();
    assert!(!needed.is_empty() && needed.len() < terms, "{needed:?}");
    engine.release(t);
    // A word the site never uses is ruled out by the manifest's filters: no term shard at all.
    let t = begin(&mut engine, "zzzqqqxx", "").unwrap();
    assert!(engine.need(t).unwrap().is_empty());
    assert_eq!(engine.results(t).unwrap(), "[]");
    search(&mut engine, "refresh tokens", "");
    let t = begin(&mut engine, "refresh tokens", "").unwrap();
    assert!(engine.need(t).unwrap().is_empty(), "cached");
    engine.release(t);
    assert!(!engine.files_for_preload("authen", None).is_empty() || engine.cache_entries() > 0);
}

#[wasm_bindgen_test]
fn filters_and_options() {
    let mut engine = open(NO_LIMIT);
    let api = search(&mut engine, "user", "api");
    assert!(api.contains("\"kind\":\"api\"") && !api.contains("\"kind\":\"docs\""));
    let both = search(&mut engine, "user", "docs,api");
    assert!(both.contains("\"kind\":\"api\"") && both.contains("\"kind\":\"docs\""));
    let t = begin_with(
        &mut engine,
        "user",
        2,
        "",
        "Users",
        true,
        "",
        None,
        None,
        false,
    )
    .unwrap();
    fetch_rounds(&mut engine, t, |n| file(n).to_vec()).unwrap();
    let grouped = engine.results(t).unwrap();
    assert_eq!(grouped.matches("\"breadcrumb\":").count(), 2, "k=2");
    assert!(grouped.contains("\"explain\":{\"bm25\":"));
    assert!(!grouped.contains("\"Guides\""), "group filter: {grouped}");
    for (k, kinds, mode) in [
        (0, "", ""),
        (1001, "", ""),
        (5, "blog", ""),
        (5, "", "semantic"),
    ] {
        let e = begin_with(
            &mut engine,
            "user",
            k,
            kinds,
            "",
            false,
            mode,
            None,
            None,
            false,
        )
        .unwrap_err();
        assert_eq!(code(e), "bad_option");
    }
    assert_eq!(code(engine.results(987_654).unwrap_err()), "unknown_ticket");
    assert_eq!(code(engine.need(987_654).unwrap_err()), "unknown_ticket");
    // Results before the search has its files: a typed error, not a wrong answer.
    let t = begin(&mut engine, "refresh tokens", "").unwrap();
    assert_eq!(code(engine.results(t).unwrap_err()), "not_ready");
    engine.release(t);
}

/// Issue 4: vector and hybrid modes on an index without vectors rank lexically, with the same files.
#[wasm_bindgen_test]
fn issue_4_vector_modes_without_vectors_rank_lexically() {
    for mode in ["vector", "hybrid"] {
        for (id, text, kinds) in QUERIES {
            let rounds = |engine: &mut SearchEngine, mode: &str| {
                let t = begin_with(engine, text, 10, kinds, "", false, mode, None, None, false)
                    .unwrap();
                let rounds = fetch_rounds(engine, t, |n| file(n).to_vec()).unwrap();
                (t, rounds)
            };
            // Cold engines, so that both list every file the query reads.
            let (_, lexical) = rounds(&mut open(NO_LIMIT), "lexical");
            let mut engine = open(NO_LIMIT);
            let (t, got) = rounds(&mut engine, mode);
            assert_eq!(got, lexical, "{mode} {text}");
            let got = batch_line(id, &engine.results(t).unwrap());
            assert_eq!(got, expected_line(id), "{mode} {text}");
        }
    }
}

#[wasm_bindgen_test]
fn bad_files_are_typed_errors_and_the_engine_stays_usable() {
    let mut engine = open(NO_LIMIT);
    let ticket = begin(&mut engine, "refresh tokens", "").unwrap();
    let name = engine.need(ticket).unwrap().remove(0);
    let good = file(&name);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (good[..good.len() / 2].to_vec(), "length_mismatch"),
        (good[..3].to_vec(), "bad_magic"),
        (Vec::new(), "bad_magic"),
        (
            {
                let mut b = good.to_vec();
                let last = b.len() - 1;
                b[last] ^= 0x40;
                b
            },
            "checksum_mismatch",
        ),
        (
            {
                let mut b = good.to_vec();
                // A format version later than this reader's.
                b[4] = (aidocs_core::FORMAT_VERSION + 1) as u8;
                b
            },
            "unsupported_version",
        ),
        (
            {
                let meta = FILES.iter().find(|(n, _)| n.starts_with("m/")).unwrap().1;
                meta.to_vec()
            },
            "wrong_kind",
        ),
        (b"<!doctype html><title>404</title>".to_vec(), "bad_magic"),
    ];
    for (bytes, want) in cases {
        let e = engine.add(&name, &bytes, None).unwrap_err();
        let s = e.as_string().unwrap();
        assert_eq!(code(e), want);
        assert!(s.contains(&name), "the message names the file: {s}");
    }
    // Inflated by the caller (DecompressionStream) but with the wrong length.
    let e = engine.add(&name, good, Some(vec![0u8; 3])).unwrap_err();
    assert_eq!(code(e), "length_mismatch");
    assert_eq!(
        code(
            engine
                .add("t/not-in-this-index.bin", good, None)
                .unwrap_err()
        ),
        "unknown_file"
    );
    // The search that asked for the file still waits for it: nothing bad reached it.
    assert!(engine.need(ticket).unwrap().contains(&name));
    assert_eq!(code(engine.results(ticket).unwrap_err()), "not_ready");
    engine.release(ticket);
    assert_eq!(
        search(&mut engine, "refresh tokens", ""),
        search(&mut open(NO_LIMIT), "refresh tokens", "")
    );
    // The manifest itself: damaged, wrong kind, or another format version.
    assert_eq!(
        code(
            SearchEngine::new(&file("manifest.bin")[..40], None, NO_LIMIT, None)
                .err()
                .unwrap()
        ),
        "length_mismatch"
    );
    assert_eq!(
        code(SearchEngine::new(good, None, NO_LIMIT, None).err().unwrap()),
        "wrong_kind"
    );
    assert_eq!(
        code(verify_envelope("x", good, 99).unwrap_err()),
        "unknown_kind"
    );
    assert_eq!(verify_envelope(&name, good, 2).unwrap(), 1);
}

#[wasm_bindgen_test]
fn a_metadata_shard_of_another_slot_is_rejected() {
    let mut engine = open(NO_LIMIT);
    let metas: Vec<&str> = FILES
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| n.starts_with("m/"))
        .collect();
    assert!(metas.len() >= 2);
    let e = engine.add(metas[0], file(metas[1]), None).unwrap_err();
    assert!(
        ["meta_mismatch", "invalid_payload"].contains(&code(e.clone()).as_str()),
        "{e:?}"
    );
}

#[wasm_bindgen_test]
fn payload_inflated_by_the_caller_gives_the_same_results() {
    let mut engine = SearchEngine::new(
        file("manifest.bin"),
        Some(envelope::open(file("manifest.bin"), ShardKind::Manifest).unwrap()),
        NO_LIMIT,
        None,
    )
    .unwrap();
    for (id, text, kinds) in QUERIES {
        let t = begin(&mut engine, text, kinds).unwrap();
        loop {
            let names = engine.need(t).unwrap();
            if names.is_empty() {
                break;
            }
            for name in names {
                let f = file(&name);
                let h = envelope::read_header(f).unwrap();
                engine
                    .add(&name, f, Some(envelope::open(f, h.kind).unwrap()))
                    .unwrap();
            }
        }
        assert_eq!(
            batch_line(id, &engine.results(t).unwrap()),
            expected_line(id)
        );
    }
}

#[wasm_bindgen_test]
fn cache_stays_within_its_bound() {
    let limit = 700;
    let mut engine = open(limit);
    for _ in 0..3 {
        for (id, text, kinds) in QUERIES {
            let got = batch_line(id, &search(&mut engine, text, kinds));
            assert_eq!(got, expected_line(id));
            assert!(
                engine.cache_bytes() <= limit,
                "{} bytes in {} entries over a {limit}-byte bound",
                engine.cache_bytes(),
                engine.cache_entries()
            );
        }
    }
    assert!(engine.cache_evictions() > 0);
    engine.clear_cache();
    assert_eq!((engine.cache_bytes(), engine.cache_entries()), (0, 0));
}

/// xorshift64*: deterministic bytes without a rand dependency in the wasm test build.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    match rng.below(4) {
        0 => b.truncate(rng.below(b.len().max(1))),
        1 => {
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
        }
        2 => {
            // Tampered: the payload changed and the envelope re-sealed, so the CRC passes and only the
            // decoders' own validation stands between the bytes and the ranking code.
            let h = envelope::read_header(bytes).unwrap();
            let mut raw = envelope::open(bytes, h.kind).unwrap();
            if raw.is_empty() {
                return b;
            }
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(raw.len());
                raw[i] = rng.next() as u8;
            }
            if rng.below(4) == 0 {
                raw.truncate(rng.below(raw.len()));
            }
            b = envelope::seal(h.kind, &raw);
        }
        _ => {
            let i = HEADER_LEN.min(b.len());
            b.insert(i, rng.next() as u8);
        }
    }
    b
}

#[wasm_bindgen_test]
fn issue_3_random_mutations_are_errors_or_valid_results() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut errors, mut ok) = (0u32, 0u32);
    // The files these (lexical, typo-free) searches read: typo files are never fetched here, so their
    // mutations are covered by tests/typos.rs instead; section text (evidence only) by core's
    // decoder tests and the evidence tests.
    // Each query's own files (the manifest and what its rounds fetch): a file it never reads
    // cannot fail it, and the fixture's mix of files (more term shards in one format than another)
    // must not decide how many cases test anything.
    let read: Vec<Vec<String>> = (QUERIES.iter())
        .map(|(_, text, kinds)| {
            let mut e = open(NO_LIMIT);
            let ticket = begin(&mut e, text, kinds).unwrap();
            let mut names = vec!["manifest.bin".to_owned()];
            names.extend(
                fetch_rounds(&mut e, ticket, |n| file(n).to_vec())
                    .unwrap()
                    .concat(),
            );
            names.retain(|f| !f.starts_with("y/") && !f.starts_with("p/") && !f.starts_with("x/"));
            names
        })
        .collect();
    for case in 0..3000 {
        let (id, text, kinds) = QUERIES[case % QUERIES.len()];
        let targets = &read[case % QUERIES.len()];
        let target = targets[rng.below(targets.len())].as_str();
        let bad = mutate(&mut rng, file(target));
        // A name the (tampered) manifest invented is a 404: empty bytes.
        let fetch = |n: &str| {
            if n == target {
                bad.clone()
            } else {
                FILES
                    .iter()
                    .find(|(f, _)| *f == n)
                    .map(|(_, b)| b.to_vec())
                    .unwrap_or_default()
            }
        };
        let outcome = if target == "manifest.bin" {
            SearchEngine::new(&bad, None, NO_LIMIT, None)
                .and_then(|mut e| search_with(&mut e, text, kinds, fetch))
        } else {
            let mut e = open(NO_LIMIT);
            search_with(&mut e, text, kinds, fetch)
        };
        match outcome {
            Ok(json) => {
                ok += 1;
                assert!(json.starts_with('[') && json.ends_with(']'));
                // Bytes that decode are either the original or a valid tampered index.
                let _ = id;
            }
            Err(e) => {
                errors += 1;
                let s = e.as_string().expect("a typed error string");
                assert_eq!(s.split('\u{1f}').count(), 3, "{s}");
            }
        }
    }
    // Damaged bytes fail their checksum; tampered and resealed ones (a quarter) pass it, and many
    // still decode to a valid index.
    assert!(errors > 1800, "{errors} errors, {ok} results");

    // Position shards are read by quoted phrases only: damage them under a phrase query.
    let query = "\"refresh token\" header";
    let mut e = open(NO_LIMIT);
    let t = begin(&mut e, query, "").unwrap();
    let positions: Vec<String> = (fetch_rounds(&mut e, t, |n| file(n).to_vec()).unwrap())
        .into_iter()
        .flatten()
        .filter(|n| n.starts_with("p/"))
        .collect();
    assert!(!positions.is_empty(), "the phrase reads position shards");
    let mut errors = 0;
    for _ in 0..500 {
        let target = positions[rng.below(positions.len())].as_str();
        let bad = mutate(&mut rng, file(target));
        let fetch = |n: &str| {
            if n == target {
                bad.clone()
            } else {
                file(n).to_vec()
            }
        };
        let mut e = open(NO_LIMIT);
        match search_with(&mut e, query, "", fetch) {
            Ok(json) => assert!(json.starts_with('[') && json.ends_with(']')),
            Err(e) => {
                errors += 1;
                let s = e.as_string().expect("a typed error string");
                assert_eq!(s.split('\u{1f}').count(), 3, "{s}");
            }
        }
    }
    assert!(
        errors > 300,
        "{errors} errors of 500 damaged position shards"
    );
}

/// Ranks `query` with facets and tag filters (`any`, `none` joined by U+001F); returns the result
/// urls and the facets JSON.
fn faceted(
    engine: &mut SearchEngine,
    query: &str,
    kinds: &str,
    any: &str,
    none: &str,
) -> (Vec<String>, serde_json::Value) {
    let ticket = begin_with(
        engine,
        query,
        100,
        kinds,
        "",
        false,
        "lexical",
        Some(any),
        Some(none),
        true,
    )
    .unwrap();
    fetch_rounds(engine, ticket, |n| file(n).to_vec()).unwrap();
    let facets: serde_json::Value = serde_json::from_str(&engine.facets(ticket).unwrap()).unwrap();
    let results: serde_json::Value =
        serde_json::from_str(&engine.results(ticket).unwrap()).unwrap();
    let urls = results
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["url"].as_str().unwrap().to_owned())
        .collect();
    (urls, facets)
}

/// The count of `value` in facet `name`.
fn facet_count(facets: &serde_json::Value, name: &str, value: &str) -> u64 {
    facets[name]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v[0] == value)
        .map_or(0, |v| v[1].as_u64().unwrap())
}

/// Issue 6: facet counts for the current query, each facet ignoring its own filter, and compound
/// tag filters (any of, none of), ranked inside the wasm module.
#[wasm_bindgen_test]
fn issue_6_facets_count_the_matches_and_compound_filters_apply() {
    let mut engine = open(NO_LIMIT);
    let (all, f) = faceted(&mut engine, "user", "", "", "");
    // Every matching page is counted once by kind.
    let kinds: u64 = f["kind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v[1].as_u64().unwrap())
        .sum();
    assert_eq!(kinds, all.len() as u64, "{f}");
    assert_eq!(facet_count(&f, "kind", "api"), 3, "{f}");
    assert_eq!(facet_count(&f, "tag", "Users"), 3, "{f}");
    // Filtering on a kind keeps that facet's other counts (a reader can switch), narrows the others.
    let (api, fa) = faceted(&mut engine, "user", "api", "", "");
    assert_eq!(api.len(), 3);
    assert_eq!(fa["kind"], f["kind"], "{fa}");
    assert_eq!(facet_count(&fa, "tag", "oauth"), 0, "{fa}");
    // Any of: pages with at least one of the tags; none of: pages with neither.
    let (any, _) = faceted(&mut engine, "user", "", "oauth\u{1f}onboarding", "");
    let (none, _) = faceted(&mut engine, "user", "", "", "oauth\u{1f}onboarding");
    assert_eq!(any.len() as u64, 3, "{any:?}");
    assert_eq!(any.len() + none.len(), all.len(), "{any:?} {none:?}");
    assert!(any.iter().all(|u| !none.contains(u)));
    // Without `facets` the ticket has none.
    let ticket = begin(&mut engine, "user", "").unwrap();
    fetch_rounds(&mut engine, ticket, |n| file(n).to_vec()).unwrap();
    assert_eq!(engine.facets(ticket).unwrap(), "null");
    engine.release(ticket);
}

/// Issue 6 (format v8): `partitionManifest` names the manifest a reader's language opens from a
/// partition table, nothing for an index manifest; the engine opened from a partition's manifest
/// names that file in its errors; a damaged table is a typed error, never a trap.
#[wasm_bindgen_test]
fn issue_6_a_partition_table_names_the_readers_manifest() {
    use aidocs_core::partitions::{LanguagePartition, PartitionTable};
    use aidocs_wasm_search::{partition_manifest, root_kind};
    let manifest = file("manifest.bin");
    assert_eq!(root_kind(manifest).unwrap(), ShardKind::Manifest as u8);
    assert_eq!(
        partition_manifest(manifest, None, Some("fr".into())).unwrap(),
        None
    );
    let part = |language: &str, hash: &str| LanguagePartition {
        language: language.into(),
        manifest: format!("l/{hash}.bin"),
        pages: 3,
    };
    let table = PartitionTable {
        partitions: vec![
            part("en", "aaaaaaaaaaaa"),
            part("fr", "bbbbbbbbbbbb"),
            part("zh", "cccccccccccc"),
        ],
        default: 0,
    };
    let bytes = table.encode();
    assert_eq!(root_kind(&bytes).unwrap(), ShardKind::Partitions as u8);
    for (language, want) in [
        (Some("fr-CA"), "l/bbbbbbbbbbbb.bin"),
        (Some("zh"), "l/cccccccccccc.bin"),
        (Some("de"), "l/aaaaaaaaaaaa.bin"),
        (Some(""), "l/aaaaaaaaaaaa.bin"),
        (None, "l/aaaaaaaaaaaa.bin"),
    ] {
        let raw = envelope::open(&bytes, ShardKind::Partitions).unwrap();
        for raw in [None, Some(raw)] {
            let got = partition_manifest(&bytes, raw, language.map(str::to_owned)).unwrap();
            assert_eq!(got.as_deref(), Some(want), "{language:?}");
        }
    }
    // The partition's manifest opens under its own name, which errors carry.
    let named = |file: &[u8]| {
        SearchEngine::new(file, None, NO_LIMIT, Some("l/bbbbbbbbbbbb.bin".into()))
            .err()
            .unwrap()
            .as_string()
            .unwrap()
    };
    assert!(SearchEngine::new(manifest, None, NO_LIMIT, Some("l/x.bin".into())).is_ok());
    assert!(named(&manifest[..30]).contains("l/bbbbbbbbbbbb.bin"));
    // A table is not a manifest, a manifest not a table.
    assert_eq!(code(named(&bytes).into()), "wrong_kind");
    // Damage: every truncation and 2,000 random mutations are typed errors or a valid choice.
    for cut in 0..bytes.len() {
        assert!(
            partition_manifest(&bytes[..cut], None, None).is_err(),
            "{cut}"
        );
    }
    let mut rng = Rng(0x0005_eed6);
    for _ in 0..2000 {
        let bad = mutate(&mut rng, &bytes);
        match partition_manifest(&bad, None, Some("fr".into())) {
            // A name the table's checks passed: `dir/name`, never a path out of the index.
            Ok(Some(name)) => assert!(
                name.matches('/').count() == 1 && !name.contains(".."),
                "{name}"
            ),
            Ok(None) => {}
            Err(e) => assert!(!code(e).is_empty()),
        }
    }
}
