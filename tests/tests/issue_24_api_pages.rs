//! Issue 24: operations bound and paged as Mintlify binds and pages them. A page names its spec by
//! path, file name or file name without extension; an operation gets a page of its own only where
//! the navigation makes Mintlify generate one, at the URL Mintlify gives it; visible component
//! attributes are indexed.

use std::path::Path;

use aidocs_e2e::build_with;
use aidocs_reader::LocalIndex;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn spec(title: &str, ops: &[(&str, &str, &str, &str, &str)]) -> String {
    let mut paths = serde_json::Map::new();
    for (method, path, id, summary, tag) in ops {
        let entry = paths
            .entry(path.to_string())
            .or_insert_with(|| serde_json::json!({}));
        let mut op =
            serde_json::json!({"operationId": id, "description": format!("{id} does things")});
        if !summary.is_empty() {
            op["summary"] = serde_json::json!(summary);
        }
        if !tag.is_empty() {
            op["tags"] = serde_json::json!([tag]);
        }
        entry[method.to_lowercase()] = op;
    }
    serde_json::json!({"openapi": "3.0.0", "info": {"title": title}, "paths": paths}).to_string()
}

/// (id, url) of every page of the index.
fn pages(out: &Path) -> Vec<(String, String)> {
    let index = LocalIndex::open(out).unwrap();
    let opts = aidocs_core::SearchOptions {
        typos: false,
        k: 100,
        ..Default::default()
    };
    let mut seen = std::collections::BTreeMap::new();
    for q in ["does things", "reference", "retry jobs", "dry run"] {
        for r in index.search(q, &opts).unwrap() {
            seen.insert(r.id, r.url);
        }
    }
    seen.into_iter().collect()
}

#[test]
fn issue_24_operations_bound_and_paged_as_mintlify_does() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write(
        &site,
        "spec.yml",
        &yaml_text(&spec(
            "V1",
            &[("GET", "/v1/jobs", "listJobs", "List jobs", "Jobs")],
        )),
    );
    write(
        &site,
        "v2-spec.yaml",
        &yaml_text(&spec(
            "V2",
            &[
                (
                    "POST",
                    "/v1/jobs/{id}/retry",
                    "retryJob",
                    "Retry a job",
                    "Jobs",
                ),
                ("GET", "/v1/jobs/{id}", "getJob", "Get a job", "Jobs"),
            ],
        )),
    );
    write(
        &site,
        "generated.json",
        &spec(
            "Gen",
            &[
                ("GET", "/users/{id}/posts", "userPosts", "", "User Posts"),
                (
                    "DELETE",
                    "/users/{id}",
                    "deleteUser",
                    "Delete a user (soft)",
                    "",
                ),
            ],
        ),
    );
    write(
        &site,
        "docs.json",
        r#"{"name": "Jobs", "api": {"openapi": ["spec.yml", "v2-spec.yaml"]},
           "navigation": {"groups": [
             {"group": "Guides", "pages": ["index", "cli"]},
             {"group": "API", "pages": ["api-reference/retry"]},
             {"group": "Listed", "openapi": {"source": "v2-spec.yaml", "directory": "Reference"}, "pages": ["GET /v1/jobs/{id}"]},
             {"group": "Generated", "openapi": "generated.json"}
           ]}}"#,
    );
    write(&site, "index.mdx", "# Home\n\nWelcome to the reference.\n");
    write(
        &site,
        "api-reference/retry.mdx",
        "---\nopenapi: \"v2-spec POST /v1/jobs/{id}/retry\"\n---\n\nRetry jobs that failed.\n",
    );
    write(
        &site,
        "cli.mdx",
        "# CLI\n\n<ParamField body=\"Dry run\" type=\"--dry-run\">\nPrint what would change.\n</ParamField>\n",
    );
    let out = tmp.path().join("www/_search");
    let s = build_with(&site, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    let warnings: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert!(
        !warnings
            .iter()
            .any(|w| w.contains("cannot be read") || w.contains("names the spec")),
        "a loaded spec named by its stem is bound, not reported missing: {warnings:#?}"
    );
    let pages = pages(&out);
    let urls: Vec<&str> = pages.iter().map(|(_, u)| u.as_str()).collect();
    // The bound page carries its operation.
    let index = LocalIndex::open(&out).unwrap();
    let hits = index
        .search("retryJob", &aidocs_core::SearchOptions::default())
        .unwrap();
    assert_eq!(hits[0].url, "/api-reference/retry", "{hits:#?}");
    // Generated where the navigation asks, at Mintlify's URLs; nothing else.
    for want in [
        "/reference/jobs/get-a-job",
        "/api-reference/user-posts/get-users-posts",
        "/api-reference/delete-a-user-soft",
    ] {
        assert!(urls.contains(&want), "{want} missing from {urls:#?}");
    }
    // `GET /v1/jobs` is in a spec only `api.openapi` lists: no page of its own (Mintlify makes none).
    assert!(
        !urls
            .iter()
            .any(|u| u.contains("list-jobs") || u.contains("listjobs")),
        "{urls:#?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("spec.yml") && w.contains("no page of their own")),
        "{warnings:#?}"
    );
    // A visible attribute of a component is searchable with its section.
    let hits = index
        .search("--dry-run", &aidocs_core::SearchOptions::default())
        .unwrap();
    assert_eq!(
        hits.first().map(|h| h.url.as_str()),
        Some("/cli"),
        "{hits:#?}"
    );
}

