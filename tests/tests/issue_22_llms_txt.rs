//! Issue 22: `build` writes `llms.txt` (llmstxt.org: title, summary, one section per navigation
//! group with a link line per page) and `llms-full.txt` (every page's text) from the pages it
//! indexed: public pages only in a public build, the same bytes whatever the cache held, gone with
//! `--no-llms-txt`.

use std::path::{Path, PathBuf};

use aidocs_e2e::{build, build_with, canaries_in, copy_dir, fixture};
use aidocs_index::llms::{FULL_FILE, INDEX_FILE};
use aidocs_index::Visibility;

const INTERNAL: &[&str] = &[
    "CANARY-INTERNAL-7f3a",
    "CANARY-INTERNAL-GLOB-55d1",
    "CANARY-INTERNAL-API-3d9e",
    "CANARY-INTERNAL-NAV-4b1f",
];
const PRIVATE: &[&str] = &[
    "CANARY-PRIVATE-91c2",
    "CANARY-PRIVATE-SNIPPET-0b7e",
    "CANARY-PRIVATE-TITLE-a1e0",
];

fn lexical(audience: Visibility) -> impl FnOnce(&mut aidocs_index::BuildOptions) {
    move |o| {
        o.audience = audience;
        o.embeddings = aidocs_index::build::Embeddings::Off;
    }
}

fn read(out: &Path, name: &str) -> String {
    std::fs::read_to_string(out.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Both files of `out`.
fn llms(out: &Path) -> (String, String) {
    (read(out, INDEX_FILE), read(out, FULL_FILE))
}

/// A directory holding only `out`'s llms files, for [`canaries_in`].
fn llms_only(out: &Path, tmp: &Path) -> PathBuf {
    let dir = tmp.join("llms-only");
    std::fs::create_dir_all(&dir).unwrap();
    for name in [INDEX_FILE, FULL_FILE] {
        std::fs::copy(out.join(name), dir.join(name)).unwrap();
    }
    dir
}

/// The link lines' URLs of `llms.txt`, in order.
fn urls(index: &str) -> Vec<&str> {
    index
        .lines()
        .filter_map(|l| l.strip_prefix("- ["))
        .map(|l| {
            let start = l.find("](").expect("a link line") + 2;
            let end = start + l[start..].find(')').expect("a closed link");
            &l[start..end]
        })
        .collect()
}

#[test]
fn issue_22_build_writes_llms_txt_in_the_llmstxt_layout() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("www/out");
    let s = build_with(
        &fixture("example-site"),
        &out,
        &tmp.path().join("cache"),
        lexical(Visibility::Public),
    );
    let (index, full) = llms(&out);
    // Title from docs.json's name, the home page's description as the summary, then the sections.
    assert!(
        index.starts_with(
            "# Acme API\n\n> Build on the Acme platform with our REST API and SDKs.\n\n\
             The full text of every page listed here is in [llms-full.txt](llms-full.txt).\n\n\
             ## Guides > Get started\n\n\
             - [Acme API documentation](/): Build on the Acme platform with our REST API and SDKs.\n\
             - [Quickstart](/quickstart): Install the SDK and make your first API call.\n"
        ),
        "{index}"
    );
    let headings: Vec<&str> = index.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        [
            "## Guides > Get started",
            "## Guides > Security",
            "## Guides > Security > Advanced",
            "## API reference > Users",
        ]
    );
    // One line per indexed page, in navigation order, and nothing else.
    assert_eq!(
        urls(&index),
        [
            "/",
            "/quickstart",
            "/guides/authentication",
            "/guides/refresh-tokens",
            "/guides/request-ids",
            "/guides/html-safety",
            "/api-reference/create-user",
            "/api-reference/users/list-users",
            "/api-reference/users/retrieve-a-user",
        ]
    );
    assert_eq!(urls(&index).len(), s.pages);
    assert!(index.contains(
        "- [Refresh tokens](/guides/refresh-tokens): Keep sessions alive without asking users to sign in again.\n"
    ));
    // Every line is a heading, a link line, the summary, the pointer or blank.
    for l in index.lines() {
        assert!(
            l.is_empty()
                || l.starts_with("# ")
                || l.starts_with("## ")
                || l.starts_with("- [")
                || l.starts_with("> ")
                || l.starts_with("The full text"),
            "{l}"
        );
    }

    // The full text: every page with its title and source, its sections (code blocks' titles,
    // the tabs of a code group, among their text), its code in fences.
    let mut at = 0;
    for url in urls(&index) {
        let needle = format!("\n\nSource: {url}\n\n");
        let found = full[at..]
            .find(&needle)
            .unwrap_or_else(|| panic!("{url} missing or out of order"));
        at += found + needle.len();
    }
    assert!(full.starts_with("# Acme API documentation\n\nSource: /\n\n"));
    assert!(full.contains(
        "# Quickstart\n\nSource: /quickstart\n\nGet started fast. Install the SDK and make your first API call.\n\n\
         ## Install the SDK\n\nnpm\n\npip\n\n```bash\nnpm install @acme/sdk\n```\n\n```bash\npip install acme-sdk\n```\n"
    ));
    assert!(full.contains(
        "# List users\n\nSource: /api-reference/users/list-users\n\n\
         Endpoint: `GET /v1/users` (operationId `listUsers`)\n\n\
         Returns users in pages of 100, newest first.\n\n## Parameters\n\n\
         cursor (query, string): Opaque pagination cursor from the previous page.\n"
    ));
    assert!(full.contains("print(resp.headers[\"x-request-id\"])\n```"));
    assert!(full.ends_with('\n') && !full.ends_with("\n\n"));
}

