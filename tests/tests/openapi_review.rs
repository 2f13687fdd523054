//! A review of API reference pages (session 24): ways a real Mintlify repo restricts, hides or shows
//! an operation's text that the indexer read otherwise. One canary word per way, in a public build
//! scanned byte by byte (shards inflated): a withheld canary found anywhere fails, a public control
//! missing fails.

use std::path::Path;

use aidocs_e2e::{build_lexical, canaries_in, write_file};
use aidocs_reader::LocalIndex;

/// Restricted, hidden, never generated or never shown: in no file of the output.
const WITHHELD: &[&str] = &[
    "hidbusersqz", // `GET /users` of b.json, listed only under a.json's group: no page of its own
    "hidbdefopqz", // `GET /defaultop` of b.json, listed with no spec in scope
    // `GET /defaultop` of a.json, listed with no spec named or in scope: Mintlify's navigation pass
    // generates no page for it (`processNav`); the configuration's own `openapi` is no default
    "hiddefaultqz",
    "hiddraftqz", // a spec found only by looking for an unresolved binding: no listed page from it
    "hidseoqz",   // a hidden page: docs.json has no `seo.indexHiddenPages` (mint.json's key)
    "hidpathsgrqz", // `x-mint.groups` on the `paths` object restricts every path
    "hidwebhgrqz", // `x-mint.groups` on the `webhooks` object
    "hidmetagrqz", // `x-mint.metadata.groups`
    "hidmetahidqz", // `x-mint.metadata.hidden: true`
    "hidmetanoiqz", // `x-mint.metadata.noindex: true`
    "hidmetasrchqz", // `x-mint.metadata.searchable: false`
    "hidmetavisqz", // `x-mint.metadata` that is not a mapping: not understood, withheld
    "hidopdivqz", // `<div hidden>` in an operation's description
    "hidopagentqz", // `<Visibility for="agents">` in a description
    "hidresphidqz", // `style="display:none"` in a response's description
    "hidcontagqz", // `<Visibility for="agents">` in `x-mint.content`
    "hidparamgrqz", // a parameter whose schema carries `x-mint.groups`
    "hidmediagrqz", // a request body whose media type object carries `x-mint.groups`
    "hidopclsqz", // `className="hidden"` in a description: hidden when it is compiled as MDX
    "hidopcmtqz", // `{/* … */}` in a description
    "hidxrespqz", // an `x-…` key under `responses` is no status code
    "hidprmcntqz", // a parameter given by `content` whose schema carries `x-mint.groups`
    "hidprmallqz", // a parameter whose schema's `allOf` carries `x-mint.groups`
];

/// Shown to every reader: in the output.
const PUBLIC: &[&str] = &[
    "pubausersqz",   // `GET /users` of a.json, listed under a.json's group
    "pubotherqz",    // `POST /other` of b.json, listed under b.json's group
    "pubnamedqz",    // `"/specs/named.json POST /named"`: a spec named in the entry is read
    "pubordersqz",   // `"specs/orders.yaml GET /orders"`, relative
    "pubopdescqz",   // the rest of the description around hidden elements
    "pubcontentqz",  // `x-mint.content`: MDX shown before the generated documentation
    "pubmetattlqz",  // `x-mint.metadata.title`
    "pubmetadescqz", // `x-mint.metadata.description`
    "puborderfldqz", // a public response field whose schema a restricted request field reused
    "pub404fldqz",   // a field of a 404 response's schema: Mintlify shows every response
    "pubtypoqz",     // the page with the unresolved binding
    "pubownerplcqz", // a placeholder in braces in a description (`/repos/{owner}`): text
];

