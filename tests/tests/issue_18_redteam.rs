//! Issue 18: a red-team site, one canary word per way private or internal text reached a public
//! index, plus public control canaries. Its public build, internal build, a two-build visibility
//! flip, its demo render and every cache are scanned byte by byte (shards inflated, zlib and gzip
//! streams inflated): a withheld canary found anywhere fails, a public canary missing fails.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use aidocs_e2e::{build_with, canaries_in, repo};
use aidocs_index::{BuildSummary, Visibility};
use aidocs_reader::LocalIndex;

/// Withheld from every build: private, or declared in a way that is present but not understood.
const PRIVATE: &[&str] = &[
    "leakimpglobqz",   // import of a file under a private glob
    "leakimpfmqz",     // import of a file whose own frontmatter is private
    "leaksniptravqz",  // <Snippet file="../private/trav.mdx"/>
    "leaklistqz",      // visibility: [private]
    "leaktagqz",       // visibility: !x private
    "leaknullqz",      // visibility: ~
    "leakmergeqz",     // <<: *defaults carrying visibility: private
    "leaksymlinkqz",   // a nav entry that is a symlink to a private file
    "leakdotslashqz",  // nav key ./drafts/x
    "leakdotdotqz",    // nav key guides/../drafts/x
    "leakslashglobqz", // glob /rooted/**
    "leaktrailglobqz", // glob trailing/
    "leaknoextqz",     // glob noext/page (no extension)
    "leakunknownqz",   // x-visibility: secret
    "leakarrayqz",     // x-visibility: [internal]
    "leakoutnavqz",    // nav key ../outside/page
    "leakoutspecqz",   // docs.json openapi: ../outside/spec.json
    "leakoutfmspecqz", // frontmatter openapi: ../outside/spec2.json GET /fm
    "leakoutrefqz",    // nav $ref ../outside/nav.json (a build of its own fails)
    "leakcommentqz",   // a multi-line HTML comment (its page does not parse: a placeholder)
    "leakunparsedqz",  // the rest of that page
    "leakmdxmultiqz",  // an MDX comment over a blank line
    "leakfmpublicqz",  // visibility: public in a file under a private glob
    "leaksymspecqz",   // a spec reached through a symlink out of the site
    "leaksnipsymqz",   // a snippet that is a symlink out of the site
    "leakmdxcmtqz",    // an MDX comment
    "leakfenceqz",     // an MDX comment after a ```` fence that holds a ``` line
    "leaktemplateqz",  // a multi-line template literal in an `export`
    "leakdupkeyqz",    // "x-internal": true, "x-internal": false
    "leakwrittenqz",   // an import written under a private glob, a symlink to an unglobbed file
    "leakserverqz",    // the demo's API base from a server declared internal
];
/// Internal: absent from the public build, present in the internal one.
const INTERNAL: &[&str] = &[
    "leaksnipglobqz", // <Snippet> of a file under an internal glob
    "leakkeycaseqz",  // Visibility: Internal
    "leakpathitemqz", // x-internal on the path item
    "leakstrtrueqz",  // x-internal: "true"
    "leakspecdocqz",  // x-internal on the whole document
    "leakrefsibqz",   // x-internal beside a path item's $ref
    "leakboundqz",    // an include whose frontmatter binds an internal operation
];
/// Public controls: must be found.
const PUBLIC: &[&str] = &[
    "pubindexqz",
    "pubsnippetqz",
    "pubopqz",
    "pubguideqz",
    "pubafterqz",
    "pubimportqz",
];

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo {}", path.display());
}