/// JSON is valid YAML: the YAML specs here are JSON text under a .yml/.yaml name.
fn yaml_text(json: &str) -> String {
    json.to_owned()
}

/// Generated pages numbered and kept as Mintlify's `processOpenApiPath` and
/// `generateUniqueFilenameWithoutExtension` number them: within a spec's tag group (`a`, `a`,
/// `a-1` give `a`, `a-1`, `a-1-1`), never across groups or specs, and never for an operation the
/// navigation lists (generated alone). Two pages at one URL: the one generated last is the page,
/// the other is not indexed. `openapi: [a, b]` generates from `a` alone.
#[test]
fn session_28_generated_pages_numbered_and_kept_as_mintlify_does() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write(
        &site,
        "one.json",
        &spec(
            "One",
            &[
                ("GET", "/a", "first", "Item", "Things"),
                ("GET", "/b", "second", "Item", "Things"),
                ("GET", "/c", "third", "Item 1", "Things"),
                ("GET", "/d", "other", "Item", "Others"),
            ],
        ),
    );
    write(
        &site,
        "two.json",
        &spec("Two", &[("GET", "/two", "twoItem", "Item", "Things")]),
    );
    write(
        &site,
        "listed.json",
        &spec(
            "Listed",
            &[
                ("GET", "/l1", "listedFirst", "Same", "L"),
                ("GET", "/l2", "listedSecond", "Same", "L"),
            ],
        ),
    );
    write(
        &site,
        "array.json",
        &spec("Array", &[("GET", "/arr", "fromArray", "Arr", "")]),
    );
    write(
        &site,
        "later.json",
        &spec("Later", &[("GET", "/later", "fromLater", "Later op", "")]),
    );
    write(
        &site,
        "docs.json",
        r#"{"name": "Numbers", "navigation": {"groups": [
             {"group": "Home", "pages": ["index"]},
             {"group": "One", "openapi": "one.json"},
             {"group": "Two", "openapi": "two.json"},
             {"group": "Listed", "openapi": "listed.json", "pages": ["GET /l1", "GET /l2"]},
             {"group": "Arr", "openapi": [{"source": "array.json", "directory": "arr-dir"}, "later.json"]}
           ]}}"#,
    );
    write(&site, "index.mdx", "# Home\n\nWelcome to the reference.\n");
    let out = tmp.path().join("www/_search");
    let s = build_with(&site, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    let pages = pages(&out);
    let url_of = |id: &str| {
        (pages.iter())
            .find(|(i, _)| i == &format!("api/{id}"))
            .map(|(_, u)| u.clone())
    };
    assert_eq!(
        url_of("second").as_deref(),
        Some("/api-reference/things/item-1")
    );
    assert_eq!(
        url_of("third").as_deref(),
        Some("/api-reference/things/item-1-1")
    );
    assert_eq!(
        url_of("other").as_deref(),
        Some("/api-reference/others/item")
    );
    // Another spec's group numbers on its own: `GET /a`'s URL, written later, so its page.
    assert_eq!(
        url_of("twoItem").as_deref(),
        Some("/api-reference/things/item")
    );
    assert_eq!(url_of("first"), None, "{pages:#?}");
    let warnings: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    // The first spec's `GET /a` is on no page: not indexed, and said.
    let index = LocalIndex::open(&out).unwrap();
    let hits = index
        .search("first does things", &aidocs_core::SearchOptions::default())
        .unwrap();
    assert!(hits.iter().all(|h| !h.id.ends_with("/first")), "{hits:#?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("GET /a") && w.contains("/api-reference/things/item")),
        "{warnings:#?}"
    );
    // Listed operations are generated alone: the same URL, the later listing's page.
    assert_eq!(
        url_of("listedSecond").as_deref(),
        Some("/api-reference/l/same")
    );
    assert_eq!(url_of("listedFirst"), None, "{pages:#?}");
    // The first entry of an `openapi` list generates, under its directory; the rest do not.
    assert_eq!(url_of("fromArray").as_deref(), Some("/arr-dir/arr"));
    assert_eq!(url_of("fromLater"), None, "{pages:#?}");
}

