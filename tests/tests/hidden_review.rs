//! A review of hidden content (session 22): ways a real Mintlify repo hides a page or a passage that
//! the indexer read as public. One canary word per way, in a public build scanned byte by byte
//! (shards inflated): a withheld canary found anywhere fails, a public control missing fails.

use std::path::Path;

use aidocs_e2e::{build_with, canaries_in};
use aidocs_reader::LocalIndex;

/// Hidden, excluded or never rendered: in no file of the output.
const WITHHELD: &[&str] = &[
    "hidgroupqz",   // a page in a docs.json group marked `hidden: true`
    "hidtabqz",     // a page in a hidden tab
    "hidanchorqz",  // a page in a hidden anchor's group
    "hidtwiceqz",   // a page listed in a visible group and in a hidden one
    "hidyesnavqz",  // a group marked `hidden: "yes"`
    "hidfmyesqz",   // frontmatter `hidden: yes`
    "hidfmonqz",    // `hidden: on`
    "hidfmoneqz",   // `hidden: 1`
    "hidfmstrqz",   // `hidden: "True"`
    "hidfmfalsqz",  // `hidden: "false"` (text: JavaScript takes it for true)
    "hidnoidxqz",   // `noindex: yes`
    "hidnoupqz",    // `noindex: "TRUE"`
    "hidexclopqz",  // the description of an `x-excluded` operation a page binds
    "hidexclstrqz", // `x-excluded: "true"` (text)
    "hidexclitmqz", // `x-excluded` on the path item
    "hidexclcasqz", // `X-Excluded: true`
    "hidxhiditmqz", // `x-hidden` on the path item (its generated page is hidden)
    "hidindentqz",  // in Markdown, a comment after a fence indented four spaces (not a fence)
    "hidscriptqz",  // likewise a <script>
    "hidternaryqz", // an attribute expression that is not one string literal
    "hidandexprqz", // `{"x" && "y"}`
    "hidsnipexcqz", // a snippet whose frontmatter binds an `x-excluded` operation
    "hidresubqz",   // a hidden group without `searchable` under a searchable hidden tab
    "hidunsrchqz",  // `searchable: false` in frontmatter
    "hidcloserqz",  // Markdown: a comment after the real closer (a 6-space line is still code)
    "hidnbspqz",    // MDX: a no-break space before ``` is no fence
    "hidnestqz",    // MDX: a fence in an outer list item ends with the item
    "hidcaseunqz",  // `Hidden: false` does not put a page of a hidden group back
    "hidsrchcasqz", // `"Searchable": true` does not make a hidden group searchable
    "hidxmintgrqz", // an operation for `x-mint.groups` members only
    "hidnbsplqz",   // MDX: a line of no-break spaces is no blank line: it ends the item's fence
    "hidlazyqz",    // MDX: a lazy line keeps the item, whose fence then ends at the margin
    "hidparaqz",    // MDX: `2.` cannot interrupt a paragraph, so the fence is the page's
    "hidfenclzqz",  // MDX: a line after code continues nothing: the item ends there
    "hidzeroqz",    // MDX: `01.` cannot interrupt a paragraph either
    "hidmetafalqz", // `x-mint.metadata.public: false` signs an operation in on any site
    "hidagentsqz",  // `<Visibility for="agents">`: shown only in the Markdown export
    "hiddivhidqz",  // `<div hidden>`
    "hidnoscrqz",   // `<noscript>`
    "hidtwclsqz",   // Tailwind's `hidden` class
];

