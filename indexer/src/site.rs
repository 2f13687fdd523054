//! Site discovery: `docs.json` (current Mintlify) or `mint.json` (legacy) navigation, `$ref`-split
//! navigation files, language and version variants; or, without a config file, every Markdown file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde_json::Value;

use crate::model::{Diagnostic, Visibility};

/// Where a page sits in the navigation.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct NavEntry {
    pub breadcrumb: Vec<String>,
    pub language: Option<String>,
    pub version: Option<String>,
    /// Position in navigation order.
    pub order: usize,
}

impl NavEntry {
    /// The facet value for `--group`: the breadcrumb joined with ` > `.
    pub fn group(&self) -> Option<String> {
        (!self.breadcrumb.is_empty()).then(|| self.breadcrumb.join(" > "))
    }
}

/// What the site configuration says.
#[derive(Debug, Default)]
pub struct SiteConfig {
    pub config_file: Option<PathBuf>,
    /// Page path (without extension, no leading `/`) → navigation entry (first occurrence wins).
    pub pages: BTreeMap<String, NavEntry>,
    /// Operations listed in navigation as `"[spec ]METHOD /path"`: key `METHOD /path`.
    pub operations: BTreeMap<String, NavEntry>,
    /// OpenAPI files referenced by the configuration, site-relative.
    pub openapi: Vec<PathBuf>,
    pub visibility: VisibilityRules,
}

/// Visibility globs from `aidocs.json` (`{"visibility": {"internal": ["internal/**"], "private": [...]}}`).
#[derive(Debug, Default)]
pub struct VisibilityRules {
    internal: Option<GlobSet>,
    private: Option<GlobSet>,
    /// The raw rules, part of the cache fingerprint.
    pub source: String,
}

impl VisibilityRules {
    /// The visibility a glob assigns to a site-relative path, if any (private wins over internal).
    pub fn for_path(&self, rel: &str) -> Option<Visibility> {
        if self.private.as_ref().is_some_and(|g| g.is_match(rel)) {
            return Some(Visibility::Private);
        }
        if self.internal.as_ref().is_some_and(|g| g.is_match(rel)) {
            return Some(Visibility::Internal);
        }
        None
    }
}

/// Reads and parses a JSON file; errors name the file and, for syntax errors, the line.
fn read_json(path: &Path, what: &str) -> Result<(String, Value), Diagnostic> {
    let file = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|e| Diagnostic {
        file: file.clone(),
        line: None,
        message: format!("{what} cannot be read: {e}"),
    })?;
    let value = serde_json::from_str(&src).map_err(|e| Diagnostic {
        file,
        line: Some(e.line()),
        message: format!("invalid JSON: {e}"),
    })?;
    Ok((src, value))
}

/// Reads the site's configuration. A broken config file is an error: without it the site has no shape.
pub fn load_site(root: &Path) -> Result<SiteConfig, Diagnostic> {
    let mut cfg = SiteConfig {
        visibility: load_visibility_rules(root)?,
        ..Default::default()
    };
    for name in ["docs.json", "mint.json"] {
        let path = root.join(name);
        if !path.is_file() {
            continue;
        }
        let (_, value) = read_json(&path, "site configuration")?;
        cfg.config_file = Some(path.clone());
        let mut walker = NavWalker {
            root,
            cfg: &mut cfg,
            order: 0,
            depth: 0,
        };
        if name == "docs.json" {
            if let Some(nav) = value.get("navigation") {
                walker.node(nav, root, &NavEntry::default())?;
            }
            add_openapi(
                &mut cfg,
                value.get("api").and_then(|a| a.get("openapi")),
                root,
                root,
            );
            add_openapi(&mut cfg, value.get("openapi"), root, root);
        } else {
            walker.legacy(&value)?;
            add_openapi(&mut cfg, value.get("openapi"), root, root);
        }
        break;
    }
    cfg.openapi.sort();
    cfg.openapi.dedup();
    Ok(cfg)
}

fn load_visibility_rules(root: &Path) -> Result<VisibilityRules, Diagnostic> {
    let path = root.join("aidocs.json");
    if !path.is_file() {
        return Ok(VisibilityRules::default());
    }
    let (src, value) = read_json(&path, "visibility configuration")?;
    let build = |level: &str| -> Result<Option<GlobSet>, Diagnostic> {
        let Some(list) = value.get("visibility").and_then(|v| v.get(level)) else {
            return Ok(None);
        };
        let Some(list) = list.as_array() else {
            return Err(Diagnostic {
                file: path.display().to_string(),
                line: None,
                message: format!("field `visibility.{level}` must be an array of glob strings"),
            });
        };
        let mut b = GlobSetBuilder::new();
        for g in list {
            let s = g.as_str().unwrap_or_default();
            let glob = Glob::new(s).map_err(|e| Diagnostic {
                file: path.display().to_string(),
                line: None,
                message: format!("field `visibility.{level}`: bad glob `{s}`: {e}"),
            })?;
            b.add(glob);
        }
        Ok(Some(b.build().map_err(|e| Diagnostic {
            file: path.display().to_string(),
            line: None,
            message: format!("field `visibility.{level}`: {e}"),
        })?))
    };
    Ok(VisibilityRules {
        internal: build("internal")?,
        private: build("private")?,
        source: src,
    })
}