/// Review of the above: a spec's bulk pages take their names with every operation of the spec
/// (one the navigation lists elsewhere, which has both pages, one an MDX page binds); an element's bulk pages are
/// written before those of an element inside it; an operation listed without naming its spec
/// keeps its owner from generating the rest, never an element above it nor the navigation's root;
/// a webhook without a summary is named by its name; directories and `x-mint.href` are joined as
/// `posix.join` joins them.
#[test]
fn session_28_review_bulk_names_order_and_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    // Listed in one element, generated in bulk by another: `/a` takes `t/item` in the bulk group.
    write(
        &site,
        "s.json",
        &spec(
            "S",
            &[
                ("GET", "/a", "listedA", "Item", "T"),
                ("GET", "/b", "bulkB", "Item", "T"),
            ],
        ),
    );
    // Bound by an MDX page, generated in bulk all the same.
    write(
        &site,
        "bound.json",
        &spec(
            "B",
            &[
                ("GET", "/ba", "boundA", "Thing", "Things"),
                ("GET", "/bb", "bulkBB", "Thing", "Things"),
            ],
        ),
    );
    write(
        &site,
        "custom.mdx",
        "---\ntitle: Custom\nopenapi: bound.json GET /ba\n---\n\nCustom page does things.\n",
    );
    // Parent and child element generating the same URL: the child's is written last.
    write(
        &site,
        "parent.json",
        &spec("P", &[("GET", "/p", "parentOp", "Get X", "")]),
    );
    write(
        &site,
        "child.json",
        &spec("C", &[("GET", "/c", "childOp", "Get X", "")]),
    );
    // A child that lists an operation of its own spec: its parent still generates.
    write(
        &site,
        "outer.json",
        &spec("O", &[("GET", "/o", "outerOp", "Outer op", "")]),
    );
    write(
        &site,
        "inner.json",
        &spec(
            "I",
            &[
                ("GET", "/i1", "innerListed", "Inner listed", ""),
                ("GET", "/i2", "innerRest", "Inner rest", ""),
            ],
        ),
    );
    // Webhooks, directories and hrefs.
    write(
        &site,
        "hooks.json",
        r#"{"openapi": "3.1.0", "info": {"title": "H"}, "paths": {
            "/h": {"get": {"operationId": "hrefOp", "description": "hrefOp does things", "x-mint": {"href": "//Elsewhere/Page.v2/"}}}
        }, "webhooks": {"newPet": {"post": {"operationId": "newPet", "description": "newPet does things", "tags": ["Pets"]}}}}"#,
    );
    write(
        &site,
        "rootdir.json",
        &spec("R", &[("GET", "/r", "rootDirOp", "Root dir", "Tg")]),
    );
    write(
        &site,
        "docs.json",
        r#"{"name": "Review", "navigation": {"groups": [
             {"group": "Home", "pages": ["index", "custom"]},
             {"group": "G1", "openapi": {"source": "s.json", "directory": "listed"}, "pages": ["GET /a"]},
             {"group": "G2", "openapi": "s.json"},
             {"group": "Bound", "openapi": "bound.json"},
             {"group": "Parent", "openapi": {"source": "parent.json", "directory": "api"}, "pages": [
                {"group": "Child", "openapi": {"source": "child.json", "directory": "api"}}
             ]},
             {"group": "Outer", "openapi": "outer.json", "pages": [
                {"group": "Inner", "openapi": "inner.json", "pages": ["GET /i1"]}
             ]},
             {"group": "Hooks", "openapi": {"source": "hooks.json", "directory": "V1//Sub/"}},
             {"group": "RootDir", "openapi": {"source": "rootdir.json", "directory": ""}}
           ]}}"#,
    );
    write(&site, "index.mdx", "# Home\n\nWelcome to the reference.\n");
    let out = tmp.path().join("www/_search");
    build_with(&site, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    let pages = pages(&out);
    let url_of = |id: &str| {
        (pages.iter())
            .find(|(i, _)| i == &format!("api/{id}"))
            .map(|(_, u)| u.clone())
    };
    // Listed under G1 and generated in bulk by G2: a page for each (session 32; the pages of an
    // operation are numbered by URL).
    assert_eq!(url_of("listedA").as_deref(), Some("/api-reference/t/item"));
    assert_eq!(url_of("listedA-2").as_deref(), Some("/listed/t/item"));
    assert_eq!(url_of("bulkB").as_deref(), Some("/api-reference/t/item-1"));
    assert_eq!(
        url_of("bulkBB").as_deref(),
        Some("/api-reference/things/thing-1")
    );
    assert_eq!(url_of("childOp").as_deref(), Some("/api/get-x"));
    assert_eq!(url_of("parentOp"), None, "{pages:#?}");
    assert_eq!(
        url_of("outerOp").as_deref(),
        Some("/api-reference/outer-op")
    );
    assert_eq!(
        url_of("innerListed").as_deref(),
        Some("/api-reference/inner-listed")
    );
    assert_eq!(url_of("innerRest"), None, "{pages:#?}");
    assert_eq!(url_of("hrefOp").as_deref(), Some("/elsewhere/page"));
    assert_eq!(url_of("newPet").as_deref(), Some("/v1/sub/pets/newpet"));
    assert_eq!(url_of("rootDirOp").as_deref(), Some("/tg/root-dir"));
}

