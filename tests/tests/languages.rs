//! Issue 6: languages, on the real `mintlify-docs` site (English pages with es/fr/zh translations,
//! languages from `docs.json`'s `navigation.languages`): every page knows its language, a reader's
//! language selects that language's pages, pages are stemmed in their language and a query in its
//! reader's, Chinese text is segmented into bigrams, and the wasm module ranks all of it as the
//! native reader does.

use aidocs_e2e::{lexical_build, shared_data};
use aidocs_index::export::LanguageLayout;
use aidocs_reader::LocalIndex;

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

fn lang_of(url: &str) -> String {
    let first = url.trim_start_matches('/').split('/').next().unwrap_or("");
    if ["es", "fr", "zh"].contains(&first) {
        first.to_owned()
    } else {
        "en".to_owned()
    }
}

/// Issue 6: a multilingual site is written as one index per language (format v8). Each reader opens
/// its language's index: a Chinese query finds the Chinese page, a French reader searches the French
/// pages, and the English index holds no Chinese term (what every English reader no longer downloads).
#[test]
fn issue_6_one_index_per_language_and_chinese_queries_find_chinese_pages() {
    let Some(site) = shared_data("sites/mintlify-docs") else {
        return;
    };
    let (_tmp, out) = lexical_build(&site, LanguageLayout::Partitioned);
    let root = std::fs::read(out.join(aidocs_core::MANIFEST_FILE)).unwrap();
    let table = aidocs_core::partitions::PartitionTable::decode(&root).unwrap();
    let langs: Vec<&str> = table
        .partitions
        .iter()
        .map(|p| p.language.as_str())
        .collect();
    assert_eq!(langs, ["en", "es", "fr", "zh"]);
    assert_eq!(
        table.choose(None).language,
        "en",
        "the language with the most pages"
    );
    let single = std::fs::read(out.join(&table.partitions[0].manifest)).unwrap();
    for lang in ["en", "es", "fr", "zh"] {
        let index = LocalIndex::open_language(&out, Some(lang)).unwrap();
        let m = &index.searcher.manifest();
        assert_eq!(m.languages, [lang]);
        assert!(m.pages.len() > 200, "{lang}: {}", m.pages.len());
        // Every page of the partition is in its language.
        let hits = search(&index, "quickstart", Some(lang));
        assert!(!hits.is_empty(), "{lang}");
        assert!(
            hits.iter().all(|(_, u)| lang_of(u) == lang),
            "{lang}: {hits:?}"
        );
        // Only the Chinese index has CJK terms.
        let cjk = (0..index.searcher.term_shard_count())
            .flat_map(|i| index.term_shard(i).unwrap().terms.clone())
            .filter(|t| t.term.chars().any(aidocs_core::analyzer::is_cjk))
            .count();
        assert_eq!(cjk > 1000, lang == "zh", "{lang}: {cjk} CJK terms");
    }
    assert!(
        single.len() < 30_000,
        "the English manifest: {} B",
        single.len()
    );

    // A Chinese query finds the Chinese page in the Chinese index, by tag or primary subtag.
    for lang in ["zh", "zh-CN"] {
        let index = LocalIndex::open_language(&out, Some(lang)).unwrap();
        let hits = search(&index, "快速入门", Some(lang));
        assert_eq!(hits[0].1, "/zh/quickstart", "{lang}: {hits:?}");
    }
    // A French reader searches the French pages.
    let fr = LocalIndex::open_language(&out, Some("fr")).unwrap();
    let hits = search(&fr, "Démarrage rapide", Some("fr"));
    assert_eq!(hits[0].1, "/fr/quickstart", "{hits:?}");
    // No language, or one the site lacks: the default (English) index.
    let none = LocalIndex::open(&out).unwrap();
    let de = LocalIndex::open_language(&out, Some("de")).unwrap();
    assert_eq!(none.partition().unwrap().language, "en");
    assert_eq!(
        search(&none, "quickstart", None),
        search(&de, "quickstart", Some("de"))
    );
}

/// Issue 6: `build --single-index` keeps every language in one index, where the reader's language
/// is a filter: a Chinese query finds the Chinese page with or without the reader's language.
#[test]
fn issue_6_a_single_index_filters_by_the_readers_language() {
    let Some(site) = shared_data("sites/mintlify-docs") else {
        return;
    };
    let (_tmp, out) = lexical_build(&site, LanguageLayout::Single);
    let index = LocalIndex::open(&out).unwrap();
    assert!(index.partition().is_none());
    let m = &index.searcher.manifest();
    assert_eq!(m.languages, ["en", "es", "fr", "zh"]);
    // The page table agrees with the navigation: translated pages live under /es, /fr, /zh.
    let zh = m.languages.iter().position(|l| l == "zh").unwrap() as u32;
    assert!(m.pages.iter().filter(|p| p.language == Some(zh)).count() > 20);

    for lang in [None, Some("zh"), Some("zh-CN")] {
        let hits = search(&index, "快速入门", lang);
        assert_eq!(hits[0].1, "/zh/quickstart", "{lang:?}: {hits:?}");
    }
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
    let (_tmp, out) = lexical_build(&site, LanguageLayout::Partitioned);
    let open = |lang: &str| LocalIndex::open_language(&out, Some(lang)).unwrap();
    let index = open("fr");
    assert_eq!(
        index.searcher.manifest().analyzer_version,
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
    let es = urls(&open("es"), "analíticas", Some("es"));
    assert!(es[..2].iter().any(|u| u == "/es/analytics"), "{es:?}");
    // Chinese: a word of the page is found through its bigrams, a one-character word through the
    // characters; the English reader's query for the same thing finds the English page.
    let index = open("zh");
    for q in ["自定义域名", "域名"] {
        let zh = urls(&index, q, Some("zh"));
        assert_eq!(zh[0], "/zh/customize/custom-domain", "{q}: {zh:?}");
    }
    let plan = index.searcher.plan_prefix("自定义域名", false, Some("zh"));
    let asked: Vec<&str> = plan.terms.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(asked, ["义域", "域名", "定义", "自定"]);
    assert!(!urls(&index, "云", Some("zh")).is_empty());
    let en = urls(&open("en"), "custom domain", Some("en"));
    assert_eq!(en[0], "/customize/custom-domain", "{en:?}");
}
