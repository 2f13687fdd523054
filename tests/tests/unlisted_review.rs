//! Pages outside the navigation, as Mintlify serves them (session 24): with `seo.indexing: "all"` a
//! page not listed in docs.json is searched like a hidden one, and a file another file imports is a
//! snippet, never a page of its own ("it does not render as a standalone page"), whether the site
//! has a configuration or not.

use std::path::Path;

use aidocs_e2e::{build_lexical, write_file};
use aidocs_reader::LocalIndex;

fn site(root: &Path, config: Option<&str>) {
    if let Some(config) = config {
        write_file(root, "docs.json", config);
    }
    write_file(
        root,
        "index.mdx",
        "---\ntitle: Home\n---\nimport Parent from '/shared/parent.mdx';\n\nWelcome.\n\n<Parent />\n",
    );
    write_file(
        root,
        "shared/parent.mdx",
        "import Child from './child.mdx';\n\nParent words.\n\n<Child />\n",
    );
    write_file(root, "shared/child.mdx", "Child words.\n");
    write_file(root, "guides/snippet.mdx", "Snippet words.\n");
    write_file(
        root,
        "guides/uses.mdx",
        "---\ntitle: Uses\n---\nimport S from './snippet.mdx'\n\n<S />\n",
    );
    write_file(
        root,
        "unlisted.mdx",
        "---\ntitle: Unlisted\n---\nUnlisted words.\n",
    );
    write_file(
        root,
        "noindexed.mdx",
        "---\ntitle: Noindexed\nnoindex: true\n---\nWords.\n",
    );
    // An import written in a code fence imports nothing: the file stays a page.
    write_file(
        root,
        "example.mdx",
        "---\ntitle: Example\n---\n```js\nimport Shown from '/shown.mdx';\n```\n",
    );
    write_file(root, "shown.mdx", "---\ntitle: Shown\n---\nShown words.\n");
    // Imported and never rendered, or rendered only where the page hides it: Mintlify serves no
    // page for them, but this build cannot tell such an import line from text before the parse
    // (an `import` line in a paragraph, a comment or a string imports nothing), so they stay pages
    // here (a difference from Mintlify, asserted below).
    write_file(
        root,
        "guides/hides.mdx",
        "---\ntitle: Hides\n---\nimport N from '/b/unused.mdx';\nimport H from '/b/inhidden.mdx';\n\n<div hidden>\n<H />\n</div>\n",
    );
    write_file(root, "b/unused.mdx", "Unused words.\n");
    write_file(root, "b/inhidden.mdx", "Hidden words.\n");
    // Imported only by a page a glob withholds, or by a file in `snippets/`.
    write_file(
        root,
        "aidocs.json",
        r#"{"visibility": {"private": ["drafts/**"]}}"#,
    );
    write_file(
        root,
        "drafts/d.mdx",
        "import S from '/shared/secret.mdx';\n\n<S />\n",
    );
    write_file(root, "shared/secret.mdx", "Secret words.\n");
    write_file(
        root,
        "snippets/wrapper.mdx",
        "import C from '/shared/c.mdx';\n\n<C />\n",
    );
    write_file(root, "shared/c.mdx", "C words.\n");
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
        build_lexical(&root, &out, &tmp.path().join("cache"));
        assert_eq!(
            urls(&out),
            [
                "/",
                "/b/inhidden",
                "/b/unused",
                "/example",
                "/guides/hides",
                "/guides/uses",
                "/shown",
                "/unlisted"
            ],
            "{config:?}"
        );
    }
    // Without `seo.indexing: "all"` a page out of the navigation is not searched.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    site(
        &root,
        Some(r#"{"navigation": {"pages": ["index", "guides/uses", "example", "guides/hides"]}}"#),
    );
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert_eq!(
        urls(&out),
        ["/", "/example", "/guides/hides", "/guides/uses"]
    );
}

/// An `import` line MDX does not read as an import (it continues a paragraph, or sits in a comment
/// or a string) makes no snippet of the file it names: that file stays a page.
#[test]
fn unlisted_review_import_lines_that_import_nothing_keep_their_target_a_page() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "a.mdx",
        "---\ntitle: A\n---\nTo reuse it write\nimport D from './x.mdx';\n\n{/*\nimport B from './x.mdx';\n*/}\n\nexport const code = \"import G from './x.mdx'\";\n",
    );
    write_file(&root, "x.mdx", "---\ntitle: X\n---\nX words.\n");
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert!(urls(&out).contains(&"/x".to_owned()), "{:?}", urls(&out));
}