/// A spec's operations are numbered in the order its file writes them (JavaScript's object order,
/// as Mintlify reads the spec), not in sorted path order: `/z` written first is `same`, `/a` after
/// it `same-1`. JSON and YAML alike.
#[test]
fn session_28_operations_numbered_in_the_files_order() {
    for (name, text) in [
        (
            "z.json",
            r#"{"openapi": "3.0.0", "info": {"title": "Z"}, "paths": {
                "/z": {"get": {"operationId": "zOp", "summary": "Same", "tags": ["T"], "description": "zOp does things"}},
                "/a": {"get": {"operationId": "aOp", "summary": "Same", "tags": ["T"], "description": "aOp does things"}}
            }}"#,
        ),
        (
            "z.yaml",
            "openapi: 3.0.0\ninfo: {title: Z}\npaths:\n  /z:\n    get: {operationId: zOp, summary: Same, tags: [T], description: zOp does things}\n  /a:\n    get: {operationId: aOp, summary: Same, tags: [T], description: aOp does things}\n",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let site = tmp.path().join("site");
        write(&site, name, text);
        write(
            &site,
            "docs.json",
            &format!(r#"{{"name": "Order", "navigation": {{"groups": [{{"group": "Home", "pages": ["index"]}}, {{"group": "API", "openapi": "{name}"}}]}}}}"#),
        );
        write(&site, "index.mdx", "# Home\n\nWelcome to the reference.\n");
        let out = tmp.path().join("www/_search");
        build_with(&site, &out, &tmp.path().join("cache"), |o| {
            o.embeddings = aidocs_index::build::Embeddings::Off;
        });
        let pages = pages(&out);
        let url_of = |id: &str| {
            (pages.iter())
                .find(|(i, _)| i == &format!("api/{id}"))
                .map(|(_, u)| u.clone())
        };
        assert_eq!(url_of("zOp").as_deref(), Some("/api-reference/t/same"), "{name}");
        assert_eq!(url_of("aOp").as_deref(), Some("/api-reference/t/same-1"), "{name}");
    }
}

