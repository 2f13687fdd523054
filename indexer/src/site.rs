//! Site discovery: `docs.json` (current Mintlify) or `mint.json` (legacy) navigation, `$ref`-split
//! navigation files, language and version variants; or, without a config file, every Markdown file.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::document::Diagnostic;
pub use crate::visibility::VisibilityRules;
use crate::visibility::{normalize_rel, Flag, Refusal, SiteFile, SiteRoot};

/// Where a page sits in the navigation.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct NavEntry {
    pub breadcrumb: Vec<String>,
    pub language: Option<String>,
    pub version: Option<String>,
    /// Position in navigation order.
    pub order: usize,
    /// Under a navigation element marked `hidden` (a group, tab, anchor, version...) and not made
    /// `searchable: true` again: Mintlify leaves its pages out of search, as a page's own
    /// `hidden: true` (<https://www.mintlify.com/docs/organize/hidden-pages>): the nearest
    /// hidden element decides, and a page's own `hidden: false` puts it back. A page listed twice
    /// is hidden when either listing is (the most restrictive wins).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// Hidden by an element whose `hidden` was not understood: no `hidden: false` below puts its
    /// pages back.
    #[serde(skip)]
    pub hidden_unreadable: bool,
    /// Under a navigation element marked `public: true`: on a site behind authentication, its
    /// pages are the ones readers see without signing in
    /// (<https://www.mintlify.com/docs/deploy/authentication-setup>). A page listed twice is
    /// public only when both listings are.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub public: bool,
}

/// Lists `entry` under `key`, merged with an earlier listing of it ([`NavEntry::merge_listing`]).
fn list_in<K: Ord>(map: &mut BTreeMap<K, NavEntry>, key: K, entry: NavEntry) {
    match map.get_mut(&key) {
        Some(e) => e.merge_listing(&entry),
        None => {
            map.insert(key, entry);
        }
    }
}

/// A page file's key: its site-relative path without one `.mdx` or `.md` (Mintlify serves
/// `notes.md.md` at `/notes.md`).
pub fn page_key(rel: &str) -> &str {
    (rel.strip_suffix(".mdx"))
        .or_else(|| rel.strip_suffix(".md"))
        .unwrap_or(rel)
}

impl NavEntry {
    /// Another listing of the same page joins this one: the most restrictive of the two wins.
    pub fn merge_listing(&mut self, other: &NavEntry) {
        self.hidden |= other.hidden;
        self.public &= other.public;
    }

    /// The facet value for `--group`: the breadcrumb joined with ` > `.
    pub fn group(&self) -> Option<String> {
        (!self.breadcrumb.is_empty()).then(|| self.breadcrumb.join(" > "))
    }
}

/// Where a navigation entry `"[spec ]METHOD /path"` puts its operation's generated page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationPlacement {
    pub nav: NavEntry,
    /// The URL directory (`openapi.directory` of the nearest navigation element that names a spec,
    /// lower-cased; `api-reference` by default).
    pub dir: String,
    /// The navigation order of its last listing in this directory: Mintlify writes a page for
    /// every listing, in navigation order, so where two operations' pages share a URL the one
    /// listed last is the site's.
    pub write_order: usize,
}

/// A navigation element that names a spec and lists none of its operations: Mintlify generates a
/// page for every operation of the spec, under `dir`, listed under the element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkGeneration {
    pub dir: String,
    pub nav: NavEntry,
    /// The order Mintlify generates the elements' pages in (`generateBulkNav`: an element before
    /// the elements inside it): where two pages share a URL, the later is the site's.
    pub write_order: usize,
    /// The write order after the last element inside it: the elements from `write_order` up to
    /// here are it and those inside it. Elements neither inside the other (siblings) are
    /// generated concurrently, in an order we do not know.
    pub subtree_end: usize,
}

/// How the site presents itself (`docs.json`/`mint.json`: `name`, `logo`, `colors.primary`), for
/// the demo, which should look like the site a team knows. Values that are not what they claim (a
/// colour that is not `#rgb`/`#rrggbb`, a logo that is not a site-relative path) are dropped.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Branding {
    pub name: Option<String>,
    /// The light-mode logo, site-relative as written (`logo/light.svg`).
    pub logo: Option<String>,
    /// `#rrggbb` or `#rgb`.
    pub primary: Option<String>,
    /// `description`, whitespace collapsed: the summary under the title of `llms.txt`.
    pub description: Option<String>,
}

