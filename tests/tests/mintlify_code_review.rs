//! Session 25: what Mintlify's own build code (`@mintlify/common`, `@mintlify/prebuild`,
//! `@mintlify/validation` on npm) publishes, where our reading of its documentation differed.
//! Each site holds withheld canaries (their last eight letters distinct) and public controls.

use std::path::Path;

use aidocs_e2e::{build_lexical, canaries_in, write_file};
use aidocs_reader::LocalIndex;

fn urls(out: &Path) -> Vec<String> {
    aidocs_e2e::indexed_urls(out)
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
/// folder whose own `$ref` is relative to it (one that cannot be followed fails the build: see
/// below). Global
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
        r#"{"groups": [{"group": "G", "pages": ["index"]}]}"#,
    );
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

/// What a page shows that was lost or misplaced: a code block's title (its tab), a component
/// inside a heading (part of the heading and of its id: `### theme <Badge>required</Badge>` is
/// `#theme-required`); what a `.md` page hides when Mintlify compiles it as MDX (a `{/* */}`
/// comment, a `className` that hides) stays out.
#[test]
fn session_25_code_titles_inline_heading_components_and_md_as_mdx() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"navigation": {"pages": ["index", "notes"]}}"#,
    );
    write_file(
        &root,
        "index.mdx",
        "---\ntitle: Home\n---\n## Install\n\n```bash Codetitleqa script\nnpm i x\n```\n\n### `theme` - <Badge>required</Badge>\n\nThe theme.\n",
    );
    write_file(
        &root,
        "notes.md",
        "---\ntitle: Notes\n---\nShown mdword {/* leakmdcommentqb */} text.\n\n<span className=\"hidden\">leakmdclassqc</span>\n",
    );
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    let index = LocalIndex::open(&out).unwrap();
    let page = (0..index.searcher.meta_shard_count())
        .flat_map(|i| index.meta_shard(i).unwrap().pages.clone())
        .find(|p| p.url == "/")
        .unwrap();
    let anchors: Vec<(String, String)> = page
        .chunks
        .iter()
        .map(|c| (c.anchor.clone(), c.title.clone()))
        .collect();
    assert!(
        anchors.contains(&("theme-required".to_owned(), "theme - required".to_owned())),
        "{anchors:?}"
    );
    assert!(!canaries_in(&out, &["codetitleqa"]).is_empty());
    assert!(!canaries_in(&out, &["mdword"]).is_empty());
    let leaks = canaries_in(&out, &["leakmdcommentqb", "leakmdclassqc"]);
    assert!(leaks.is_empty(), "{leaks:?}");
}

/// An OpenAPI Overlay changes a spec before Mintlify reads it (a file with `overlay` whose
/// `extends` names the spec, or docs.json's `overlays`): this build does not apply overlays, so
/// the spec's operations are withheld; a navigation entry written with its extension lists no
/// page (Mintlify finds none by that name); a generated page's URL is Mintlify's
/// (`GET /users/posts` is `get-usersposts`).
#[test]
fn session_25_overlays_withhold_and_generated_urls() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"navigation": {"groups": [
            {"group": "A", "openapi": "specs/a.json"},
            {"group": "B", "openapi": {"source": "specs/b.json", "overlays": ["b-overlay.yaml"]}},
            {"group": "C", "openapi": "specs/c.json"},
            {"group": "D", "openapi": [{"source": "specs/d.json", "overlays": ["d.yaml"]}]},
            {"group": "D2", "openapi": "specs/d.json"},
            {"group": "E", "openapi": "specs/e.json"},
            {"group": "F", "openapi": "f.json"},
            {"group": "P", "pages": ["guide.mdx"]}
        ]}}"#,
    );
    let spec = |op: &str, words: &str| {
        format!(
            r#"{{"openapi": "3.0.0", "info": {{"title": "T", "version": "1"}}, "paths": {{"{op}": {{"get": {{"description": "{words} here", "responses": {{"200": {{"description": "OK"}}}}}}}}}}}}"#
        )
    };
    write_file(
        &root,
        "specs/a.json",
        &spec("/users/posts", "leakoverlaidqd"),
    );
    write_file(&root, "specs/b.json", &spec("/b", "leakexplicitqe"));
    write_file(
        &root,
        "specs/c.json",
        &spec("/users/posts", "plainspecword"),
    );
    // Overlays in the forms the review found missed: a list of `{source, overlays}`, a `.json`
    // file written in YAML, an `extends` that climbs above the root (Mintlify drops the `..`).
    write_file(&root, "specs/d.json", &spec("/d", "leakarrayformqm"));
    write_file(&root, "specs/e.json", &spec("/e", "leakyamljsonqn"));
    write_file(
        &root,
        "overlays/e.json",
        "overlay: 1.0.0\ninfo: {title: O, version: '1'}\nextends: ../specs/e.json\nactions: []\n",
    );
    write_file(&root, "f.json", &spec("/f", "leakabovertqo"));
    write_file(
        &root,
        "f-overlay.yaml",
        "overlay: 1.0.0\ninfo: {title: O, version: '1'}\nextends: ../../f.json\nactions: []\n",
    );
    write_file(
        &root,
        "overlays/a.yaml",
        "overlay: 1.0.0\ninfo: {title: O, version: '1'}\nextends: ../specs/a.json\nactions:\n  - target: $.paths\n    remove: true\n",
    );
    write_file(
        &root,
        "guide.mdx",
        "---\ntitle: Guide\n---\nleakextensionqf here.\n",
    );
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert_eq!(urls(&out), ["/api-reference/get-usersposts"]);
    let leaks = canaries_in(
        &out,
        &[
            "leakoverlaidqd",
            "leakexplicitqe",
            "leakextensionqf",
            "leakarrayformqm",
            "leakyamljsonqn",
            "leakabovertqo",
        ],
    );
    assert!(leaks.is_empty(), "{leaks:?}");
}

