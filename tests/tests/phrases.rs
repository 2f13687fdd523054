//! Issue 6: quoted phrases (format v7's position shards): a phrase matches only chunks with its words
//! next to each other, in order, in one field, on the example site and on the real multilingual
//! `mintlify-docs` site; only a phrase query reads position shards.

use aidocs_e2e::{fixture, lexical_build, lexical_index, shared_data};
use aidocs_reader::LocalIndex;

fn urls(index: &LocalIndex, q: &str, language: Option<&str>) -> Vec<String> {
    let opts = aidocs_core::SearchOptions {
        k: 50,
        typos: true,
        language: language.map(str::to_owned),
        ..Default::default()
    };
    index
        .search(q, &opts)
        .unwrap()
        .into_iter()
        .map(|r| r.url)
        .collect()
}

#[test]
fn issue_6_quoted_phrases_match_words_in_order() {
    let (_tmp, index) = lexical_index(&fixture("example-site"));
    assert!(index.searcher.manifest().positions.is_some());
    let loose = urls(&index, "refresh token", None);
    let phrase = urls(&index, "\"refresh token\"", None);
    assert!(loose.len() > phrase.len(), "{loose:?} {phrase:?}");
    assert_eq!(phrase, ["/guides/refresh-tokens"]);
    // Word order matters: no section has "token refresh", so the words rank unquoted, and say so.
    let reversed = index
        .query(
            "\"token refresh\"",
            aidocs_core::QueryVector::Static,
            &aidocs_core::SearchOptions::default(),
        )
        .unwrap();
    assert_eq!(
        reversed.corrections,
        [aidocs_core::typos::Correction::dropped_quotes()]
    );
    assert!(!reversed.results.is_empty());
    // Only a phrase reads position shards, and only its words' ones.
    let opts = aidocs_core::SearchOptions::default();
    let files = |q: &str| {
        let (plan, _) = index.plan(q, &opts).unwrap();
        index.searcher.position_shards(&plan).len()
    };
    assert_eq!(files("refresh token"), 0);
    assert!((1..=2).contains(&files("\"refresh token\"")));
    let (plain, _) = index
        .cold_cost("refresh token", aidocs_core::QueryVector::Static, &opts)
        .unwrap();
    let (quoted, _) = index
        .cold_cost("\"refresh token\"", aidocs_core::QueryVector::Static, &opts)
        .unwrap();
    assert!(quoted > plain, "{quoted} > {plain}");
}

#[test]
fn issue_6_phrases_on_a_real_multilingual_site() {
    let Some(site) = shared_data("sites/mintlify-docs") else {
        return;
    };
    let (_tmp, out) = lexical_build(&site, Default::default());
    // Chinese by its bigrams, French with its stemmer: the phrase narrows, the page stays first.
    for (q, lang, page) in [
        ("\"自定义域名\"", "zh", "/zh/customize/custom-domain"),
        (
            "\"domaine personnalisé\"",
            "fr",
            "/fr/customize/custom-domain",
        ),
        ("\"custom domain\"", "en", "/customize/custom-domain"),
    ] {
        let index = LocalIndex::open_language(&out, Some(lang)).unwrap();
        let phrase = urls(&index, q, Some(lang));
        let loose = urls(&index, &q.replace('"', ""), Some(lang));
        assert_eq!(
            phrase.first().map(String::as_str),
            Some(page),
            "{q}: {phrase:?}"
        );
        assert!(
            phrase.len() < loose.len(),
            "{q}: {} vs {}",
            phrase.len(),
            loose.len()
        );
    }
}