/// The red-team site in `tmp/site`, with `tmp/outside` beside it.
fn redteam_site(tmp: &Path) -> PathBuf {
    let site = tmp.join("site");
    let outside = tmp.join("outside");
    write(&outside, "page.mdx", "# Outside\n\nleakoutnavqz\n");
    write(
        &outside,
        "secret.mdx",
        "---\ntitle: S\n---\nleaksymlinkqz\n",
    );
    write(&outside, "snip.mdx", "leaksnipsymqz\n");
    let spec = |canary: &str, path: &str| {
        format!(
            r#"{{"openapi":"3.0.0","info":{{"title":"T"}},"paths":{{"{path}":{{"get":{{"operationId":"{canary}op","summary":"{canary}"}}}}}}}}"#
        )
    };
    write(&outside, "spec.json", &spec("leakoutspecqz", "/out"));
    write(&outside, "spec2.json", &spec("leakoutfmspecqz", "/fm"));
    write(&outside, "spec3.json", &spec("leaksymspecqz", "/sym"));
    write(
        &outside,
        "nav.json",
        r#"{"group": "leakoutrefqz", "pages": ["guide"]}"#,
    );

    write(
        &site,
        "aidocs.json",
        r#"{"visibility": {
            "private": ["private/**", "drafts/**", "/rooted/**", "trailing/", "noext/page"],
            "internal": ["snippets/internal-*"]}}"#,
    );
    write(
        &site,
        "docs.json",
        r#"{"name": "Red team",
        "navigation": {"groups": [
          {"group": "API", "openapi": "openapi.json"},
          {"group": "Internal API", "openapi": ["internal-doc.json", "../outside/spec.json", "linked-spec.json", "fifo-spec.json"]},
          {"group": "Main", "pages": ["index", "guide", "casing", "list", "tag", "null", "merge", "guides/alias",
             "./drafts/dot", "guides/../drafts/dd", "rooted/a", "trailing/a", "noext/page", "../outside/page",
             "/etc/hostname", "fmspec", "private/override", "comments"]}
        ]}}"#,
    );
    write(
        &site,
        "index.mdx",
        "---\ntitle: Home\n---\nimport Part from '/private/part.mdx'\nimport Secret from '/components/secret.mdx'\nimport Pub from '/components/pub.mdx'\n\npubindexqz welcome.\n\n<Part />\n\n<Secret />\n\n<Pub />\n\n<Snippet file=\"internal-note.mdx\" />\n\n<Snippet file=\"../private/trav.mdx\" />\n\n<Snippet file=\"public.mdx\" />\n\n<Snippet file=\"linked.mdx\" />\n\n{/* a note\nleakmdxmultiqz\n\nstill hidden */}\n\npubafterqz after the comment.\n\n{/* leakmdxcmtqz */}\n\nimport W from '/private/w.mdx'\nimport Bound from '/components/bound.mdx'\n\n<W />\n\n<Bound />\n\n````md\n```\n````\n{/* leakfenceqz */}\n\nexport const notes = `\nleaktemplateqz\n`\n",
    );
    // HTML comments: MDX refuses them, and Mintlify serves a placeholder for the whole page.
    write(
        &site,
        "comments.mdx",
        "---\ntitle: Comments\n---\n\nleakunparsedqz before.\n\n<!-- a note\nleakcommentqz\n\nstill hidden -->\n",
    );
    write(&site, "lib/w.mdx", "leakwrittenqz\n");
    std::fs::create_dir_all(site.join("private")).unwrap();
    std::os::unix::fs::symlink(site.join("lib/w.mdx"), site.join("private/w.mdx")).unwrap();
    write(
        &site,
        "components/bound.mdx",
        "---\nopenapi: GET /pi\n---\nleakboundqz\n",
    );
    write(&site, "private/part.mdx", "leakimpglobqz\n");
    write(&site, "private/trav.mdx", "leaksniptravqz\n");
    write(
        &site,
        "private/override.mdx",
        "---\nvisibility: public\n---\nleakfmpublicqz\n",
    );
    write(
        &site,
        "components/secret.mdx",
        "---\nvisibility: private\n---\nleakimpfmqz\n",
    );
    write(&site, "components/pub.mdx", "pubimportqz\n");
    write(&site, "snippets/internal-note.mdx", "leaksnipglobqz\n");
    write(&site, "snippets/public.mdx", "pubsnippetqz\n");
    std::os::unix::fs::symlink(outside.join("snip.mdx"), site.join("snippets/linked.mdx")).unwrap();
    write(&site, "guide.mdx", "# Guide\n\npubguideqz\n");
    write(
        &site,
        "casing.mdx",
        "---\nVisibility: Internal\n---\nleakkeycaseqz\n",
    );
    write(
        &site,
        "list.mdx",
        "---\nvisibility: [private]\n---\nleaklistqz\n",
    );
    write(
        &site,
        "tag.mdx",
        "---\nvisibility: !x private\n---\nleaktagqz\n",
    );
    write(&site, "null.mdx", "---\nvisibility: ~\n---\nleaknullqz\n");
    write(
        &site,
        "merge.mdx",
        "---\ndefaults: &d\n  visibility: private\n<<: *d\ntitle: Merge\n---\nleakmergeqz\n",
    );
    write(&site, "drafts/secret.mdx", "leaksymlinkqz\n");
    std::fs::create_dir_all(site.join("guides")).unwrap();
    std::os::unix::fs::symlink(
        site.join("drafts/secret.mdx"),
        site.join("guides/alias.mdx"),
    )
    .unwrap();
    write(&site, "drafts/dot.mdx", "leakdotslashqz\n");
    write(&site, "drafts/dd.mdx", "leakdotdotqz\n");
    write(&site, "rooted/a.mdx", "leakslashglobqz\n");
    write(&site, "trailing/a.mdx", "leaktrailglobqz\n");
    write(&site, "noext/page.mdx", "leaknoextqz\n");
    write(
        &site,
        "fmspec.mdx",
        "---\ntitle: Fm spec\nopenapi: ../outside/spec2.json GET /fm\n---\nA page.\n",
    );
    write(
        &site,
        "openapi.json",
        r##"{"openapi":"3.0.0","info":{"title":"API"},
          "servers":[{"url":"https://leakserverqz.example","x-internal":true}],
          "components":{"pathItems":{"Ref":{"get":{"operationId":"refOp","summary":"leakrefsibqz"}}}},
          "paths":{
          "/pub":{"get":{"operationId":"pubOp","summary":"pubopqz"}},
          "/rs":{"$ref":"#/components/pathItems/Ref","x-internal":true},
          "/dk":{"get":{"operationId":"dkOp","summary":"leakdupkeyqz","x-internal":true,"x-internal":false}},
          "/pi":{"x-internal":true,"get":{"operationId":"piOp","summary":"leakpathitemqz"}},
          "/st":{"get":{"operationId":"stOp","summary":"leakstrtrueqz","x-internal":"true"}},
          "/un":{"get":{"operationId":"unOp","summary":"leakunknownqz","x-visibility":"secret"}},
          "/ar":{"get":{"operationId":"arOp","summary":"leakarrayqz","x-visibility":["internal"]}}}}"##,
    );
    write(
        &site,
        "internal-doc.json",
        r#"{"openapi":"3.0.0","x-internal":true,"info":{"title":"I"},"paths":{"/doc":{"get":{"operationId":"docOp","summary":"leakspecdocqz"}}}}"#,
    );
    std::os::unix::fs::symlink(outside.join("spec3.json"), site.join("linked-spec.json")).unwrap();
    mkfifo(&site.join("fifo.json"));
    mkfifo(&site.join("fifo-spec.json"));
    std::os::unix::fs::symlink("/dev/zero", site.join("zero.json")).unwrap();
    site
}

