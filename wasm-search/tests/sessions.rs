//! Issue 19: the engine keeps one core query session per search. Many searches in flight at once,
//! interleaved round by round over a cache too small to hold their files, each complete with the
//! results they give alone; a failed search is forgotten. Runs natively over the checked-in v8
//! compatibility fixture.

use std::path::{Path, PathBuf};

use aidocs_wasm_search::engine::{Engine, QueryOptions};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/compat/v8")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(fixture().join(name)).unwrap_or_else(|e| panic!("v8/{name}: {e}"))
}

fn open(limit: usize) -> Engine {
    Engine::open(&read("manifest.bin"), None, limit).unwrap()
}

const QUERIES: [(&str, &str); 5] = [
    ("refresh tokens", "lexical"),
    ("renew my credentials", "hybrid"),
    ("refesh tokns", "lexical"),
    ("\"refresh token\"", "lexical"),
    ("x-request-id", "vector"),
];

fn opts(mode: &str) -> QueryOptions {
    QueryOptions {
        k: 10,
        mode: mode.into(),
        typos: true,
        ..Default::default()
    }
}

/// Fetches what search `t` needs until it needs nothing; returns its results.
fn complete(e: &mut Engine, t: u32) -> String {
    loop {
        let names = e.need(t).unwrap();
        if names.is_empty() {
            break;
        }
        for n in names {
            e.add(&n, &read(&n), None).unwrap();
        }
    }
    e.results(t).unwrap()
}

/// One search alone on a fresh engine.
fn alone(query: &str, mode: &str) -> String {
    let mut e = open(64 << 20);
    let t = e.begin(query, &opts(mode), None).unwrap();
    complete(&mut e, t)
}

#[test]
fn issue_19_many_searches_in_flight_complete_over_a_tiny_cache() {
    let expected: Vec<String> = QUERIES.iter().map(|(q, m)| alone(q, m)).collect();
    for limit in [1, 64 << 20] {
        let mut e = open(limit);
        // 250 searches begun before any file arrives (far more than a handler's concurrency).
        let tickets: Vec<(u32, usize)> = (0..250)
            .map(|i| {
                let (q, m) = QUERIES[i % QUERIES.len()];
                (e.begin(q, &opts(m), None).unwrap(), i % QUERIES.len())
            })
            .collect();
        let mut open_tickets = tickets.clone();
        for _ in 0..8 {
            // Every search asks, then every file asked for arrives (each once, as coalesced).
            let mut asked: Vec<String> = Vec::new();
            for &(t, _) in &open_tickets {
                for n in e.need(t).unwrap() {
                    if !asked.contains(&n) {
                        asked.push(n);
                    }
                }
            }
            for n in &asked {
                e.add(n, &read(n), None).unwrap();
            }
            open_tickets.retain(|&(t, _)| !e.need(t).unwrap().is_empty());
            if open_tickets.is_empty() {
                break;
            }
        }
        assert!(
            open_tickets.is_empty(),
            "limit {limit}: {} searches still waiting",
            open_tickets.len()
        );
        for &(t, q) in &tickets {
            let json = e.results(t).unwrap();
            assert_eq!(json, expected[q], "limit {limit}: {:?}", QUERIES[q]);
        }
        // Between searches the cache holds its bound.
        assert!(
            e.cache().used() <= limit,
            "limit {limit}: {}",
            e.cache().used()
        );
    }
}

#[test]
fn issue_19_a_vector_query_explains_its_terms() {
    let mut e = open(64 << 20);
    let o = QueryOptions {
        explain: true,
        ..opts("vector")
    };
    let t = e.begin("refresh tokens", &o, None).unwrap();
    let json = complete(&mut e, t);
    assert!(json.contains("\"explain\":{\"bm25\":"), "{json}");
}

#[test]
fn issue_19_a_failed_search_is_forgotten() {
    let mut e = open(64 << 20);
    let t = e
        .begin("renew my credentials", &opts("hybrid"), Some(vec![0.1; 10]))
        .unwrap();
    let mut failed = None;
    for _ in 0..8 {
        match e.need(t) {
            Ok(names) if names.is_empty() => break,
            Ok(names) => {
                for n in names {
                    e.add(&n, &read(&n), None).unwrap();
                }
            }
            Err(err) => {
                failed = Some(err);
                break;
            }
        }
    }
    assert_eq!(
        failed.expect("a width the projection does not take").code(),
        "bad_option"
    );
    assert_eq!(e.need(t).unwrap_err().code(), "unknown_ticket");
    assert_eq!(e.results(t).unwrap_err().code(), "unknown_ticket");
}