/// Public controls: in the output.
const PUBLIC: &[&str] = &[
    "pubhomeqz",
    "pubvisibleqz",  // a page in a visible group
    "pubfmfalseqz",  // `hidden: false`
    "pubfmzeroqz",   // `hidden: 0`
    "pubboundqz",    // the page's own text beside an excluded binding
    "pubxhidbndqz",  // an `x-hidden` operation a listed page binds: that page shows it
    "pubindcodeqz",  // the indented code line itself
    "pubcardttlqz",  // title={"…"}: a string literal is text
    "pubgenopqz",    // a generated page of a plain operation
    "pubsrchtabqz",  // a hidden tab made `searchable: true` (Mintlify searches its pages)
    "pubunhideqz",   // `hidden: false` on a page in a hidden group puts it back in search
    "pubparacodeqz", // the code of that fence, kept as written
    "pubhumansqz",   // `<Visibility for="humans">`
    "pubmdblockqz",  // `hidden md:block` shows on wide screens
    "pubnullpubqz",  // `x-mint.metadata.public: null` declares nothing (the site stays open)
];

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// No canary of `canaries` in any byte under `dir` (shards inflated).
fn assert_absent(dir: &Path, canaries: &[&str], what: &str) {
    let found = canaries_in(dir, canaries);
    assert!(found.is_empty(), "{what}: text found: {found:#?}");
}

/// Every canary of `canaries` somewhere under `dir`.
fn assert_present(dir: &Path, canaries: &[&str], what: &str) {
    for c in canaries {
        assert!(
            !canaries_in(dir, &[c]).is_empty(),
            "{what}: `{c}` is missing"
        );
    }
}

/// A warning of the build holds `text`.
fn assert_warned(summary: &aidocs_index::BuildSummary, text: &str) {
    assert!(
        summary.warnings.iter().any(|w| w.message.contains(text)),
        "no warning says `{text}`: {:#?}",
        summary.warnings
    );
}