/// Builds on another thread and fails if it takes over a minute (a FIFO or device would block).
fn build_bounded(site: &Path, out: &Path, cache: &Path, audience: Visibility) -> BuildSummary {
    let (tx, rx) = mpsc::channel();
    let (site, out, cache) = (site.to_owned(), out.to_owned(), cache.to_owned());
    std::thread::spawn(move || {
        let s = build_with(&site, &out, &cache, |o| {
            o.audience = audience;
            o.embeddings = aidocs_index::build::Embeddings::Off;
        });
        let _ = tx.send(s);
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the build finishes within a minute on hostile input")
}

fn assert_none(dir: &Path, canaries: &[&str], what: &str) {
    let found = canaries_in(dir, canaries);
    assert!(found.is_empty(), "{what}: withheld text found: {found:#?}");
}

fn assert_all(dir: &Path, canaries: &[&str], what: &str) {
    for c in canaries {
        assert!(
            !canaries_in(dir, &[c]).is_empty(),
            "{what}: public text `{c}` is missing"
        );
    }
}

/// A lexical build with `--keep-old`.
fn keep_old(o: &mut aidocs_index::BuildOptions) {
    o.keep_old = true;
    o.embeddings = aidocs_index::build::Embeddings::Off;
}

/// The build said it did not keep the old shards.
fn assert_keep_old_refused(s: &BuildSummary) {
    assert!(
        s.warnings.iter().any(|w| w.file == "--keep-old"),
        "{:?}",
        s.warnings
    );
}

fn search_ids(out: &Path, q: &str) -> Vec<String> {
    let index = LocalIndex::open(out).unwrap();
    let opts = aidocs_core::SearchOptions {
        typos: false,
        ..Default::default()
    };
    index
        .search(q, &opts)
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect()
}

#[test]
fn issue_18_red_team_public_build_output_and_cache_hold_no_withheld_text() {
    let tmp = tempfile::tempdir().unwrap();
    let site = redteam_site(tmp.path());
    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    let t = Instant::now();
    let s = build_bounded(&site, &out, &cache, Visibility::Public);
    eprintln!(
        "public build: {:.2} s, {} pages",
        t.elapsed().as_secs_f64(),
        s.pages
    );
    let withheld: Vec<&str> = PRIVATE.iter().chain(INTERNAL).copied().collect();
    assert_none(&out, &withheld, "public output");
    assert_none(&cache, &withheld, "public cache");
    assert_all(&out, PUBLIC, "public output");
    for c in &withheld {
        assert!(search_ids(&out, c).is_empty(), "{c} is searchable");
    }
    for c in PUBLIC {
        assert!(!search_ids(&out, c).is_empty(), "{c} is not searchable");
    }
    let warnings: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    let said = |needle: &str| warnings.iter().any(|w| w.contains(needle));
    for needle in [
        "../outside/page",
        "../outside/spec.json",
        "fifo-spec.json",
        "linked-spec.json",
        "snippet `/snippets/linked.mdx`",
        "snippet `/private/part.mdx`",
        "snippet `/components/secret.mdx`",
    ] {
        assert!(said(needle), "no warning names `{needle}`: {warnings:#?}");
    }
    // A glob that matches nothing is named.
    assert!(!said("matches no file"), "{warnings:#?}");
}

#[test]
fn issue_18_red_team_internal_build_has_internal_text_and_never_private() {
    let tmp = tempfile::tempdir().unwrap();
    let site = redteam_site(tmp.path());
    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    build_bounded(&site, &out, &cache, Visibility::Internal);
    assert_none(&out, PRIVATE, "internal output");
    assert_none(&cache, PRIVATE, "internal cache");
    assert_all(&out, INTERNAL, "internal output");
    assert_all(&out, PUBLIC, "internal output");
}

#[test]
fn issue_18_a_page_that_turns_private_leaves_nothing_in_the_output_or_the_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write(
        &site,
        "docs.json",
        r#"{"navigation": {"pages": ["a", "flip", "uses"]}}"#,
    );
    write(&site, "a.mdx", "# A\n\npubstayqz\n");
    write(
        &site,
        "flip.mdx",
        "# Flip\n\nleakflipqz is public for now.\n",
    );
    write(&site, "snippets/part.mdx", "leakflipsnipqz\n");
    write(
        &site,
        "uses.mdx",
        "# Uses\n\n<Snippet file=\"part.mdx\" />\n",
    );
    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    build_bounded(&site, &out, &cache, Visibility::Public);
    assert_all(
        &out,
        &["leakflipqz", "leakflipsnipqz", "pubstayqz"],
        "first build",
    );
    assert_all(&cache, &["leakflipqz", "leakflipsnipqz"], "first cache");

    write(
        &site,
        "flip.mdx",
        "---\nvisibility: private\n---\n# Flip\n\nleakflipqz is private now.\n",
    );
    write(
        &site,
        "snippets/part.mdx",
        "---\nvisibility: internal\n---\nleakflipsnipqz\n",
    );
    let s = build_bounded(&site, &out, &cache, Visibility::Public);
    assert!(s.pages_removed >= 1, "{s:?}");
    assert_none(
        &out,
        &["leakflipqz", "leakflipsnipqz"],
        "output after the flip",
    );
    assert_none(
        &cache,
        &["leakflipqz", "leakflipsnipqz"],
        "cache after the flip",
    );
    assert_all(&out, &["pubstayqz"], "output after the flip");
}

#[test]
fn issue_18_the_cache_is_never_in_the_served_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write(&site, "index.mdx", "# Home\n\nhello\n");
    let out = tmp.path().join("public/_search");
    for cache in [
        tmp.path().join("public/.aidocs-cache"),
        out.join("cache"),
        site.join(".aidocs-cache"),
    ] {
        let mut opts = aidocs_index::BuildOptions::new(&site, &out);
        opts.cache_dir = Some(cache.clone());
        let e = aidocs_index::build(&opts).unwrap_err().to_string();
        assert!(e.contains("may be served"), "{e}");
        assert!(!cache.exists(), "{} was created", cache.display());
    }
    // The default is the user's cache directory, not beside the output.
    let mut opts = aidocs_index::BuildOptions::new(&site, &out);
    opts.embeddings = aidocs_index::build::Embeddings::Off;
    let default = aidocs_index::build::default_cache_dir(&opts);
    assert!(!default.starts_with(tmp.path()), "{}", default.display());
}

