//! Session 25: what Mintlify's own build code (`@mintlify/common`, `@mintlify/prebuild`,
//! `@mintlify/validation` on npm) publishes, where our reading of its documentation differed.
//! Each site holds withheld canaries (their last eight letters distinct) and public controls.

use std::path::Path;

use aidocs_e2e::{build_lexical, canaries_in, write_file};
use aidocs_reader::LocalIndex;

fn urls(out: &Path) -> Vec<String> {
    let index = LocalIndex::open(out).unwrap();
    let mut urls: Vec<String> = (0..index.searcher.meta_shard_count())
        .flat_map(|i| index.meta_shard(i).unwrap().pages.clone())
        .map(|p| p.url)
        .collect();
    urls.sort();
    urls
}

fn page(root: &Path, rel: &str, words: &str) {
    write_file(
        root,
        rel,
        &format!("---\ntitle: {words}\n---\n{words} here.\n"),
    );
}

/// Mintlify's configuration keeps `public` on groups only and `searchable` on tabs and groups
/// only (`@mintlify/validation`'s navigation schemas): `public: true` on a tab or an anchor opens
/// nothing, `searchable: true` on a hidden anchor keeps its pages out of search. A `public` at
/// the configuration's root is every page's default; a group's `public: false` closes it again.
#[test]
fn session_25_public_and_searchable_where_mintlify_keeps_them() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"navigation": {"tabs": [
            {"tab": "Open", "public": true, "groups": [{"group": "G", "pages": ["tabpage"]}]},
            {"tab": "Guides", "groups": [{"group": "Pub", "public": true, "pages": ["grouppage"]}]},
            {"tab": "More", "anchors": [{"anchor": "A", "hidden": true, "searchable": true, "pages": ["anchorpage"]}]},
            {"tab": "Found", "hidden": true, "searchable": true, "pages": ["tabsearchable"]}
        ]}}"#,
    );
    page(&root, "tabpage.mdx", "leaktabpublicqa");
    page(&root, "grouppage.mdx", "grouppublicword");
    page(&root, "anchorpage.mdx", "leakanchorsearchqb");
    page(&root, "tabsearchable.mdx", "tabsearchableword");
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    // Behind a sign-in (a `public` is declared), only the public group's page is seen; the hidden
    // tab's `searchable: true` keeps its page in search for signed-in readers only.
    assert_eq!(urls(&out), ["/grouppage"]);
    assert!(canaries_in(&out, &["leaktabpublicqa", "leakanchorsearchqb"]).is_empty());

    // Without a sign-in, `searchable: true` keeps a hidden tab's pages in search, not an anchor's.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"navigation": {"tabs": [
            {"tab": "More", "anchors": [{"anchor": "A", "hidden": true, "searchable": true, "pages": ["anchorpage"]}]},
            {"tab": "Found", "hidden": true, "searchable": true, "pages": ["tabsearchable"]}
        ]}}"#,
    );
    page(&root, "anchorpage.mdx", "leakanchoropenqk");
    page(&root, "tabsearchable.mdx", "tabsearchableword");
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert_eq!(urls(&out), ["/tabsearchable"]);
    assert!(canaries_in(&out, &["leakanchoropenqk"]).is_empty());

    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"public": true, "navigation": {"groups": [
            {"group": "Open", "pages": ["open"]},
            {"group": "Closed", "public": false, "pages": ["closed"]}
        ]}}"#,
    );
    page(&root, "open.mdx", "rootpublicword");
    page(&root, "closed.mdx", "leakrootclosedqc");
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert_eq!(urls(&out), ["/open"]);
    assert!(canaries_in(&out, &["leakrootclosedqc"]).is_empty());
}