fn site(root: &Path) {
    write(
        root,
        "docs.json",
        r#"{"navigation": {"tabs": [
            {"tab": "Home", "groups": [
                {"group": "Main", "pages": ["index", "visible", "twice", "fm/yes", "fm/on", "fm/one",
                  "fm/str", "fm/falsestr", "fm/false", "fm/zero", "fm/noidx", "fm/noup", "fm/unsearchable", "closer", "nbsp", "nested", "lists-a", "lists-b", "lists-c", "lists-d", "lists-e", "bound",
                  "bound-hidden", "notes", "card", "audience"]},
                {"group": "Secret", "hidden": true, "pages": ["group-page", "twice", "unhidden", "caseunhidden"]},
                {"group": "Case", "hidden": true, "Searchable": true, "pages": ["searchcase"]},
                {"group": "Yes", "hidden": "yes", "pages": ["yes-nav"]}
            ]},
            {"tab": "Hidden tab", "hidden": true, "pages": ["tab-page"]},
            {"tab": "Help", "hidden": true, "searchable": true, "groups": [
                {"group": "Help", "pages": ["help/searchable"]},
                {"group": "Re-hidden", "hidden": true, "pages": ["help/rehidden"]}
            ]},
            {"tab": "API", "openapi": "api.json"}
        ],
        "anchors": [{"anchor": "Beta", "hidden": true, "groups": [{"group": "B", "pages": ["anchor-page"]}]}]}}"#,
    );
    write(
        root,
        "index.mdx",
        "# Home\n\npubhomeqz\n\n<Snippet file=\"excl.mdx\" />\n",
    );
    write(root, "visible.mdx", "# Visible\n\npubvisibleqz\n");
    write(root, "group-page.mdx", "# G\n\nhidgroupqz\n");
    write(root, "tab-page.mdx", "# T\n\nhidtabqz\n");
    write(root, "anchor-page.mdx", "# A\n\nhidanchorqz\n");
    write(root, "twice.mdx", "# Twice\n\nhidtwiceqz\n");
    write(root, "help/searchable.mdx", "# Help\n\npubsrchtabqz\n");
    write(
        root,
        "caseunhidden.mdx",
        "---\nHidden: false\n---\n# C\n\nhidcaseunqz\n",
    );
    write(root, "searchcase.mdx", "# S\n\nhidsrchcasqz\n");
    write(
        root,
        "lists-a.mdx",
        "# A\n\n- item\n  ```\n\u{a0}\n  {/* hidnbsplqz */}\n  ```\nafter\n",
    );
    write(
        root,
        "lists-d.mdx",
        "# D\n\n- item\n  ```\n  code\ntext\n  ```\n{/* a */}\n  ```\n{/* hidfenclzqz */}\n",
    );
    write(
        root,
        "lists-e.mdx",
        "# E\n\nPara\n01. x\n    ```\n<b>c</b>\n    ```\n\n{/* hidzeroqz */}\n",
    );
    write(
        root,
        "lists-b.mdx",
        "# B\n\n- item\nlazy\n  ```\nx\n\n{/* hidlazyqz */}\n",
    );
    write(
        root,
        "lists-c.mdx",
        "# C\n\nPara\n2. x\n   ```\n<b>pubparacodeqz</b>\n   ```\n\n{/* hidparaqz */}\n",
    );
    write(
        root,
        "closer.md",
        "# Closer\n\n   ```\ncode one\n      ```\nmore code\n```\n<!-- hidcloserqz -->\n\nafter\n",
    );
    write(
        root,
        "nbsp.mdx",
        "# Nbsp\n\n\u{a0}```\ntext\n{/* hidnbspqz */}\n",
    );
    write(
        root,
        "nested.mdx",
        "# Nested\n\n- a\n  - b\n\n  ```\n  code\n{/* hidnestqz */}\n\ntext after\n",
    );
    write(root, "help/rehidden.mdx", "# Re\n\nhidresubqz\n");
    write(
        root,
        "unhidden.mdx",
        "---\nhidden: false\n---\n# Unhidden\n\npubunhideqz\n",
    );
    write(root, "yes-nav.mdx", "# Y\n\nhidyesnavqz\n");
    for (file, fm, word) in [
        ("yes", "hidden: yes", "hidfmyesqz"),
        ("on", "hidden: on", "hidfmonqz"),
        ("one", "hidden: 1", "hidfmoneqz"),
        ("str", "hidden: \"True\"", "hidfmstrqz"),
        ("falsestr", "hidden: \"false\"", "hidfmfalsqz"),
        ("noidx", "noindex: yes", "hidnoidxqz"),
        ("noup", "noindex: \"TRUE\"", "hidnoupqz"),
        ("false", "hidden: false", "pubfmfalseqz"),
        ("unsearchable", "searchable: false", "hidunsrchqz"),
        ("zero", "hidden: 0", "pubfmzeroqz"),
    ] {
        write(
            root,
            &format!("fm/{file}.mdx"),
            &format!("---\n{fm}\n---\n# {file}\n\n{word}\n"),
        );
    }
    write(
        root,
        "api.json",
        r#"{"openapi": "3.0.0", "info": {"title": "API"}, "paths": {
            "/excl": {"get": {"operationId": "excl", "x-excluded": true, "description": "hidexclopqz"}},
            "/str": {"get": {"operationId": "str", "x-excluded": "true", "description": "hidexclstrqz"}},
            "/item": {"x-excluded": true, "get": {"operationId": "item", "description": "hidexclitmqz"}},
            "/case": {"get": {"operationId": "case", "X-Excluded": true, "description": "hidexclcasqz"}},
            "/hid": {"x-hidden": true, "get": {"operationId": "hid", "description": "hidxhiditmqz"}},
            "/hidbound": {"get": {"operationId": "hidbound", "x-hidden": true, "description": "pubxhidbndqz"}},
            "/snip": {"get": {"operationId": "snip", "x-excluded": true, "description": "other"}},
            "/plain": {"get": {"operationId": "plain", "description": "pubgenopqz"}},
            "/hidthing": {"get": {"operationId": "hidthing", "summary": "Get thing", "x-hidden": true}},
            "/thing": {"get": {"operationId": "thing", "summary": "Get thing", "description": "Things."}},
            "/grp": {"get": {"operationId": "grp", "x-mint": {"groups": ["admin"]}, "description": "hidxmintgrqz"}},
            "/closed": {"get": {"operationId": "closed", "x-mint": {"metadata": {"public": false}}, "description": "hidmetafalqz"}},
            "/nullpub": {"get": {"operationId": "nullpub", "x-mint": {"metadata": {"public": null}}, "description": "pubnullpubqz"}}
        }}"#,
    );
    write(
        root,
        "audience.mdx",
        "# Audience

<Visibility for=\"agents\">\n  > Call `POST /v1` hidagentsqz\n</Visibility>\n\n<Visibility for=\"humans\">\n  Click pubhumansqz.\n</Visibility>\n\n<div hidden>\n<div>hiddivhidqz</div>\n</div>\n\n<noscript>hidnoscrqz</noscript>\n\n<div className=\"hidden\">hidtwclsqz</div>\n\n<div className=\"hidden md:block\">pubmdblockqz</div>\n",
    );
    write(
        root,
        "bound.mdx",
        "---\nopenapi: GET /excl\n---\n# Bound\n\npubboundqz\n",
    );
    write(
        root,
        "bound-hidden.mdx",
        "---\nopenapi: GET /hidbound\n---\n# Bound hidden\n\nWords.\n",
    );
    write(
        root,
        "snippets/excl.mdx",
        "---\nopenapi: GET /snip\n---\nhidsnipexcqz\n",
    );
    write(
        root,
        "notes.md",
        "# Notes\n\nIntro.\n\n    ```\n    pubindcodeqz\n<!-- hidindentqz -->\n<script>hidscriptqz</script>\n    ```\n\nAfter.\n",
    );
    write(
        root,
        "card.mdx",
        "# Card\n\n<Card title={'hidternaryqz' ? 'Shown' : 'x'} />\n\n<Card title={\"hidandexprqz\" && \"Also\"} />\n\n<Card title={\"pubcardttlqz\"} />\n",
    );
}

