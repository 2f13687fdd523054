//! Pages outside the navigation, as Mintlify serves them (session 24): with `seo.indexing: "all"` a
//! page not listed in docs.json is searched like a hidden one, and a file another file imports is a
//! snippet, never a page of its own ("it does not render as a standalone page"), whether the site
//! has a configuration or not.

use std::path::Path;

use aidocs_e2e::build_with;
use aidocs_reader::LocalIndex;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn site(root: &Path, config: Option<&str>) {
    if let Some(config) = config {
        write(root, "docs.json", config);
    }
    write(
        root,
        "index.mdx",
        "---\ntitle: Home\n---\nimport Parent from '/shared/parent.mdx';\n\nWelcome.\n\n<Parent />\n",
    );
    write(
        root,
        "shared/parent.mdx",
        "import Child from './child.mdx';\n\nParent words.\n\n<Child />\n",
    );
    write(root, "shared/child.mdx", "Child words.\n");
    write(root, "guides/snippet.mdx", "Snippet words.\n");
    write(
        root,
        "guides/uses.mdx",
        "---\ntitle: Uses\n---\nimport S from './snippet.mdx'\n\n<S />\n",
    );
    write(
        root,
        "unlisted.mdx",
        "---\ntitle: Unlisted\n---\nUnlisted words.\n",
    );
    write(
        root,
        "noindexed.mdx",
        "---\ntitle: Noindexed\nnoindex: true\n---\nWords.\n",
    );
    // An import written in a code fence imports nothing: the file stays a page.
    write(
        root,
        "example.mdx",
        "---\ntitle: Example\n---\n```js\nimport Shown from '/shown.mdx';\n```\n",
    );
    write(root, "shown.mdx", "---\ntitle: Shown\n---\nShown words.\n");
}

fn urls(out: &Path) -> Vec<String> {
    let index = LocalIndex::open(out).unwrap();
    let mut urls: Vec<String> = (0..index.searcher.meta_shard_count())
        .flat_map(|i| index.meta_shard(i).unwrap().pages.clone())
        .map(|p| p.url)
        .collect();
    urls.sort();
    urls
}

#[test]
fn unlisted_review_imported_files_are_no_pages_and_indexing_all_searches_unlisted_ones() {
    for config in [
        Some(
            r#"{"seo": {"indexing": "all"}, "navigation": {"pages": ["index", "guides/uses", "example"]}}"#,
        ),
        None,
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("site");
        site(&root, config);
        let out = tmp.path().join("www/out");
        build_with(&root, &out, &tmp.path().join("cache"), |o| {
            o.embeddings = aidocs_index::build::Embeddings::Off;
        });
        assert_eq!(
            urls(&out),
            ["/", "/example", "/guides/uses", "/shown", "/unlisted"],
            "{config:?}"
        );
    }
    // Without `seo.indexing: "all"` a page out of the navigation is not searched.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    site(
        &root,
        Some(r#"{"navigation": {"pages": ["index", "guides/uses", "example"]}}"#),
    );
    let out = tmp.path().join("www/out");
    build_with(&root, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    assert_eq!(urls(&out), ["/", "/example", "/guides/uses"]);
}
