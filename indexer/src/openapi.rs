//! OpenAPI 3.x (JSON or YAML) to one record per operation: method, path, operationId, summary,
//! description, tags, parameters and request/response body properties, with local `$ref`s resolved and
//! cycles cut.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::document::{Diagnostic, Visibility};
use crate::visibility::{check_nesting, read_bounded, Declared, Flag, DEFAULT_MAX_FILE_BYTES};

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];
/// How deep request/response schemas are walked for property names.
const MAX_SCHEMA_DEPTH: usize = 4;
/// Properties listed per body, so a huge schema cannot flood one record.
const MAX_PROPERTIES: usize = 200;

/// One operation, flattened to text.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    pub method: String,
    pub path: String,
    pub operation_id: String,
    pub summary: String,
    pub description: String,
    pub tags: Vec<String>,
    /// `name (in, type): description` lines, each with the visibility its own `x-internal` /
    /// `x-visibility` (and its parents') give it: an internal parameter or property is shown to
    /// internal builds only.
    pub parameters: Vec<(String, Visibility)>,
    pub request_fields: Vec<(String, Visibility)>,
    pub response_fields: Vec<(String, Visibility)>,
    /// The most restrictive of what applies to it: the spec file's globs, the document's, the path
    /// item's and the operation's own `x-visibility` / `x-internal`.
    pub declared: Declared,
    /// `x-excluded` (on it or its path item, true as JavaScript reads it: any value but `false`,
    /// 0, `""` and `null`): Mintlify leaves the operation out of the site, so no page shows its
    /// text, a page bound to it included.
    pub excluded: bool,
    /// `x-mint.metadata.hidden`: its generated page's own `hidden`, read as a page's frontmatter
    /// (Mintlify writes it there): set, out of search wherever the navigation lists it; `false`,
    /// in search under a hidden navigation element too; absent, its listing decides.
    pub hidden: Flag,
    /// `x-hidden` (on it or its path item, true as JavaScript reads it): a spec's bulk generation
    /// makes its page but leaves it out of the navigation (an unlisted page) and gives it no name
    /// in its navigation group (`processOpenApiPath`); a navigation entry that lists it makes a
    /// page like any other.
    pub x_hidden: bool,
    /// The navigation group of its bulk page: the label of its first tag (`getTagDisplayName`:
    /// the tag's `x-group`, else its name), by which pages are numbered; empty without a tag.
    pub nav_group: String,
    /// `x-mint.metadata.public`: `declares_public` when any truthy value is there (the site is
    /// then behind authentication); `public`, when the key is there, whether it is the boolean
    /// true (its generated page needs no sign-in).
    pub declares_public: bool,
    pub public: Option<bool>,
    /// `x-mint.href`: the URL the site gives the operation's generated page.
    pub href: Option<String>,
    /// `x-mint.content`: MDX the page shows before the generated documentation.
    pub content: String,
    /// `x-mint.metadata.title` and `.description`: the generated page's own.
    pub metadata_title: Option<String>,
    pub metadata_description: Option<String>,
    /// `x-mint.metadata.noindex` or `.searchable: false`: its generated page is out of search.
    pub noindex: bool,
}

/// The dialect a piece of an operation's text is written in: descriptions are Markdown (HTML
/// kept as text), `x-mint.content` is MDX. What renders them to the text the page shows is the
/// caller's ([`Operation::markdown`]).
pub use crate::mdx::Dialect;

impl Operation {
    pub fn visibility(&self) -> Visibility {
        self.declared.visibility()
    }
    /// `METHOD /path`.
    pub fn key(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
    pub fn title(&self) -> String {
        if let Some(t) = self
            .metadata_title
            .as_deref()
            .filter(|t| !t.trim().is_empty())
        {
            t.trim().to_owned()
        } else if !self.summary.is_empty() {
            self.summary.clone()
        } else if !self.operation_id.is_empty() {
            self.operation_id.clone()
        } else {
            self.key()
        }
    }
    /// Markdown body describing the operation, with the lines `audience` may see; `render` turns
    /// each piece of the spec's text into what the page shows of it (hidden elements left out).
    pub fn markdown(
        &self,
        audience: Visibility,
        render: &mut dyn FnMut(&str, Dialect) -> String,
    ) -> String {
        let mut md = String::new();
        for (text, dialect) in [
            (
                self.metadata_description.as_deref().unwrap_or(""),
                Dialect::Markdown,
            ),
            (self.content.as_str(), Dialect::Mdx),
            (self.description.as_str(), Dialect::Markdown),
        ] {
            let shown = render(text, dialect);
            if !shown.trim().is_empty() {
                md.push_str(shown.trim());
                md.push_str("\n\n");
            }
        }
        for (title, lines) in [
            ("Parameters", &self.parameters),
            ("Request body", &self.request_fields),
            ("Response", &self.response_fields),
        ] {
            let shown: Vec<String> = lines
                .iter()
                .filter(|(_, v)| crate::visibility::allowed(*v, audience))
                .map(|(l, _)| render(l, Dialect::Markdown).trim().replace('\n', " "))
                .filter(|l| !l.is_empty())
                .collect();
            if shown.is_empty() {
                continue;
            }
            // Mintlify's API page lists the fields under its own labels, with no element id for
            // them: the section links to the page.
            md.push_str(&format!("## {}\n\n", crate::heading_id::mark_no_id(title)));
            for l in shown {
                md.push_str(&l);
                md.push_str("\n\n");
            }
        }
        md
    }
}

/// A summary, tag or path in a generated page's URL, as Mintlify converts it
/// (`prepareStringToBeValidFilename` in `@mintlify/common`): spaces become hyphens, each `{…}` a
/// hyphen, one hyphen goes from each end, `{}(),.'/` and line breaks go, `--` becomes `-` (once,
/// left to right), and the rest is lower-cased. `None` for empty text (Mintlify's `undefined`).
fn url_part(s: &str) -> Option<String> {
    static PARAMETER: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"\{.*?\}").expect("a valid pattern"));
    if s.is_empty() {
        return None;
    }
    let spaced = s.replace(' ', "-");
    let bare = PARAMETER.replace_all(&spaced, "-");
    let bare = bare.strip_prefix('-').unwrap_or(&bare);
    let bare = bare.strip_suffix('-').unwrap_or(bare);
    let kept: String = bare
        .chars()
        .filter(|c| !matches!(c, '{' | '}' | '(' | ')' | ',' | '.' | '\'' | '\n' | '/'))
        .collect();
    Some(kept.replace("--", "-").to_lowercase())
}