/// A configuration `$ref` that cannot be followed fails the build, as it fails Mintlify's (a
/// configuration read in part could lose the `public` or `hidden` that withholds a page): one
/// outside the site, a FIFO, `/dev/zero`, a missing file, invalid JSON, a cycle; past the bounds
/// (10,000 references) too. Nothing is written, and the error names the reference.
#[test]
fn session_25_a_config_ref_that_cannot_be_followed_fails_the_build() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside");
    write_file(
        &outside,
        "nav.json",
        r#"{"group": "leakoutrefqz", "pages": ["guide"]}"#,
    );
    let many = format!(
        r#"{{"navigation": {{"groups": [{}]}}}}"#,
        vec![r#"{"$ref": "empty.json"}"#; 10_001].join(",")
    );
    for (name, config) in [
        (
            "outside",
            r#"{"navigation": {"groups": [{"$ref": "../outside/nav.json"}]}}"#.to_owned(),
        ),
        (
            "fifo",
            r#"{"navigation": {"groups": [{"$ref": "fifo.json"}]}}"#.to_owned(),
        ),
        (
            "zero",
            r#"{"navigation": {"groups": [{"$ref": "zero.json"}]}}"#.to_owned(),
        ),
        (
            "missing",
            r#"{"navigation": {"groups": [{"$ref": "missing.json"}]}}"#.to_owned(),
        ),
        (
            "invalid",
            r#"{"seo": {"$ref": "invalid.json"}, "navigation": {"pages": ["index"]}}"#.to_owned(),
        ),
        (
            "cycle",
            r#"{"navigation": {"$ref": "loop.json"}}"#.to_owned(),
        ),
        ("many", many),
    ] {
        let root = tmp.path().join(name).join("site");
        write_file(&root, "docs.json", &config);
        write_file(&root, "index.mdx", "---\ntitle: Home\n---\nHome words.\n");
        write_file(&root, "empty.json", "{}");
        write_file(&root, "invalid.json", "{\"indexing\": ");
        write_file(
            &root,
            "loop.json",
            r#"{"groups": [{"$ref": "./loop.json"}]}"#,
        );
        let ok = std::process::Command::new("mkfifo")
            .arg(root.join("fifo.json"))
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok);
        std::os::unix::fs::symlink("/dev/zero", root.join("zero.json")).unwrap();
        std::fs::create_dir_all(tmp.path().join(name).join("outside")).unwrap();
        std::fs::copy(
            outside.join("nav.json"),
            tmp.path().join(name).join("outside/nav.json"),
        )
        .unwrap();
        let out = tmp.path().join(name).join("www/out");
        let mut opts = aidocs_index::BuildOptions::new(&root, &out);
        opts.cache_dir = Some(tmp.path().join(name).join("cache"));
        opts.embeddings = aidocs_index::build::Embeddings::Off;
        let err = aidocs_index::build(&opts).expect_err(name).to_string();
        let named = match name {
            "many" => "10000".to_owned(),
            "outside" => "../outside/nav.json".to_owned(),
            "cycle" => "loop.json".to_owned(),
            other => format!("{other}.json"),
        };
        assert!(err.contains(&named), "{name}: {err}");
        assert!(
            !out.join("manifest.bin").exists(),
            "{name}: an index was written"
        );
    }
}