#[test]
fn hidden_review_public_build_holds_no_hidden_text() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    site(&root);
    let out = tmp.path().join("www/out");
    let summary = build_with(&root, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    assert_absent(&out, WITHHELD, "public build");
    assert_present(&out, PUBLIC, "public build");
    // Each unreadable flag says why the page is left out.
    let said = |file: &str, what: &str| {
        summary
            .warnings
            .iter()
            .any(|w| w.file.contains(file) && w.message.contains(what))
    };
    assert!(
        said("fm/falsestr.mdx", "not the boolean"),
        "{:#?}",
        summary.warnings
    );
    assert!(said("bound.mdx", "x-excluded"), "{:#?}", summary.warnings);
    // No result at a URL the site leaves out.
    let index = LocalIndex::open(&out).unwrap();
    let urls: Vec<String> = (0..index.searcher.meta_shard_count())
        .flat_map(|i| index.meta_shard(i).unwrap().pages.clone())
        .map(|p| p.url)
        .collect();
    for hidden in [
        "/group-page",
        "/twice",
        "/tab-page",
        "/anchor-page",
        "/yes-nav",
        "/fm/yes",
    ] {
        assert!(!urls.iter().any(|u| u == hidden), "{hidden} in {urls:?}");
    }
    assert!(urls.iter().any(|u| u == "/visible"), "{urls:?}");
    // An `x-hidden` operation takes no name in its navigation group (`processOpenApiPath` pushes
    // only shown pages there): the next of the same name is not numbered, and its page is the one
    // at that URL.
    assert!(
        urls.iter().any(|u| u == "/api-reference/get-thing"),
        "{urls:?}"
    );
    assert!(
        !urls.iter().any(|u| u == "/api-reference/get-thing-1"),
        "{urls:?}"
    );
}