#[test]
fn issue_18_jsonl_records_declare_visibility_and_safe_urls() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("docs.jsonl");
    std::fs::write(
        &input,
        [
            r#"{"id":"1","title":"a","text":"pubrecordqz","url":"/docs/a"}"#,
            r#"{"id":"2","title":"b","text":"leakrecnullqz","visibility":null}"#,
            r#"{"id":"3","title":"c","text":"leakreclistqz","visibility":["public"]}"#,
            r#"{"id":"4","title":"d","text":"leakjsurlqz","url":"javascript:alert(1)"}"#,
            r#"{"id":"5","title":"e","text":"leakdataurlqz","url":"data:text/html,x"}"#,
            r#"{"id":"6","title":"f","text":"leakslashurlqz","url":"//evil.example/x"}"#,
            r#"{"id":"7","title":"g","text":"pubhttpsqz","url":"https://example.com/g"}"#,
        ]
        .join("\n"),
    )
    .unwrap();
    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    let s = build_bounded(&input, &out, &cache, Visibility::Internal);
    assert_none(
        &out,
        &[
            "leakrecnullqz",
            "leakreclistqz",
            "leakjsurlqz",
            "leakdataurlqz",
            "leakslashurlqz",
        ],
        "jsonl output",
    );
    assert_all(&out, &["pubrecordqz", "pubhttpsqz"], "jsonl output");
    assert!(s
        .warnings
        .iter()
        .any(|w| w.message.contains("javascript:alert(1)")));
}

