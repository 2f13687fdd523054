//! Issue 25 (format v11): a paged index whose manifest or directory pages were tampered with (bytes of
//! their payloads changed, cut or grown, then sealed again so that the checksums hold and the
//! decoders see them) never panics, never loops, and never allocates for what its bytes do not hold:
//! every query ends, with results or an error, within a bounded number of rounds. Starts from the
//! checked-in `tests/compat/v11-paged/` index (both tables paged across several pages). CI runs a
//! fixed seed and budget; `AIDOCS_PROPTEST_CASES=N` and `AIDOCS_PROPTEST_SEED=S` run more.

mod fixed_seed;

use std::collections::{BTreeMap, BTreeSet};

use aidocs_core::envelope::{self, ShardKind};
use aidocs_core::{Manifest, QuerySession, QueryVector, SearchOptions, Searcher};
use aidocs_e2e::{files, repo};
use proptest::prelude::*;

const QUERIES: [&str; 6] = [
    "refresh tokens",
    "POST /v1/users",
    "authen",
    "webhok signatur",
    "\"rate limit\"",
    "x-request-id",
];

/// The queries run: words, an endpoint, a prefix, a typo, a phrase, an identifier, and reading a
/// page by its URL.
fn queries() -> Vec<(&'static str, SearchOptions)> {
    let mut read = SearchOptions {
        evidence: aidocs_core::EvidenceOptions::new(400),
        ..Default::default()
    };
    if let Some(e) = read.evidence.as_mut() {
        e.read = true;
    }
    let prefix = SearchOptions {
        prefix: true,
        ..Default::default()
    };
    (QUERIES.iter().map(|&q| (q, SearchOptions::default())))
        .chain([("authenticat", prefix.clone()), ("rot", prefix)])
        .chain([("/guides/refresh-tokens", read)])
        .collect()
}

/// What running every query over `index` (file name to bytes) came to.
#[derive(Default)]
struct Run {
    /// Queries that ended with their results (the others ended on an error).
    finished: usize,
    /// Queries that ended with at least one result.
    answered: usize,
}

/// Runs every query over `index`: each ends within 12 rounds, and every result is a page the site
/// has (`urls`).
fn run_all(
    index: &BTreeMap<String, Vec<u8>>,
    urls: &BTreeSet<String>,
) -> Result<Run, TestCaseError> {
    let mut run = Run::default();
    let Ok(manifest) = Manifest::decode(&index["manifest.bin"]) else {
        return Ok(run);
    };
    let Ok(searcher) = Searcher::new(manifest) else {
        return Ok(run);
    };
    for (q, opts) in queries() {
        let Ok(mut session) = QuerySession::new(&searcher, q, opts, QueryVector::Static) else {
            continue;
        };
        let mut rounds = 0;
        'query: while let Ok(need) = session.advance(&searcher, |_| None) {
            if need.is_empty() {
                if let Ok(o) = session.finish(&searcher) {
                    run.finished += 1;
                    run.answered += usize::from(!o.results.is_empty());
                    for r in &o.results {
                        prop_assert!(
                            urls.contains(&r.url),
                            "{q}: {} is no page of the site",
                            r.url
                        );
                    }
                }
                break;
            }
            rounds += 1;
            prop_assert!(
                rounds <= 12,
                "{q}: still needs {need:?} after {rounds} rounds"
            );
            for f in need {
                let Some(name) = session.file_name(&searcher, f) else {
                    break 'query;
                };
                let Some(bytes) = index.get(&name) else {
                    break 'query;
                };
                match searcher.open_file(f, &name, bytes, None) {
                    Ok((shard, _)) => session.provide(f, shard),
                    Err(_) => break 'query,
                }
            }
        }
    }
    Ok(run)
}

#[test]
fn issue_25_tampered_tables_never_panic_or_loop() {
    let dir = repo().join("tests/compat/v11-paged");
    let index: BTreeMap<String, Vec<u8>> = files(&dir).into_iter().collect();
    let urls: BTreeSet<String> = (index.iter())
        .filter(|(n, _)| n.starts_with("m/"))
        .flat_map(|(_, b)| aidocs_core::MetaShard::decode(b).unwrap().pages)
        .map(|p| p.url)
        .collect();
    // The untampered index answers every query, with results.
    run_all(&index, &urls).unwrap();
    let local = aidocs_reader::LocalIndex::open(&dir).unwrap();
    assert!(!local
        .search("refresh tokens", &SearchOptions::default())
        .unwrap()
        .is_empty());
    assert!(urls.len() >= 5, "{urls:?}");
    let targets: Vec<(String, ShardKind)> = (index.keys())
        .filter(|n| n.as_str() == "manifest.bin" || n.starts_with("d/"))
        .map(|n| {
            let kind = if n == "manifest.bin" {
                ShardKind::Manifest
            } else {
                ShardKind::Directory
            };
            (n.clone(), kind)
        })
        .collect();
    assert!(targets.len() >= 6, "{targets:?}");
    let (mut runner, cases, _) = fixed_seed::runner(300, 25);
    let edits = prop::collection::vec((any::<u16>(), any::<u8>(), 0..4u8), 1..6);
    // Cases where the tampered file was read and queries still ended with results: the mutations
    // reach the lookups, not only the decoders.
    let reached = std::cell::Cell::new(0usize);
    runner
        .run(&(0..targets.len(), edits), |(t, edits)| {
            let (name, kind) = &targets[t];
            let mut payload = envelope::open(&index[name], *kind).unwrap();
            for (at, byte, how) in edits {
                let at = at as usize % payload.len().max(1);
                match how {
                    // A byte changed (counts, lengths, names, flags).
                    0 | 1 => {
                        if let Some(b) = payload.get_mut(at) {
                            *b = byte;
                        }
                    }
                    // Cut short, or grown by a varint's worth.
                    2 => payload.truncate(at),
                    _ => payload
                        .splice(at..at, [byte | 0x80, byte, 0x0f])
                        .for_each(drop),
                }
            }
            let mut tampered = index.clone();
            tampered.insert(name.clone(), envelope::seal(*kind, &payload));
            let run = run_all(&tampered, &urls)?;
            reached.set(reached.get() + usize::from(run.answered > 0));
            Ok(())
        })
        .unwrap();
    eprintln!(
        "{} of {cases} tampered indexes still answered",
        reached.get()
    );
    assert!(
        reached.get() >= cases as usize / 20,
        "{} of {cases} cases answered",
        reached.get()
    );
}