#[test]
fn issue_22_llms_files_are_byte_identical_cold_warm_and_after_an_edit() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("example-site"), &site);
    let (a, b) = (tmp.path().join("www-a/out"), tmp.path().join("www-b/out"));
    build_with(
        &site,
        &a,
        &tmp.path().join("ca"),
        lexical(Visibility::Public),
    );
    build_with(
        &site,
        &b,
        &tmp.path().join("cb"),
        lexical(Visibility::Public),
    );
    let first = llms(&a);
    assert_eq!(first, llms(&b), "two cold builds differ");

    // Warm: nothing parsed, every page's text from the cache.
    let warm = build_with(
        &site,
        &a,
        &tmp.path().join("ca"),
        lexical(Visibility::Public),
    );
    assert_eq!(warm.pages_parsed, 0);
    assert_eq!(llms(&a), first, "a warm build differs from a cold one");

    // An edit: one page parsed, the others reused; the same bytes as a cold build of the edit.
    let page = site.join("guides/refresh-tokens.mdx");
    let text = std::fs::read_to_string(&page)
        .unwrap()
        .replace("one hour", "fifteen minutes");
    std::fs::write(&page, text).unwrap();
    let edited = build_with(
        &site,
        &a,
        &tmp.path().join("ca"),
        lexical(Visibility::Public),
    );
    assert_eq!(edited.pages_parsed, 1);
    assert!(edited.pages_reused > 0);
    let cold = tmp.path().join("www-cold/out");
    build_with(
        &site,
        &cold,
        &tmp.path().join("ccold"),
        lexical(Visibility::Public),
    );
    assert_eq!(llms(&a), llms(&cold), "warm edited build differs from cold");
    assert!(llms(&a).1.contains("fifteen minutes"));
    assert!(!llms(&a).1.contains("one hour"));
}