/// The URL Mintlify gives an operation's generated page before numbering (`processOpenApiPath` in
/// `@mintlify/scraping`): `x-mint.href` when set (its folder and name, the name's extension
/// dropped), else `/{directory}/{first tag}/{summary}`, the summary replaced by the method and
/// the path when absent (`GET /users/{id}/posts` is `get-users-posts`, `GET /users/posts` is
/// `get-usersposts`; a webhook's by its name), no tag part without tags; joined as `posix.join`
/// joins (`.`, `..` and empty segments resolved), lower-cased.
pub fn generated_url(op: &Operation, directory: &str) -> String {
    if let Some(href) = op.href.as_deref().filter(|h| !h.is_empty()) {
        // One leading `/` goes (`optionallyRemoveLeadingSlash`), then `posix.parse`: the folder,
        // and the name without its extension (`/reference/v1.2` is `/reference/v1`; a trailing
        // `/` is no segment).
        let slug = href.strip_prefix('/').unwrap_or(href);
        let trimmed = slug.trim_end_matches('/');
        let (folder, base) = match trimmed.rfind('/') {
            Some(i) => (&trimmed[..i], &trimmed[i + 1..]),
            None => ("", trimmed),
        };
        let name = match base.rfind('.') {
            Some(i) if i > 0 => &base[..i],
            _ => base,
        };
        return crate::ingest::posix_normalize(&format!("{folder}/{name}")).to_lowercase();
    }
    // A webhook without a summary is named by its name alone (`processOpenApiWebhook`).
    let slug = url_part(&op.summary).unwrap_or_else(|| match op.method.as_str() {
        "WEBHOOK" => url_part(&op.path).unwrap_or_default(),
        method => format!(
            "{}-{}",
            method.to_lowercase(),
            url_part(&op.path).unwrap_or_default()
        ),
    });
    let tag = (op.tags.first())
        .and_then(|t| url_part(t))
        .unwrap_or_default();
    // `posix.join(outDir, folder, title)`, lower-cased, resolved from `/`.
    crate::ingest::posix_normalize(&format!("{directory}/{tag}/{slug}")).to_lowercase()
}

/// `openapi:` frontmatter, `[spec] METHOD /path`, as Mintlify reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationRef {
    /// The spec as written (a path, a file name, or a file name without its extension).
    pub spec: Option<String>,
    /// `METHOD /path`, the method upper-cased.
    pub key: String,
}

impl OperationRef {
    pub fn parse(s: &str) -> Option<Self> {
        let parts: Vec<&str> = s.split_whitespace().collect();
        // `[spec] webhook name`
        if let [spec @ .., w, name] = parts.as_slice() {
            if w.eq_ignore_ascii_case("webhook") && spec.len() <= 1 {
                return Some(OperationRef {
                    spec: spec.first().map(|s| {
                        s.trim_start_matches("./")
                            .trim_start_matches('/')
                            .to_owned()
                    }),
                    key: format!("WEBHOOK {name}"),
                });
            }
        }
        let (spec, m, p) = match parts.as_slice() {
            [m, p] => (None, m, p),
            [spec, m, p] => (
                Some(spec.trim_start_matches("./").trim_start_matches('/')),
                m,
                p,
            ),
            _ => return None,
        };
        if !p.starts_with('/') || !METHODS.contains(&m.to_ascii_lowercase().as_str()) {
            return None;
        }
        Some(OperationRef {
            spec: spec.map(str::to_owned),
            key: format!("{} {}", m.to_ascii_uppercase(), p),
        })
    }

    /// Whether `display` (a loaded spec's site-relative path) is the spec this names: by its path,
    /// its file name, or either without the extension (`v2-spec` for `api/v2-spec.yaml`, the form
    /// Mintlify documents for sites with several specs). No spec named: any.
    pub fn names_spec(&self, display: &str) -> bool {
        let Some(want) = self.spec.as_deref() else {
            return true;
        };
        let display = display.trim_start_matches("./").trim_start_matches('/');
        let file = display.rsplit('/').next().unwrap_or(display);
        let stem = |s: &str| -> String {
            match s.rsplit_once('.') {
                Some((base, ext))
                    if ["json", "yaml", "yml"].contains(&ext.to_ascii_lowercase().as_str()) =>
                {
                    base.to_owned()
                }
                _ => s.to_owned(),
            }
        };
        [
            display.to_owned(),
            file.to_owned(),
            stem(display),
            stem(file),
        ]
        .iter()
        .any(|candidate| candidate == want)
    }
}