fn spec(paths: &str) -> String {
    format!(r#"{{"openapi": "3.0.0", "info": {{"title": "API", "version": "1"}}, {paths}}}"#)
}

fn site(root: &Path) {
    write_file(
        root,
        "docs.json",
        r#"{"openapi": "a.json", "seo": {"indexHiddenPages": true}, "navigation": {"groups": [
            {"group": "A", "openapi": "a.json", "pages": ["GET /users", "typo"]},
            {"group": "B", "openapi": "b.json", "pages": ["POST /other"]},
            {"group": "Default", "pages": ["GET /defaultop", "/specs/named.json POST /named",
              "specs/orders.yaml GET /orders", "secret"]},
            {"group": "C", "openapi": "c.json"},
            {"group": "D", "openapi": "d.json"}
        ]}}"#,
    );
    write_file(
        root,
        "a.json",
        &spec(
            r#""paths": {
            "/users": {"get": {"summary": "List users", "description": "pubausersqz"}},
            "/defaultop": {"get": {"summary": "Default op", "description": "hiddefaultqz"}}}"#,
        ),
    );
    write_file(
        root,
        "b.json",
        &spec(
            r#""paths": {
            "/users": {"get": {"summary": "List users b", "description": "hidbusersqz"}},
            "/other": {"post": {"summary": "Other", "description": "pubotherqz"}},
            "/defaultop": {"get": {"summary": "Default op b", "description": "hidbdefopqz"}}}"#,
        ),
    );
    write_file(
        root,
        "drafts/internal.json",
        &spec(
            r#""paths": {"/users": {"get": {"summary": "Draft users", "description": "hiddraftqz"}}}"#,
        ),
    );
    write_file(
        root,
        "specs/named.json",
        &spec(
            r#""paths": {"/named": {"post": {"summary": "Named", "description": "pubnamedqz"}}}"#,
        ),
    );
    write_file(
        root,
        "specs/orders.yaml",
        "openapi: 3.0.0\ninfo: {title: O, version: '1'}\npaths:\n  /orders:\n    get:\n      summary: Orders\n      description: pubordersqz\n",
    );
    write_file(
        root,
        "typo.mdx",
        "---\nopenapi: GET /typo\n---\n# Typo\n\npubtypoqz\n",
    );
    write_file(
        root,
        "secret.mdx",
        "---\nhidden: true\n---\n# Secret\n\nhidseoqz\n",
    );
    write_file(
        root,
        "c.json",
        &spec(
            r###""webhooks": {"x-mint": {"groups": ["admin"]},
              "created": {"post": {"summary": "Created", "description": "hidwebhgrqz"}}},
            "paths": {
            "/mg": {"get": {"summary": "Mg", "x-mint": {"metadata": {"groups": ["admin"]}}, "description": "hidmetagrqz"}},
            "/mh": {"get": {"summary": "Mh", "x-mint": {"metadata": {"hidden": true}}, "description": "hidmetahidqz"}},
            "/mn": {"get": {"summary": "Mn", "x-mint": {"metadata": {"noindex": true}}, "description": "hidmetanoiqz"}},
            "/ms": {"get": {"summary": "Ms", "x-mint": {"metadata": {"searchable": false}}, "description": "hidmetasrchqz"}},
            "/mv": {"get": {"summary": "Mv", "x-mint": {"metadata": "internal"}, "description": "hidmetavisqz"}},
            "/html": {"get": {"summary": "Html",
              "description": "Shown pubopdescqz, see [GET /repos/{pubownerplcqz}/x](https://x.test).\n\n<div hidden>hidopdivqz</div>\n\n<Visibility for=\"agents\">hidopagentqz</Visibility>\n\n<div className=\"hidden\">hidopclsqz</div>\n\n{/* hidopcmtqz */}",
              "responses": {"200": {"description": "ok <span style=\"display:none\">hidresphidqz</span>"},
                "x-notes": {"description": "hidxrespqz"}}}},
            "/pcontent": {"get": {"summary": "Pcontent", "parameters": [
              {"name": "f", "in": "query", "description": "hidprmcntqz", "content": {"application/json": {"schema": {"type": "object", "x-mint": {"groups": ["admin"]}}}}},
              {"name": "g", "in": "query", "description": "hidprmallqz", "schema": {"allOf": [{"x-mint": {"groups": ["admin"]}}]}}]}},
            "/content": {"get": {"summary": "Content", "x-mint": {
              "content": "## Before\n\npubcontentqz\n\n<Visibility for=\"agents\">hidcontagqz</Visibility>\n",
              "metadata": {"title": "Title pubmetattlqz", "description": "pubmetadescqz"}}}},
            "/param": {"get": {"summary": "Param", "parameters": [
              {"name": "q", "in": "query", "description": "hidparamgrqz", "schema": {"type": "string", "x-mint": {"groups": ["admin"]}}}]}},
            "/media": {"post": {"summary": "Media", "requestBody": {"content": {"application/json": {
              "x-mint": {"groups": ["admin"]},
              "schema": {"properties": {"secret": {"type": "string", "description": "hidmediagrqz"}}}}}}}},
            "/reuse": {"post": {"summary": "Reuse",
              "requestBody": {"content": {"application/json": {"schema": {"properties": {
                "admin_override": {"x-mint": {"groups": ["admin"]}, "$ref": "#/components/schemas/Order"}}}}}},
              "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"properties": {
                "admin_override": {"$ref": "#/components/schemas/Order"}}}}}}}}},
            "/err": {"get": {"summary": "Err", "responses": {"404": {"description": "missing", "content": {
              "application/json": {"schema": {"properties": {"reason": {"type": "string", "description": "pub404fldqz"}}}}}}}}}},
            "components": {"schemas": {"Order": {"properties": {
              "publicorderfield": {"type": "string", "description": "puborderfldqz"}}}}}"###,
        ),
    );
    write_file(
        root,
        "d.json",
        &spec(
            r#""paths": {"x-mint": {"groups": ["admin"]},
              "/p": {"get": {"summary": "P", "description": "hidpathsgrqz"}}}"#,
        ),
    );
}