#[test]
fn issue_18_a_snippet_bomb_and_deep_yaml_finish_in_seconds() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    // Ten snippets, each including the next ten times: 10^10 inclusions if unbounded.
    for i in 0..10 {
        let body = if i == 9 {
            "leaf text\n".to_owned()
        } else {
            format!(
                "import S from '/snippets/s{}.mdx'\n\n{}",
                i + 1,
                "<S />\n\n".repeat(10)
            )
        };
        write(&site, &format!("snippets/s{i}.mdx"), &body);
    }
    write(
        &site,
        "index.mdx",
        "import S from '/snippets/s0.mdx'\n\n# Bomb\n\n<S />\n",
    );
    let deep = format!("---\ntitle: {}\n---\nbody\n", "[".repeat(200_000));
    write(&site, "deep.mdx", &deep);
    let block: String = (0..1_000)
        .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
        .collect();
    write(&site, "deep-block.mdx", &format!("---\n{block}---\nbody\n"));
    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    let t = Instant::now();
    let s = build_bounded(&site, &out, &cache, Visibility::Public);
    let secs = t.elapsed().as_secs_f64();
    eprintln!("snippet bomb + deep YAML: {secs:.2} s");
    let bomb_warnings = s
        .warnings
        .iter()
        .filter(|w| w.message.contains("snippets expand this page"))
        .count();
    assert_eq!(bomb_warnings, 1, "{:#?}", s.warnings);
    assert!(s
        .warnings
        .iter()
        .any(|w| w.file == "deep.mdx" && w.message.contains("nests")));
    assert!(s
        .warnings
        .iter()
        .any(|w| w.file == "deep-block.mdx" && w.message.contains("nests")));
}

