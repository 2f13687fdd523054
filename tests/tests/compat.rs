//! Issue 2: every shard format version keeps a checked-in index (`tests/compat/v<N>/`, built from
//! `fixtures/example-site`) that the current reader must open, verify and query.
//!
//! `AIDOCS_BLESS=1 cargo test -p aidocs-e2e --test compat -- --test-threads=1` (the other tests read the
//! fixture being rewritten) rewrites the fixture of the *current* version
//! (and its expected results); older versions are never rewritten.

use aidocs_e2e::{fixture, repo};
use aidocs_reader::LocalIndex;

fn run_queries(dir: &std::path::Path) -> String {
    let index = LocalIndex::open(dir)
        .unwrap_or_else(|e| panic!("compat index {} does not open: {e}", dir.display()));
    let queries =
        aidocs_reader::eval::read_queries(&repo().join("tests/compat/queries.jsonl")).unwrap();
    let mut out = String::new();
    for (id, text) in queries {
        let results = index.search(&text, &Default::default()).unwrap();
        let ids: Vec<&str> = results.iter().map(|r| r.id.as_str()).collect();
        out.push_str(&format!("{id}\t{}\n", ids.join(" ")));
    }
    out
}

/// The format version that writes a multilingual site as one index per language.
const LANGUAGE_PARTITIONS_SINCE: u16 = 8;
/// The format version that may cut the manifest's shard tables into directory pages.
const PAGED_TABLES_SINCE: u16 = 11;

/// The paged fixture's sizes: small shards and directory pages, so that its tables span several
/// pages (a 100,000-page site's do with the default sizes).
fn paged_sizes() -> aidocs_index::export::ShardSizes {
    aidocs_index::export::ShardSizes {
        term_bytes: 256,
        meta_bytes: 256,
        tables: aidocs_index::export::TablePaging::Always,
        directory_bytes: 64,
        ..Default::default()
    }
}

/// Issue 6: each reader's language opens its partition of `tests/compat/v<N>-languages/` (built from
/// `fixtures/multilingual-site`), ranked lexically and with the stored vectors (hybrid, static
/// encoder: no model needed).
fn run_language_queries(dir: &std::path::Path) -> String {
    let mut out = String::new();
    for (language, text) in [
        ("en", "custom domain"),
        ("en", "rotate keys"),
        ("fr", "domaine personnalisé"),
        ("fr", "renouveler les clés"),
        ("zh", "自定义域名"),
        ("zh", "密钥"),
        ("de", "domain"),
    ] {
        let index = LocalIndex::open_language(dir, Some(language))
            .unwrap_or_else(|e| panic!("compat index {} does not open: {e}", dir.display()));
        for mode in [aidocs_core::Mode::Lexical, aidocs_core::Mode::Hybrid] {
            let opts = aidocs_core::SearchOptions {
                mode,
                language: Some(language.to_owned()),
                ..Default::default()
            };
            // The partition's own static encoder, fitted to its language's pages.
            let vector = match mode {
                aidocs_core::Mode::Lexical => None,
                _ => index.static_vector(text, &opts).unwrap(),
            };
            let (results, used) = index.search_with(text, vector.as_deref(), &opts).unwrap();
            let urls: Vec<&str> = results.iter().map(|r| r.url.as_str()).collect();
            out.push_str(&format!(
                "{language}\t{used:?}\t{text}\t{}\n",
                urls.join(" ")
            ));
        }
    }
    out
}

