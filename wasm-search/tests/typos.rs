//! Issue 6: typo tolerance in the engine the wasm module runs: the files it names round by round, the
//! corrections it reports, and typed errors for a corrupt typo file. Runs natively over the checked-in
//! v6 compatibility fixture.

use std::path::{Path, PathBuf};

use aidocs_wasm_search::engine::{Engine, QueryOptions};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/compat/v6")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(fixture().join(name)).unwrap_or_else(|e| panic!("v6/{name}: {e}"))
}

fn opts(typos: bool) -> QueryOptions {
    QueryOptions {
        k: 10,
        typos,
        ..Default::default()
    }
}

/// Starts a search and fetches what the engine asks for until it asks for nothing; returns the
/// ticket and the rounds' file lists (the last round is the results' metadata).
fn fetch_all(engine: &mut Engine, query: &str, typos: bool) -> (u32, Vec<Vec<String>>) {
    let ticket = engine.begin(query, &opts(typos), None).unwrap();
    let mut rounds = Vec::new();
    for _ in 0..8 {
        let names = engine.need(ticket).unwrap();
        if names.is_empty() {
            return (ticket, rounds);
        }
        for n in &names {
            engine.add(n, &read(n), None).unwrap();
        }
        rounds.push(names);
    }
    panic!("the engine kept asking for files: {rounds:?}");
}

/// The corrections and results of a search whose files are all here.
fn titles(engine: &mut Engine, ticket: u32) -> (String, String) {
    let corrections = engine.corrections_json(ticket).unwrap();
    (corrections, engine.results(ticket).unwrap())
}

#[test]
fn issue_6_the_engine_corrects_misspelled_words_round_by_round() {
    let mut engine = Engine::open(&read("manifest.bin"), None, 64 << 20).unwrap();
    let (ticket, rounds) = fetch_all(&mut engine, "refesh tokns", true);
    // The fixture's filters say both words are absent without a fetch: the typo directory first,
    // then the shards of the words' deletion keys, then the corrected words' term shards.
    let kinds: Vec<Vec<&str>> = rounds
        .iter()
        .map(|r| {
            r.iter()
                .map(|n| {
                    if n.contains('-') {
                        "typo shard"
                    } else {
                        &n[..2]
                    }
                })
                .collect()
        })
        .collect();
    assert_eq!(kinds[0], vec!["y/"], "{rounds:?}");
    assert!(kinds[1].iter().all(|k| *k == "typo shard"), "{rounds:?}");
    assert!(kinds[2].iter().all(|k| *k == "t/"), "{rounds:?}");
    assert!(kinds[3].iter().all(|k| *k == "m/"), "{rounds:?}");
    assert_eq!(rounds.len(), 4, "{rounds:?}");
    let (corrections, results) = titles(&mut engine, ticket);
    assert_eq!(
        corrections,
        r#"[{"from":"refesh","to":"refresh"},{"from":"tokns","to":"tokens"}]"#
    );
    assert!(results.contains("Refresh tokens"), "{results}");
    // Without typo tolerance: no typo files, no results.
    let mut plain = Engine::open(&read("manifest.bin"), None, 64 << 20).unwrap();
    let (ticket, rounds) = fetch_all(&mut plain, "refesh tokns", false);
    assert!(
        rounds.iter().flatten().all(|n| !n.starts_with("y/")),
        "{rounds:?}"
    );
    let (corrections, results) = titles(&mut plain, ticket);
    assert_eq!((corrections.as_str(), results.as_str()), ("[]", "[]"));
}

#[test]
fn issue_6_a_corrupt_typo_file_is_a_typed_error() {
    let mut engine = Engine::open(&read("manifest.bin"), None, 64 << 20).unwrap();
    let ticket = engine.begin("refesh tokns", &opts(true), None).unwrap();
    for _ in 0..8 {
        let names = engine.need(ticket).unwrap();
        let Some(typo) = names.iter().find(|n| n.starts_with("y/")) else {
            for n in &names {
                engine.add(n, &read(n), None).unwrap();
            }
            continue;
        };
        let mut bytes = read(typo);
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        let err = engine.add(typo, &bytes, None).unwrap_err();
        assert_eq!(err.code(), "checksum_mismatch", "{}", err.message());
        // A typo file under another name is refused too.
        assert_eq!(
            engine
                .add("y/000000000000-0.bin", &read(typo), None)
                .unwrap_err()
                .code(),
            "unknown_file"
        );
        return;
    }
    panic!("no typo file was asked for");
}

/// Typo files damaged at random, including damage re-sealed with a valid checksum, are typed errors
/// or still-valid files, never a panic; the engine answers the next search.
#[test]
fn issue_6_random_damage_to_typo_files_is_an_error_or_a_valid_file() {
    use aidocs_core::envelope;
    let typo_files: Vec<String> = std::fs::read_dir(fixture().join("y"))
        .unwrap()
        .map(|e| format!("y/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    assert!(typo_files.len() >= 2);
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut errors, mut ok) = (0, 0);
    for case in 0..600 {
        let target = &typo_files[case % typo_files.len()];
        let good = read(target);
        let header = envelope::read_header(&good).unwrap();
        let mut raw = envelope::open(&good, header.kind).unwrap();
        let bad = match next() % 3 {
            0 => {
                let mut b = good.clone();
                let i = (next() as usize) % b.len();
                b[i] ^= 1 + (next() as u8 % 255);
                b
            }
            1 => {
                for _ in 0..1 + next() % 4 {
                    let i = (next() as usize) % raw.len();
                    raw[i] = next() as u8;
                }
                envelope::seal(header.kind, &raw)
            }
            _ => {
                raw.truncate((next() as usize) % raw.len());
                envelope::seal(header.kind, &raw)
            }
        };
        let mut engine = Engine::open(&read("manifest.bin"), None, 64 << 20).unwrap();
        let mut failed = false;
        let ticket = engine.begin("refesh tokns", &opts(true), None).unwrap();
        for _ in 0..8 {
            let names = match engine.need(ticket) {
                Ok(names) => names,
                // A damaged file that decodes can still make no sense to the search: a typed error.
                Err(e) => {
                    assert!(!e.code().is_empty());
                    failed = true;
                    break;
                }
            };
            if names.is_empty() {
                break;
            }
            for n in &names {
                // A name the damaged directory invented is a 404: empty bytes.
                let bytes = if n == target {
                    bad.clone()
                } else {
                    std::fs::read(fixture().join(n)).unwrap_or_default()
                };
                if let Err(e) = engine.add(n, &bytes, None) {
                    assert!(!e.code().is_empty());
                    failed = true;
                }
            }
            if failed {
                break;
            }
        }
        if failed {
            errors += 1;
        } else {
            ok += 1;
            let _ = engine.results(ticket); // Ok, or a typed error
        }
        // The engine still answers a search that needs no typo file.
        let (c, _) = titles_or_retry(&mut engine);
        assert_eq!(c, "[]");
    }
    assert!(errors > 100, "{errors} errors, {ok} valid");
}

/// A plain search on an engine that may hold damaged typo state: fetch what it asks, then results.
fn titles_or_retry(engine: &mut Engine) -> (String, String) {
    let (ticket, _) = fetch_all(engine, "refresh tokens", false);
    titles(engine, ticket)
}