impl Branding {
    fn from_config(value: &Value) -> Branding {
        let name = value
            .get("name")
            .and_then(Value::as_str)
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|s| !s.is_empty() && s.chars().count() <= 80);
        let logo = match value.get("logo") {
            Some(Value::String(s)) => Some(s.as_str()),
            Some(v) => ["light", "dark"]
                .iter()
                .find_map(|k| v.get(*k).and_then(Value::as_str)),
            None => None,
        }
        .and_then(|s| normalize_rel(s.trim_start_matches('/')))
        .filter(|s| !s.is_empty());
        let primary = value
            .get("colors")
            .and_then(|c| c.get("primary"))
            .and_then(Value::as_str)
            .filter(|c| {
                let hex = c.strip_prefix('#').unwrap_or("");
                matches!(hex.len(), 3 | 6) && hex.bytes().all(|b| b.is_ascii_hexdigit())
            })
            .map(str::to_owned);
        let description = value
            .get("description")
            .and_then(Value::as_str)
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|s| !s.is_empty());
        Branding {
            name,
            logo,
            primary,
            description,
        }
    }
}

/// What the site configuration says.
#[derive(Debug, Default)]
pub struct SiteConfig {
    pub config_file: Option<String>,
    pub branding: Branding,
    /// Page key (site-relative, normalised, without extension) → navigation entry (a page listed
    /// twice: its listings merged, [`NavEntry::merge_listing`]).
    pub pages: BTreeMap<String, NavEntry>,
    /// Operations listed in navigation as `"[spec ]METHOD /path"`: key (the spec, `METHOD /path`).
    /// Mintlify generates a page for each from the spec the entry names, else from the nearest
    /// navigation element's (any of them when it names several); under the directory of the
    /// nearest `openapi` above the entry. None for an entry with neither: the configuration's own
    /// `api.openapi` is not a navigation default. The spec is a site-relative path.
    /// One placement per URL directory: listed under two elements of one directory, an operation
    /// has one page (its listings merged, the most restrictive wins); of two directories, two.
    pub operations: BTreeMap<(String, String), Vec<OperationPlacement>>,
    /// Specs named by a navigation element (`"openapi": ...` on a tab, group, anchor…) that lists no
    /// operation under it: Mintlify generates a page for every operation for each such element
    /// (`processOpenApiInNav` in `@mintlify/prebuild`, one call per element), under its directory.
    /// A spec two elements name (a visible and a hidden tab, two versions) has both sets of pages.
    pub generated_specs: BTreeMap<String, Vec<BulkGeneration>>,
    /// OpenAPI files referenced by the configuration: site-relative, normalised.
    pub openapi: Vec<String>,
    /// Some navigation element says `public: true`: the site is behind authentication, and only
    /// what is declared public is seen without signing in.
    pub declares_public: bool,
    /// `seo.indexing: "all"` (docs.json) or `seo.indexHiddenPages: true` (mint.json): hidden
    /// pages are searched like any other.
    pub index_hidden: bool,
    pub visibility: VisibilityRules,
    /// Specs docs.json applies OpenAPI Overlays to (`{"source": …, "overlays": […]}`): spec →
    /// the configuration file.
    pub overlays: BTreeMap<String, String>,
    /// docs.json's `variables` (`{{name}}` in pages and snippets): names to text values.
    pub variables: crate::mdx::variables::Variables,
    /// References refused (outside the site, not regular files, too large): reported, not fatal.
    pub warnings: Vec<Diagnostic>,
}

impl SiteConfig {
    /// The navigation listing that makes Mintlify generate a page for the operation `key` of the
    /// loaded spec `spec` (its site-relative path), and the page's directory: one listed for that
    /// spec.
    pub fn listing(&self, spec: &str, key: &str) -> &[OperationPlacement] {
        let k = (spec.to_owned(), key.to_owned());
        self.operations.get(&k).map_or(&[], Vec::as_slice)
    }
}

