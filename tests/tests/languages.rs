//! Issue 6: languages, on the real `mintlify-docs` site (English pages with es/fr/zh translations,
//! languages from `docs.json`'s `navigation.languages`): every page knows its language, a reader's
//! language selects that language's pages, pages are stemmed in their language and a query in its
//! reader's, Chinese text is segmented into bigrams, and the wasm module ranks all of it as the
//! native reader does.

use aidocs_e2e::{lexical_index, shared_data};
use aidocs_index::LocalIndex;

fn search(index: &LocalIndex, q: &str, language: Option<&str>) -> Vec<(String, String)> {
    let opts = aidocs_core::SearchOptions {
        k: 10,
        typos: true,
        language: language.map(str::to_owned),
        ..Default::default()
    };
    index
        .search(q, &opts)
        .unwrap()
        .into_iter()
        .map(|r| (r.id, r.url))
        .collect()
}

#[test]
fn issue_6_a_readers_language_selects_its_pages_and_chinese_queries_find_chinese_pages() {
    let Some(site) = shared_data("sites/mintlify-docs") else {
        return;
    };
    let (_tmp, index) = lexical_index(&site);
    let m = &index.searcher.manifest;
    assert_eq!(m.languages, ["en", "es", "fr", "zh"]);
    let lang_of = |url: &str| {
        let first = url.trim_start_matches('/').split('/').next().unwrap_or("");
        if ["es", "fr", "zh"].contains(&first) {
            first.to_owned()
        } else {
            "en".to_owned()
        }
    };
    // The page table agrees with the navigation: translated pages live under /es, /fr, /zh.
    let zh = m.languages.iter().position(|l| l == "zh").unwrap() as u32;
    assert!(m.pages.iter().filter(|p| p.language == Some(zh)).count() > 20);

    // A Chinese query finds the Chinese page, with or without the reader's language.
    for lang in [None, Some("zh"), Some("zh-CN")] {
        let hits = search(&index, "快速入门", lang);
        assert_eq!(hits[0].1, "/zh/quickstart", "{lang:?}: {hits:?}");
    }
    // A French reader searches the French pages: an English word they type still finds French pages.
    let fr = search(&index, "Démarrage rapide", Some("fr"));
    assert_eq!(fr[0].1, "/fr/quickstart", "{fr:?}");
    for lang in ["fr", "es", "zh", "en"] {
        let hits = search(&index, "quickstart", Some(lang));
        assert!(!hits.is_empty(), "{lang}");
        assert!(
            hits.iter().all(|(_, u)| lang_of(u) == lang),
            "{lang}: {hits:?}"
        );
    }
    // Without a language, every language's pages compete; a language the site lacks filters nothing.
    let all = search(&index, "quickstart", None);
    let de = search(&index, "quickstart", Some("de"));
    assert_eq!(all, de);
    assert!(all.iter().any(|(_, u)| lang_of(u) == "en"));
}

/// Top urls of `q` for a reader in `language`.
fn urls(index: &LocalIndex, q: &str, language: Option<&str>) -> Vec<String> {
    search(index, q, language)
        .into_iter()
        .map(|(_, u)| u)
        .collect()
}

#[test]
fn issue_6_pages_are_stemmed_in_their_language_and_chinese_words_are_bigrams() {
    let Some(site) = shared_data("sites/mintlify-docs") else {
        return;
    };
    let (_tmp, index) = lexical_index(&site);
    assert_eq!(
        index.searcher.manifest.analyzer_version,
        aidocs_core::ANALYZER_VERSION
    );
    // French: the infinitive finds the page titled with the noun (`déployer` and `Déploiements`
    // share the French stem `déploi`; as English they were `deploy` and `deploi`).
    let fr = urls(&index, "déployer", Some("fr"));
    assert_eq!(fr[0], "/fr/deploy/deployments", "{fr:?}");
    let analyzer = index.searcher.query_analyzer(Some("fr"));
    let terms =
        |q: &str| -> Vec<String> { analyzer.analyze(q).into_iter().map(|t| t.text).collect() };
    assert_eq!(terms("déployer"), terms("Déploiements"));
    // French stopwords and elisions ask for nothing: only `domain` and `personnalis` are looked up.
    let plan = index
        .searcher
        .plan_prefix("le domaine personnalisé de l'équipe", false, Some("fr"));
    assert_eq!(plan.terms.len(), 3, "{:?}", plan.terms);
    let fr = urls(&index, "domaines personnalisés", Some("fr"));
    assert_eq!(fr[0], "/fr/customize/custom-domain", "{fr:?}");
    // Spanish: a plural with an accent finds the singular title.
    let es = urls(&index, "analíticas", Some("es"));
    assert!(es[..2].iter().any(|u| u == "/es/analytics"), "{es:?}");
    // Chinese: a word of the page is found through its bigrams, a one-character word through the
    // characters; the English reader's query for the same thing finds the English page.
    for q in ["自定义域名", "域名"] {
        let zh = urls(&index, q, Some("zh"));
        assert_eq!(zh[0], "/zh/customize/custom-domain", "{q}: {zh:?}");
    }
    let plan = index.searcher.plan_prefix("自定义域名", false, Some("zh"));
    let asked: Vec<&str> = plan.terms.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(asked, ["义域", "域名", "定义", "自定"]);
    assert!(!urls(&index, "云", Some("zh")).is_empty());
    let en = urls(&index, "custom domain", Some("en"));
    assert_eq!(en[0], "/customize/custom-domain", "{en:?}");
}