/// Issue 2 and issue 4: the fixture of every format version from 1 to the current one opens, verifies
/// and ranks as recorded. Only the current version's fixture is rewritten by `AIDOCS_BLESS=1` (built
/// with embeddings, so it carries vectors: blessing needs the model; reading does not).
#[test]
fn issue_2_every_compat_fixture_still_reads_and_ranks() {
    let current = aidocs_core::FORMAT_VERSION;
    if std::env::var_os("AIDOCS_BLESS").is_some() {
        let dir = repo().join(format!("tests/compat/v{current}"));
        let tmp = tempfile::tempdir().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let mut opts = aidocs_index::BuildOptions::new(fixture("example-site"), &dir);
        opts.cache_dir = Some(tmp.path().join("cache"));
        opts.embeddings = aidocs_index::build::Embeddings::Require;
        opts.llms_txt = false;
        aidocs_index::build(&opts).expect("blessing needs the embedding model (./dev.sh setup)");
        std::fs::write(dir.join("expected.tsv"), run_queries(&dir)).unwrap();
        // Since v8: a multilingual site, one index per language.
        let dir = repo().join(format!("tests/compat/v{current}-languages"));
        let _ = std::fs::remove_dir_all(&dir);
        let mut opts = aidocs_index::BuildOptions::new(fixture("multilingual-site"), &dir);
        opts.cache_dir = Some(tmp.path().join("cache-languages"));
        opts.embeddings = aidocs_index::build::Embeddings::Require;
        opts.llms_txt = false;
        aidocs_index::build(&opts).expect("blessing needs the embedding model (./dev.sh setup)");
        std::fs::write(dir.join("expected.tsv"), run_language_queries(&dir)).unwrap();
        // Since v11: the example site with its tables in directory pages, small shards and pages.
        let dir = repo().join(format!("tests/compat/v{current}-paged"));
        let _ = std::fs::remove_dir_all(&dir);
        let mut opts = aidocs_index::BuildOptions::new(fixture("example-site"), &dir);
        opts.cache_dir = Some(tmp.path().join("cache"));
        opts.embeddings = aidocs_index::build::Embeddings::Require;
        opts.llms_txt = false;
        opts.sizes = paged_sizes();
        aidocs_index::build(&opts).expect("blessing needs the embedding model (./dev.sh setup)");
        std::fs::write(dir.join("expected.tsv"), run_queries(&dir)).unwrap();
    }
    for version in PAGED_TABLES_SINCE..=current {
        let dir = repo().join(format!("tests/compat/v{version}-paged"));
        assert!(dir.is_dir(), "missing compat fixture {}", dir.display());
        let report = aidocs_reader::inspect::inspect(&dir).unwrap();
        assert_eq!(report.errors, 0, "v{version}-paged: {:?}", report.shards);
        let pages = |table: &str| {
            (report.shards.iter())
                .filter(|s| s.kind == "directory" && s.range.starts_with(table))
                .count()
        };
        assert!(
            pages("term") >= 3 && pages("metadata") >= 2,
            "{:?}",
            report.shards
        );
        let expected = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
        assert_eq!(run_queries(&dir), expected, "v{version}-paged");
        // Paged or inline, the same results.
        let inline = repo().join(format!("tests/compat/v{version}/expected.tsv"));
        assert_eq!(
            expected,
            std::fs::read_to_string(inline).unwrap(),
            "v{version}"
        );
    }
    for version in LANGUAGE_PARTITIONS_SINCE..=current {
        let dir = repo().join(format!("tests/compat/v{version}-languages"));
        assert!(dir.is_dir(), "missing compat fixture {}", dir.display());
        let report = aidocs_reader::inspect::inspect(&dir).unwrap();
        assert_eq!(report.errors, 0, "v{version}: {:?}", report.shards);
        assert_eq!(report.partitions, ["en", "fr", "zh"]);
        let expected = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
        assert_eq!(run_language_queries(&dir), expected, "v{version}-languages");
    }
    for version in aidocs_core::envelope::MIN_FORMAT_VERSION..=current {
        let dir = repo().join(format!("tests/compat/v{version}"));
        assert!(dir.is_dir(), "missing compat fixture {}", dir.display());
        let report = aidocs_reader::inspect::inspect(&dir).unwrap();
        assert_eq!(report.errors, 0, "v{version}: {:?}", report.shards);
        let expected = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
        assert_eq!(run_queries(&dir), expected, "v{version}");
    }
}