/// Session 25's attacker review: a variable's value cannot close a comment the page wrote (it is
/// sanitized as npm `xss` does: `*<x <y>/}` is `*&lt;x /}`); a `{{name}}` in a page's import path
/// stays as written (Mintlify resolves imports first); an `import` line that continues a paragraph
/// imports nothing; a custom id in raw HTML leaves no marker in the text; a multi-line import and a
/// file that is not UTF-8 are read by the import scan as Mintlify reads them.
#[test]
fn session_25_review_variables_imports_and_markers() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"variables": {"v": "*<x <y>/}", "name": "other", "open": "{/*", "close": "*/}"}, "navigation": {"pages": ["index", "notes", "guide", "kept"]}}"#,
    );
    write_file(
        &root,
        "index.mdx",
        "---\ntitle: Home\n---\nimport O from '/snippets/{{name}}.mdx'\n\n{/* internal {{v}} leakcommentvarqh pricing */}\n\nPublic homeword.\nimport Sec from '/snippets/secret.mdx'\n\n<Sec />\n\n<O />\n\nIntro {{open}} imported from \"vault\" leakfromlineqp {{close}} outro.\n\n***\nimport Brk from '/snippets/brk.mdx'\n\n<Brk />\n",
    );
    write_file(&root, "snippets/other.mdx", "leakothersnipqi\n");
    write_file(&root, "snippets/secret.mdx", "leaksecretsnipqj\n");
    write_file(&root, "snippets/brk.mdx", "Breaksnipword\n");
    write_file(
        &root,
        "notes.md",
        "---\ntitle: Notes\n---\n<div>\n## Inside div {#zzqq}\n</div>\n\nNotesword.\n",
    );
    // A multi-line import names `/snippets/multi.mdx` only; prose that spells an import does not
    // make `guide` a snippet.
    write_file(
        &root,
        "uses.mdx",
        "---\ntitle: Uses\n---\nimport {\n  Multi\n} from '/snippets/multi.mdx'\n\nTo reuse a page, write import G from '/guide.mdx' in it.\n",
    );
    write_file(&root, "snippets/multi.mdx", "Multi.\n");
    write_file(
        &root,
        "guide.mdx",
        "---\ntitle: Guide\n---\nGuideword here.\n",
    );
    // A component file with a byte that is not UTF-8 still imports `kept.mdx`: no page of it.
    let mut jsx = b"import K from '/kept.mdx';\nexport const X = () => <p>caf".to_vec();
    jsx.extend([0xe9, b'<', b'/', b'p', b'>', b';', b'\n']);
    std::fs::create_dir_all(root.join("components")).unwrap();
    std::fs::write(root.join("components/comp.jsx"), jsx).unwrap();
    write_file(
        &root,
        "kept.mdx",
        "---\ntitle: Kept\n---\nleakkeptpageqk here.\n",
    );
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert_eq!(urls(&out), ["/", "/guide", "/notes"]);
    let leaks = canaries_in(
        &out,
        &[
            "leakcommentvarqh",
            "leakothersnipqi",
            "leaksecretsnipqj",
            "7a7a7171",
            "leakkeptpageqk",
            "leakfromlineqp",
        ],
    );
    assert!(leaks.is_empty(), "{leaks:?}");
    // An import after a thematic break is ESM (MDX reads it so): its snippet renders.
    for word in ["homeword", "notesword", "guideword", "breaksnipword"] {
        assert!(!canaries_in(&out, &[word]).is_empty(), "{word}");
    }
}