/// The demo renders the public pages only, and never a link or a file for an unsafe URL.
#[test]
fn issue_18_demo_render_holds_no_withheld_text() {
    let plugin = repo().join("site-plugin");
    if !plugin.join("dist/element.js").is_file() {
        assert!(
            std::env::var_os("AIDOCS_REQUIRE_WASM").is_none(),
            "AIDOCS_REQUIRE_WASM is set but site-plugin is not built"
        );
        eprintln!("skipped: site-plugin/dist is not built (npm run build --prefix site-plugin)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let site = redteam_site(tmp.path());
    let out = tmp.path().join("demo");
    let (tx, rx) = mpsc::channel();
    let (s2, o2) = (site.clone(), out.clone());
    std::thread::spawn(move || {
        let _ = tx.send(aidocs_index::demo::render_demo(&s2, &o2, Some(&plugin)).map(|_| ()));
    });
    rx.recv_timeout(Duration::from_secs(120))
        .expect("the demo renders within two minutes")
        .expect("the demo renders");
    let withheld: Vec<&str> = PRIVATE.iter().chain(INTERNAL).copied().collect();
    assert_none(&out, &withheld, "demo");
    assert_none(&out.with_extension("cache"), &withheld, "demo cache");
    assert_all(&out, &["pubindexqz", "pubguideqz"], "demo");
}

/// `--keep-old` keeps the previous shards for open sessions, never past a withdrawal.
#[test]
fn issue_18_keep_old_never_keeps_withdrawn_text() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write(
        &site,
        "docs.json",
        r#"{"navigation": {"pages": ["a", "b"]}}"#,
    );
    write(&site, "a.mdx", "# A\n\npubkeepqz\n");
    write(&site, "b.mdx", "# B\n\nleakkeepoldqz is public for now.\n");
    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    build_with(&site, &out, &cache, keep_old);
    // A page added: the old shards stay beside the new ones.
    write(
        &site,
        "docs.json",
        r#"{"navigation": {"pages": ["a", "b", "c"]}}"#,
    );
    write(&site, "c.mdx", "# C\n\npubaddedqz\n");
    let s = build_with(&site, &out, &cache, keep_old);
    assert!(s.output.removed_files == 0, "{:?}", s.output);
    assert_all(&out, &["leakkeepoldqz", "pubaddedqz"], "kept shards");
    // An edit that removes a sentence: its old shards go.
    write(&site, "a.mdx", "# A\n\npubkeepqz\n");
    write(&site, "c.mdx", "# C\n\nnow different\n");
    let s = build_with(&site, &out, &cache, keep_old);
    assert_keep_old_refused(&s);
    assert_none(
        &out,
        &["pubaddedqz"],
        "output after an edit with --keep-old",
    );
    // A withdrawal: every shard that is not the new index's goes, with a warning.
    write(
        &site,
        "b.mdx",
        "---\nvisibility: private\n---\n# B\n\nleakkeepoldqz\n",
    );
    let s = build_with(&site, &out, &cache, keep_old);
    assert_keep_old_refused(&s);
    assert_none(
        &out,
        &["leakkeepoldqz"],
        "output after a withdrawal with --keep-old",
    );
    assert_all(&out, &["pubkeepqz"], "output after a withdrawal");
}

/// Caches that earlier releases kept beside the output are removed from the served tree.
#[test]
fn issue_18_old_caches_beside_the_output_are_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write(&site, "index.mdx", "# Home\n\nhello\n");
    let old = tmp.path().join("www/.aidocs-cache/0123456789abcdef");
    write(&old, "LAYOUT", "aidocs-cache-v3");
    write(&old, "tantivy/seg.store", "leakoldcacheqz");
    let foreign = tmp.path().join("www/.aidocs-cache/notours");
    write(&foreign, "keep.txt", "not ours");
    let out = tmp.path().join("www/_search");
    let s = build_with(&site, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    assert!(!old.exists(), "the old cache is still served");
    assert!(
        foreign.join("keep.txt").exists(),
        "a directory that is not ours is left alone"
    );
    assert!(
        s.warnings
            .iter()
            .any(|w| w.message.contains("old build cache")),
        "{:?}",
        s.warnings
    );
}

/// aidocs.json is ours: a key written twice is an error that names it, never a silent override.
#[test]
fn issue_18_aidocs_json_refuses_repeated_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write(&site, "index.mdx", "# Home\n\nhello\n");
    for config in [
        "{\"visibility\": {\"private\": [\"drafts/**\"], \"private\": []}}",
        "{\"visibility\": {\"private\": [\"drafts/**\"]}, \"visibility\": {}}",
        "{\"visibility\": {\"private\": [\"drafts/**\"]}, \"Visibility\": {}}",
    ] {
        write(&site, "aidocs.json", config);
        let mut opts = aidocs_index::BuildOptions::new(&site, tmp.path().join("www/_search"));
        opts.cache_dir = Some(tmp.path().join("cache"));
        opts.embeddings = aidocs_index::build::Embeddings::Off;
        let e = aidocs_index::build(&opts).unwrap_err().to_string();
        assert!(
            e.contains("aidocs.json") && (e.contains("twice") || e.contains("more than once")),
            "{config}: {e}"
        );
    }
}

