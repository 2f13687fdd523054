//! Issue 21, format v12: a query's exact-match keys (a page's whole title, an endpoint, an
//! operationId) are filed under one of the query's own terms, so they sort into a term shard the
//! query's words fetch anyway: typing a query costs no request for them. Before, each keystroke's
//! keys were a hash that sorted into the key shards at the end of the term list, one request more
//! at most keystrokes of a large site (scripts/typed-requests.mjs).

use std::path::Path;

use aidocs_e2e::{build_with, fixture, lexical_build, shared_data};
use aidocs_index::export::LanguageLayout;
use aidocs_reader::LocalIndex;

/// Every page title of the index.
fn titles(index: &LocalIndex) -> Vec<String> {
    let mut t = Vec::new();
    for i in 0..index.searcher.meta_shard_count() {
        for p in &index.meta_shard(i).unwrap().pages {
            t.push(p.title.clone());
        }
    }
    t
}

/// (keys, keys in a term shard the query's words do not fetch) over every keystroke of typing each
/// title, with prefix search on as the search box types.
fn typed_keys(index: &LocalIndex) -> (usize, usize) {
    let (mut keys, mut apart) = (0, 0);
    for title in titles(index) {
        let ends = (title.char_indices().map(|(i, _)| i).skip(1)).chain([title.len()]);
        for end in ends {
            let plan = index.searcher.plan_prefix(&title[..end], true, None);
            let mut words: Vec<usize> = plan.terms.iter().filter_map(|t| t.shard).collect();
            words.extend(plan.prefix.iter().flat_map(|p| p.shards.iter().copied()));
            for key in &plan.exact {
                let Some(shard) = key.shard else { continue };
                keys += 1;
                apart += usize::from(!words.contains(&shard));
            }
        }
    }
    (keys, apart)
}

fn check(name: &str, site: &Path, small_shards: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("www/out");
    build_with(site, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
        if small_shards {
            o.sizes.term_bytes = 512;
        }
    });
    let index = LocalIndex::open(&out).unwrap();
    let shards = index.searcher.manifest().term_shards.len();
    let (keys, apart) = typed_keys(&index);
    println!("{name}: {shards} term shards, {keys} exact keys looked up while typing, {apart} in a shard of their own");
    assert!(keys > 0, "{name}");
    // A key lands apart only where the query's words are not its text's (`WebSockets` is read as
    // an identifier, `websockets` as a word), the text has no term, or a filter's false positive
    // lets a key through where its word is ruled out: 3 of 342 on mintlify-docs, 6 of 1,252 on
    // pipecat-docs (69 of 354 before keys stayed in their term's shard).
    assert!(
        apart * 50 <= keys,
        "{name}: {apart} of {keys} keys need a fetch of their own"
    );
    // And a whole title still finds its page first, with the exact-title boost.
    for title in titles(&index).iter().take(40) {
        let hits = index.search(title, &Default::default()).unwrap();
        assert!(
            hits.iter().take(10).any(|h| &h.title == title),
            "{name}: {title:?} not in its own top 10"
        );
    }
}

#[test]
fn issue_21_typed_exact_keys_cost_no_fetch_of_their_own() {
    check(
        "example-site, 512-byte term shards",
        &fixture("example-site"),
        true,
    );
    for site in ["mintlify-docs", "pipecat-docs"] {
        if let Some(dir) = shared_data(&format!("sites/{site}")) {
            check(site, &dir, false);
        }
    }
}

/// Review: the exact-title boost holds for every reader language, as bare keys gave it: a page's
/// key is filed under its own language's analyzer, and a reader of a one-language index looks
/// under the default analyzer's anchor and that language's; an index of several languages (one
/// index for all) is looked up bare. `Clés d'API` read with no language, a page without a
/// language read in French.
#[test]
fn issue_21_exact_title_boost_in_every_readers_language() {
    let site = fixture("multilingual-site");
    for layout in [LanguageLayout::default(), LanguageLayout::Single] {
        let (_tmp, out) = lexical_build(&site, layout);
        let probe = LocalIndex::open(&out).unwrap();
        let mut titles = titles(&probe);
        for language in ["fr", "zh"] {
            titles.extend(titles_in(&out, language));
        }
        titles.sort();
        titles.dedup();
        let mut boosted = 0;
        for title in &titles {
            for language in [None, Some("en"), Some("fr"), Some("de"), Some("zh")] {
                let Ok(index) = LocalIndex::open_language(&out, language) else {
                    continue;
                };
                let opts = aidocs_core::SearchOptions {
                    explain: true,
                    language: language.map(str::to_owned),
                    ..Default::default()
                };
                let Ok(hits) = index.search(title, &opts) else {
                    continue;
                };
                let Some(hit) = hits.iter().find(|h| &h.title == title) else {
                    continue;
                };
                let exact = (hit.explanation.as_ref())
                    .is_some_and(|e| e.boosts.iter().any(|(label, _)| *label == "exact title"));
                assert!(
                    exact,
                    "{layout:?} {language:?}: {title:?} found without its exact-title boost"
                );
                boosted += 1;
            }
        }
        assert!(boosted > titles.len(), "{layout:?}: {boosted}");
    }
}

/// The page titles of one language's index.
fn titles_in(out: &Path, language: &str) -> Vec<String> {
    LocalIndex::open_language(out, Some(language))
        .map(|index| titles(&index))
        .unwrap_or_default()
}