/// `METHOD /path` with path parameters reduced to `{}` and a trailing `/` dropped.
fn endpoint_shape(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut in_param = false;
    for c in key.trim_end_matches('/').chars() {
        match c {
            '{' => {
                in_param = true;
                out.push('{');
            }
            '}' => {
                in_param = false;
                out.push('}');
            }
            _ if in_param => {}
            _ => out.push(c),
        }
    }
    out
}

/// The operations of every loaded spec, by the spec's site-relative path (or command-line name).
#[derive(Debug, Default, Clone)]
pub struct LoadedOperations(pub std::collections::BTreeMap<String, Vec<Operation>>);

impl LoadedOperations {
    /// The operation a reference binds (the first spec in path order that has it), matched on
    /// method and path, path parameters by position (`/users/{userId}` is `/users/{id}`) and a
    /// trailing `/` ignored, as a reader would take them to be the same endpoint.
    pub fn find(&self, r: &OperationRef) -> Option<(&str, &Operation)> {
        // A spec named by its exact path first, then by file name or stem.
        let exact = |d: &str| {
            r.spec
                .as_deref()
                .is_some_and(|s| s == d.trim_start_matches("./").trim_start_matches('/'))
        };
        let (first, rest): (Vec<_>, Vec<_>) = self
            .0
            .iter()
            .filter(|(display, _)| r.names_spec(display))
            .partition(|(display, _)| exact(display));
        first.into_iter().chain(rest).find_map(|(display, ops)| {
            ops.iter()
                .find(|o| o.key() == r.key)
                .map(|o| (display.as_str(), o))
        })
    }

    /// The declarations of every operation `r` could bind, combined: two specs that both have
    /// `GET /jobs` (one internal) make the binding as restrictive as the stricter.
    pub fn declared_for(&self, r: &OperationRef) -> Declared {
        let want = endpoint_shape(&r.key);
        self.0
            .iter()
            .filter(|(display, _)| r.names_spec(display))
            .flat_map(|(_, ops)| ops.iter().filter(|o| endpoint_shape(&o.key()) == want))
            .fold(Declared::Absent, |d, o| d.combine(o.declared.clone()))
    }

    /// Whether some loaded spec is the one `r` names (whether or not it has the operation).
    pub fn has_spec(&self, r: &OperationRef) -> bool {
        self.0.keys().any(|d| r.names_spec(d))
    }
}

/// A loaded spec.
#[derive(Debug)]
pub struct Spec {
    pub file: String,
    pub title: String,
    pub operations: Vec<Operation>,
    /// Problems that cost text but not the spec (a schema walk cut at its budget).
    pub warnings: Vec<String>,
}

/// Reads and flattens a spec file (tests and tools; the build reads through [`load_spec_text`]).
pub fn load_spec(path: &Path, display: &str) -> Result<Spec, Diagnostic> {
    let src = read_bounded(path, DEFAULT_MAX_FILE_BYTES).map_err(|e| Diagnostic {
        file: display.to_owned(),
        line: None,
        message: format!("cannot read: {e}"),
    })?;
    load_spec_text(&src, path, display, Declared::Absent)
}

/// A spec's text as a JSON value (`path` tells YAML from JSON by its extension): nesting measured
/// first, YAML merge keys applied, repeated visibility keys of JSON kept (see [`crate::json`]).
/// Errors carry the line where known.
pub fn parse_document(src: &str, path: &Path) -> Result<Value, (Option<usize>, String)> {
    let is_yaml = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    );
    check_nesting(src).map_err(|m| (None, m))?;
    if is_yaml {
        // Merge keys (`<<: *internal`) carry declarations like any other key.
        let mut v: serde_norway::Value = serde_norway::from_str(src)
            .map_err(|e| (e.location().map(|l| l.line()), format!("invalid YAML: {e}")))?;
        v.apply_merge()
            .map_err(|e| (None, format!("invalid YAML: {e}")))?;
        serde_json::to_value(v).map_err(|e| (None, format!("invalid YAML: {e}")))
    } else {
        crate::json::parse(src).map_err(|e| (Some(e.line()), format!("invalid JSON: {e}")))
    }
}

/// A JSON object's entries in JavaScript's order, as Mintlify iterates them: integer-like keys
/// (array indices: `0`, or digits without a leading zero below 2^32 - 1: status codes, a webhook
/// named `10`) ascending, then the others as the file writes them.
fn js_entries(map: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    let index = |k: &str| {
        let digits = !k.is_empty() && k.len() <= 10 && k.bytes().all(|b| b.is_ascii_digit());
        (digits && (k == "0" || !k.starts_with('0')))
            .then(|| k.parse::<u64>().ok())
            .flatten()
            .filter(|&n| n < u64::from(u32::MAX))
    };
    let mut indices: Vec<(u64, (&String, &Value))> = Vec::new();
    let mut rest: Vec<(&String, &Value)> = Vec::new();
    for entry in map {
        match index(entry.0) {
            Some(n) => indices.push((n, entry)),
            None => rest.push(entry),
        }
    }
    indices.sort_by_key(|(n, _)| *n);
    indices.into_iter().map(|(_, e)| e).chain(rest).collect()
}

