//! Pages outside the navigation, as Mintlify serves them (session 24): with `seo.indexing: "all"` a
//! page not listed in docs.json is searched like a hidden one, and a file another file imports is a
//! snippet, never a page of its own ("it does not render as a standalone page"), whether the site
//! has a configuration or not, and whether the navigation lists it or not. What counts as an
//! import is Mintlify's line scan (`categorizeFilePaths`): a line outside code fences that starts
//! with `import `, rendered or not (session 25).

use std::path::Path;

use aidocs_e2e::{build_lexical, write_file};

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
    // Imported and never rendered, or rendered only where the page hides it: still snippets, and
    // Mintlify serves no page for them.
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
    // Never pages: a README (any case, any folder), files under `_snippets/` or `Snippets/`.
    write_file(
        root,
        "guides/ReadMe.md",
        "---\ntitle: Readme\n---\nRead me.\n",
    );
    write_file(root, "_snippets/u.mdx", "---\ntitle: U\n---\nU words.\n");
    write_file(root, "Snippets/v.mdx", "---\ntitle: V\n---\nV words.\n");
}

fn urls(out: &Path) -> Vec<String> {
    aidocs_e2e::indexed_urls(out)
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

/// Mintlify's scan reads any line outside a code fence that starts with `import ` (a paragraph's
/// line, a comment's), so the file it names is a snippet, and no page, even where the navigation
/// lists it; a line that starts otherwise (`export const code = "import …"`), an import without the
/// file's extension, or a package import makes none.
#[test]
fn unlisted_review_import_lines_as_mintlify_scans_them() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"navigation": {"pages": ["a", "x", "y", "z", "w", "guides/ReadMe"]}}"#,
    );
    write_file(
        &root,
        "a.mdx",
        "---\ntitle: A\n---\nTo reuse it write\nimport D from './x.mdx';\n\n{/*\nimport B from './Y.MDX';\n*/}\n\nexport const code = \"import G from './z.mdx'\";\n\nimport W from './w';\nimport P from 'w.mdx';\n",
    );
    for page in ["x", "y", "z", "w"] {
        write_file(
            &root,
            &format!("{page}.mdx"),
            &format!("---\ntitle: {page}\n---\n{page} words.\n"),
        );
    }
    write_file(
        &root,
        "guides/ReadMe.md",
        "---\ntitle: Readme\n---\nRead me.\n",
    );
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert_eq!(urls(&out), ["/a", "/w", "/z"]);
}
