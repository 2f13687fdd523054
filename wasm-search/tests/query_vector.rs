//! Issue 4: a full-model query vector handed in by the caller (`begin(…, vector)`, what the Node and
//! edge full encoder does) is mapped through the index's projection and ranks without row shards; bad
//! vectors are typed errors. Runs natively over the checked-in v3 to v6 compatibility fixtures (with
//! vectors, term rows and a projection from the real model; v3 stores int8 partitions, v4 4-bit
//! residuals, v5 a 4-bit directory with one partition prefix and a manifest with 6-byte names).

use std::path::{Path, PathBuf};

use aidocs_core::vectors::Projection;
use aidocs_wasm_search::engine::{Engine, EngineError, QueryOptions};

/// The fixtures every test runs over.
const VERSIONS: [&str; 4] = ["v3", "v4", "v5", "v6"];

thread_local! {
    static VERSION: std::cell::Cell<&'static str> = const { std::cell::Cell::new("v6") };
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/compat")
        .join(VERSION.get())
}

/// Runs `test` once per fixture version.
fn each_version(test: impl Fn()) {
    for v in VERSIONS {
        VERSION.set(v);
        test();
    }
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(fixture().join(name)).unwrap_or_else(|e| panic!("{}/{name}: {e}", VERSION.get()))
}

fn open() -> Engine {
    Engine::open(&read("manifest.bin"), None, 64 << 20).unwrap()
}

fn opts(mode: &str) -> QueryOptions {
    QueryOptions {
        k: 10,
        mode: mode.into(),
        ..Default::default()
    }
}

/// Starts a search and fetches until the engine asks for nothing; returns the ticket and every file
/// asked for, or the first error.
fn fetch_all(
    engine: &mut Engine,
    query: &str,
    mode: &str,
    vector: Option<Vec<f32>>,
) -> Result<(u32, Vec<String>), EngineError> {
    let ticket = engine.begin(query, &opts(mode), vector)?;
    let mut asked = Vec::new();
    for _ in 0..8 {
        let names = engine.need(ticket)?;
        if names.is_empty() {
            return Ok((ticket, asked));
        }
        for n in &names {
            engine.add(n, &read(n), None)?;
        }
        asked.extend(names);
    }
    panic!("the engine kept asking for files: {asked:?}");
}

/// The result ids of a search whose files are all here.
fn results(engine: &mut Engine, ticket: u32) -> Vec<String> {
    let json: serde_json::Value = serde_json::from_str(&engine.results(ticket).unwrap()).unwrap();
    json.as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect()
}

/// A vector in the model's space whose projection is the stored direction of `row`: `Pᵀ e_row`.
fn full_vector_along(projection: &Projection, row: usize) -> Vec<f32> {
    let d = projection.in_dims as usize;
    projection.matrix[row * d..(row + 1) * d].to_vec()
}

#[test]
fn issue_4_a_provided_full_vector_loads_the_projection_not_the_row_shards() {
    each_version(provided_vector_loads_the_projection);
}

fn provided_vector_loads_the_projection() {
    let mut engine = open();
    let manifest_vectors = engine.manifest().vectors.clone().unwrap();
    let projection_file = manifest_vectors.projection.clone().unwrap();
    let projection = Projection::decode(&read(&projection_file)).unwrap();
    let query = "renew my credentials";
    let full = Some(full_vector_along(&projection, 0));
    let (ticket, asked) = fetch_all(&mut engine, query, "vector", full).unwrap();
    assert!(asked.contains(&projection_file), "{asked:?}");
    assert!(asked.contains(&manifest_vectors.file), "{asked:?}");
    assert!(
        !asked.iter().any(|n| n.starts_with("q/")),
        "no term rows with a full vector: {asked:?}"
    );
    let full = results(&mut engine, ticket);
    assert!(!full.is_empty());

    // Without a vector, the static encoder: row shards, no projection.
    let mut fresh = open();
    let (ticket, asked) = fetch_all(&mut fresh, query, "vector", None).unwrap();
    assert!(asked.iter().any(|n| n.starts_with("q/")), "{asked:?}");
    assert!(!asked.contains(&projection_file), "{asked:?}");
    let static_ids = results(&mut fresh, ticket);
    assert_eq!(static_ids[0], "guides/refresh-tokens");
    // The provided vector (the first principal direction, not the query's meaning) ranks by itself.
    assert_ne!(full, static_ids);
}

#[test]
fn issue_4_bad_query_vectors_are_typed_errors() {
    each_version(bad_query_vectors_are_typed_errors);
}

fn bad_query_vectors_are_typed_errors() {
    let mut engine = open();
    let bad = |e: EngineError| assert_eq!(e.code(), "bad_option", "{}", e.message());
    bad(fetch_all(&mut engine, "q", "hybrid", Some(vec![f32::NAN; 384])).unwrap_err());
    bad(fetch_all(&mut engine, "q", "hybrid", Some(Vec::new())).unwrap_err());
    // A width the projection does not take (another model): known once the projection is loaded.
    bad(fetch_all(&mut engine, "q", "hybrid", Some(vec![0.1; 10])).unwrap_err());
    // The engine stays usable.
    let (ticket, _) = fetch_all(&mut engine, "q", "hybrid", Some(vec![0.05; 384])).unwrap();
    results(&mut engine, ticket);
}

#[test]
fn issue_4_a_query_vector_on_an_index_without_vectors_is_refused() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixture");
    let mut engine = Engine::open(
        &std::fs::read(dir.join("manifest.bin")).unwrap(),
        None,
        1 << 20,
    )
    .unwrap();
    let e = engine
        .begin("refresh tokens", &opts("hybrid"), Some(vec![0.1; 384]))
        .unwrap_err();
    assert_eq!(e.code(), "bad_option");
}