/// From the review of the first fixes: a snippet withdrawn under `--keep-old`, a binding into a
/// spec that cannot be read, a binding two specs could mean, and an old cache behind a link.
#[test]
fn issue_18_review_withdrawals_bindings_and_links() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write(
        &site,
        "docs.json",
        r#"{"navigation": {"pages": ["index", "admin", "ambig", "stem"]},
            "api": {"openapi": ["api/internal.yaml", "a-public/spec.json", "z-internal/spec.json"]}}"#,
    );
    write(
        &site,
        "index.mdx",
        "# Home\n\npubhomeqz\n\n<Snippet file=\"s.mdx\" />\n",
    );
    write(&site, "snippets/s.mdx", "leakkeepsnipqz roadmap\n");
    // A spec that does not parse (a repeated key): what it declares cannot be read.
    write(
        &site,
        "api/internal.yaml",
        "openapi: 3.0.0\ninfo: {title: I}\npaths:\n  /admin/purge:\n    post: {operationId: purge, x-internal: true, x-internal: true}\n",
    );
    write(
        &site,
        "admin.mdx",
        "---\nopenapi: POST /admin/purge\n---\nleakadminpageqz\n",
    );
    let spec = |internal: bool| {
        format!(
            r#"{{"openapi":"3.0.0","info":{{"title":"S"}},"paths":{{"/jobs":{{"get":{{"operationId":"jobs","x-internal":{internal}}}}}}}}}"#
        )
    };
    write(&site, "a-public/spec.json", &spec(false));
    write(&site, "z-internal/spec.json", &spec(true));
    write(
        &site,
        "ambig.mdx",
        "---\nopenapi: spec GET /jobs\n---\nleakambigqz\n",
    );
    // Named by its stem, not listed anywhere: found, read, and judged.
    write(
        &site,
        "unlisted.yaml",
        "openapi: 3.0.0\ninfo: {title: U}\npaths:\n  /u:\n    get: {operationId: u, x-internal: true}\n",
    );
    write(
        &site,
        "stem.mdx",
        "---\nopenapi: unlisted GET /u\n---\nleakstemqz\n",
    );
    // An old cache directory that is a link to the user's other caches: never followed.
    let victim = tmp.path().join("victim/builds/abc");
    write(&victim, "LAYOUT", "aidocs-cache-v3");
    std::fs::create_dir_all(tmp.path().join("www")).unwrap();
    std::os::unix::fs::symlink(
        tmp.path().join("victim/builds"),
        tmp.path().join("www/.aidocs-cache"),
    )
    .unwrap();

    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    let s = build_with(&site, &out, &cache, keep_old);
    assert!(victim.join("LAYOUT").exists(), "a linked cache was deleted");
    let withheld = ["leakadminpageqz", "leakambigqz", "leakstemqz"];
    assert_none(&out, &withheld, "first build");
    assert_none(&cache, &withheld, "first cache");
    assert_all(&out, &["pubhomeqz", "leakkeepsnipqz"], "first build");
    assert!(
        s.warnings
            .iter()
            .any(|w| w.file == "admin.mdx" && w.message.contains("withheld")),
        "{:?}",
        s.warnings
    );
    // The snippet turns private; the page that included it stays. No old shard keeps its text.
    write(
        &site,
        "snippets/s.mdx",
        "---\nvisibility: private\n---\nleakkeepsnipqz roadmap\n",
    );
    let s = build_with(&site, &out, &cache, keep_old);
    assert_keep_old_refused(&s);
    assert_none(
        &out,
        &["leakkeepsnipqz"],
        "output after the snippet's withdrawal",
    );
    assert_all(
        &out,
        &["pubhomeqz"],
        "output after the snippet's withdrawal",
    );
}