/// Session 26: a heading readers never see still counts for the ids after it (Mintlify's
/// `remarkComponentIds` names it), so the converter keeps a line for it whose text rides only in a
/// marker. None of that text reaches any file a build or the demo writes, in any spelling (the
/// marker carries it as hex), and the visible heading after it links to Mintlify's `-2`.
#[test]
fn session_26_hidden_headings_count_but_never_show() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"name": "S", "navigation": {"pages": ["index", "custom", "prompt", "glued", "notes", "audiences", "snipfence"]}}"#,
    );
    // Second review: removed tags and expressions never glue backticks into a fence that would
    // carry a hidden heading's marker into code (and swallow the rest of the page); nor in a
    // `.md` page, whose two readings must not turn hidden text into code; `<Visibility>` shows
    // only for exactly `humans`; a snippet's unclosed fence ends with the snippet.
    write_file(
        &root,
        "glued.mdx",
        "---\ntitle: Glued\n---\n<code>```mermaid</code> starts a diagram.\n\n``{/* c */}`js\n\n<Visibility for=\"agents\">\n## leakgluedheadqh\n</Visibility>\n\n## Next steps\n\nGluedvisible words.\n",
    );
    write_file(
        &root,
        "notes.md",
        "# Notes\n\n``<span hidden>x</span>`js\n\n<div className=\"hidden\">\nleakmdclassqi paragraph\n</div>\n\n{/* leakmdcommentqj */}\n\n<span hidden>h</span>`a` text {/* leakmdspanqo */} more `b` end.\n\n## Visible after\n\nNotesvisible.\n",
    );
    write_file(
        &root,
        "audiences.mdx",
        "---\ntitle: Audiences\n---\n<Visibility for=\" humans\">\nleakspaceqk\n</Visibility>\n\n<Visibility for=\"agents\" for=\"humans\">\nleakdupforql\n</Visibility>\n\n<Visibility for={`humans `}>\nleaktemplateqm\n</Visibility>\n\nAudiencevisible.\n",
    );
    write_file(
        &root,
        "snippets/fence.mdx",
        "Snippet text.\n\n```bash\necho hi\n",
    );
    write_file(
        &root,
        "snipfence.mdx",
        "---\ntitle: Snipfence\n---\nimport F from '/snippets/fence.mdx'\n\n<F />\n\n<Visibility for=\"agents\">\n## leaksnipfenceqn\n</Visibility>\n\n## After snippet\n\nSnipvisible.\n",
    );
    write_file(
        &root,
        "index.mdx",
        concat!(
            "---\ntitle: Home\n---\n",
            "<Visibility for=\"agents\">\n## Setup leakagentsheadqa {#leakcustomidqb}\n\n## Setup\n</Visibility>\n\n",
            "<div className=\"hidden\">\n### leakhiddendivqc\n</div>\n\n",
            "<Accordion title=\"Open\">\n<Visibility for=\"agents\">\n## leaknestedqd\n</Visibility>\n</Accordion>\n\n",
            "import S from '/snippets/s.mdx'\n\n<S />\n\n",
            "## Setup\n\nVisible setup words.\n",
        ),
    );
    write_file(
        &root,
        "snippets/s.mdx",
        "<Visibility for=\"agents\">\n#### leaksnippetheadqe\n</Visibility>\n",
    );
    write_file(
        &root,
        "custom.mdx",
        "---\ntitle: Custom\nmode: custom\n---\n<Visibility for=\"agents\">\n# leakcustommodeqf\n</Visibility>\n\nCustom words.\n",
    );
    write_file(
        &root,
        "prompt.mdx",
        "---\ntitle: Prompt\n---\n<Prompt>\n<Visibility for=\"agents\">\n## leakpromptqg\n</Visibility>\n</Prompt>\n\nPrompt words.\n",
    );
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    let demo = tmp.path().join("demo");
    aidocs_index::demo::render_demo(&root, &demo, Some(&aidocs_e2e::repo().join("site-plugin")))
        .unwrap();
    let canaries = [
        "leakagentsheadqa",
        "leakcustomidqb",
        "leakhiddendivqc",
        "leaknestedqd",
        "leaksnippetheadqe",
        "leakcustommodeqf",
        "leakpromptqg",
        "leakgluedheadqh",
        "leakmdclassqi",
        "leakmdcommentqj",
        "leakspaceqk",
        "leakdupforql",
        "leaktemplateqm",
        "leaksnipfenceqn",
        "leakmdspanqo",
    ];
    // The marker carries a hidden heading's text as hex: no file holds that spelling either.
    let hex: Vec<String> = (canaries.iter())
        .map(|c| c.bytes().map(|b| format!("{b:02x}")).collect())
        .collect();
    let all: Vec<&str> = (canaries.iter().copied())
        .chain(hex.iter().map(String::as_str))
        .collect();
    assert_eq!(canaries_in(&out, &all), Vec::<String>::new());
    assert_eq!(canaries_in(&demo, &all), Vec::<String>::new());
    // The hidden `Setup` is counted (a custom id's heading is not): the visible one is
    // `setup-2`, as Mintlify's pipeline gives it for this page.
    let index = LocalIndex::open(&out).unwrap();
    let anchors: Vec<String> = (0..index.searcher.meta_shard_count())
        .flat_map(|i| index.meta_shard(i).unwrap().pages.clone())
        .filter(|p| p.url == "/")
        .flat_map(|p| p.chunks.into_iter().map(|c| c.anchor))
        .filter(|a| !a.is_empty())
        .collect();
    assert_eq!(anchors, ["setup-2"]);
    // What follows the glued backticks and the snippet is still its sections, not code.
    let sections = |url: &str| -> Vec<String> {
        (0..index.searcher.meta_shard_count())
            .flat_map(|i| index.meta_shard(i).unwrap().pages.clone())
            .filter(|p| p.url == url)
            .flat_map(|p| p.chunks.into_iter().map(|c| c.anchor))
            .filter(|a| !a.is_empty())
            .collect()
    };
    assert_eq!(sections("/glued"), ["next-steps"]);
    assert_eq!(sections("/notes"), ["visible-after"]);
    assert_eq!(sections("/snipfence"), ["after-snippet"]);
}