/// Flattens a spec's text (`path` tells YAML from JSON by its extension). Syntax errors name the
/// line; a spec that is not OpenAPI 3 is rejected. `declared` is what applies to the whole file
/// from outside (its globs); every operation combines it with the document's, its path item's and
/// its own declarations.
pub fn load_spec_text(
    src: &str,
    path: &Path,
    display: &str,
    declared: Declared,
) -> Result<Spec, Diagnostic> {
    let diag = |line: Option<usize>, message: String| Diagnostic {
        file: display.to_owned(),
        line,
        message,
    };
    let root = parse_document(src, path).map_err(|(line, m)| diag(line, m))?;
    let version = root.get("openapi").and_then(Value::as_str).unwrap_or("");
    if !version.starts_with('3') {
        return Err(diag(
            None,
            "not an OpenAPI 3.x document (missing or unsupported `openapi` field)".into(),
        ));
    }
    let title = root
        .pointer("/info/title")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let document = declared.combine(Declared::from_openapi(&root));
    let mut operations = Vec::new();
    let mut warnings = Vec::new();
    // Paths, and webhooks (`openapi: "spec.json webhook orderUpdated"` binds one), keyed
    // `WEBHOOK name`.
    let groups = [("paths", false), ("webhooks", true)];
    for (group, webhook) in groups {
        let Some(paths) = root.get(group).and_then(Value::as_object) else {
            continue;
        };
        // What the `paths` (or `webhooks`) object itself declares (`x-mint.groups` on it restricts
        // every path) applies to each of its operations.
        let group_declared = document
            .clone()
            .combine(Declared::from_openapi(&root[group]));
        for (path, item) in js_entries(paths) {
            if path.starts_with("x-") {
                continue;
            }
            // What the path item declares beside its `$ref`, and at every hop, applies too.
            let (item, item_declared) = resolve_declared(&root, item);
            let shared_params = item.get("parameters").cloned().unwrap_or(Value::Null);
            let item_declared = group_declared.clone().combine(item_declared);
            for m in METHODS {
                let Some(raw) = item.get(*m) else { continue };
                let (mut op, truncated) = flatten(&root, m, path, raw, &shared_params);
                // `x-excluded` / `x-hidden`, read as Mintlify reads them (`operation['x-hidden']`
                // in `processOpenApiPath`: JavaScript's truthiness), under that key written in any
                // case too (most restrictive: `X-Hidden` was meant as one); on the path item they
                // apply to each of its operations too.
                let flag = |name: &str| js_flag(item, name) || js_flag(raw, name);
                op.excluded = flag("x-excluded");
                op.x_hidden = flag("x-hidden");
                op.nav_group = tag_label(&root, op.tags.first().map_or("", String::as_str));
                if webhook {
                    op.method = "WEBHOOK".into();
                }
                if truncated {
                    warnings.push(format!(
                        "operation `{}`: its body schemas fan out past {MAX_SCHEMA_NODES} nodes; the properties listed stop there",
                        op.key()
                    ));
                }
                op.declared = item_declared.clone().combine(op.declared);
                operations.push(op);
            }
        }
    }
    Ok(Spec {
        file: display.to_owned(),
        title,
        operations,
        warnings,
    })
}

/// Whether `object` has the key `name` (in any case, spaces around it trimmed) with a value
/// JavaScript reads as true: none of `false`, 0, `""` and `null`.
fn js_flag(object: &Value, name: &str) -> bool {
    let truthy = |value: &Value| match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::String(s) => !s.is_empty(),
        Value::Number(n) => n.as_f64().is_none_or(|f| f != 0.0),
        Value::Array(_) | Value::Object(_) => true,
    };
    (object.as_object().into_iter().flatten())
        .any(|(k, v)| crate::visibility::is_key(k, name) && truthy(v))
}

/// The group of the navigation Mintlify files operations without a tag under (`findNavGroup`'s
/// default name).
const DEFAULT_API_GROUP: &str = "API Reference";

/// The label of the navigation group Mintlify files a tag's bulk pages under (`getTagDisplayName`
/// in `@mintlify/common`, OpenAPI before 3.2): the `x-group` of the document's tag of that name
/// (the first), else the name; an operation without a tag (or with `""`) goes to "API Reference".
/// A label that is not a string is kept as its JSON text, apart from every string.
fn tag_label(root: &Value, tag: &str) -> String {
    if tag.is_empty() {
        return DEFAULT_API_GROUP.to_owned();
    }
    let defined = (root.get("tags").and_then(Value::as_array)).and_then(|tags| {
        tags.iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(tag))
    });
    match defined.and_then(|t| t.get("x-group")) {
        None | Some(Value::Null) => tag.to_owned(),
        Some(Value::String(label)) => label.clone(),
        Some(other) => format!("\u{0}{other}"),
    }
}

/// [`resolve`], combining the declarations of every object on the way (a `$ref` with a sibling
/// `x-internal: true` is internal). A reference that cannot be followed (external, missing, or a
/// chain longer than 32) is declared unreadable: what it points at cannot be judged.
fn resolve_declared<'a>(root: &'a Value, mut v: &'a Value) -> (&'a Value, Declared) {
    let mut declared = Declared::Absent;
    for _ in 0..32 {
        declared = declared.combine(Declared::from_openapi(v));
        match v.get("$ref") {
            None => return (v, declared),
            Some(Value::String(r)) if r.starts_with('#') => match root.pointer(&pointer(r)) {
                Some(target) => v = target,
                None => {
                    let why = format!("its `$ref` `{r}` points at nothing in the document");
                    return (v, declared.combine(Declared::Unreadable(why)));
                }
            },
            Some(r) => {
                let why = format!("its `$ref` {r} is not a local reference (`#/…`)");
                return (v, declared.combine(Declared::Unreadable(why)));
            }
        }
    }
    let why = "its `$ref` chain is longer than 32".to_owned();
    (v, declared.combine(Declared::Unreadable(why)))
}

/// The most schema nodes [`declared_within`] reads; past them what is left unread withholds.
const MAX_DECLARED_NODES: usize = 2_000;