/// Reads and parses a JSON file of the site; errors name the file and, for syntax errors, the line.
pub(crate) fn read_json(
    site: &SiteRoot,
    rel: &str,
    what: &str,
) -> Result<(String, Value), Diagnostic> {
    // Configuration is read whatever `.mintignore` says (as Mintlify reads it), still only from
    // inside the site.
    let src = site
        .resolve_config(&site.root.join(rel))
        .and_then(|f| site.read(&f))
        .map_err(|e| Diagnostic {
            file: rel.to_owned(),
            line: None,
            message: format!("{what} cannot be read: {e}"),
        })?;
    let value = crate::json::parse(&src).map_err(|e| Diagnostic {
        file: rel.to_owned(),
        line: Some(e.line()),
        message: format!("invalid JSON: {e}"),
    })?;
    Ok((src, value))
}

/// Reads the site's configuration. A broken config file is an error: without it the site has no shape.
pub fn load_site(site: &SiteRoot) -> Result<SiteConfig, Diagnostic> {
    let mut cfg = SiteConfig {
        visibility: load_visibility_rules(site)?,
        ..Default::default()
    };
    for name in ["docs.json", "mint.json"] {
        if std::fs::symlink_metadata(site.root.join(name)).is_err() {
            continue;
        }
        let (_, value) = read_json(site, name, "site configuration")?;
        // Every `$ref`, at any level, resolved before any key is read (as Mintlify's build does).
        let value = crate::config_refs::resolve(site, value, name)?;
        cfg.config_file = Some(name.to_owned());
        cfg.branding = Branding::from_config(&value);
        if name == "docs.json" {
            cfg.variables = read_variables(&value, &mut cfg.warnings);
        }
        // Each file's own key: docs.json has no `indexHiddenPages`, mint.json no `indexing`.
        cfg.index_hidden = match name {
            "docs.json" => value.pointer("/seo/indexing").and_then(Value::as_str) == Some("all"),
            _ => value.pointer("/seo/indexHiddenPages") == Some(&Value::Bool(true)),
        };
        let mut walker = NavWalker {
            site,
            file: name.to_owned(),
            cfg: &mut cfg,
            order: 0,
            depth: 0,
            openapi_dirs: Vec::new(),
            openapi_scopes: Vec::new(),
            listed_in_scope: Vec::new(),
            spec_elements: 0,
            by_name: Vec::new(),
            max_depth: 64,
        };
        if name == "docs.json" {
            // A `public` at the configuration's root is the default of every page: any value says
            // the site is behind authentication, and only the boolean true opens its pages.
            let mut root = NavEntry::default();
            if let Some(public) = value.get("public") {
                walker.cfg.declares_public = true;
                root.public = public == &Value::Bool(true);
            }
            if let Some(nav) = value.get("navigation") {
                walker.node(nav, &root)?;
            }
            // The configuration's own specs: what pages' `openapi:` frontmatter may name.
            for v in [value.pointer("/api/openapi"), value.get("openapi")] {
                walker.add_openapi(v);
            }
            walker.list_by_name();
        } else {
            // Mintlify builds a mint.json site from its upgrade to docs.json's shape.
            let nav =
                crate::mint_upgrade::upgrade_navigation(&value).map_err(|message| Diagnostic {
                    file: name.to_owned(),
                    line: None,
                    message,
                })?;
            // The upgrade wraps the groups in up to eight levels of its own.
            walker.max_depth += 8;
            walker.node(&nav, &NavEntry::default())?;
            walker.add_openapi(value.get("openapi"));
            walker.list_by_name();
            walker.heed_dropped(&crate::mint_upgrade::dropped_declarations(&value));
        }
        break;
    }
    cfg.openapi.sort();
    cfg.openapi.dedup();
    Ok(cfg)
}

/// docs.json's `variables`: an object of names to text (a number or boolean is read as its text,
/// as JavaScript would print it); anything else is warned about and left out.
fn read_variables(
    config: &Value,
    warnings: &mut Vec<Diagnostic>,
) -> crate::mdx::variables::Variables {
    let mut out = crate::mdx::variables::Variables::new();
    let warn = |warnings: &mut Vec<Diagnostic>, message: String| {
        warnings.push(Diagnostic {
            file: "docs.json".into(),
            line: None,
            message,
        })
    };
    match config.get("variables") {
        None | Some(Value::Null) => {}
        Some(Value::Object(o)) => {
            for (name, value) in o {
                match value {
                    Value::String(s) => {
                        out.insert(name.clone(), s.clone());
                    }
                    Value::Number(_) | Value::Bool(_) => {
                        out.insert(name.clone(), value.to_string());
                    }
                    _ => warn(
                        warnings,
                        format!(
                            "`variables.{name}` is not text; `{{{{{name}}}}}` is left as written"
                        ),
                    ),
                }
            }
        }
        Some(_) => warn(
            warnings,
            "`variables` is not an object of names to text; no variable is replaced".into(),
        ),
    }
    out
}