fn add_openapi(cfg: &mut SiteConfig, v: Option<&Value>, root: &Path, base: &Path) {
    let mut push = |s: &str| {
        if s.starts_with("http://") || s.starts_with("https://") {
            return;
        }
        let p = if let Some(rest) = s.strip_prefix('/') {
            root.join(rest)
        } else {
            base.join(s)
        };
        if let Ok(rel) = p.strip_prefix(root) {
            cfg.openapi.push(rel.to_path_buf());
        }
    };
    match v {
        Some(Value::String(s)) => push(s),
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).for_each(&mut push),
        Some(Value::Object(o)) => {
            if let Some(s) = o.get("source").and_then(Value::as_str) {
                push(s)
            }
        }
        _ => {}
    }
}

struct NavWalker<'a> {
    root: &'a Path,
    cfg: &'a mut SiteConfig,
    order: usize,
    depth: usize,
}

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

fn is_operation_ref(s: &str) -> Option<String> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    let (m, p) = match parts.as_slice() {
        [m, p] => (*m, *p),
        [_, m, p] => (*m, *p),
        _ => return None,
    };
    let m = m.to_ascii_uppercase();
    ([
        "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE",
    ]
    .contains(&m.as_str())
        && p.starts_with('/'))
    .then(|| format!("{m} {p}"))
}

impl NavWalker<'_> {
    fn add_page(&mut self, page: &str, ctx: &NavEntry) {
        let mut entry = ctx.clone();
        entry.order = self.order;
        self.order += 1;
        if let Some(op) = is_operation_ref(page) {
            self.cfg.operations.entry(op).or_insert(entry);
            return;
        }
        let key = page
            .trim()
            .trim_start_matches('/')
            .trim_end_matches(".mdx")
            .trim_end_matches(".md")
            .to_owned();
        if !key.is_empty() && !key.starts_with("http") {
            self.cfg.pages.entry(key).or_insert(entry);
        }
    }

    fn node(&mut self, v: &Value, base: &Path, ctx: &NavEntry) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(Diagnostic {
                file: "docs.json".into(),
                line: None,
                message: "navigation nests deeper than 64 levels ($ref cycle?)".into(),
            });
        }
        let r = self.node_inner(v, base, ctx);
        self.depth -= 1;
        r
    }

    fn node_inner(&mut self, v: &Value, base: &Path, ctx: &NavEntry) -> Result<(), Diagnostic> {
        match v {
            Value::String(s) => self.add_page(s, ctx),
            Value::Array(items) => {
                for item in items {
                    self.node(item, base, ctx)?;
                }
            }
            Value::Object(o) => {
                let mut merged;
                let mut obj = o;
                let mut base = base.to_path_buf();
                if let Some(r) = o.get("$ref").and_then(Value::as_str) {
                    let path = base.join(r);
                    let (_, loaded) = read_json(&path, "navigation `$ref`")?;
                    merged = o.clone();
                    merged.remove("$ref");
                    if let Value::Object(lo) = loaded {
                        for (k, val) in lo {
                            merged.entry(k).or_insert(val);
                        }
                    } else {
                        merged.insert("pages".into(), loaded);
                    }
                    obj = &merged;
                    base = path.parent().unwrap_or(&base).to_path_buf();
                }
                let mut ctx = ctx.clone();
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
                if let Some(openapi) = obj.get("openapi") {
                    add_openapi(self.cfg, Some(openapi), self.root, &base);
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
                        self.node(child, &base, &ctx)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// mint.json: `navigation` is a list of groups; `tabs` map URL prefixes to tab names.
    fn legacy(&mut self, v: &Value) -> Result<(), Diagnostic> {
        let tabs: Vec<(String, String)> = v
            .get("tabs")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|t| {
                        Some((
                            t.get("url")?.as_str()?.trim_matches('/').to_owned(),
                            t.get("name")?.as_str()?.to_owned(),
                        ))
                    })
                    .collect()
            })
            .unwrap_or_default();
        if let Some(nav) = v.get("navigation") {
            self.node(nav, self.root, &NavEntry::default())?;
        }
        for (page, entry) in self.cfg.pages.iter_mut() {
            if let Some((_, name)) = tabs
                .iter()
                .filter(|(url, _)| page.starts_with(url.as_str()))
                .max_by_key(|(u, _)| u.len())
            {
                entry.breadcrumb.insert(0, name.clone());
            }
        }
        Ok(())
    }
}

/// All Markdown/MDX files under the site, site-relative, sorted; `snippets/`, hidden and
/// `node_modules` folders excluded.
pub fn markdown_files(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0
                || !(name.starts_with('.')
                    || name == "node_modules"
                    || (e.depth() == 1 && name == "snippets"))
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
                if !matches!(
                    rel.as_str(),
                    "README.md"
                        | "CONTRIBUTING.md"
                        | "LICENSE.md"
                        | "CHANGELOG.md"
                        | "AGENTS.md"
                        | "CLAUDE.md"
                ) {
                    out.push(rel);
                }
            }
        }
    }
    out.sort();
    out
}

/// The file for a navigation page key: `x.mdx`, `x.md`, `x/index.mdx`, `x/index.md`.
pub fn resolve_page_file(root: &Path, key: &str) -> Option<String> {
    [
        format!("{key}.mdx"),
        format!("{key}.md"),
        format!("{key}/index.mdx"),
        format!("{key}/index.md"),
    ]
    .into_iter()
    .find(|cand| root.join(cand).is_file())
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
            is_operation_ref("GET /users").as_deref(),
            Some("GET /users")
        );
        assert_eq!(
            is_operation_ref("openapi.json post /users/{id}").as_deref(),
            Some("POST /users/{id}")
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
