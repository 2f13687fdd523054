//! Sessions over the checked-in v8 compatibility fixture (one term shard, one metadata shard,
//! positions, typo files, vectors, term rows and a projection from the real model), and the v9
//! one for evidence (section text files).

use super::*;
use crate::Manifest;

/// The v8 compatibility index (one term shard; vectors, typos, positions).
const V8: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/compat/v8/");
/// The example site's index the wasm tests use (eight term shards, typo files).
const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../wasm-search/tests/fixture/");

fn read(name: &str) -> Vec<u8> {
    read_in(V8, name)
}

fn read_in(dir: &str, name: &str) -> Vec<u8> {
    std::fs::read(format!("{dir}{name}")).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn searcher() -> Searcher {
    Searcher::new(Manifest::decode(&read("manifest.bin")).unwrap()).unwrap()
}

/// Runs a session cold (nothing cached), as a reader's fetch loop does; returns its outcome
/// and the files of each round.
fn run(
    s: &Searcher,
    text: &str,
    opts: SearchOptions,
    vector: QueryVector,
) -> Result<(QueryOutcome, Vec<Vec<FileRef>>), SearchError> {
    run_in(V8, s, text, opts, vector)
}

/// [`run`] over the index in `dir`.
fn run_in(
    dir: &str,
    s: &Searcher,
    text: &str,
    opts: SearchOptions,
    vector: QueryVector,
) -> Result<(QueryOutcome, Vec<Vec<FileRef>>), SearchError> {
    let mut session = QuerySession::new(s, text, opts, vector)?;
    let mut rounds = Vec::new();
    loop {
        let need = session.advance(s, |_| None)?;
        if need.is_empty() {
            break;
        }
        for &f in &need {
            assert!(session.awaits(f));
            let name = session.file_name(s, f).expect("a file the index has");
            let (shard, _) = s.open_file(f, &name, &read_in(dir, &name), None)?;
            session.provide(f, shard);
            assert!(!session.awaits(f));
        }
        rounds.push(need);
        assert!(rounds.len() <= 7, "{rounds:?}");
    }
    assert!(session.is_ready());
    Ok((session.finish(s)?, rounds))
}

fn ids(o: &QueryOutcome) -> Vec<&str> {
    o.results.iter().map(|r| r.id.as_str()).collect()
}

/// The v9 compatibility index: v8's files and each page's section text.
const V9: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/compat/v9/");

/// Issue 22: a reader without the `evidence` feature (the lean wasm module) refuses evidence at once.
#[cfg(not(feature = "evidence"))]
#[test]
fn issue_22_a_reader_without_evidence_refuses_it() {
    let s = Searcher::new(Manifest::decode(&read_in(V9, "manifest.bin")).unwrap()).unwrap();
    let opts = SearchOptions {
        evidence: crate::EvidenceOptions::new(400),
        ..Default::default()
    };
    let err = QuerySession::new(&s, "refresh tokens", opts, QueryVector::Static).unwrap_err();
    assert!(matches!(err, SearchError::NoEvidence), "{err}");
}

/// Issue 21: a reader without the `explain` feature (the lean wasm module) refuses explanations at
/// once.
#[cfg(not(feature = "explain"))]
#[test]
fn issue_21_a_reader_without_explain_refuses_it() {
    let s = Searcher::new(Manifest::decode(&read_in(V9, "manifest.bin")).unwrap()).unwrap();
    let opts = SearchOptions {
        explain: true,
        ..Default::default()
    };
    let err = QuerySession::new(&s, "refresh tokens", opts, QueryVector::Static).unwrap_err();
    assert!(matches!(err, SearchError::NoExplain), "{err}");
    assert!(
        err.to_string().contains("openIndex's `explain` option"),
        "{err}"
    );
}

#[cfg(feature = "evidence")]
#[test]
fn issue_22_evidence_reads_the_top_pages_text_in_a_round_after_their_metadata() {
    let s = Searcher::new(Manifest::decode(&read_in(V9, "manifest.bin")).unwrap()).unwrap();
    let opts = SearchOptions {
        evidence: crate::EvidenceOptions::new(400),
        ..Default::default()
    };
    let (o, rounds) = run_in(V9, &s, "refresh tokens", opts, QueryVector::Static).unwrap();
    assert_eq!(rounds.len(), 3, "{rounds:?}");
    assert_eq!(
        rounds[..2],
        [vec![FileRef::Terms(0)], vec![FileRef::Meta(0)]]
    );
    let pages: Vec<u32> = o.results.iter().take(10).map(|r| r.page).collect();
    assert_eq!(
        rounds[2],
        pages.iter().map(|&p| FileRef::Text(p)).collect::<Vec<_>>()
    );
    let e = o.evidence.expect("evidence was asked for");
    assert!(e.tokens <= 400 && !e.pieces.is_empty(), "{e:?}");
    assert_eq!(e.pieces[0].page_id, "guides/refresh-tokens");
    assert!(
        e.pieces[0].text.contains("refresh"),
        "{:?}",
        e.pieces[0].text
    );
    let md = crate::search::evidence_markdown(&e);
    assert!(md.starts_with("### [1] "), "{md}");
    assert_eq!(crate::tokens::estimate(&md), e.tokens);
    // A search without evidence reads no text file.
    let (_, rounds) = run_in(
        V9,
        &s,
        "refresh tokens",
        SearchOptions::default(),
        QueryVector::Static,
    )
    .unwrap();
    assert_eq!(rounds.len(), 2);
}

#[cfg(feature = "evidence")]
#[test]
fn issue_22_text_files_are_named_by_the_metadata_the_session_holds() {
    let s = Searcher::new(Manifest::decode(&read_in(V9, "manifest.bin")).unwrap()).unwrap();
    let opts = SearchOptions {
        evidence: crate::EvidenceOptions::new(400),
        ..Default::default()
    };
    let mut session = QuerySession::new(&s, "refresh tokens", opts, QueryVector::Static).unwrap();
    // Before the metadata is here, a page's text file has no name.
    assert_eq!(session.file_name(&s, FileRef::Text(0)), None);
    loop {
        let need = session.advance(&s, |_| None).unwrap();
        if need.is_empty() {
            break;
        }
        for f in need {
            let name = session.file_name(&s, f).unwrap();
            assert_eq!(session.file_ref(&s, &name), Some(f), "{name}");
            let bytes = read_in(V9, &name);
            if let FileRef::Text(p) = f {
                assert!(name.starts_with("x/"), "{name}");
                // Another page's text (or any other file) is refused in its place.
                let other = FileRef::Text(if p == 0 { 1 } else { 0 });
                let fits = s.open_file(other, &name, &bytes, None).is_ok();
                let same_chunks = s.manifest().pages[p as usize].chunk_count
                    == s.manifest().pages[if p == 0 { 1 } else { 0 }].chunk_count;
                assert!(!fits || same_chunks);
                assert!(s
                    .open_file(f, &name, &read_in(V9, "manifest.bin"), None)
                    .is_err());
            }
            let (shard, _) = s.open_file(f, &name, &bytes, None).unwrap();
            session.provide(f, shard);
        }
    }
    assert!(session.is_ready());
    assert!(session.finish(&s).unwrap().evidence.is_some());
}

#[test]
fn issue_19_a_lexical_query_is_two_rounds_terms_then_metadata() {
    let s = searcher();
    let (o, rounds) = run(
        &s,
        "refresh tokens",
        SearchOptions::default(),
        QueryVector::Static,
    )
    .unwrap();
    assert_eq!(rounds, [vec![FileRef::Terms(0)], vec![FileRef::Meta(0)]]);
    assert_eq!(o.mode, Mode::Lexical);
    assert_eq!(ids(&o)[0], "guides/refresh-tokens");
    // Everything cached: no round at all, the same results.
    let mut session = QuerySession::new(
        &s,
        "refresh tokens",
        SearchOptions::default(),
        QueryVector::Static,
    )
    .unwrap();
    let all: Vec<(FileRef, Shard)> = [FileRef::Terms(0), FileRef::Meta(0)]
        .into_iter()
        .map(|f| {
            let name = s.file_name(f, None, None).unwrap();
            (f, s.open_file(f, &name, &read(&name), None).unwrap().0)
        })
        .collect();
    let cached = |f: FileRef| all.iter().find(|(g, _)| *g == f).map(|(_, s)| s.clone());
    assert!(session.advance(&s, cached).unwrap().is_empty());
    assert_eq!(session.finish(&s).unwrap().results, o.results);
}

#[test]
fn issue_19_typo_files_come_first_then_the_corrected_words() {
    let s = searcher();
    let opts = SearchOptions {
        typos: true,
        ..Default::default()
    };
    let (o, rounds) = run(&s, "refesh tokns", opts, QueryVector::Static).unwrap();
    let pairs: Vec<(&str, &str)> = (o.corrections.iter())
        .map(|c| (c.from.as_str(), c.to.as_str()))
        .collect();
    assert_eq!(pairs, [("refesh", "refresh"), ("tokns", "tokens")]);
    assert!(rounds[0].contains(&FileRef::TypoDir), "{rounds:?}");
    assert!(
        rounds[1].iter().all(|f| matches!(f, FileRef::Typos(_))),
        "{rounds:?}"
    );
    assert_eq!(rounds.last().unwrap(), &[FileRef::Meta(0)]);
    let (right, _) = run(
        &s,
        "refresh tokens",
        SearchOptions::default(),
        QueryVector::Static,
    )
    .unwrap();
    assert_eq!(ids(&o)[0], ids(&right)[0]);
}

#[test]
fn issue_19_a_phrase_reads_its_positions_in_the_terms_round() {
    let s = searcher();
    let (o, rounds) = run(
        &s,
        "\"refresh token\"",
        SearchOptions::default(),
        QueryVector::Static,
    )
    .unwrap();
    assert_eq!(
        rounds,
        [
            vec![FileRef::Terms(0), FileRef::Positions(0)],
            vec![FileRef::Meta(0)]
        ]
    );
    assert!(o.plan.phrases.iter().all(|p| p.chunks.is_some()));
    assert!(!o.results.is_empty());
}

#[test]
fn issue_19_hybrid_reads_rows_and_directory_then_partitions_then_metadata() {
    let s = searcher();
    let opts = SearchOptions {
        mode: Mode::Hybrid,
        ..Default::default()
    };
    let (o, rounds) = run(
        &s,
        "renew my credentials",
        opts.clone(),
        QueryVector::Static,
    )
    .unwrap();
    assert_eq!(o.mode, Mode::Hybrid);
    assert!(rounds[0].contains(&FileRef::VectorDir), "{rounds:?}");
    assert!(
        rounds[0].iter().any(|f| matches!(f, FileRef::TermRows(_))),
        "{rounds:?}"
    );
    assert!(
        rounds[1].iter().all(|f| matches!(f, FileRef::Vectors(_))),
        "{rounds:?}"
    );
    assert_eq!(rounds.len(), 3, "{rounds:?}");
    assert_eq!(ids(&o)[0], "guides/refresh-tokens");
    // The vector the query ranked with is the static encoding; handed in, it ranks the same
    // without row shards.
    let v = o.vector.clone().unwrap();
    let (stored, rounds) = run(&s, "renew my credentials", opts, QueryVector::Stored(v)).unwrap();
    assert!(rounds
        .iter()
        .flatten()
        .all(|f| !matches!(f, FileRef::TermRows(_))));
    assert_eq!(stored.results, o.results);
}

#[test]
fn issue_19_a_vector_query_without_a_known_term_falls_back_to_lexical_files() {
    let s = searcher();
    let opts = SearchOptions {
        mode: Mode::Vector,
        ..Default::default()
    };
    let (o, rounds) = run(&s, "zzqx refresh", opts, QueryVector::Stored(vec![0.5; 3])).unwrap();
    // A stored vector of the wrong width is no vector side: the query ranks lexically.
    assert_eq!(o.mode, Mode::Lexical);
    assert!(rounds
        .iter()
        .flatten()
        .any(|f| matches!(f, FileRef::Terms(_))));
    assert!(rounds
        .iter()
        .flatten()
        .all(|f| !matches!(f, FileRef::Vectors(_))));
}

#[test]
fn issue_19_bad_model_vectors_are_refused() {
    let s = searcher();
    let opts = SearchOptions {
        mode: Mode::Hybrid,
        ..Default::default()
    };
    for v in [vec![], vec![f32::NAN; 384]] {
        let e = QuerySession::new(&s, "q", opts.clone(), QueryVector::Model(v)).unwrap_err();
        assert!(matches!(e, SearchError::BadQueryVector(_)), "{e:?}");
    }
    // A width the projection does not take: known once the projection is here.
    let e = run(&s, "q", opts, QueryVector::Model(vec![0.1; 10])).unwrap_err();
    assert!(matches!(e, SearchError::BadQueryVector(_)), "{e:?}");
}

#[test]
fn issue_21_a_query_with_nothing_to_correct_reads_its_terms_in_one_round() {
    let s = Searcher::new(Manifest::decode(&read_in(EXAMPLE, "manifest.bin")).unwrap()).unwrap();
    let terms = |round: &[FileRef]| -> Vec<FileRef> {
        let mut t: Vec<FileRef> = (round.iter().copied())
            .filter(|f| matches!(f, FileRef::Terms(_)))
            .collect();
        t.sort();
        t
    };
    // The words' term shards (which decide whether a word needs correcting) and the last
    // word's prefix shards come in the first round, then the metadata: two rounds, where the
    // prefix shards used to wait for a round of their own.
    for q in [
        "authenticate with a tok",
        "rate lim",
        "getUserById re",
        "refresh tokens",
    ] {
        for prefix in [false, true] {
            let opts = SearchOptions {
                prefix,
                typos: true,
                ..Default::default()
            };
            let (o, rounds) = run_in(EXAMPLE, &s, q, opts.clone(), QueryVector::Static).unwrap();
            assert!(o.corrections.is_empty(), "{q}: {:?}", o.corrections);
            assert_eq!(rounds.len(), 2, "{q} (prefix {prefix}): {rounds:?}");
            assert!(
                rounds[1].iter().all(|f| matches!(f, FileRef::Meta(_))),
                "{rounds:?}"
            );
            // The same results as with typo tolerance off (no correction round at all).
            let plain = SearchOptions {
                typos: false,
                ..opts
            };
            let (p, plain_rounds) = run_in(EXAMPLE, &s, q, plain, QueryVector::Static).unwrap();
            assert_eq!(o.results, p.results, "{q}");
            assert_eq!(terms(&rounds[0]), terms(&plain_rounds[0]), "{q}");
        }
    }
    // A misspelt word still costs its correction's rounds, and the corrected word ranks.
    let (o, rounds) = run_in(
        EXAMPLE,
        &s,
        "refesh tokens",
        SearchOptions {
            typos: true,
            ..Default::default()
        },
        QueryVector::Static,
    )
    .unwrap();
    assert_eq!(o.corrections.len(), 1, "{:?}", o.corrections);
    assert!(rounds.len() > 2, "{rounds:?}");
    assert_eq!(ids(&o)[0], "guides/refresh-tokens");
}

#[test]
fn issue_19_a_model_vector_of_no_direction_ranks_lexically() {
    let s = searcher();
    let hybrid = SearchOptions {
        mode: Mode::Hybrid,
        ..Default::default()
    };
    let lexical = SearchOptions {
        mode: Mode::Lexical,
        ..Default::default()
    };
    let (want, _) = run(&s, "refresh tokens", lexical, QueryVector::Static).unwrap();
    // All zeros: projected, it has no norm to normalise; the query falls back as a static vector
    // of no known term does, instead of failing or ranking every chunk at similarity 0.
    let (o, rounds) = run(
        &s,
        "refresh tokens",
        hybrid,
        QueryVector::Model(vec![0.0; 384]),
    )
    .unwrap();
    assert_eq!(o.mode, Mode::Lexical);
    assert_eq!(o.vector, None);
    assert_eq!(o.results, want.results);
    assert!(rounds
        .iter()
        .flatten()
        .all(|f| !matches!(f, FileRef::Vectors(_))));
    assert!(!has_direction(&[0.0; 4]) && !has_direction(&[1e-30; 4]));
    assert!(has_direction(&[0.0, 0.6, 0.8]));
}

#[test]
fn issue_19_results_before_the_files_are_not_ready() {
    let s = searcher();
    let session =
        QuerySession::new(&s, "refresh", SearchOptions::default(), QueryVector::Static).unwrap();
    assert!(!session.is_ready());
    assert_eq!(session.finish(&s).unwrap_err(), SearchError::NotReady);
}

#[test]
fn issue_19_file_names_and_refs_are_inverse() {
    let s = searcher();
    let vdir_name = s.file_name(FileRef::VectorDir, None, None).unwrap();
    let Shard::VectorDir(vdir) = s
        .open_file(FileRef::VectorDir, &vdir_name, &read(&vdir_name), None)
        .unwrap()
        .0
    else {
        panic!("a vector directory")
    };
    let tdir_name = s.file_name(FileRef::TypoDir, None, None).unwrap();
    let Shard::TypoDir(tdir) = s
        .open_file(FileRef::TypoDir, &tdir_name, &read(&tdir_name), None)
        .unwrap()
        .0
    else {
        panic!("a typo directory")
    };
    let mut files = vec![
        FileRef::Terms(0),
        FileRef::Meta(0),
        FileRef::Positions(0),
        FileRef::TypoDir,
        FileRef::VectorDir,
        FileRef::Projection,
    ];
    files.extend((0..tdir.shard_count() as u32).map(FileRef::Typos));
    files.extend((0..vdir.partitions.len() as u32).map(FileRef::Vectors));
    files.extend((0..s.term_rows().unwrap().shards).map(FileRef::TermRows));
    for f in files {
        let name = s.file_name(f, Some(&vdir), Some(&tdir)).unwrap();
        assert_eq!(
            s.file_ref(&name, Some(&vdir), Some(&tdir)),
            Some(f),
            "{name}"
        );
        // Every file of the index decodes as what its name says, and as nothing else.
        assert!(s.open_file(f, &name, &read(&name), None).is_ok(), "{name}");
    }
    for f in [FileRef::Terms(1), FileRef::Meta(1), FileRef::Positions(1)] {
        assert_eq!(s.file_name(f, Some(&vdir), Some(&tdir)), None, "{f:?}");
    }
    for name in [
        "t/../manifest.bin",
        "manifest.bin",
        "",
        "t/000000000000.bin",
    ] {
        assert_eq!(s.file_ref(name, Some(&vdir), Some(&tdir)), None, "{name}");
    }
    let meta = s.file_name(FileRef::Meta(0), None, None).unwrap();
    let e = s
        .open_file(FileRef::Terms(0), &meta, &read(&meta), None)
        .unwrap_err();
    assert!(matches!(e, SearchError::Shard { .. }), "{e:?}");
}

/// Issue 20: the page credit an explanation reports is the one the ranking added, also when an
/// exact-match boost or the prefix decides which section is explained.
#[cfg(feature = "explain")]
#[test]
fn issue_20_explanations_report_the_page_credit_the_ranking_added() {
    let s = searcher();
    let mut explained = 0;
    for q in [
        "refresh tokens",
        "renew my credentials",
        "getUserById user",
        "install the sdk",
        "create a user api key",
        "request ids retrieve",
        "rotate tok",
    ] {
        let opts = SearchOptions {
            explain: true,
            prefix: true,
            ..Default::default()
        };
        let (o, _) = run(&s, q, opts, QueryVector::Static).unwrap();
        for r in &o.results {
            let Some(ex) = &r.explanation else { continue };
            let boost = ex.boosts.iter().map(|b| b.1).fold(0f32, f32::max);
            let lexical = ex.bm25 + ex.page;
            let expected = lexical * (1.0 + boost) + boost;
            assert!(
                (expected - r.score).abs() <= 1e-4 * r.score.max(1.0),
                "{q}: {} explained as {ex:?}, scored {}",
                r.id,
                r.score
            );
            explained += usize::from(ex.page > 0.0);
        }
    }
    assert!(explained > 0, "no explained result had page credit");
}

#[test]
fn a_phrase_no_page_has_drops_its_quotes_and_says_so() {
    let s = searcher();
    // Both words are indexed, never next to each other in this order.
    let (o, rounds) = run(
        &s,
        "\"sdk refresh\"",
        SearchOptions::default(),
        QueryVector::Static,
    )
    .unwrap();
    assert_eq!(o.corrections, [Correction::dropped_quotes()]);
    assert!(!o.results.is_empty());
    assert!(o.plan.phrases.iter().all(|p| p.chunks.is_none()));
    // The same files, in the same rounds, as a phrase that matches: nothing more is fetched.
    assert_eq!(rounds.len(), 2, "{rounds:?}");
    // Ranked as the words unquoted are.
    let (plain, _) = run(
        &s,
        "sdk refresh",
        SearchOptions::default(),
        QueryVector::Static,
    )
    .unwrap();
    assert_eq!(ids(&o), ids(&plain));
    assert_eq!(
        crate::typos::corrected_query("\"sdk refresh\"", &o.corrections),
        "sdk refresh"
    );
    // A phrase some page has keeps its quotes; a filter that leaves nothing is not undone.
    let (kept, _) = run(
        &s,
        "\"refresh token\"",
        SearchOptions::default(),
        QueryVector::Static,
    )
    .unwrap();
    assert!(kept.corrections.is_empty() && !kept.results.is_empty());
    let none = SearchOptions {
        kinds: vec![crate::format::Kind::Custom],
        ..Default::default()
    };
    let (filtered, _) = run(&s, "\"sdk refresh\"", none.clone(), QueryVector::Static).unwrap();
    assert!(filtered.results.is_empty() && filtered.corrections.is_empty());
    // A phrase some section has keeps its quotes when the filters leave nothing of it.
    let (kept, _) = run(&s, "\"refresh token\"", none, QueryVector::Static).unwrap();
    assert!(kept.results.is_empty() && kept.corrections.is_empty());
    // Curly quotes are quotes: dropped from the corrected query too.
    let (curly, _) = run(
        &s,
        "“sdk refresh”",
        SearchOptions::default(),
        QueryVector::Static,
    )
    .unwrap();
    assert_eq!(curly.corrections, [Correction::dropped_quotes()]);
    assert_eq!(
        crate::typos::corrected_query("“sdk refresh”", &curly.corrections),
        "sdk refresh"
    );
}

/// The v11 compatibility index, and the same site with its tables in directory pages (small
/// shards and pages, so that the tables span several pages).
const V11: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/compat/v11/");
const V11_PAGED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/compat/v11-paged/");

fn opened(dir: &str) -> Searcher {
    Searcher::new(Manifest::decode(&read_in(dir, "manifest.bin")).unwrap()).unwrap()
}

/// What a query's outcome shows a reader, for comparing two indexes of one site.
fn shown(o: &QueryOutcome) -> String {
    format!(
        "{:?} {:?} {:?} {:?}",
        o.mode,
        o.corrections,
        o.results
            .iter()
            .map(|r| (
                &r.id,
                r.score,
                r.sections
                    .iter()
                    .map(|s| (&s.url, s.score, &s.excerpt))
                    .collect::<Vec<_>>()
            ))
            .collect::<Vec<_>>(),
        o.evidence.as_ref().map(|e| (
            e.tokens,
            e.pieces
                .iter()
                .map(|p| (&p.url, &p.text))
                .collect::<Vec<_>>()
        )),
    )
}

/// Issue 25 (v11): an index whose shard tables are in directory pages ranks every query as the
/// inline one does (lexical, hybrid, typos, prefixes, phrases, facets, evidence, reading by URL),
/// reading first the directory pages of the query's terms, and those naming its results' metadata
/// before that metadata; a second query reads no page it has.
#[test]
fn issue_25_paged_tables_rank_as_inline_tables_do() {
    let inline = opened(V11);
    assert!(!inline.has_directory_pages());
    let queries = [
        "renew my credentials",
        "POST /v1/users",
        "x-request-id",
        "Refresh tokens",
        "getUserById",
        "\"refresh token\" rotation",
        "webhok signatur",
        "authenticat",
        "rate limits",
        "zzzz nothing",
    ];
    let mut modes = vec![
        SearchOptions::default(),
        SearchOptions {
            mode: Mode::Hybrid,
            ..Default::default()
        },
        SearchOptions {
            typos: false,
            prefix: false,
            facets: true,
            ..Default::default()
        },
    ];
    if cfg!(feature = "evidence") {
        modes.push(SearchOptions {
            evidence: crate::EvidenceOptions::new(400),
            ..Default::default()
        });
    }
    let mut dir_rounds = 0;
    for opts in &modes {
        for q in queries {
            // A fresh searcher each time: no page held from an earlier query.
            let paged = opened(V11_PAGED);
            assert!(paged.has_directory_pages());
            let (a, _) = run_in(V11, &inline, q, opts.clone(), QueryVector::Static).unwrap();
            let (b, rounds) = run_in(V11_PAGED, &paged, q, opts.clone(), QueryVector::Static)
                .unwrap_or_else(|e| panic!("{q}: {e}"));
            assert_eq!(shown(&a), shown(&b), "{q} {opts:?}");
            assert_eq!(format!("{:?}", a.facets), format!("{:?}", b.facets), "{q}");
            // Directory pages come in rounds of their own, before the files they name.
            let is_dir = |f: &FileRef| matches!(f, FileRef::TermDir(_) | FileRef::MetaDir(_));
            for r in &rounds {
                assert!(
                    r.iter().all(is_dir) || !r.iter().any(is_dir),
                    "{q}: {rounds:?}"
                );
            }
            assert!(
                matches!(rounds[0][0], FileRef::TermDir(_)),
                "{q}: {rounds:?}"
            );
            if !b.results.is_empty() {
                let meta_dir = rounds
                    .iter()
                    .position(|r| matches!(r[0], FileRef::MetaDir(_)));
                let meta = rounds.iter().position(|r| matches!(r[0], FileRef::Meta(_)));
                assert!(meta_dir.unwrap() + 1 == meta.unwrap(), "{q}: {rounds:?}");
            }
            dir_rounds += rounds.iter().filter(|r| r.iter().any(is_dir)).count();
            // Warm: the same query again reads no directory page.
            let mut session =
                QuerySession::new(&paged, q, opts.clone(), QueryVector::Static).unwrap();
            let need = session.advance(&paged, |_| None).unwrap();
            assert!(!need.iter().any(is_dir), "{q}: {need:?}");
        }
    }
    assert!(dir_rounds >= 2 * queries.len());
}

/// Issue 25 (v11): reading a page by its URL on a paged index gives what the inline index gives.
#[cfg(feature = "evidence")]
#[test]
fn issue_25_paged_tables_read_pages_by_url() {
    let inline = opened(V11);
    let paged = opened(V11_PAGED);
    for url in [
        "/guides/refresh-tokens",
        "/api-reference/users/get-user#response",
        "/nope",
    ] {
        let mut opts = SearchOptions {
            evidence: crate::EvidenceOptions::new(400),
            ..Default::default()
        };
        opts.evidence.as_mut().unwrap().read = true;
        let a = run_in(V11, &inline, url, opts.clone(), QueryVector::Static).map(|o| shown(&o.0));
        let b = run_in(V11_PAGED, &paged, url, opts, QueryVector::Static).map(|o| shown(&o.0));
        assert_eq!(a, b, "{url}");
    }
}

/// Issue 25 (v11): a directory page is taken only into its own slot: another slot's page, a page of
/// the other table, or a tampered one is refused, and the session then cannot go on with it.
#[test]
fn issue_25_a_directory_page_fits_only_its_slot() {
    let s = opened(V11_PAGED);
    let pages = s.directory_pages();
    let terms: Vec<FileRef> = pages
        .iter()
        .copied()
        .filter(|f| matches!(f, FileRef::TermDir(_)))
        .collect();
    let metas: Vec<FileRef> = pages
        .iter()
        .copied()
        .filter(|f| matches!(f, FileRef::MetaDir(_)))
        .collect();
    assert!(terms.len() >= 3 && metas.len() >= 2, "{pages:?}");
    let bytes = |f: FileRef| read_in(V11_PAGED, &s.file_name(f, None, None).unwrap());
    for (f, other) in [
        (terms[0], terms[1]),
        (terms[1], terms[0]),
        (terms[0], metas[0]),
        (metas[0], metas[1]),
        (metas[1], terms[1]),
    ] {
        let name = s.file_name(other, None, None).unwrap();
        let e = s.open_file(f, &name, &bytes(other), None).unwrap_err();
        assert!(
            matches!(e, SearchError::MetaMismatch(_)),
            "{f:?} given {other:?}: {e:?}"
        );
    }
    // Every page opens in its own slot; names and refs are inverse, for the pages and what they name.
    for &f in &pages {
        let name = s.file_name(f, None, None).unwrap();
        assert_eq!(s.file_ref(&name, None, None), Some(f));
        s.open_file(f, &name, &bytes(f), None).unwrap();
    }
    let (terms_whole, metas_whole) = s.whole_tables().unwrap();
    for (i, t) in terms_whole.iter().enumerate() {
        let f = FileRef::Terms(i as u32);
        assert_eq!(s.file_ref(&t.file, None, None), Some(f));
        let p = s
            .file_name(FileRef::Positions(i as u32), None, None)
            .unwrap();
        assert_eq!(
            s.file_ref(&p, None, None),
            Some(FileRef::Positions(i as u32))
        );
    }
    for (i, m) in metas_whole.iter().enumerate() {
        assert_eq!(
            s.file_ref(&m.file, None, None),
            Some(FileRef::Meta(i as u32))
        );
        assert_eq!(s.meta_shard_for(m.first_page), Some(i));
    }
    // The same lookups as the inline index's tables.
    let inline = opened(V11);
    let (t, m) = inline.whole_tables().unwrap();
    assert_eq!(inline.term_shard_count(), 1);
    assert_eq!(
        m.iter().map(|e| e.page_count).sum::<u32>(),
        metas_whole.iter().map(|e| e.page_count).sum::<u32>()
    );
    assert!(t.len() < terms_whole.len());
    for term in [
        "",
        "0",
        "a",
        "auth",
        "authentication",
        "refresh",
        "token",
        "zzz",
        "~t:",
        "\u{10FFFF}",
    ] {
        let i = s.term_shard_for(term);
        let want = terms_whole
            .partition_point(|e| e.first.as_str() <= term)
            .checked_sub(1);
        assert_eq!(i, want, "{term}");
        let end =
            terms_whole.partition_point(|e| e.first.as_str() < term || e.first.starts_with(term));
        assert_eq!(s.prefix_run_end(term, usize::MAX), end, "{term}");
    }
}