/// `.mintignore` and what Mintlify ignores by default: no page, no snippet and no spec of theirs
/// reaches the output, listed in the navigation, imported, or found among unlisted files.
#[test]
fn hidden_review_mintignored_files_reach_no_index() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write(
        &root,
        "docs.json",
        r#"{"navigation": {"pages": ["index", "drafts/listed", "guide"]}}"#,
    );
    write(
        &root,
        ".mintignore",
        "\u{feff}drafts/\n*.draft.mdx\n/internal/\nspecs/secret.json\nsnippets/secret.mdx\naidocs.json\n",
    );
    write(
        &root,
        "index.mdx",
        "import Part from '/internal/part.mdx'\n\n# Home\n\nignpubhomeqz\n\n<Part />\n\n<Snippet file=\"secret.mdx\" />\n",
    );
    // A page bound to an operation of an ignored spec: what the operation says cannot be judged.
    write(
        &root,
        "guide.mdx",
        "---\nopenapi: specs/secret.json GET /s\n---\n# Guide\n\nignguidebqz\n",
    );
    write(
        &root,
        "specs/secret.json",
        r#"{"openapi": "3.0.0", "info": {"title": "S"}, "paths": {"/s": {"get": {"description": "ignspecqz"}}}}"#,
    );
    write(&root, "drafts/listed.mdx", "# Listed\n\nignlistedqz\n");
    // Our own configuration is read whatever `.mintignore` says; a spec the command line names
    // under an ignored directory is refused.
    write(
        &root,
        "aidocs.json",
        r#"{"visibility": {"private": ["secret/**"]}}"#,
    );
    write(&root, "secret/page.mdx", "# S\n\nignglobqz\n");
    write(
        &root,
        "drafts/cli.json",
        r#"{"openapi": "3.0.0", "info": {"title": "C"}, "paths": {"/c": {"get": {"description": "ignclispecqz"}}}}"#,
    );
    write(&root, "snippets/secret.mdx", "ignsnippetqz\n");
    write(&root, "internal/part.mdx", "ignimportqz\n");
    write(&root, "page.draft.mdx", "# D\n\nigndraftqz\n");
    write(&root, "tmp/scratch.mdx", "# S\n\nigntmpqz\n");
    write(&root, "sdk/build/gen.md", "# G\n\nignbuildqz\n");
    write(&root, "README.md", "# Readme\n\nignreadmeqz\n");
    write(&root, "unlisted.mdx", "# U\n\nignpubloosepgqz\n");
    let withheld = [
        "ignlistedqz",
        "ignsnippetqz",
        "ignimportqz",
        "igndraftqz",
        "igntmpqz",
        "ignbuildqz",
        "ignreadmeqz",
        "ignspecqz",
        "ignguidebqz",
        "ignglobqz",
        "ignclispecqz",
    ];
    let out = tmp.path().join("www/out");
    let summary = build_with(&root, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
        o.include_unlisted = true;
        o.openapi = vec![root.join("drafts/cli.json")];
    });
    assert_absent(&out, &withheld, "ignored files");
    assert_present(&out, &["ignpubhomeqz", "ignpubloosepgqz"], "ignored files");
    assert_warned(&summary, "excluded from the site");
    // A pattern not understood fails the build, naming its line.
    write(&root, ".mintignore", "drafts/\n[z-a]\n");
    let mut opts = aidocs_index::BuildOptions::new(&root, &out);
    opts.cache_dir = Some(tmp.path().join("cache"));
    opts.embeddings = aidocs_index::build::Embeddings::Off;
    match aidocs_index::build(&opts) {
        Err(aidocs_index::build::BuildError::Input(d)) => {
            assert_eq!((d.file.as_str(), d.line), (".mintignore", Some(2)), "{d:?}")
        }
        other => panic!("expected an input error: {:?}", other.err()),
    }
}