/// A spec two navigation elements name has the pages of each (Mintlify generates them once per
/// element, under its directory): a visible tab's pages stay indexed when a hidden tab names the
/// same spec under another directory; an operation listed under two directories has two pages; two
/// elements of one directory make one page per operation, hidden when either element is (the most
/// restrictive wins).
#[test]
fn session_32_a_spec_named_by_two_navigation_elements() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    let ops = [
        ("GET", "/users", "listUsers", "List users", "Users"),
        ("POST", "/users", "createUser", "Create user", "Users"),
    ];
    write(&site, "spec.json", &spec("Spec", &ops));
    write(
        &site,
        "same.json",
        &spec(
            "Same",
            &[("GET", "/jobs", "retryJobs", "Retry jobs", "Jobs")],
        ),
    );
    write(
        &site,
        "listed.json",
        &spec("Listed", &[("GET", "/runs", "dryRun", "Dry run", "Runs")]),
    );
    let navigation = r#""navigation": {"tabs": [
             {"tab": "Guides", "groups": [{"group": "Home", "pages": ["index"]}]},
             {"tab": "V2", "openapi": {"source": "spec.json", "directory": "v2"}},
             {"tab": "Internal", "hidden": true, "openapi": {"source": "spec.json", "directory": "internal"}},
             {"tab": "Jobs", "openapi": {"source": "same.json", "directory": "jobs"}},
             {"tab": "Jobs (old)", "hidden": true, "openapi": {"source": "same.json", "directory": "jobs"}},
             {"tab": "Runs", "groups": [
               {"group": "A", "openapi": {"source": "listed.json", "directory": "a"}, "pages": ["GET /runs"]},
               {"group": "B", "openapi": {"source": "listed.json", "directory": "b"}, "pages": ["GET /runs"]}
             ]}
           ]}"#;
    write(
        &site,
        "docs.json",
        &format!(r#"{{"name": "Two", {navigation}}}"#),
    );
    write(&site, "index.mdx", "# Home\n\nWelcome to the reference.\n");
    let out = tmp.path().join("www/_search");
    build_with(&site, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    let urls: std::collections::BTreeSet<String> =
        pages(&out).into_iter().map(|(_, url)| url).collect();
    let expected = [
        "/",
        "/a/runs/dry-run",
        "/b/runs/dry-run",
        "/v2/users/create-user",
        "/v2/users/list-users",
    ];
    assert_eq!(
        urls,
        expected.iter().map(|u| u.to_string()).collect(),
        "the visible tab's pages, both listings' pages; nothing of the hidden tabs"
    );
    // With hidden pages indexed (`seo.indexing: "all"`), the hidden tabs' pages are there, at
    // their own URLs.
    write(
        &site,
        "docs.json",
        &format!(r#"{{"name": "Two", "seo": {{"indexing": "all"}}, {navigation}}}"#),
    );
    let out = tmp.path().join("www2/_search");
    build_with(&site, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    let urls: std::collections::BTreeSet<String> =
        pages(&out).into_iter().map(|(_, url)| url).collect();
    for url in [
        "/internal/users/list-users",
        "/jobs/jobs/retry-jobs",
        "/v2/users/list-users",
    ] {
        assert!(urls.contains(url), "{url} in {urls:#?}");
    }
}

/// The review of the above against Mintlify's own page generation (`generateOpenApiFromDocsConfig`
/// run on these sites): whether a URL is hidden from search is decided over every listing of it,
/// whichever operation's page is written there; an `x-hidden` operation the navigation lists is a
/// page like any other; bulk pages are numbered in their tag's navigation group by its label
/// (`x-group`; "API Reference" without a tag); an operation listed twice is written at its last
/// listing; an operation an MDX page binds still has its bulk page; `x-mint.metadata.hidden: false`
/// puts a page back in search; `x-hidden` and `x-excluded` are read as JavaScript reads them; a
/// navigation page written as a generated page's path lists it.
#[test]
fn session_32_review_generated_pages_as_mintlify_writes_them() {
    let build = |docs: &str, spec: &str, extra: &[(&str, &str)]| {
        let tmp = tempfile::tempdir().unwrap();
        let site = tmp.path().join("site");
        write(&site, "docs.json", docs);
        write(&site, "spec.json", spec);
        write(&site, "index.mdx", "# Home\n\nWelcome to the reference.\n");
        for (rel, text) in extra {
            write(&site, rel, text);
        }
        let out = tmp.path().join("www/_search");
        build_with(&site, &out, &tmp.path().join("cache"), |o| {
            o.embeddings = aidocs_index::build::Embeddings::Off;
        });
        // An operation's second page has its id numbered (`api/opB-2`): the operation is the id.
        let operation = |id: String| match id.rsplit_once('-') {
            Some((op, n)) if n.bytes().all(|b| b.is_ascii_digit()) => op.to_owned(),
            _ => id,
        };
        let mut by_url: Vec<(String, String)> = (pages(&out).into_iter())
            .map(|(id, url)| (url, operation(id)))
            .collect();
        by_url.sort();
        by_url.retain(|(url, _)| url != "/");
        by_url
    };
    let op = |id: &str, summary: &str, extra: &str| {
        format!(
            r#"{{"operationId": "{id}", "summary": "{summary}", "description": "{id} does things"{extra}}}"#
        )
    };
    let two = |extra_a: &str, extra_b: &str| {
        format!(
            r#"{{"openapi": "3.0.3", "info": {{"title": "t"}}, "tags": [{{"name": "Users", "x-group": "People"}}, {{"name": "users", "x-group": "People"}}], "paths": {{"/a": {{"get": {}}}, "/b": {{"get": {}}}}}}}"#,
            op("opA", "Same", extra_a),
            op("opB", "Same", extra_b)
        )
    };
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(u, i)| (u.to_string(), format!("api/{i}")))
            .collect()
    };
    // D1: the hidden tab lists GET /b at `same`, where the visible bulk writes GET /a: hidden.
    let d1 = build(
        r#"{"name": "t", "navigation": {"tabs": [{"tab": "Home", "pages": ["index"]}, {"tab": "API", "openapi": "spec.json"}, {"tab": "Internal", "hidden": true, "groups": [{"group": "I", "openapi": "spec.json", "pages": ["GET /b"]}]}]}}"#,
        &two("", ""),
        &[],
    );
    assert_eq!(d1, pairs(&[("/api-reference/same-1", "opB")]));
    // D2: a listed `x-hidden` operation is a page in search.
    let d2 = build(
        r#"{"name": "t", "navigation": {"groups": [{"group": "Home", "pages": ["index"]}, {"group": "API", "openapi": "spec.json", "pages": ["GET /a"]}]}}"#,
        &two(r#", "x-hidden": true"#, ""),
        &[],
    );
    assert_eq!(d2, pairs(&[("/api-reference/same", "opA")]));
    // D3: tags `Users` and `users` share the label `People`: one group, numbered together (the
    // folder is the tag's name).
    let d3 = build(
        r#"{"name": "t", "navigation": {"groups": [{"group": "Home", "pages": ["index"]}, {"group": "API", "openapi": "spec.json"}]}}"#,
        &two(r#", "tags": ["Users"]"#, r#", "tags": ["users"]"#),
        &[],
    );
    assert_eq!(
        d3,
        pairs(&[
            ("/api-reference/users/same", "opA"),
            ("/api-reference/users/same-1", "opB")
        ])
    );
    // D4: GET /a listed again after GET /b is the page at `same`.
    let d4 = build(
        r#"{"name": "t", "navigation": {"groups": [{"group": "Home", "pages": ["index"]}, {"group": "API", "openapi": "spec.json", "pages": ["GET /a", "GET /b", "GET /a"]}]}}"#,
        &two("", ""),
        &[],
    );
    assert_eq!(d4, pairs(&[("/api-reference/same", "opA")]));
    // Second review. N1: `x-mint.metadata.hidden: false` is the page's own `hidden: false`: in
    // search under a hidden group.
    let n1 = build(
        r#"{"name": "t", "navigation": {"groups": [{"group": "Home", "pages": ["index"]}, {"group": "Hidden", "hidden": true, "pages": ["spec.json GET /a"]}]}}"#,
        &two(r#", "x-mint": {"metadata": {"hidden": false}}"#, ""),
        &[],
    );
    assert_eq!(n1, pairs(&[("/api-reference/same", "opA")]));
    // N2: `x-hidden: ""` and `x-excluded: null` are false, as JavaScript reads them.
    let n2 = build(
        r#"{"name": "t", "navigation": {"groups": [{"group": "Home", "pages": ["index"]}, {"group": "API", "openapi": "spec.json"}]}}"#,
        &two(r#", "x-hidden": """#, r#", "x-excluded": null"#),
        &[],
    );
    assert_eq!(
        n2,
        pairs(&[
            ("/api-reference/same", "opA"),
            ("/api-reference/same-1", "opB")
        ])
    );
    // N3: an operation without a tag is in the group "API Reference", with a tag of that name.
    let n3 = build(
        r#"{"name": "t", "navigation": {"groups": [{"group": "Home", "pages": ["index"]}, {"group": "API", "openapi": "spec.json"}]}}"#,
        &two(
            r#", "x-mint": {"href": "/custom/x"}"#,
            r#", "tags": ["API Reference"], "x-mint": {"href": "/custom/x"}"#,
        ),
        &[],
    );
    assert_eq!(n3, pairs(&[("/custom/x", "opA"), ("/custom/x-1", "opB")]));
    // N4: a navigation page written as a generated page's path lists that page there: `beta` in
    // a hidden group is hidden, the `x-hidden` operation's `alpha` listed in a visible one is in
    // search.
    let n4 = build(
        r#"{"name": "t", "navigation": {"groups": [{"group": "Home", "pages": ["index", "api-reference/alpha"]}, {"group": "Old", "hidden": true, "pages": ["api-reference/beta"]}, {"group": "API", "openapi": "spec.json"}]}}"#,
        &format!(
            r#"{{"openapi": "3.0.3", "info": {{"title": "t"}}, "paths": {{"/a": {{"get": {}}}, "/b": {{"get": {}}}}}}}"#,
            op("opA", "Alpha", r#", "x-hidden": true"#),
            op("opB", "Beta", "")
        ),
        &[],
    );
    assert_eq!(n4, pairs(&[("/api-reference/alpha", "opA")]));
    // D6: GET /a bound by an MDX page keeps its bulk page.
    let e3 = build(
        r#"{"name": "t", "navigation": {"groups": [{"group": "Home", "pages": ["index", "custom"]}, {"group": "API", "openapi": "spec.json"}]}}"#,
        &format!(
            r#"{{"openapi": "3.0.3", "info": {{"title": "t"}}, "paths": {{"/a": {{"get": {}}}, "/b": {{"get": {}}}}}}}"#,
            op("opA", "Alpha", ""),
            op("opB", "Beta", "")
        ),
        &[(
            "custom.mdx",
            "---\ntitle: Custom\nopenapi: GET /a\n---\n\nCustom page does things.\n",
        )],
    );
    assert_eq!(
        e3,
        vec![
            ("/api-reference/alpha".to_string(), "api/opA".to_string()),
            ("/api-reference/beta".to_string(), "api/opB".to_string()),
            ("/custom".to_string(), "custom".to_string()),
        ]
    );
}

/// Two operations' pages at one URL, generated by sibling navigation elements: Mintlify generates
/// those concurrently (`Promise.all`), so which page the URL shows is not a fact to rely on (its
/// differential run, seed 9, c914: we indexed the URL where Mintlify wrote a hidden operation's
/// page). Such a URL is kept from search when any operation written there would be. An element's
/// pages are written before those of the elements inside it, and listings before bulk pages: there
/// the order is known, and the page written last decides.
#[test]
fn session_33_operations_colliding_at_a_url_most_restrictive_wins() {
    let build = |navigation: &str, extra_a: &str| {
        let tmp = tempfile::tempdir().unwrap();
        let site = tmp.path().join("site");
        write(
            &site,
            "docs.json",
            &format!(r#"{{"name": "t", "navigation": {navigation}}}"#),
        );
        let spec = |id: &str, extra: &str| {
            format!(
                r#"{{"openapi": "3.0.3", "info": {{"title": "t"}}, "paths": {{"/{id}": {{"get": {{"operationId": "{id}", "summary": "Same", "description": "{id} does things"{extra}}}}}}}}}"#
            )
        };
        write(&site, "a.json", &spec("opA", extra_a));
        write(&site, "b.json", &spec("opB", ""));
        write(&site, "index.mdx", "# Home\n\nWelcome to the reference.\n");
        let out = tmp.path().join("www/_search");
        build_with(&site, &out, &tmp.path().join("cache"), |o| {
            o.embeddings = aidocs_index::build::Embeddings::Off;
        });
        let mut by_url: Vec<(String, String)> = (pages(&out).into_iter())
            .map(|(id, url)| (url, id))
            .filter(|(url, _)| url != "/")
            .collect();
        by_url.sort();
        by_url
    };
    let same = |id: &str| vec![("/api-reference/same".to_string(), format!("api/{id}"))];
    let siblings = r#"{"tabs": [{"tab": "Home", "pages": ["index"]}, {"tab": "A", "openapi": "a.json"}, {"tab": "B", "openapi": "b.json"}]}"#;
    let nested = r#"{"tabs": [{"tab": "Home", "pages": ["index"]}, {"tab": "A", "openapi": "a.json", "groups": [{"group": "B", "openapi": "b.json"}]}]}"#;
    let listed = r#"{"tabs": [{"tab": "Home", "pages": ["index"]}, {"tab": "A", "groups": [{"group": "A", "pages": ["a.json GET /opA"]}]}, {"tab": "B", "openapi": "b.json"}]}"#;
    let hidden = r#", "x-mint": {"metadata": {"hidden": true}}"#;
    let noindex = r#", "x-mint": {"metadata": {"noindex": true}}"#;
    // Nothing hidden: the page written last by our order.
    assert_eq!(build(siblings, ""), same("opB"));
    // Siblings: GET /opA, hidden or noindex, may be what `same` shows: kept out.
    assert_eq!(build(siblings, hidden), vec![]);
    assert_eq!(build(siblings, noindex), vec![]);
    // Known orders: B inside A writes after it, bulk pages after listings.
    assert_eq!(build(nested, hidden), same("opB"));
    assert_eq!(build(listed, hidden), same("opB"));
}