#[test]
fn issue_22_public_llms_files_hold_no_withheld_page_and_internal_ones_may() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("www/out");
    build(
        &fixture("example-site"),
        &out,
        &tmp.path().join("cache"),
        Visibility::Public,
    );
    let (index, full) = llms(&out);
    let only = llms_only(&out, tmp.path());
    let withheld: Vec<&str> = INTERNAL.iter().chain(PRIVATE).copied().collect();
    let found = canaries_in(&only, &withheld);
    assert!(found.is_empty(), "public llms files: {found:#?}");
    for gone in [
        "/internal/runbook",
        "/ops/oncall",
        "/private/secrets",
        "/hidden",
        "/unlisted",
        "Runbooks",
        "Drafts",
        "Impersonate",
        "impersonateUser",
    ] {
        assert!(
            !index.contains(gone) && !full.contains(gone),
            "public llms files name `{gone}`"
        );
    }

    // An internal build lists the internal pages (and their text), never a private one.
    let out = tmp.path().join("www-internal/out");
    build(
        &fixture("example-site"),
        &out,
        &tmp.path().join("cache-internal"),
        Visibility::Internal,
    );
    let (index, full) = llms(&out);
    assert!(index.contains("](/internal/runbook)"), "{index}");
    assert!(index.contains("## Guides > Runbooks CANARY-INTERNAL-NAV-4b1f\n"));
    assert!(full.contains("CANARY-INTERNAL-7f3a"));
    let internal_only = llms_only(&out, &tmp.path().join("internal"));
    let found = canaries_in(&internal_only, PRIVATE);
    assert!(found.is_empty(), "internal llms files: {found:#?}");
}

/// A page withdrawn since the last build leaves neither `llms.txt` nor `llms-full.txt` (the warm
/// build's files come from the cache, which no longer holds it); `--no-llms-txt` removes the files
/// an earlier build wrote, and leaves the index alone.
#[test]
fn issue_22_withdrawn_pages_and_no_llms_txt_leave_no_stale_text() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    let write = |rel: &str, text: &str| std::fs::write(site.join(rel), text).unwrap();
    write(
        "docs.json",
        r#"{"name": "Flip", "navigation": {"groups": [{"group": "All", "pages": ["a", "b"]}]}}"#,
    );
    write("a.mdx", "# A\n\nThe stayllmsqz page stays public.\n");
    write("b.mdx", "# B\n\nThe flipllmsqz page is public for now.\n");
    let (out, cache) = (tmp.path().join("www/out"), tmp.path().join("cache"));
    build_with(&site, &out, &cache, lexical(Visibility::Public));
    let (index, full) = llms(&out);
    assert!(
        index.contains("- [B](/b): The flipllmsqz page is public for now.\n"),
        "{index}"
    );
    assert!(full.contains("flipllmsqz"));

    write(
        "b.mdx",
        "---\nvisibility: internal\n---\n# B\n\nThe flipllmsqz page is internal now.\n",
    );
    let s = build_with(&site, &out, &cache, lexical(Visibility::Public));
    assert_eq!(s.pages_parsed, 0, "a reused page stays reused");
    let (index, full) = llms(&out);
    assert!(
        !index.contains("/b)") && !full.contains("flipllmsqz"),
        "{index}\n{full}"
    );
    assert!(full.contains("stayllmsqz"));

    let manifest = std::fs::read(out.join("manifest.bin")).unwrap();
    build_with(&site, &out, &cache, |o| {
        lexical(Visibility::Public)(o);
        o.llms_txt = false;
    });
    assert!(!out.join(INDEX_FILE).exists() && !out.join(FULL_FILE).exists());
    assert_eq!(std::fs::read(out.join("manifest.bin")).unwrap(), manifest);
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("llms")), "{names:?}");
}

/// A site in several languages: one pair for all its pages, a section per group and language.
#[test]
fn issue_22_a_multilingual_site_lists_every_language() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("www/out");
    let s = build_with(
        &fixture("multilingual-site"),
        &out,
        &tmp.path().join("cache"),
        lexical(Visibility::Public),
    );
    let (index, full) = llms(&out);
    let headings: Vec<&str> = index.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        [
            "## Get started (en)",
            "## Premiers pas (fr)",
            "## 入门 (zh)"
        ]
    );
    assert_eq!(urls(&index).len(), s.pages);
    assert!(urls(&index).contains(&"/fr/custom-domain"));
    assert_eq!(full.matches("\n\nSource: ").count(), s.pages);
}