/// Every declaration inside `v` (its objects and arrays, through local `$ref`s, each target once),
/// combined: a parameter is as restricted as anything in it.
fn declared_within(root: &Value, v: &Value) -> Declared {
    let mut declared = Declared::Absent;
    let mut seen = BTreeSet::new();
    let mut stack = vec![v];
    let mut nodes = 0usize;
    while let Some(v) = stack.pop() {
        nodes += 1;
        if nodes > MAX_DECLARED_NODES {
            let why = format!(
                "its schema has more than {MAX_DECLARED_NODES} nodes to read for declarations"
            );
            return declared.combine(Declared::Unreadable(why));
        }
        match v {
            Value::Object(map) => {
                declared = declared.combine(Declared::from_openapi(v));
                if let Some(Value::String(r)) = map.get("$ref") {
                    if seen.insert(r.clone()) {
                        let (_, d) = resolve_declared(root, v);
                        declared = declared.combine(d);
                        if let Some(target) = r
                            .starts_with('#')
                            .then(|| root.pointer(&pointer(r)))
                            .flatten()
                        {
                            stack.push(target);
                        }
                    }
                }
                stack.extend(map.iter().filter(|(k, _)| *k != "$ref").map(|(_, v)| v));
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    declared
}

/// A `#/a/b~1c` reference as a JSON pointer: the fragment percent-decoded (`#/paths/~1users%7Bid%7D`).
fn pointer(reference: &str) -> String {
    let fragment = reference.strip_prefix('#').unwrap_or(reference);
    percent_encoding::percent_decode_str(fragment)
        .decode_utf8_lossy()
        .into_owned()
}

fn str_of(v: &Value, k: &str) -> String {
    v.get(k)
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim()
        .to_owned()
}

/// One operation flattened; `true` when its body schemas were cut at [`MAX_SCHEMA_NODES`].
fn flatten(
    root: &Value,
    method: &str,
    path: &str,
    op: &Value,
    shared_params: &Value,
) -> (Operation, bool) {
    let mut walk = SchemaWalk::new(root);
    let mut parameters = Vec::new();
    let mut seen = BTreeSet::new();
    for list in [op.get("parameters"), Some(shared_params)] {
        for p in list.and_then(Value::as_array).into_iter().flatten() {
            let (p, declared) = resolve_declared(root, p);
            let name = str_of(p, "name");
            let loc = str_of(p, "in");
            if name.is_empty() || !seen.insert((name.clone(), loc.clone())) {
                continue;
            }
            // What anything inside it declares restricts it too (`x-mint.groups` on its schema,
            // in an `allOf`, under `content`): its line is one.
            let declared = declared.combine(declared_within(root, p));
            let schema = p.get("schema").map(|s| resolve_declared(root, s).0);
            let ty = schema.map(|s| str_of(s, "type")).unwrap_or_default();
            let desc = str_of(p, "description");
            parameters.push((
                format!(
                    "`{name}` ({loc}{}{}){}{desc}",
                    if ty.is_empty() { "" } else { ", " },
                    ty,
                    if desc.is_empty() { "" } else { ": " }
                ),
                declared.visibility(),
            ));
        }
    }
    let mut request_fields = Vec::new();
    if let Some((body, declared)) = op.get("requestBody").map(|b| resolve_declared(root, b)) {
        let v = declared.visibility();
        let d = str_of(body, "description");
        if !d.is_empty() {
            request_fields.push((d, v));
        }
        walk.content(body, v, &mut request_fields);
    }
    let mut response_fields = Vec::new();
    if let Some(responses) = op.get("responses").and_then(Value::as_object) {
        for (code, resp) in js_entries(responses) {
            // `x-…` keys are extensions, not status codes.
            if code.starts_with("x-") {
                continue;
            }
            let (resp, declared) = resolve_declared(root, resp);
            let v = declared.visibility();
            let d = str_of(resp, "description");
            if !d.is_empty() {
                response_fields.push((format!("{code}: {d}"), v));
            }
            // Every status code's schema: Mintlify shows each response's fields.
            walk.content(resp, v, &mut response_fields);
        }
    }
    // `x-mint.metadata`: frontmatter for the generated page, read as a page's is.
    let metadata = op.pointer("/x-mint/metadata");
    let (meta, meta_declared) = match metadata.map(crate::mdx::Frontmatter::from_json) {
        None => (crate::mdx::Frontmatter::default(), Declared::Absent),
        Some(Some(fm)) => {
            let groups = match fm.groups {
                true => Declared::Known(Visibility::Internal),
                false => Declared::Absent,
            };
            let declared = fm.visibility.clone().combine(groups);
            (fm, declared)
        }
        Some(None) => (
            crate::mdx::Frontmatter::default(),
            Declared::Unreadable("`x-mint.metadata` is not a mapping".into()),
        ),
    };
    let op = Operation {
        method: method.to_ascii_uppercase(),
        path: path.to_owned(),
        operation_id: str_of(op, "operationId"),
        summary: str_of(op, "summary"),
        description: str_of(op, "description"),
        tags: op
            .get("tags")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
        parameters,
        request_fields,
        response_fields,
        declared: Declared::from_openapi(op).combine(meta_declared),
        excluded: false,
        hidden: meta.hidden.clone(),
        x_hidden: false,
        nav_group: String::new(),
        declares_public: meta.public.withholds(),
        public: match meta.public {
            Flag::Absent => None,
            _ => Some(meta.public_true),
        },
        href: op
            .pointer("/x-mint/href")
            .and_then(Value::as_str)
            .map(str::to_owned),
        content: op
            .pointer("/x-mint/content")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        metadata_title: meta.title,
        metadata_description: meta.description,
        noindex: meta.noindex,
    };
    (op, walk.truncated)
}

/// The most schema nodes one operation's bodies may visit: a spec whose schemas fan out (an `allOf`
/// of sixty references to the next, five deep) costs milliseconds, not minutes per operation.
pub const MAX_SCHEMA_NODES: usize = 5_000;

/// One operation's walk over its body schemas: the references on the current path (cycles), the
/// (reference, prefix) pairs already listed (a schema reached twice at the same place lists the
/// same properties twice: once is enough) and the nodes visited against [`MAX_SCHEMA_NODES`].
struct SchemaWalk<'a> {
    root: &'a Value,
    on_path: BTreeSet<String>,
    listed: std::collections::HashSet<(String, String, Visibility)>,
    nodes: usize,
    truncated: bool,
}

impl<'a> SchemaWalk<'a> {
    fn new(root: &'a Value) -> Self {
        SchemaWalk {
            root,
            on_path: BTreeSet::new(),
            listed: Default::default(),
            nodes: 0,
            truncated: false,
        }
    }

    /// Properties of the first media type's schema of a request body or response.
    fn content(&mut self, holder: &Value, within: Visibility, out: &mut Vec<(String, Visibility)>) {
        let content = holder.get("content");
        let first = content
            .and_then(Value::as_object)
            .and_then(|c| c.values().next());
        if let Some(media) = first {
            // What the content map and the media type object declare restricts their fields.
            let declared = Declared::from_openapi(content.unwrap_or(&Value::Null))
                .combine(Declared::from_openapi(media));
            if let Some(schema) = media.get("schema") {
                self.properties(schema, "", 0, within.max(declared.visibility()), out);
            }
        }
    }

    /// Walks a schema for property names and descriptions; a property is as restricted as the most
    /// restrictive of its own declarations and those of the schemas it sits in.
    fn properties(
        &mut self,
        schema: &Value,
        prefix: &str,
        depth: usize,
        within: Visibility,
        out: &mut Vec<(String, Visibility)>,
    ) {
        if depth > MAX_SCHEMA_DEPTH || out.len() >= MAX_PROPERTIES {
            return;
        }
        self.nodes += 1;
        if self.nodes > MAX_SCHEMA_NODES {
            self.truncated = true;
            return;
        }
        let entered = within;
        let reference = schema
            .get("$ref")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if let Some(r) = &reference {
            // Listed here before under the same restriction: listing it again adds nothing (one
            // listed under a stricter one does not stand for this one).
            if self.on_path.contains(r)
                || (self.listed).contains(&(r.clone(), prefix.to_owned(), within))
            {
                return;
            }
            self.on_path.insert(r.clone());
        }
        let (s, declared) = resolve_declared(self.root, schema);
        let within = within.max(declared.visibility());
        if let Some(props) = s.get("properties").and_then(Value::as_object) {
            for (name, p) in props {
                if out.len() >= MAX_PROPERTIES {
                    break;
                }
                let full = if prefix.is_empty() {
                    name.clone()
                } else {
                    format!("{prefix}.{name}")
                };
                let (pr, declared) = resolve_declared(self.root, p);
                let v = within.max(declared.visibility());
                let desc = str_of(pr, "description");
                out.push((
                    format!("`{full}`{}{desc}", if desc.is_empty() { "" } else { ": " }),
                    v,
                ));
                self.properties(p, &full, depth + 1, v, out);
            }
        }
        if let Some(items) = s.get("items") {
            self.properties(items, prefix, depth + 1, within, out);
        }
        for k in ["allOf", "oneOf", "anyOf"] {
            for sub in s.get(k).and_then(Value::as_array).into_iter().flatten() {
                self.properties(sub, prefix, depth + 1, within, out);
            }
        }
        if let Some(r) = reference {
            self.on_path.remove(&r);
            self.listed.insert((r, prefix.to_owned(), entered));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_resolved_and_cycles_cut() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("spec.json");
        std::fs::write(
            &p,
            r##"{"openapi":"3.0.0","info":{"title":"T"},"paths":{"/users/{id}":{"parameters":[{"$ref":"#/components/parameters/Id"}],
            "get":{"operationId":"getUser","summary":"Get a user","responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/User"}}}}}}}},
            "components":{"parameters":{"Id":{"name":"id","in":"path","schema":{"type":"string"},"description":"The user id"}},
            "schemas":{"User":{"properties":{"email":{"type":"string","description":"Primary email"},"manager":{"$ref":"#/components/schemas/User"}}}}}}"##,
        )
        .unwrap();
        let spec = load_spec(&p, "spec.json").unwrap();
        let op = &spec.operations[0];
        assert_eq!(op.key(), "GET /users/{id}");
        assert_eq!(op.operation_id, "getUser");
        assert!(op.parameters[0]
            .0
            .contains("`id` (path, string): The user id"));
        assert!(op
            .response_fields
            .iter()
            .any(|f| f.0.contains("`email`: Primary email")));
        assert!(op
            .response_fields
            .iter()
            .any(|f| f.0.starts_with("`manager`")));
        assert!(
            !op.response_fields
                .iter()
                .any(|f| f.0.starts_with("`manager.manager")),
            "cycle must be cut"
        );
    }

    #[test]
    fn issue_18_path_items_and_documents_declare_visibility_too() {
        let spec = r##"{"openapi":"3.0.0","info":{"title":"T"},"paths":{
            "/a":{"x-internal":true,"get":{"operationId":"a"}},
            "/b":{"x-visibility":"private","get":{"operationId":"b","x-visibility":"public"}},
            "/c":{"get":{"operationId":"c","x-internal":"true"}},
            "/d":{"get":{"operationId":"d","x-visibility":["public"]}},
            "/e":{"get":{"operationId":"e","x-visibility":"secret"}},
            "/f":{"get":{"operationId":"f"}}}}"##;
        let ops = load_spec_text(spec, Path::new("s.json"), "s.json", Declared::Absent)
            .unwrap()
            .operations;
        let v: Vec<_> = ops
            .iter()
            .map(|o| (o.operation_id.as_str(), o.visibility()))
            .collect();
        assert_eq!(
            v,
            [
                ("a", Visibility::Internal),
                ("b", Visibility::Private),
                ("c", Visibility::Internal),
                ("d", Visibility::Private),
                ("e", Visibility::Private),
                ("f", Visibility::Public),
            ]
        );
        let internal_doc = spec.replacen("\"info\"", "\"x-internal\":true,\"info\"", 1);
        let ops = load_spec_text(
            &internal_doc,
            Path::new("s.json"),
            "s.json",
            Declared::Absent,
        )
        .unwrap()
        .operations;
        assert!(ops.iter().all(|o| o.visibility() >= Visibility::Internal));
        let ops = load_spec_text(
            spec,
            Path::new("s.json"),
            "s.json",
            Declared::Known(Visibility::Private),
        )
        .unwrap()
        .operations;
        assert!(ops.iter().all(|o| o.visibility() == Visibility::Private));
    }

    #[test]
    fn issue_18_ref_siblings_and_repeated_keys_declare_too() {
        let spec = r##"{"openapi":"3.0.0","info":{"title":"T"},
            "components":{"pathItems":{"Shared":{"get":{"operationId":"shared"}}}},
            "paths":{
              "/a":{"$ref":"#/components/pathItems/Shared","x-internal":true},
              "/b":{"$ref":"#/components/pathItems/Missing","get":{"operationId":"b"}},
              "/c":{"get":{"operationId":"c","x-internal":true,"x-internal":false}},
              "/d":{"x-visibility":"private","x-visibility":"public","get":{"operationId":"d"}},
              "/e":{"get":{"operationId":"e"}}
            }}"##;
        let ops = load_spec_text(spec, Path::new("s.json"), "s.json", Declared::Absent)
            .unwrap()
            .operations;
        let vis = |id: &str| {
            ops.iter()
                .find(|o| o.operation_id == id)
                .unwrap()
                .visibility()
        };
        assert_eq!(
            vis("shared"),
            Visibility::Internal,
            "x-internal beside a $ref"
        );
        assert_eq!(
            vis("c"),
            Visibility::Private,
            "a repeated x-internal withholds"
        );
        assert_eq!(
            vis("d"),
            Visibility::Private,
            "a repeated x-visibility withholds"
        );
        assert_eq!(vis("e"), Visibility::Public);
        assert!(ops
            .iter()
            .all(|o| o.operation_id != "b" || o.visibility() == Visibility::Private));
    }

    #[test]
    fn issue_18_internal_parameters_and_properties_stay_internal() {
        let spec = r##"{"openapi":"3.0.0","paths":{"/a":{"get":{"operationId":"a",
            "parameters":[{"name":"pubparam","in":"query"},{"name":"secretparam","in":"query","x-internal":true}],
            "responses":{"200":{"description":"OK","content":{"application/json":{"schema":{"properties":{
              "pubprop":{"type":"string"},
              "secretprop":{"x-visibility":"internal","properties":{"nestedsecret":{}}},
              "oddprop":{"x-visibility":"secret"}}}}}}}}}}}"##;
        let op = load_spec_text(spec, Path::new("s.json"), "s.json", Declared::Absent)
            .unwrap()
            .operations
            .remove(0);
        let public = op.markdown(Visibility::Public, &mut |t, _| t.to_owned());
        let internal = op.markdown(Visibility::Internal, &mut |t, _| t.to_owned());
        for w in ["pubparam", "pubprop"] {
            assert!(public.contains(w) && internal.contains(w), "{w}");
        }
        for w in ["secretparam", "secretprop", "nestedsecret"] {
            assert!(!public.contains(w) && internal.contains(w), "{w}: {public}");
        }
        assert!(!internal.contains("oddprop"), "not understood withholds");
    }

    #[test]
    fn issue_24_schema_fan_out_is_linear_and_bounded() {
        // Five schemas, each an allOf of 60 references to the next: 60^4 paths, each schema once.
        let mut schemas = serde_json::Map::new();
        for i in 0..5 {
            let mut s = serde_json::json!({"properties": {format!("p{i}"): {"type": "string"}}});
            if i < 4 {
                let next = serde_json::json!({"$ref": format!("#/components/schemas/S{}", i + 1)});
                s["allOf"] = Value::Array(vec![next; 60]);
            }
            schemas.insert(format!("S{i}"), s);
        }
        let body = serde_json::json!({"content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}});
        let mut paths = serde_json::Map::new();
        for i in 0..20 {
            paths.insert(
                format!("/x{i}"),
                serde_json::json!({"post": {"operationId": format!("x{i}"), "requestBody": body}}),
            );
        }
        let spec = serde_json::json!({"openapi": "3.0.0", "info": {"title": "T"}, "paths": paths, "components": {"schemas": schemas}});
        let spec = load_spec_text(
            &spec.to_string(),
            Path::new("s.json"),
            "s.json",
            Declared::Absent,
        )
        .unwrap();
        let fields = &spec.operations[0].request_fields;
        for p in ["p0", "p1", "p2", "p3"] {
            assert!(fields.iter().any(|f| f.0.contains(p)), "{p} in {fields:?}");
        }
        assert!(fields.len() <= 6, "each property once: {fields:?}");
        // A wide schema is cut at the node budget, with a warning.
        let wide: Vec<Value> = (0..MAX_SCHEMA_NODES + 10)
            .map(|i| serde_json::json!({"description": format!("n{i}")}))
            .collect();
        let spec = serde_json::json!({"openapi": "3.0.0", "paths": {"/w": {"post": {"requestBody": {"content": {"a/b": {"schema": {"anyOf": wide}}}}}}}});
        let spec = load_spec_text(
            &spec.to_string(),
            Path::new("s.json"),
            "s.json",
            Declared::Absent,
        )
        .unwrap();
        assert!(
            spec.warnings.iter().any(|w| w.contains("fan out")),
            "{:?}",
            spec.warnings
        );
    }

    #[test]
    fn issue_24_operation_refs_name_specs_as_mintlify_does() {
        let r = OperationRef::parse("v2-spec post /v1/jobs/{id}/retry").unwrap();
        assert_eq!(r.key, "POST /v1/jobs/{id}/retry");
        for display in [
            "v2-spec.yaml",
            "api/v2-spec.yaml",
            "v2-spec.json",
            "v2-spec",
        ] {
            assert!(r.names_spec(display), "{display}");
        }
        for display in ["spec.yml", "v2-spec-old.yaml", "api/v2.yaml"] {
            assert!(!r.names_spec(display), "{display}");
        }
        let r = OperationRef::parse("/api/v2-spec.yaml GET /x").unwrap();
        assert!(r.names_spec("api/v2-spec.yaml") && !r.names_spec("v2-spec.yaml"));
        assert!(OperationRef::parse("GET /x")
            .unwrap()
            .names_spec("any.json"));
        assert!(OperationRef::parse("spec FETCH /x").is_none());
        let w = OperationRef::parse("openapi.json webhook orderUpdated").unwrap();
        assert_eq!(
            (w.spec.as_deref(), w.key.as_str()),
            (Some("openapi.json"), "WEBHOOK orderUpdated")
        );
        assert_eq!(
            endpoint_shape("GET /users/{userId}/"),
            endpoint_shape("GET /users/{id}")
        );
        assert!(OperationRef::parse("GET x").is_none());
    }

    #[test]
    fn issue_18_yaml_merge_keys_carry_declarations() {
        let spec = "openapi: 3.0.0\ninfo: {title: T}\nx-defs: {int: &int {x-internal: true}}\npaths:\n  /a:\n    post: {<<: *int, operationId: a, summary: A}\n";
        let ops = load_spec_text(spec, Path::new("s.yaml"), "s.yaml", Declared::Absent)
            .unwrap()
            .operations;
        assert_eq!(ops[0].visibility(), Visibility::Internal);
        // YAML refuses a repeated key outright (the spec is skipped with its line).
        let dup = "openapi: 3.0.0\ninfo: {title: T}\npaths:\n  /a:\n    get: {operationId: a, x-internal: true, x-internal: false}\n";
        let e = load_spec_text(dup, Path::new("s.yaml"), "s.yaml", Declared::Absent).unwrap_err();
        assert!(e.message.contains("duplicate"), "{}", e.message);
    }

    #[test]
    fn issue_18_deeply_nested_specs_are_refused_before_parsing() {
        let deep = format!("openapi: 3.0.0\npaths: {}\n", "[".repeat(200_000));
        let t = std::time::Instant::now();
        let e = load_spec_text(&deep, Path::new("s.yaml"), "s.yaml", Declared::Absent).unwrap_err();
        assert!(e.message.contains("nests"), "{}", e.message);
        assert!(t.elapsed().as_secs() < 5);
    }

    #[test]
    fn bad_specs_are_reported_with_a_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.json");
        std::fs::write(&p, "{\n\"openapi\": \"3.0.0\",\n\"paths\": {,}\n}").unwrap();
        let e = load_spec(&p, "bad.json").unwrap_err();
        assert_eq!(e.line, Some(3));
        std::fs::write(&p, "{\"swagger\": \"2.0\"}").unwrap();
        assert!(load_spec(&p, "bad.json")
            .unwrap_err()
            .message
            .contains("OpenAPI 3"));
    }

    /// Review: objects are read in JavaScript's order, as Mintlify iterates them: status codes
    /// (integer-like keys) ascending first, then the rest as written; paths as written.
    #[test]
    fn session_28_objects_in_javascripts_order() {
        let spec = r#"{"openapi": "3.0.0", "info": {"title": "T"}, "paths": {
            "/z": {"get": {"operationId": "z", "responses": {
                "default": {"description": "Other"}, "404": {"description": "Missing"},
                "200": {"description": "Fine"}}}},
            "/a": {"get": {"operationId": "a"}}}}"#;
        let ops = load_spec_text(spec, Path::new("s.json"), "s.json", Declared::Absent)
            .unwrap()
            .operations;
        let ids: Vec<&str> = ops.iter().map(|o| o.operation_id.as_str()).collect();
        assert_eq!(ids, ["z", "a"]);
        let codes: Vec<&str> = (ops[0].response_fields.iter())
            .map(|(f, _)| f.split(':').next().unwrap_or(""))
            .collect();
        assert_eq!(codes, ["200", "404", "default"]);
    }
}