/// Issue 4: the v2 fixture's vectors rank without the model: a chunk's own stored vector, used as the
/// query, finds that chunk's page first in vector mode, and hybrid mode returns it too.
#[test]
fn issue_4_v2_fixture_vectors_rank_without_the_model() {
    let dir = repo().join("tests/compat/v2");
    let index = LocalIndex::open(&dir).unwrap();
    let vref = index
        .searcher
        .manifest()
        .vectors
        .clone()
        .expect("v2 fixture has vectors");
    assert_eq!(vref.model, "all-MiniLM-L6-v2");
    assert_eq!(vref.count, index.searcher.manifest().num_chunks);
    let vdir = index.vector_dir().unwrap().unwrap();
    let shard = index.vector_shard(&vdir, 0).unwrap();
    let d = vref.dims as usize;
    let chunk = shard.chunks[0];
    let query: Vec<f32> = shard.values[..d]
        .iter()
        .map(|&q| q as f32 * shard.scales[0])
        .collect();
    let page = index.searcher.page_of(chunk) as usize;
    for mode in [aidocs_core::Mode::Vector, aidocs_core::Mode::Hybrid] {
        let opts = aidocs_core::SearchOptions {
            mode,
            ..Default::default()
        };
        let (hits, used) = index.search_with("", Some(&query), &opts).unwrap();
        assert_eq!(used, mode);
        assert!(!hits.is_empty());
        let meta_page = index
            .searcher
            .meta_shard_for(page as u32)
            .map(|m| index.meta_shard(m).unwrap())
            .unwrap();
        let want = &meta_page.pages[page - meta_page.first_page as usize].id;
        assert_eq!(&hits[0].id, want, "{mode:?}");
    }
    // A lexical-only reader path still works on the same index.
    assert!(!index
        .search("refresh tokens", &Default::default())
        .unwrap()
        .is_empty());
}

/// Issue 4: the v3 to v5 fixtures carry the static query encoder and the projection: without the
/// model, a paraphrase with none of the page's title words ("renew my credentials") finds the
/// refresh-token guide first in vector and hybrid modes (v3 over int8 partitions, v4 over 4-bit
/// residual ones, v5 with a 4-bit directory and one partition prefix); the projection for
/// full-model clients reads back.
#[test]
fn issue_4_v3_fixture_static_encoder_ranks_without_the_model() {
    for version in ["v3", "v4", "v5", "v6"] {
        static_encoder_ranks_without_the_model(version);
    }
}

fn static_encoder_ranks_without_the_model(version: &str) {
    let dir = repo().join("tests/compat").join(version);
    let index = LocalIndex::open(&dir).unwrap();
    let vref = index
        .searcher
        .manifest()
        .vectors
        .clone()
        .unwrap_or_else(|| panic!("{version} has vectors"));
    let rows = vref
        .term_rows
        .clone()
        .unwrap_or_else(|| panic!("{version} has the static encoder"));
    assert_eq!(rows.dims, vref.dims);
    let projection = index
        .projection()
        .unwrap()
        .unwrap_or_else(|| panic!("{version} stores projected vectors"));
    assert_eq!((projection.in_dims, projection.out_dims), (384, vref.dims));
    let q = index
        .static_vector("renew my credentials", &Default::default())
        .unwrap()
        .expect("the query's words have rows");
    assert_eq!(q.len(), vref.dims as usize);
    for mode in [aidocs_core::Mode::Vector, aidocs_core::Mode::Hybrid] {
        let opts = aidocs_core::SearchOptions {
            mode,
            ..Default::default()
        };
        let (hits, used) = index
            .search_with("renew my credentials", Some(&q), &opts)
            .unwrap();
        assert_eq!(used, mode);
        assert_eq!(hits[0].url, "/guides/refresh-tokens", "{version} {mode:?}");
    }
    // No word with a row: nothing to encode, and hybrid ranks lexically.
    assert!(index
        .static_vector("zzzqqq", &Default::default())
        .unwrap()
        .is_none());
}

/// Issue 6: the v6 fixture carries typo tolerance: a misspelled query is corrected and finds what the
/// word typed right finds; fixtures before v6 have no typo files and correct nothing.
#[test]
fn issue_6_v6_fixture_corrects_misspelled_words() {
    let opts = aidocs_core::SearchOptions {
        typos: true,
        ..Default::default()
    };
    let index = LocalIndex::open(&repo().join("tests/compat/v6")).unwrap();
    let (_, corrections) = index.plan("refesh tokns", &opts).unwrap();
    let pairs: Vec<(&str, &str)> = corrections
        .iter()
        .map(|c| (c.from.as_str(), c.to.as_str()))
        .collect();
    assert_eq!(pairs, vec![("refesh", "refresh"), ("tokns", "tokens")]);
    let fixed = index.search("refesh tokns", &opts).unwrap();
    let right = index.search("refresh tokens", &opts).unwrap();
    assert_eq!(fixed[0].id, right[0].id);
    assert!(
        fixed[0].score < right[0].score,
        "corrected words are damped"
    );
    let v5 = LocalIndex::open(&repo().join("tests/compat/v5")).unwrap();
    assert!(v5.plan("refesh tokns", &opts).unwrap().1.is_empty());
    assert!(v5.search("refesh tokns", &opts).unwrap().is_empty());
}