fn load_visibility_rules(site: &SiteRoot) -> Result<VisibilityRules, Diagnostic> {
    if std::fs::symlink_metadata(site.root.join("aidocs.json")).is_err() {
        return Ok(VisibilityRules::default());
    }
    let (src, value) = read_json(site, "aidocs.json", "visibility configuration")?;
    // Our own file: a key written twice is an error, not a silent override.
    crate::json::parse_unique(&src).map_err(|e| Diagnostic {
        file: "aidocs.json".into(),
        line: Some(e.line()),
        message: format!("invalid JSON: {e}"),
    })?;
    VisibilityRules::parse(&value, src, "aidocs.json")
}

/// `dir/reference` (or `reference` from the root when it starts with `/`), normalised; `None` when
/// it leaves the site.
pub(crate) fn join_rel(dir: &str, reference: &str) -> Option<String> {
    if reference.trim().starts_with('/') || dir.is_empty() {
        normalize_rel(reference)
    } else {
        normalize_rel(&format!("{dir}/{}", reference.trim()))
    }
}

/// The `directory` of an `openapi` value (`{"source": "...", "directory": "api"}`), lower-cased and
/// without surrounding slashes, as Mintlify reads it; `api-reference` otherwise.
/// The directory of an element's generated pages as Mintlify joins it into their URLs (`outDir`):
/// as written (`""` is none: the pages sit at the root), [`DEFAULT_API_DIRECTORY`] when absent.
fn openapi_directory(directory: Option<&str>) -> String {
    directory.map_or_else(|| DEFAULT_API_DIRECTORY.to_owned(), str::to_owned)
}

/// The spec a navigation element generates pages from, and their directory, as Mintlify's
/// `extractOpenApiFromNav` reads its `openapi`: a path, `{source, directory}`, or the first entry
/// of a list (the later entries are read for the pages that name them in their frontmatter, but
/// generate nothing): the source when it names one, and the directory. `None` when it names
/// neither (`null`, `[]`, no string `source`): the element keeps the spec and directory of the one
/// above it.
fn generating_openapi(v: &Value) -> Option<(Option<&str>, Option<&str>)> {
    fn directory(o: &serde_json::Map<String, Value>) -> Option<&str> {
        o.get("directory").and_then(Value::as_str)
    }
    match v {
        Value::String(s) => Some((Some(s), None)),
        // A list's first entry: a path, or `{source, directory}` whose directory counts even
        // without a source.
        Value::Array(a) => match a.first()? {
            Value::String(s) => Some((Some(s), None)),
            Value::Object(o) => {
                let source = o.get("source").and_then(Value::as_str);
                (source.is_some() || directory(o).is_some()).then(|| (source, directory(o)))
            }
            _ => None,
        },
        Value::Object(o) => Some((Some(o.get("source")?.as_str()?), directory(o))),
        _ => None,
    }
}

struct NavWalker<'a> {
    site: &'a SiteRoot,
    /// The navigation file being read (messages).
    file: String,
    cfg: &'a mut SiteConfig,
    order: usize,
    depth: usize,
    /// The directory of the innermost navigation element that names a spec.
    openapi_dirs: Vec<String>,
    /// The specs of the innermost navigation element that names any (site-relative; none when it
    /// names only URLs, whose operations this build cannot read).
    openapi_scopes: Vec<Vec<String>>,
    /// For each element of `openapi_scopes`, whether an operation was listed under it without
    /// naming its spec: Mintlify then generates no page for the rest of that element's spec (the
    /// spec's owner only, and never the navigation's root: `skipBulkForNodeId`).
    listed_in_scope: Vec<bool>,
    /// Elements that named a spec so far, in document order (an element before those inside it).
    spec_elements: usize,
    /// Operations listed with a spec named by file name or stem: (the name, `METHOD /path`, the
    /// entry, the page's directory), listed by [`NavWalker::list_by_name`].
    by_name: Vec<(String, String, NavEntry, String)>,
    /// How deep the navigation may nest.
    max_depth: usize,
}

/// Where Mintlify puts generated endpoint pages when `openapi` sets no `directory`.
pub const DEFAULT_API_DIRECTORY: &str = "api-reference";

