//! Mintlify's `boost` (<https://www.mintlify.com/docs/optimize/search#boost-search-ranking>): a
//! page's frontmatter factor, else its nearest navigation element's, multiplies each of its
//! sections' scores; a page's own `boost` (even 1) wins over an inherited one; a value that is not a
//! number in range is ignored with a warning. Identical pages differ only by their factors, so the
//! order of results is the factors' order, and each score is the unboosted one times its factor.

use std::path::Path;

use aidocs_e2e::build_with;
use aidocs_reader::LocalIndex;

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Five pages of the same text (titles aside): their scores differ by their boosts only.
fn site(root: &Path) {
    write(
        root,
        "docs.json",
        r#"{"name": "Boosts", "navigation": {"groups": [
            {"group": "Plain", "pages": ["plain", "own", "bad"]},
            {"group": "Boosted", "boost": 5, "pages": ["inherited", "overridden",
                {"group": "Inner", "boost": 0.5, "pages": ["inner"]}]}
        ]}}"#,
    );
    let page = |title: &str, fm: &str| {
        format!("---\ntitle: {title}\n{fm}---\n\nThe zebragate relay forwards every request.\n")
    };
    write(root, "plain.mdx", &page("Plain", ""));
    write(root, "own.mdx", &page("Own", "boost: 3\n"));
    write(root, "bad.mdx", &page("Bad", "boost: lots\n"));
    write(root, "inherited.mdx", &page("Inherited", ""));
    write(root, "overridden.mdx", &page("Overridden", "boost: 1\n"));
    write(root, "inner.mdx", &page("Inner", ""));
}

#[test]
fn boost_multiplies_a_pages_scores_as_mintlify_does() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    site(&root);
    let out = tmp.path().join("www/out");
    let summary = build_with(&root, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    assert!(
        summary
            .warnings
            .iter()
            .any(|w| w.file.contains("bad.mdx") && w.message.contains("boost")),
        "{:#?}",
        summary.warnings
    );
    let index = LocalIndex::open(&out).unwrap();
    let opts = aidocs_core::SearchOptions {
        explain: true,
        ..Default::default()
    };
    let results = index.search("zebragate relay", &opts).unwrap();
    let score = |url: &str| {
        results
            .iter()
            .find(|r| r.url == url)
            .unwrap_or_else(|| panic!("{url} not in {results:#?}"))
            .score
    };
    let base = score("/plain");
    for (url, factor) in [
        ("/own", 3.0),
        ("/bad", 1.0),
        ("/inherited", 5.0),
        ("/overridden", 1.0),
        ("/inner", 0.5),
    ] {
        let got = score(url);
        assert!(
            (got - base * factor).abs() <= 1e-4 * got.max(1.0),
            "{url}: {got} vs {base} x {factor}"
        );
    }
    let order: Vec<&str> = results.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(&order[..2], ["/inherited", "/own"], "{order:?}");
    assert_eq!(order.last(), Some(&"/inner"), "{order:?}");
    // The factor is explained, and stored once per distinct value.
    let own = results.iter().find(|r| r.url == "/own").unwrap();
    let boosts = &own.explanation.as_ref().unwrap().boosts;
    assert!(boosts.contains(&("page", 2.0)), "{boosts:?}");
    assert_eq!(index.searcher.manifest().boosts, vec![0.5, 3.0, 5.0]);
}