/// `.mintignore` as Mintlify matches it (the `ignore` package: without regard to case, each line
/// trimmed) with its built-in list (`.cursor`, `.mintlify/**`); README, LICENSE, CONTRIBUTING
/// and CONTRIBUTE `.md` files of any case and folder are no pages, nor are files under
/// `_snippets/`, even where the navigation lists them.
#[test]
fn session_25_files_mintlify_never_publishes() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"seo": {"indexing": "all"}, "navigation": {"pages": ["index", "docs/License", "_snippets/s", "Drafts/d"]}}"#,
    );
    write_file(&root, ".mintignore", "  Drafts/  \nPRIVATE.mdx\n");
    page(&root, "index.mdx", "homeword");
    page(&root, "docs/License.md", "leaklicenseqd");
    page(&root, "docs/contribute.md", "leakcontributeqe");
    page(&root, "_snippets/s.mdx", "leaksnippetsqf");
    page(&root, "drafts/d.mdx", "leakdraftsqg");
    page(&root, "private.mdx", "leakprivateqh");
    page(&root, ".cursor/rules.mdx", "leakcursorqi");
    page(&root, ".mintlify/notes.mdx", "leakmintlifyqj");
    page(&root, "guide.mdx", "guideword");
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert_eq!(urls(&out), ["/", "/guide"]);
    let leaks = canaries_in(
        &out,
        &[
            "leaklicenseqd",
            "leakcontributeqe",
            "leaksnippetsqf",
            "leakdraftsqg",
            "leakprivateqh",
            "leakcursorqi",
            "leakmintlifyqj",
        ],
    );
    assert!(leaks.is_empty(), "{leaks:?}");
}

/// docs.json's `$ref` is resolved at any level before a key is read (`resolveRefs`): a root
/// `$ref` with keys beside it, `seo` and `variables` from other files, a navigation file in a
/// folder whose own `$ref` is relative to it; a reference back to itself reads as absent. Global
/// `variables` are replaced in pages and snippets, code included, sanitized (a value opens no
/// element), and a name the site does not define stays as written.
#[test]
fn session_25_config_refs_everywhere_and_variables() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"$ref": "./config/base.json", "navigation": {"$ref": "config/nav/nav.json"}}"#,
    );
    write_file(
        &root,
        "config/base.json",
        r#"{"name": "Base", "seo": {"$ref": "seo.json"}, "variables": {"$ref": "vars.json"}, "navigation": {"pages": ["overridden"]}}"#,
    );
    write_file(&root, "config/seo.json", r#"{"indexing": "all"}"#);
    write_file(
        &root,
        "config/vars.json",
        r#"{"product": "Productvarqa", "api-url": "https://apivarqb.example", "evil": "<Visibility for=\"agents\">varvistextqc</Visibility> tail"}"#,
    );
    write_file(
        &root,
        "config/nav/nav.json",
        r#"{"groups": [{"group": "G", "pages": ["index"]}, {"$ref": "loop.json"}]}"#,
    );
    write_file(&root, "config/nav/loop.json", r#"{"$ref": "loop.json"}"#);
    write_file(
        &root,
        "index.mdx",
        "---\ntitle: Home\n---\nimport Part from '/snippets/part.mdx';\n\nWelcome to {{product}} at {{ api-url }}, {{evil}} and {{undefined}}.\n\n```bash\ncurl {{api-url}}/codevarqd\n```\n\n<Part />\n",
    );
    write_file(
        &root,
        "snippets/part.mdx",
        "Snippet of {{product}}snipvarqe.\n",
    );
    write_file(
        &root,
        "unlisted.mdx",
        "---\ntitle: Unlisted\n---\nUnlistedword here.\n",
    );
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    // `seo.indexing: "all"` came through two `$ref`s: the unlisted page is searched.
    assert_eq!(urls(&out), ["/", "/unlisted"]);
    // The variables' values are indexed, in the page, its code and its snippet; a value's tags
    // are removed, their text kept (as Mintlify's sanitizer leaves it).
    let words = [
        "productvarqa",
        "apivarqb",
        "snipvarqe",
        "codevarqd",
        "varvistextqc",
    ];
    let found = canaries_in(&out, &words);
    for word in words {
        assert!(
            found.iter().any(|f| f.starts_with(word)),
            "{word}: {found:?}"
        );
    }
}