const LABEL_KEYS: &[&str] = &[
    "tab", "anchor", "dropdown", "group", "product", "item", "menu",
];
const CHILD_KEYS: &[&str] = &[
    "languages",
    "versions",
    "products",
    "dropdowns",
    "tabs",
    "anchors",
    "menu",
    "groups",
    "pages",
];

/// A navigation entry `"[spec ]METHOD /path"`: the spec as written, and `METHOD /path`.
fn is_operation_ref(s: &str) -> Option<(Option<&str>, String)> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    let (spec, m, p) = match parts.as_slice() {
        [m, p] => (None, *m, *p),
        [spec, m, p] => (Some(*spec), *m, *p),
        _ => return None,
    };
    let m = m.to_ascii_uppercase();
    ([
        "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE",
    ]
    .contains(&m.as_str())
        && p.starts_with('/'))
    .then(|| (spec, format!("{m} {p}")))
}

impl NavWalker<'_> {
    fn warn(&mut self, message: String) {
        self.cfg.warnings.push(Diagnostic {
            file: self.file.clone(),
            line: None,
            message,
        });
    }

    /// Lists the operation `op` of each spec of `specs` under `entry`, its page in `dir`.
    fn list_operation(&mut self, specs: Vec<String>, op: &str, entry: &NavEntry, dir: &str) {
        for spec in specs {
            let placements = self
                .cfg
                .operations
                .entry((spec, op.to_owned()))
                .or_default();
            match placements.iter_mut().find(|p| p.dir == dir) {
                Some(p) => {
                    p.nav.merge_listing(entry);
                    p.write_order = p.write_order.max(entry.order);
                }
                None => placements.push(OperationPlacement {
                    nav: entry.clone(),
                    dir: dir.to_owned(),
                    write_order: entry.order,
                }),
            }
        }
    }

    /// Lists the operations whose entries name their spec by file name or stem, under the specs of
    /// the configuration so named.
    fn list_by_name(&mut self) {
        for (written, op, entry, dir) in std::mem::take(&mut self.by_name) {
            let reference = crate::openapi::OperationRef {
                spec: Some(written.trim_start_matches("./").to_owned()),
                key: op.clone(),
            };
            let specs: Vec<String> = (self.cfg.openapi.iter())
                .filter(|d| reference.names_spec(d))
                .cloned()
                .collect();
            if specs.is_empty() {
                self.warn(format!("navigation entry `{written} {op}` names no spec of the site (by path, file name or name without extension); no page is generated for it"));
            }
            self.list_operation(specs, &op, &entry, &dir);
        }
    }

    fn add_page(&mut self, page: &str, ctx: &NavEntry) {
        let mut entry = ctx.clone();
        entry.order = self.order;
        self.order += 1;
        if let Some((spec, op)) = is_operation_ref(page) {
            if spec.is_none() {
                if let Some(listed) = self.listed_in_scope.last_mut() {
                    *listed = true;
                }
            }
            let dir = self
                .openapi_dirs
                .last()
                .cloned()
                .unwrap_or_else(|| DEFAULT_API_DIRECTORY.to_owned());
            // The spec the entry names (read like any other), else the nearest element's.
            let specs = match spec {
                Some(s) if s.starts_with("http://") || s.starts_with("https://") => Vec::new(),
                // A spec named by its file name or stem (`v2-spec GET /x`, as frontmatter may
                // name one): matched once every spec of the configuration is known.
                Some(s)
                    if normalize_rel(s).is_none_or(|rel| {
                        std::fs::symlink_metadata(self.site.root.join(rel)).is_err()
                    }) =>
                {
                    self.by_name.push((s.to_owned(), op, entry, dir));
                    return;
                }
                Some(s) => self.add_openapi(Some(&Value::String(s.to_owned()))),
                // No spec named and none in scope: Mintlify generates nothing for the entry
                // (`processNav` in `@mintlify/prebuild`; `api.openapi` only serves `openapi:`
                // frontmatter), and the site has no page at any URL for it.
                None => match self.openapi_scopes.last() {
                    Some(scope) => scope.clone(),
                    None => {
                        self.warn(format!("navigation entry `{}` names no spec, and no navigation element above it names one (`openapi`): Mintlify generates no page for it (`api.openapi` only serves pages' `openapi:` frontmatter)", page.trim()));
                        return;
                    }
                },
            };
            self.list_operation(specs, &op, &entry, &dir);
            return;
        }
        let written = page.trim();
        if written.is_empty() || written.starts_with("http://") || written.starts_with("https://") {
            return;
        }
        // Keys name pages from the site root, whatever file lists them (as Mintlify reads them).
        let Some(key) = normalize_rel(written) else {
            self.warn(format!(
                "navigation page `{written}` is not a path inside the site; it is skipped"
            ));
            return;
        };
        // Mintlify looks a page up by its name without extension: `guide.mdx` names no page, and
        // the file stays out of the navigation (an unlisted page).
        if page_key(&key) != key {
            self.warn(format!(
                "navigation page `{written}` is written with its extension: Mintlify lists no page by that name (write `{}`); the file is left out of the navigation",
                page_key(&key)
            ));
            return;
        }
        list_in(&mut self.cfg.pages, key, entry);
    }

    /// `openapi` of the configuration or a navigation node: site-relative spec files (URLs are left
    /// to the site's renderer).
    fn add_openapi<'v>(&mut self, v: Option<&'v Value>) -> Vec<String> {
        let mut added = Vec::new();
        // Each spec named, and whether overlays change it (any `overlays` value: most
        // restrictive): a path, `{"source", "overlays"}`, or a list of either.
        let mut refs: Vec<(&str, bool)> = Vec::new();
        let one = |v: &'v Value, refs: &mut Vec<(&'v str, bool)>| match v {
            Value::String(s) => refs.push((s, false)),
            Value::Object(o) => {
                let overlaid = o.get("overlays").is_some_and(|x| !x.is_null());
                refs.extend(
                    o.get("source")
                        .and_then(Value::as_str)
                        .map(|s| (s, overlaid)),
                );
            }
            _ => {}
        };
        match v {
            Some(Value::Array(a)) => a.iter().for_each(|item| one(item, &mut refs)),
            Some(other) => one(other, &mut refs),
            None => {}
        }
        for (s, overlaid) in refs {
            if s.starts_with("http://") || s.starts_with("https://") {
                continue;
            }
            match normalize_rel(s) {
                Some(rel) => {
                    if overlaid {
                        let file = self.file.clone();
                        self.cfg.overlays.insert(rel.clone(), file);
                    }
                    self.cfg.openapi.push(rel.clone());
                    added.push(rel);
                }
                None => self.warn(format!(
                    "`openapi: {s}` is not a path inside the site; the spec is not read"
                )),
            }
        }
        added
    }

    fn node(&mut self, v: &Value, ctx: &NavEntry) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(Diagnostic {
                file: self.file.clone(),
                line: None,
                message: "navigation nests deeper than 64 levels ($ref cycle?)".into(),
            });
        }
        let r = self.node_inner(v, ctx);
        self.depth -= 1;
        r
    }

    fn node_inner(&mut self, v: &Value, ctx: &NavEntry) -> Result<(), Diagnostic> {
        match v {
            Value::String(s) => self.add_page(s, ctx),
            Value::Array(items) => {
                for item in items {
                    self.node(item, ctx)?;
                }
            }
            Value::Object(o) => {
                let obj = o;
                let mut ctx = ctx.clone();
                let hidden = Flag::from_json_map(obj, "hidden");
                if hidden.withholds() {
                    // `searchable: true` (that key, that boolean: what Mintlify reads) on a hidden
                    // element keeps its pages in search.
                    if let Some(problem) = hidden.problem() {
                        self.warn(format!(
                            "navigation element: {problem}; its pages are left out as hidden"
                        ));
                    }
                    // Mintlify's configuration keeps `searchable` on tabs and groups only.
                    let searchable = obj.get("searchable") == Some(&Value::Bool(true))
                        && ["tab", "group"].iter().any(|k| obj.contains_key(*k));
                    ctx.hidden = !(searchable && hidden.problem().is_none());
                    ctx.hidden_unreadable |= hidden.problem().is_some();
                } else if obj.get("hidden") == Some(&Value::Bool(false)) && !ctx.hidden_unreadable {
                    // An element's own boolean `hidden: false` shows it and its pages under a
                    // hidden one (Mintlify's `generatePathToHiddenFromSearchDict`: an explicit
                    // boolean decides over the element's ancestors).
                    ctx.hidden = false;
                }
                // `public: true` on a group: its pages need no sign-in. Any truthy `public` says
                // the site is behind authentication; only a group's key `public` with the boolean
                // true opens its pages (Mintlify's configuration drops `public` on tabs, anchors
                // and the other elements), and `public: false` closes them again.
                let public = Flag::from_json_map(obj, "public");
                if public.withholds() {
                    self.cfg.declares_public = true;
                }
                if public != Flag::Absent {
                    let opens = obj.contains_key("group")
                        && public == Flag::Set(true)
                        && obj.get("public") == Some(&Value::Bool(true));
                    ctx.public = opens || (ctx.public && !obj.contains_key("group"));
                }
                if let Some(l) = obj.get("language").and_then(Value::as_str) {
                    ctx.language = Some(l.to_owned());
                }
                if let Some(l) = obj.get("version").and_then(Value::as_str) {
                    ctx.version = Some(l.to_owned());
                }
                for key in LABEL_KEYS {
                    if let Some(label) = obj.get(*key).and_then(Value::as_str) {
                        ctx.breadcrumb.push(label.to_owned());
                        break;
                    }
                }
                // A navigation element that names a spec: its listed operations get pages under
                // its directory, or, when it lists none, every operation of the spec does.
                let root = self.depth == 1;
                let named = obj.get("openapi").and_then(|o| {
                    self.add_openapi(Some(o));
                    generating_openapi(o)
                });
                let specs = match named {
                    Some((Some(source), directory)) => {
                        // A spec at a URL is named but not read: its operations get no page here.
                        let rels = (!source.starts_with("http://")
                            && !source.starts_with("https://"))
                        .then(|| normalize_rel(source))
                        .flatten();
                        Some((
                            rels.into_iter().collect::<Vec<_>>(),
                            openapi_directory(directory),
                        ))
                    }
                    // A list whose first entry has a directory and no spec: the enclosing spec,
                    // under this directory.
                    Some((None, Some(directory))) => Some((
                        self.openapi_scopes.last().cloned().unwrap_or_default(),
                        directory.to_owned(),
                    )),
                    _ => None,
                };
                let owns = matches!(named, Some((Some(_), _)));
                let write_order = self.spec_elements;
                self.spec_elements += usize::from(owns);
                if let Some((rels, dir)) = &specs {
                    self.openapi_dirs.push(dir.clone());
                    self.openapi_scopes.push(rels.clone());
                    self.listed_in_scope.push(false);
                }
                if let Some(root_page) = obj.get("root").and_then(Value::as_str) {
                    self.add_page(root_page, &ctx);
                }
                for key in CHILD_KEYS {
                    if let Some(child) = obj.get(*key) {
                        // `menu` and `item` can be a label or a list.
                        if child.is_string() && (*key == "menu") {
                            continue;
                        }
                        self.node(child, &ctx)?;
                    }
                }
                if let Some((rels, dir)) = specs {
                    self.openapi_dirs.pop();
                    self.openapi_scopes.pop();
                    let listed = self.listed_in_scope.pop().unwrap_or(false);
                    // A listing that names no spec is charged to the element owning the spec in
                    // scope: one that only sets a directory passes it up.
                    if !owns && listed {
                        if let Some(up) = self.listed_in_scope.last_mut() {
                            *up = true;
                        }
                    }
                    if owns && (!listed || root) {
                        let mut entry = ctx.clone();
                        entry.order = self.order;
                        self.order += 1;
                        for rel in rels {
                            (self.cfg.generated_specs.entry(rel)).or_default().push(
                                BulkGeneration {
                                    dir: dir.clone(),
                                    nav: entry.clone(),
                                    write_order,
                                    subtree_end: self.spec_elements,
                                },
                            );
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// What mint.json declares and its upgrade drops, most restrictive: a `public` key says the
    /// site is behind authentication (it opens nothing), a group's `hidden` hides its pages.
    fn heed_dropped(&mut self, dropped: &crate::mint_upgrade::MintDeclarations) {
        if dropped.declares_public {
            self.cfg.declares_public = true;
            self.warn("`public` in mint.json's navigation: Mintlify's upgrade to docs.json drops it, so it opens no page; the site is read as behind authentication".into());
        }
        for page in &dropped.hidden_pages {
            if let Some(entry) = normalize_rel(page).and_then(|k| self.cfg.pages.get_mut(&k)) {
                entry.hidden = true;
            }
        }
        if !dropped.hidden_pages.is_empty() {
            self.warn("`hidden` on a group in mint.json, which its schema refuses: the pages listed under it are left out as hidden".into());
        }
    }
}

/// Whether Mintlify makes a page of the site-relative file `rel` (`getFileCategory` in
/// `@mintlify/common`, imports aside: [`crate::ingest`] applies those), reading the path without
/// regard to case: `.mdx` and `.md` files, but not those under `snippets/` or `_snippets/`
/// (snippets), `.md` files named README, LICENSE, CONTRIBUTING or CONTRIBUTE in any folder (no
/// file of the site at all), or the agent skill files (`skill.md`, `.mintlify/skills/*/skill.md`).
pub fn is_page_file(rel: &str) -> bool {
    let lower = rel.to_lowercase();
    let base = lower.rsplit('/').next().unwrap_or(&lower);
    // As `path.parse`: a leading dot starts no extension (`.md` is a name).
    let (name, ext) = match base.rfind('.') {
        Some(i) if i > 0 => (&base[..i], &base[i + 1..]),
        _ => (base, ""),
    };
    if lower.starts_with("snippets/") || lower.starts_with("_snippets/") {
        return false;
    }
    if lower == "skill.md" || (lower.starts_with(".mintlify/skills/") && base == "skill.md") {
        return false;
    }
    match ext {
        "mdx" => true,
        "md" => !["readme", "license", "contributing", "contribute"].contains(&name),
        _ => false,
    }
}

/// All Markdown/MDX files under the site that Mintlify makes pages of ([`is_page_file`]),
/// site-relative, sorted; hidden folders and what Mintlify ignores (`.mintignore`, its defaults)
/// excluded.
pub fn markdown_files(site: &SiteRoot) -> Vec<String> {
    let root = site.root.as_path();
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy().to_lowercase();
            e.depth() == 0
                || !(name.starts_with('.')
                    || (e.depth() == 1 && matches!(name.as_str(), "snippets" | "_snippets")))
        })
        .flatten()
    {
        if !entry.file_type().is_file() {
            continue;
        }
        let p = entry.path();
        if matches!(p.extension().and_then(|e| e.to_str()), Some("md" | "mdx")) {
            if let Ok(rel) = p.strip_prefix(root) {
                let rel = rel.to_string_lossy().replace('\\', "/");
                if !site.ignores(&rel)
                    && is_page_file(&rel)
                    && !matches!(rel.as_str(), "AGENTS.md" | "CLAUDE.md")
                {
                    out.push(rel);
                }
            }
        }
    }
    out.sort();
    out
}

/// The file for a navigation page key: `x.mdx`, `x.md`, `x/index.mdx`, `x/index.md`, as written
/// (site-relative) and resolved. `Err` when the first candidate that exists is refused (outside the
/// site through a symlink, not a regular file, too large); `Ok(None)` when none exists.
pub fn resolve_page_file(
    site: &SiteRoot,
    key: &str,
) -> Result<Option<(String, SiteFile)>, (String, Refusal)> {
    for cand in [
        format!("{key}.mdx"),
        format!("{key}.md"),
        format!("{key}/index.mdx"),
        format!("{key}/index.md"),
    ] {
        match site.resolve(&site.root.join(&cand)) {
            Ok(f) => return Ok(Some((cand, f))),
            Err(Refusal::Missing) => {}
            Err(e) => return Err((cand, e)),
        }
    }
    Ok(None)
}

/// Page URL from its id: `/quickstart`, `/` for `index`, `/cli` for `cli/index`.
pub fn page_url(id: &str) -> String {
    let trimmed = id.strip_suffix("/index").unwrap_or(id);
    if trimmed == "index" {
        "/".to_owned()
    } else {
        format!("/{trimmed}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_refs_are_recognized() {
        assert_eq!(
            is_operation_ref("GET /users"),
            Some((None, "GET /users".to_owned()))
        );
        assert_eq!(
            is_operation_ref("openapi.json post /users/{id}"),
            Some((Some("openapi.json"), "POST /users/{id}".to_owned()))
        );
        assert_eq!(is_operation_ref("guides/get-started"), None);
    }

    #[test]
    fn urls() {
        assert_eq!(page_url("index"), "/");
        assert_eq!(page_url("cli/index"), "/cli");
        assert_eq!(page_url("guides/auth"), "/guides/auth");
    }
}