/// `seo.indexing: "all"` puts every hidden page (by its frontmatter or its navigation) in search,
/// as Mintlify does; `noindex`, `searchable: false`, `x-excluded` and ignored files stay out.
#[test]
fn hidden_review_seo_indexing_all_searches_hidden_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    site(&root);
    let config = std::fs::read_to_string(root.join("docs.json")).unwrap();
    let config = config.replacen('{', r#"{"seo": {"indexing": "all"}, "#, 1);
    write(&root, "docs.json", &config);
    let out = tmp.path().join("www/out");
    build_with(&root, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    let now_searched = [
        "hidgroupqz",
        "hidtabqz",
        "hidanchorqz",
        "hidtwiceqz",
        "hidfmyesqz",
        "hidresubqz",
        "hidxhiditmqz",
    ];
    assert_present(&out, &now_searched, "seo.indexing all");
    assert_present(&out, PUBLIC, "seo.indexing all");
    let still_out = [
        "hidfmfalsqz", // not understood: withheld whatever the site says
        "hidnoidxqz",
        "hidunsrchqz",
        "hidexclopqz",
        "hidindentqz",
        "hidternaryqz",
    ];
    assert_absent(&out, &still_out, "seo.indexing all");
}

/// Pages behind Mintlify's authentication: a site that declares `public: true` (on a page or on a
/// navigation group) signs readers in for everything else; `groups` pages are for signed-in
/// members of those groups; `public: false` keeps a page behind sign-in. A public build holds only
/// what needs no sign-in; an internal build holds all of it.
#[test]
fn hidden_review_signed_in_pages_stay_out_of_public_builds() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write(
        &root,
        "docs.json",
        r#"{"navigation": {"groups": [
            {"group": "Open", "public": true, "pages": ["open", "members", "closedflag"], "openapi": "api2.json"},
            {"group": "Closed", "pages": ["closed", "declared"]}
        ], "openapi": "api.json"}}"#,
    );
    write(&root, "open.mdx", "# Open\n\nauthopenqz\n");
    write(
        &root,
        "members.mdx",
        "---\ngroups: [\"admin\"]\n---\n# M\n\nauthgroupsqz\n",
    );
    write(
        &root,
        "closedflag.mdx",
        "---\npublic: false\n---\n# C\n\nauthpubfalseqz\n",
    );
    write(&root, "closed.mdx", "# Closed\n\nauthclosedqz\n");
    write(
        &root,
        "declared.mdx",
        "---\npublic: true\n---\n# D\n\nauthdeclaredqz\n",
    );
    write(
        &root,
        "api.json",
        r#"{"openapi": "3.0.0", "info": {"title": "A"}, "paths": {"/a": {"get": {"description": "authopqz"}}, "/pub": {"get": {"x-mint": {"metadata": {"public": true}}, "description": "authoppubqz"}}}}"#,
    );
    // Under the public group, an operation's own `x-mint.metadata.public: false` decides.
    write(
        &root,
        "api2.json",
        r#"{"openapi": "3.0.0", "info": {"title": "B"}, "paths": {"/priv": {"get": {"x-mint": {"metadata": {"public": false}}, "description": "authopprivqz"}}, "/open2": {"get": {"description": "authopentwoqz"}}}}"#,
    );
    let signed_in = [
        "authgroupsqz",
        "authpubfalseqz",
        "authclosedqz",
        "authopqz",
        "authopprivqz",
    ];
    let public = [
        "authopenqz",
        "authdeclaredqz",
        "authoppubqz",
        "authopentwoqz",
    ];
    let lexical = |o: &mut aidocs_index::BuildOptions| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    };
    let out = tmp.path().join("www/out");
    let summary = build_with(&root, &out, &tmp.path().join("cache"), lexical);
    assert_absent(&out, &signed_in, "signed-in pages");
    assert_present(&out, &public, "public pages");
    assert_warned(&summary, "need a sign-in");
    let internal = tmp.path().join("www/internal");
    build_with(&root, &internal, &tmp.path().join("cache-internal"), |o| {
        lexical(o);
        o.audience = aidocs_index::Visibility::Internal;
    });
    assert_present(&internal, &signed_in, "internal build");
    assert_present(&internal, &public, "internal build");

    // Without any `public: true`, the site is open: only `groups` and `public: false` need a
    // sign-in.
    std::fs::remove_file(root.join("declared.mdx")).unwrap();
    write(
        &root,
        "api.json",
        r#"{"openapi": "3.0.0", "info": {"title": "A"}, "paths": {}}"#,
    );
    write(
        &root,
        "docs.json",
        r#"{"navigation": {"pages": ["open", "members", "closedflag", "closed"]}}"#,
    );
    let open = tmp.path().join("www/open");
    build_with(&root, &open, &tmp.path().join("cache-open"), lexical);
    assert_absent(&open, &["authgroupsqz", "authpubfalseqz"], "open site");
    assert_present(&open, &["authopenqz", "authclosedqz"], "open site");

    // A page no navigation lists still declares the site's sign-in (Mintlify serves it by its
    // URL), and any truthy `public` does.
    write(
        &root,
        "landing.mdx",
        "---\npublic: \"yes\"\n---\n# Landing\n\nWelcome.\n",
    );
    let closed = tmp.path().join("www/closed");
    build_with(&root, &closed, &tmp.path().join("cache-closed"), lexical);
    assert_absent(
        &closed,
        &["authopenqz", "authclosedqz"],
        "unlisted declaration",
    );
}
