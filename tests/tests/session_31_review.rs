//! Session 31: a `mint.json` site is built as Mintlify builds it, from its upgrade to `docs.json`'s
//! shape (`upgradeToDocsConfig`): divisions take the pages under their URL, a tab's `openapi`
//! generates its operations' pages under the tab, `isDefaultHidden` hides a tab, and pages the
//! upgrade leaves out of the navigation are not listed. Canaries (their last eight letters
//! distinct) are scanned for in every byte of the output, beside public controls.

use aidocs_e2e::{assert_shown, build_lexical, canaries_in, indexed_urls, write_file};

const SPEC: &str = r#"{"openapi": "3.0.0", "info": {"title": "T", "version": "1"},
  "paths": {"/widgets": {"get": {"summary": "List widgets", "operationId": "listWidgets",
    "description": "Widgetopsqa lists every widget."}}}}"#;

#[test]
fn session_31_mint_json_is_read_as_its_upgrade_to_docs_json() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    let config = serde_json::json!({
        "name": "Legacy",
        "navigation": [
            {"group": "Start", "pages": ["intro", "/api/overview", "api/v2/users", "internal/ops"]}
        ],
        "tabs": [
            {"name": "API", "url": "api", "openapi": "/spec.json"},
            {"name": "Internal", "url": "internal", "isDefaultHidden": true}
        ],
        // An anchor covering the whole site and one nested in the API tab: the tab then holds
        // only the nested anchor's pages, and `api/overview` is in no navigation.
        "anchors": [{"name": "All", "url": "/"}, {"name": "V2", "url": "api/v2"}]
    });
    write_file(&root, "mint.json", &config.to_string());
    write_file(&root, "spec.json", SPEC);
    write_file(&root, "intro.mdx", "# Intro\n\nintroshownword.\n");
    write_file(
        &root,
        "api/overview.mdx",
        "# Overview\n\nleakdroppedqb words.\n",
    );
    write_file(&root, "api/v2/users.mdx", "# Users\n\nusersshownword.\n");
    write_file(
        &root,
        "internal/ops.mdx",
        "# Ops\n\nleakhiddentabqc words.\n",
    );
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert!(canaries_in(&out, &["leakdroppedqb", "leakhiddentabqc"]).is_empty());
    assert_shown(&out, &["introshownword", "usersshownword", "widgetopsqa"]);
    assert_eq!(
        indexed_urls(&out),
        ["/api/list-widgets", "/api/v2/users", "/intro"]
    );
}

/// `public` in `mint.json`'s navigation is dropped by the upgrade: it opens no page, but it says
/// the site is behind authentication, so nothing is indexed as public on its word.
#[test]
fn session_31_mint_json_public_withholds_and_opens_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    let config = serde_json::json!({
        "name": "Legacy",
        "navigation": [
            {"group": "Open", "public": true, "pages": ["a"]},
            {"group": "Closed", "pages": ["b", "c"]}
        ]
    });
    write_file(&root, "mint.json", &config.to_string());
    write_file(&root, "a.mdx", "# A\n\nleakpublicgroupqd words.\n");
    write_file(&root, "b.mdx", "# B\n\nleakclosedgroupqe words.\n");
    write_file(
        &root,
        "c.mdx",
        "---\npublic: true\n---\n\n# C\n\npageopenshownword.\n",
    );
    let out = tmp.path().join("www/out");
    let summary = build_lexical(&root, &out, &tmp.path().join("cache"));
    assert!(canaries_in(&out, &["leakpublicgroupqd", "leakclosedgroupqe"]).is_empty());
    assert!(summary
        .warnings
        .iter()
        .any(|w| w.message.contains("`public` in mint.json")));
    // A page's own `public: true` still opens it.
    assert_shown(&out, &["pageopenshownword"]);
    assert_eq!(indexed_urls(&out), ["/c"]);
}

mod fixed_seed;

/// Hostile `mint.json` shapes (divisions, versions and groups of any JSON, URLs that nest or
/// repeat) never panic the upgrade, and what it writes is bounded by what it was given: a page can
/// be copied into each division and version, never multiplied by nesting.
#[test]
fn session_31_mint_upgrade_never_panics_and_stays_bounded() {
    use proptest::prelude::*;
    use serde_json::Value;
    let leaf = prop_oneof![
        prop::sample::select(vec![
            "a",
            "a/b",
            "/a",
            "a/",
            "",
            "..",
            "../a",
            "GET /x",
            "v1",
            "v2",
            "https://x.dev",
            "mailto:x",
            "/",
            "spec.json",
        ])
        .prop_map(|s| Value::String(s.to_owned())),
        any::<bool>().prop_map(Value::Bool),
        (-2i64..3).prop_map(|n| Value::Number(n.into())),
        Just(Value::Null),
    ];
    let keys = prop::sample::select(vec![
        "group",
        "pages",
        "version",
        "name",
        "url",
        "openapi",
        "isDefaultHidden",
        "icon",
        "iconType",
        "color",
        "from",
        "locale",
        "default",
        "public",
        "hidden",
    ]);
    let value = leaf.prop_recursive(5, 96, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..5).prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    });
    let config = (
        value.clone(),
        value.clone(),
        value.clone(),
        value.clone(),
        value,
    )
        .prop_map(|(navigation, tabs, anchors, versions, top)| {
            // One group as mint.json writes them, beside whatever was generated.
            let pages = match &navigation {
                Value::Array(items) => items.clone(),
                other => vec![other.clone()],
            };
            let navigation = serde_json::json!([{"group": "G", "pages": pages}, navigation]);
            serde_json::json!({"navigation": navigation, "tabs": tabs, "anchors": anchors,
                "versions": versions, "primaryTab": top.clone(), "topAnchor": top})
        });
    let (mut runner, cases, seed) = fixed_seed::runner(3000, 31);
    let pages = std::cell::Cell::new(0usize);
    let result = runner.run(&config, |config| {
        let Ok(upgraded) = aidocs_index::mint_upgrade::upgrade_navigation(&config) else {
            return Ok(());
        };
        aidocs_index::mint_upgrade::dropped_declarations(&config);
        let (input, output) = (config.to_string().len(), upgraded.to_string().len());
        prop_assert!(output <= 64 * input + 256, "{output} bytes from {input}");
        pages.set(pages.get() + upgraded.to_string().matches("\"a/").count());
        Ok(())
    });
    eprintln!("session 31 property: {cases} generated mint.json configurations, seed {seed}");
    if let Err(e) = result {
        panic!("{e}");
    }
    // Not vacuous: pages are placed.
    assert!(pages.get() > cases as usize / 10, "{} pages", pages.get());
}