/// A snippet's own imports are judged by their path as written too: `snippets/team` is a link to
/// `shared`, and `snippets/team/b.mdx` is private however it is reached.
#[test]
fn issue_18_nested_includes_are_globbed_as_written() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write(
        &site,
        "aidocs.json",
        r#"{"visibility": {"private": ["snippets/team/b.mdx"]}}"#,
    );
    write(
        &site,
        "docs.json",
        r#"{"navigation": {"pages": ["index"]}}"#,
    );
    write(
        &site,
        "shared/a.mdx",
        "import B from './b.mdx'\n\npubnestaqz\n\n<B />\n",
    );
    write(&site, "shared/b.mdx", "leaknestbqz\n");
    std::fs::create_dir_all(site.join("snippets")).unwrap();
    std::os::unix::fs::symlink(site.join("shared"), site.join("snippets/team")).unwrap();
    write(
        &site,
        "index.mdx",
        "# Home\n\n<Snippet file=\"team/a.mdx\" />\n",
    );
    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    build_bounded(&site, &out, &cache, Visibility::Public);
    assert_none(&out, &["leaknestbqz"], "output");
    assert_none(&cache, &["leaknestbqz"], "cache");
    assert_all(&out, &["pubnestaqz"], "output");
}

/// Refused and cyclic snippet reads count against the page's budget: a large withheld snippet
/// referenced thousands of times, or a snippet that imports itself, is read a bounded number of times.
#[test]
fn issue_18_refused_snippet_reads_are_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write(
        &site,
        "docs.json",
        r#"{"navigation": {"pages": ["index"]}}"#,
    );
    let big = format!(
        "---\nvisibility: internal\n---\n{}\n",
        "word ".repeat(200_000)
    );
    write(&site, "snippets/p.mdx", &big);
    // A snippet that renders itself five thousand times (a file that imports itself is a
    // snippet, never a page: Mintlify's rule since session 25).
    write(
        &site,
        "snippets/self.mdx",
        &format!(
            "import S from './self.mdx'\n\npubselfqz\n\n{}",
            "<S/>\n".repeat(5_000)
        ),
    );
    write(
        &site,
        "index.mdx",
        &format!(
            "import P from '/snippets/p.mdx'\nimport Me from '/snippets/self.mdx'\n\npubbudgetqz\n\n<Me />\n\n{}",
            "<P/>\n".repeat(20_000)
        ),
    );
    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    let s = build_bounded(&site, &out, &cache, Visibility::Public);
    assert!(
        s.warnings
            .iter()
            .any(|w| w.message.contains("snippets expand this page past")),
        "{:?}",
        s.warnings
    );
    assert_all(&out, &["pubbudgetqz", "pubselfqz"], "output");
}