#[test]
fn openapi_review_public_build_holds_what_the_api_pages_show() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    site(&root);
    let out = tmp.path().join("www/out");
    let summary = build_lexical(&root, &out, &tmp.path().join("cache"));
    let found = canaries_in(&out, WITHHELD);
    assert!(found.is_empty(), "text found: {found:#?}");
    for c in PUBLIC {
        assert!(!canaries_in(&out, &[c]).is_empty(), "`{c}` is missing");
    }
    // No result at a URL the site does not have: b.json's and the draft's `GET /users` get none.
    let index = LocalIndex::open(&out).unwrap();
    let pages: Vec<(String, String)> = (0..index.searcher.meta_shard_count())
        .flat_map(|i| index.meta_shard(i).unwrap().pages.clone())
        .map(|p| (p.url, p.title))
        .collect();
    let urls: Vec<&str> = pages.iter().map(|(u, _)| u.as_str()).collect();
    for absent in [
        "/api-reference/list-users-b",
        "/api-reference/draft-users",
        "/api-reference/default-op-b",
        "/api-reference/default-op",
    ] {
        assert!(!urls.contains(&absent), "{absent} in {urls:?}");
    }
    for present in [
        "/api-reference/list-users",
        "/api-reference/named",
        "/api-reference/orders",
    ] {
        assert!(urls.contains(&present), "{present} not in {urls:?}");
    }
    // The entry that generates nothing says so.
    assert!(
        (summary.warnings.iter()).any(|w| w.message.contains("`GET /defaultop` names no spec")),
        "{:#?}",
        summary.warnings
    );
    // `x-mint.metadata.title` titles the generated page.
    assert!(
        pages.iter().any(|(_, t)| t == "Title pubmetattlqz"),
        "{pages:?}"
    );
    // A metadata value not understood says why the operation is withheld.
    assert!(
        summary
            .warnings
            .iter()
            .any(|w| w.message.contains("`x-mint.metadata` is not a mapping")),
        "{:#?}",
        summary.warnings
    );
}

/// A default spec given as a URL is the default all the same: an operation listed with no spec in
/// scope is that spec's (which this build cannot read), never a local draft's of the same name.
#[test]
fn openapi_review_a_url_default_spec_is_still_the_default() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"openapi": "https://example.com/openapi.json", "navigation": {"pages": ["GET /users", "typo"]}}"#,
    );
    write_file(
        &root,
        "typo.mdx",
        "---\nopenapi: GET /typo\n---\n# Typo\n\npubtypoqz\n",
    );
    write_file(
        &root,
        "drafts/internal.json",
        &spec(
            r#""paths": {"/users": {"get": {"summary": "Draft users", "description": "hiddraftqz"}}}"#,
        ),
    );
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert!(canaries_in(&out, &["hiddraftqz"]).is_empty());
    assert!(!canaries_in(&out, &["pubtypoqz"]).is_empty());
}

/// What `x-mint.content` imports is part of the generated page: made private, it leaves the page
/// on the next build with the same cache.
#[test]
fn openapi_review_content_imports_are_checked_on_a_warm_build() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"navigation": {"groups": [{"group": "API", "openapi": "api.json"}]}}"#,
    );
    write_file(
        &root,
        "api.json",
        &spec(
            r#""paths": {"/n": {"get": {"summary": "N", "x-mint": {"content": "import N from '/components/note.mdx'\n\n<N />\n"}}}}"#,
        ),
    );
    write_file(&root, "components/note.mdx", "Note hidstaleqz.\n");
    let out = tmp.path().join("www/out");
    let cache = tmp.path().join("cache");
    let build = || build_lexical(&root, &out, &cache);
    build();
    assert!(!canaries_in(&out, &["hidstaleqz"]).is_empty());
    write_file(
        &root,
        "components/note.mdx",
        "---\nvisibility: private\n---\nNote hidstaleqz.\n",
    );
    build();
    assert!(canaries_in(&out, &["hidstaleqz"]).is_empty());
}

/// A navigation entry may name its spec by file name or stem (`v2 GET /y`), as frontmatter may: it
/// lists that spec's operation.
#[test]
fn openapi_review_a_spec_named_by_file_name_in_the_navigation_is_found() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"navigation": {"groups": [{"group": "V2", "openapi": "specs/v2.json", "pages": ["GET /x"]},
            {"group": "Other", "pages": ["v2.json GET /y", "v2 GET /z", "v3 GET /w"]}]}}"#,
    );
    write_file(
        &root,
        "specs/v2.json",
        &spec(
            r#""paths": {"/x": {"get": {"summary": "X", "description": "pubxqz"}},
            "/y": {"get": {"summary": "Y", "description": "pubfilenameqz"}},
            "/z": {"get": {"summary": "Z", "description": "pubstemnameqz"}}}"#,
        ),
    );
    let out = tmp.path().join("www/out");
    let summary = build_lexical(&root, &out, &tmp.path().join("cache"));
    for c in ["pubxqz", "pubfilenameqz", "pubstemnameqz"] {
        assert!(!canaries_in(&out, &[c]).is_empty(), "`{c}` is missing");
    }
    assert!(
        summary
            .warnings
            .iter()
            .any(|w| w.message.contains("`v3 GET /w` names no spec")),
        "{:#?}",
        summary.warnings
    );
}
