//! A `mint.json` site's navigation as Mintlify builds it: upgraded to `docs.json`'s shape first.
//!
//! Mintlify no longer reads `mint.json`'s navigation itself. Its build validates the file (the
//! schema trims names and URLs and normalizes page paths), upgrades it to a `docs.json`
//! configuration (`upgradeToDocsConfig` of `@mintlify/validation`) and builds the site from that.
//! The upgrade is not a relabelling: `tabs` and `anchors` take the groups whose pages lie under
//! their `url`, a tab's `openapi` becomes `{source, directory: url}` (so its operations get pages
//! under the tab), `versions` filter groups by their `version`, `isDefaultHidden` hides a tab, and
//! some pages fall out of the navigation altogether (a group whose `version` names no version; the
//! pages of a tab that holds anchors). [`upgrade_navigation`] ports `updateNavigationToDocsConfig`
//! step for step so that [`crate::site`] reads one navigation shape, `docs.json`'s, for both files.
//!
//! What the upgrade drops and this crate still heeds, most restrictive: a `public` key anywhere in
//! `mint.json`'s navigation says the site is behind authentication ([`MintDeclarations`]), though
//! it opens nothing the upgrade does not keep; a group's `hidden` (which `mint.json`'s strict schema
//! refuses) withholds the pages listed under it.

use serde_json::{Map, Value};

use crate::heading_id::js_trim;

/// The steps the upgrade may take (pages compared with division URLs, entries written): Mintlify's
/// JavaScript does the same work, which multiplies versions by divisions by pages, and a small
/// hostile file would otherwise hold the build for minutes in gigabytes of memory.
pub const MAX_UPGRADE_STEPS: u64 = 20_000_000;

/// What is left of [`MAX_UPGRADE_STEPS`].
struct Budget(std::cell::Cell<u64>);

impl Budget {
    /// Takes `n` steps; false (and nothing left) when fewer remain.
    fn spend(&self, n: usize) -> bool {
        let left = self.0.get();
        let n = n as u64;
        self.0.set(left.saturating_sub(n));
        left >= n
    }

    fn exhausted(&self) -> bool {
        self.0.get() == 0
    }
}

/// The JavaScript truthiness of a JSON value (absent is `undefined`).
fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(_) => true,
    }
}

/// A string field; anything else reads as empty (the schema requires these to be strings).
fn text<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn items(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// `isRemoteUrl`.
fn is_remote(url: Option<&Value>) -> bool {
    url.and_then(Value::as_str)
        .is_some_and(|u| u.starts_with("https://") || u.starts_with("http://"))
}

/// `isAbsoluteUrl` (`URL.canParse`), as far as it decides anything here: whether a division with no
/// pages stays in the navigation as a link. A scheme, and a host after it for the special schemes
/// that need one.
fn is_absolute_url(url: Option<&Value>) -> bool {
    let Some(u) = url.and_then(Value::as_str) else {
        return false;
    };
    let u = u.trim_matches(|c: char| c <= ' ');
    let Some((scheme, rest)) = u.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    if !chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        || !chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return false;
    }
    match scheme.to_ascii_lowercase().as_str() {
        "http" | "https" | "ws" | "wss" | "ftp" => rest
            .trim_start_matches(['/', '\\'])
            .chars()
            .next()
            .is_some_and(|c| !"/\\?#".contains(c)),
        _ => true,
    }
}

fn leading_slash(p: &str) -> String {
    if p.starts_with('/') {
        p.to_owned()
    } else {
        format!("/{p}")
    }
}

/// `ensureLeadingSlash(ensureTrailingSlash(p))`: a page lies under a prefix by whole segments.
fn as_dir(p: &str) -> String {
    let p = leading_slash(p);
    if p.ends_with('/') {
        p
    } else {
        format!("{p}/")
    }
}

/// `normalizeRelativePath` (the schema's transform of every navigation page):
/// `path.posix.resolve('/', p)` without its leading slash, keeping one trailing slash.
fn normalize_relative_path(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    let mut out = parts.join("/");
    if p.ends_with('/') && !out.is_empty() {
        out.push('/');
    }
    out
}

/// `formatIcon`.
fn format_icon(icon: &Value, icon_type: Option<&Value>) -> Value {
    match icon_type {
        Some(t) if truthy(Some(t)) => {
            let mut m = Map::new();
            m.insert("name".into(), icon.clone());
            m.insert("style".into(), t.clone());
            Value::Object(m)
        }
        _ => icon.clone(),
    }
}

/// The schema's transforms, applied before the upgrade: page paths normalized, division names
/// and URLs trimmed.
fn as_validated(config: &Value) -> Value {
    fn pages(group: &mut Value) {
        if let Some(list) = group.get_mut("pages").and_then(Value::as_array_mut) {
            for page in list {
                match page {
                    Value::String(s) => *s = normalize_relative_path(s),
                    Value::Object(_) => pages(page),
                    _ => {}
                }
            }
        }
    }
    let mut config = config.clone();
    if let Some(groups) = config.get_mut("navigation").and_then(Value::as_array_mut) {
        groups.iter_mut().for_each(pages);
    }
    for key in ["tabs", "anchors"] {
        for division in (config.get_mut(key).and_then(Value::as_array_mut))
            .into_iter()
            .flatten()
        {
            for field in ["name", "url", "openapi"] {
                if let Some(Value::String(s)) = division.get_mut(field) {
                    *s = js_trim(s).to_owned();
                }
            }
        }
    }
    config
}

/// `group.version === versionName || group.version === undefined || !versionName`.
fn in_version(group: &Value, version: Option<&str>) -> bool {
    match (group.get("version"), version.filter(|v| !v.is_empty())) {
        (None, _) | (_, None) => true,
        (Some(g), Some(v)) => g.as_str() == Some(v),
    }
}

/// A group as the upgrade writes one: its label, icon and the given pages (other keys dropped).
fn group_entry(group: &Value, pages: Vec<Value>) -> Value {
    let mut m = Map::new();
    if let Some(label) = group.get("group") {
        m.insert("group".into(), label.clone());
    }
    if truthy(group.get("icon")) {
        let icon = format_icon(&group["icon"], group.get("iconType"));
        m.insert("icon".into(), icon);
    }
    m.insert("pages".into(), Value::Array(pages));
    Value::Object(m)
}

/// `filterGroupsByVersion`.
fn groups_in_version(groups: &[Value], version: Option<&str>) -> Vec<Value> {
    (groups.iter())
        .filter(|g| in_version(g, version))
        .cloned()
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Division {
    Tab,
    Anchor,
}

impl Division {
    fn label_key(self) -> &'static str {
        match self {
            Division::Tab => "tab",
            Division::Anchor => "anchor",
        }
    }
    fn list_key(self) -> &'static str {
        match self {
            Division::Tab => "tabs",
            Division::Anchor => "anchors",
        }
    }
    fn other(self) -> Division {
        match self {
            Division::Tab => Division::Anchor,
            Division::Anchor => Division::Tab,
        }
    }
}

/// The upgrade of one configuration.
struct Upgrade<'c> {
    config: &'c Value,
    /// The configuration's tabs and anchors, emptied when every one is an external link (those
    /// become `global` links and hold no pages).
    tabs: Vec<Value>,
    anchors: Vec<Value>,
    /// Whether the configuration has any (before that emptying).
    has_tabs: bool,
    has_anchors: bool,
    budget: Budget,
}

/// `findPagesForPrefix`: the groups' pages under the division's `url` (all, with none), less
/// those under the `ignored` divisions nested in it; and the rest, as groups.
fn pages_under(
    groups: &[Value],
    division: Option<&Value>,
    version: Option<&str>,
    ignored: &[&Value],
    budget: &Budget,
) -> (Vec<Value>, Vec<Value>) {
    let prefix = division.and_then(|d| d.get("url"));
    if is_remote(prefix) {
        return (Vec::new(), groups.to_vec());
    }
    let prefix = truthy(prefix).then(|| as_dir(prefix.and_then(Value::as_str).unwrap_or("")));
    let ignored: Vec<String> = ignored.iter().map(|d| as_dir(text(d, "url"))).collect();
    split_groups(groups, prefix.as_deref(), version, &ignored, budget)
}

/// [`pages_under`] with the prefixes read.
fn split_groups(
    groups: &[Value],
    prefix: Option<&str>,
    version: Option<&str>,
    ignored: &[String],
    budget: &Budget,
) -> (Vec<Value>, Vec<Value>) {
    let (mut matched, mut unmatched) = (Vec::new(), Vec::new());
    for group in groups.iter().filter(|g| g.is_object()) {
        let (mut here, mut elsewhere) = (Vec::new(), Vec::new());
        if in_version(group, version) {
            for page in items(group.get("pages")) {
                if !budget.spend(1 + ignored.len()) {
                    return (matched, unmatched);
                }
                match page {
                    Value::String(p) => {
                        let p = as_dir(p);
                        let under = prefix.is_none_or(|pre| p.starts_with(pre))
                            && !ignored.iter().any(|d| p.starts_with(d.as_str()));
                        if under { &mut here } else { &mut elsewhere }.push(page.clone());
                    }
                    Value::Object(_) => {
                        let (nested, rest) = split_groups(
                            std::slice::from_ref(page),
                            prefix,
                            version,
                            ignored,
                            budget,
                        );
                        here.extend(nested);
                        // The whole nested group goes on to the next division, not only its rest.
                        if !rest.is_empty() {
                            elsewhere.push(page.clone());
                        }
                    }
                    _ => {}
                }
            }
        }
        if !here.is_empty() {
            matched.push(group_entry(group, here));
        }
        if !elsewhere.is_empty() {
            let mut rest = group.clone();
            rest["pages"] = Value::Array(elsewhere);
            unmatched.push(rest);
        }
    }
    (matched, unmatched)
}

impl Upgrade<'_> {
    /// `getPrimaryConfig`: the tab or anchor that holds the pages no division takes.
    fn primary(&self, kind: Division) -> Map<String, Value> {
        let mut m = Map::new();
        match kind {
            Division::Anchor => {
                let top = self.config.get("topAnchor");
                match top.and_then(|t| t.get("name")).filter(|n| truthy(Some(n))) {
                    Some(name) => {
                        m.insert("anchor".into(), name.clone());
                    }
                    None => {
                        m.insert("anchor".into(), "Documentation".into());
                        m.insert("icon".into(), "book-open".into());
                    }
                }
                if let Some(t) = top.filter(|t| truthy(t.get("icon"))) {
                    m.insert("icon".into(), format_icon(&t["icon"], t.get("iconType")));
                }
            }
            Division::Tab => match self.config.get("primaryTab").filter(|t| truthy(Some(t))) {
                Some(t) => {
                    if let Some(name) = t.get("name") {
                        m.insert("tab".into(), name.clone());
                    }
                    if let Some(h) = t.get("isDefaultHidden") {
                        m.insert("hidden".into(), h.clone());
                    }
                }
                None => {
                    m.insert("tab".into(), "Documentation".into());
                }
            },
        }
        m
    }

    /// `processDivisions`: each division with the groups whose pages lie under it (or the
    /// divisions of the other kind nested in it), and the groups left over.
    fn divisions(
        &self,
        kind: Division,
        divisions: &[Value],
        groups: &[Value],
        insert_remaining: bool,
        version: Option<&str>,
        others: &[Value],
    ) -> (Vec<Value>, Vec<Value>) {
        let mut remaining = groups_in_version(groups, version);
        let mut result = Vec::new();
        for division in divisions.iter().filter(|d| d.is_object()) {
            if !self.budget.spend(1 + divisions.len() + others.len()) {
                break;
            }
            let own_version = division.get("version");
            if version.is_some_and(|v| !v.is_empty())
                && truthy(own_version)
                && own_version.and_then(Value::as_str) != version
            {
                continue;
            }
            let url = division.get("url");
            let mut base = Map::new();
            if let Some(name) = division.get("name") {
                base.insert(kind.label_key().into(), name.clone());
            }
            if let Some(url) = url {
                base.insert("href".into(), url.clone());
            }
            if truthy(division.get("isDefaultHidden")) {
                base.insert("hidden".into(), division["isDefaultHidden"].clone());
            }
            let openapi = division.get("openapi").filter(|o| truthy(Some(o)));
            if let Some(spec) = openapi {
                let value = if is_remote(url) {
                    spec.clone()
                } else {
                    let mut o = Map::new();
                    o.insert("source".into(), spec.clone());
                    if let Some(url) = url {
                        o.insert("directory".into(), url.clone());
                    }
                    Value::Object(o)
                };
                base.insert("openapi".into(), value);
            }
            if kind == Division::Anchor {
                if truthy(division.get("icon")) {
                    let icon = format_icon(&division["icon"], division.get("iconType"));
                    base.insert("icon".into(), icon);
                }
                if let Some(color) = division.get("color").filter(|c| truthy(Some(c))) {
                    let c = match color {
                        Value::String(_) => Some(color),
                        _ => color.get("from"),
                    };
                    let mut m = Map::new();
                    if let Some(c) = c {
                        m.insert("light".into(), c.clone());
                        m.insert("dark".into(), c.clone());
                    }
                    base.insert("color".into(), Value::Object(m));
                }
            }
            let own_dir = leading_slash(text(division, "url"));
            let ignored: Vec<&Value> = (divisions.iter())
                .filter(|d| {
                    truthy(d.get("url"))
                        && leading_slash(text(d, "url")).starts_with(&own_dir)
                        && d.get("url") != url
                })
                .collect();
            let nested: Vec<Value> = (others.iter())
                .filter(|d| leading_slash(text(d, "url")).starts_with(&own_dir))
                .cloned()
                .collect();
            let more = if nested.is_empty() {
                Vec::new()
            } else {
                self.divisions(kind.other(), &nested, groups, false, version, &[])
                    .0
            };
            let (matched, unmatched) =
                pages_under(&remaining, Some(division), version, &ignored, &self.budget);
            remaining = unmatched;
            let mut without_href = base.clone();
            without_href.remove("href");
            let entry = if !more.is_empty() {
                without_href.insert(kind.other().list_key().into(), Value::Array(more));
                without_href
            } else if !matched.is_empty() {
                without_href.insert("groups".into(), Value::Array(matched));
                without_href
            } else if !is_absolute_url(url) && openapi.is_none() {
                continue;
            } else if openapi.is_some() && !is_remote(url) {
                without_href
            } else {
                base
            };
            result.push(Value::Object(entry));
        }
        if !remaining.is_empty() && insert_remaining {
            let (matched, _) = pages_under(&remaining, None, version, &[], &self.budget);
            let mut primary = self.primary(kind);
            primary.insert("groups".into(), Value::Array(matched));
            result.insert(0, Value::Object(primary));
        }
        (result, remaining)
    }

    /// `findMostInclusiveDivision`: which kind of division is the navigation's top level.
    fn top_level(&self) -> Division {
        if self.tabs.is_empty() {
            return Division::Anchor;
        }
        if self.anchors.is_empty() {
            return Division::Tab;
        }
        let within = |a: &Value, b: &Value| {
            leading_slash(text(a, "url")).starts_with(&leading_slash(text(b, "url")))
        };
        let inclusive_tabs = (self.tabs.iter())
            .filter(|t| self.anchors.iter().any(|a| within(t, a)))
            .count();
        let inclusive_anchors = (self.anchors.iter())
            .filter(|a| self.tabs.iter().any(|t| within(a, t)))
            .count();
        if inclusive_tabs == self.tabs.len() {
            Division::Tab
        } else if inclusive_anchors == self.anchors.len() {
            Division::Anchor
        } else if inclusive_tabs > inclusive_anchors {
            Division::Tab
        } else {
            Division::Anchor
        }
    }

    /// `getUpdatedNavigation`: the navigation of one version (or of the site without versions).
    fn navigation(&self, groups: &[Value], version: Option<&str>) -> Option<Map<String, Value>> {
        let top = self.top_level();
        let (first, has_first, has_second) = match top {
            Division::Anchor => (Division::Anchor, self.has_anchors, self.has_tabs),
            Division::Tab => (Division::Tab, self.has_tabs, self.has_anchors),
        };
        let list = |kind: Division| match kind {
            Division::Tab => &self.tabs,
            Division::Anchor => &self.anchors,
        };
        let mut nav = Map::new();
        if has_first {
            let second = first.other();
            let (mut result, remaining) =
                self.divisions(first, list(first), groups, false, version, list(second));
            if !remaining.is_empty() || !list(second).is_empty() {
                let mut primary = self.primary(first);
                if !list(second).is_empty() {
                    let source = if remaining.is_empty() {
                        groups
                    } else {
                        &remaining
                    };
                    let (inner, _) =
                        self.divisions(second, list(second), source, true, version, &[]);
                    primary.insert(second.list_key().into(), Value::Array(inner));
                } else {
                    let (matched, _) = pages_under(&remaining, None, version, &[], &self.budget);
                    primary.insert("groups".into(), Value::Array(matched));
                }
                result.insert(0, Value::Object(primary));
            }
            nav.insert(first.list_key().into(), Value::Array(result));
            return Some(nav);
        }
        if has_second {
            let second = first.other();
            let (result, _) = self.divisions(second, list(second), groups, true, version, &[]);
            nav.insert(second.list_key().into(), Value::Array(result));
            return Some(nav);
        }
        if groups.is_empty() {
            return None;
        }
        let listed = (groups_in_version(groups, version).iter())
            .map(|g| {
                let mut m = Map::new();
                for key in ["group", "pages"] {
                    if let Some(v) = g.get(key) {
                        m.insert(key.into(), v.clone());
                    }
                }
                if truthy(g.get("icon")) {
                    m.insert("icon".into(), format_icon(&g["icon"], g.get("iconType")));
                }
                Value::Object(m)
            })
            .collect();
        nav.insert("groups".into(), Value::Array(listed));
        Some(nav)
    }
}

/// `findPagesForVersionOrLanguage`: the groups of a version, with the pages of divisions gated
/// to other versions left out.
fn pages_of_version(
    groups: &[Value],
    version: Option<&str>,
    prefixes: &[(String, Vec<Option<String>>)],
    budget: &Budget,
) -> Vec<Value> {
    let mut matched = Vec::new();
    for group in groups.iter().filter(|g| g.is_object()) {
        let mut here = Vec::new();
        let belongs = match group.get("version") {
            None => true,
            Some(g) => version.is_some() && g.as_str() == version,
        };
        if belongs {
            for page in items(group.get("pages")) {
                if !budget.spend(1 + prefixes.len()) {
                    return matched;
                }
                match page {
                    Value::String(p) => {
                        let gated = (prefixes.iter()).any(|(href, versions)| {
                            versions.iter().any(|v| v.as_deref() == version)
                                && p.starts_with(href.as_str())
                        });
                        let ungated = prefixes
                            .iter()
                            .all(|(href, _)| !p.starts_with(href.as_str()));
                        if gated || ungated {
                            here.push(page.clone());
                        }
                    }
                    Value::Object(_) => here.extend(pages_of_version(
                        std::slice::from_ref(page),
                        version,
                        prefixes,
                        budget,
                    )),
                    _ => {}
                }
            }
        }
        if !here.is_empty() {
            matched.push(group_entry(group, here));
        }
    }
    matched
}

/// What `mint.json` declares that its upgrade to `docs.json` drops, read most restrictively.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MintDeclarations {
    /// A `public` key somewhere in the navigation, of any value but `false`: the site is behind
    /// authentication.
    pub declares_public: bool,
    /// Pages listed under a group carrying `hidden` (any value but `false`), as written.
    pub hidden_pages: Vec<String>,
}

/// The declarations the upgrade drops (see the module's documentation).
pub fn dropped_declarations(config: &Value) -> MintDeclarations {
    fn walk(group: &Value, hidden: bool, out: &mut MintDeclarations) {
        let Some(o) = group.as_object() else {
            return;
        };
        out.declares_public |= o.get("public").is_some_and(|p| p != &Value::Bool(false));
        let hidden = hidden || o.get("hidden").is_some_and(|h| h != &Value::Bool(false));
        for page in items(o.get("pages")) {
            match page {
                Value::String(p) if hidden => out.hidden_pages.push(normalize_relative_path(p)),
                _ => walk(page, hidden, out),
            }
        }
    }
    let mut out = MintDeclarations {
        declares_public: config
            .get("public")
            .is_some_and(|p| p != &Value::Bool(false)),
        ..Default::default()
    };
    for group in items(config.get("navigation")) {
        walk(group, false, &mut out);
    }
    out
}

/// A division that is an external link, as `getGlobalDivisions` writes it: its label, `href`,
/// an anchor's icon and (a string) color, and `hidden`.
fn link_division(kind: Division, d: &Value) -> Map<String, Value> {
    let mut m = Map::new();
    if let Some(n) = d.get("name") {
        m.insert(kind.label_key().into(), n.clone());
    }
    m.insert("href".into(), d["url"].clone());
    if kind == Division::Anchor {
        if truthy(d.get("icon")) {
            m.insert("icon".into(), format_icon(&d["icon"], d.get("iconType")));
        }
        if let Some(c @ Value::String(_)) = d.get("color") {
            let mut color = Map::new();
            color.insert("light".into(), c.clone());
            color.insert("dark".into(), c.clone());
            m.insert("color".into(), Value::Object(color));
        }
    }
    if truthy(d.get("isDefaultHidden")) {
        m.insert("hidden".into(), d["isDefaultHidden"].clone());
    }
    m
}

/// docs.json's `navigation` for a `mint.json` configuration, as `updateNavigationToDocsConfig`
/// (`@mintlify/validation`) writes it from the validated configuration; an error past
/// [`MAX_UPGRADE_STEPS`].
pub fn upgrade_navigation(config: &Value) -> Result<Value, String> {
    let config = &as_validated(config);
    let tabs = items(config.get("tabs"));
    let anchors = items(config.get("anchors"));
    let versions = items(config.get("versions"));
    let groups = items(config.get("navigation"));

    // `getGlobalDivisions`: divisions that are all external links hold no pages (global versions
    // are not written at all).
    let mut global = Map::new();
    let global_versions =
        !versions.is_empty() && (versions.iter()).all(|v| v.is_object() && is_remote(v.get("url")));
    let all_links = |list: &[Value]| {
        !list.is_empty()
            && (list.iter()).all(|d| !truthy(d.get("version")) && is_remote(d.get("url")))
    };
    let (global_tabs, global_anchors) = (all_links(tabs), all_links(anchors));
    for (kind, list, is_global) in [
        (Division::Tab, tabs, global_tabs),
        (Division::Anchor, anchors, global_anchors),
    ] {
        if is_global {
            let links = list.iter().map(|d| Value::Object(link_division(kind, d)));
            global.insert(kind.list_key().into(), Value::Array(links.collect()));
        }
    }
    let upgrade = Upgrade {
        config,
        tabs: if global_tabs {
            Vec::new()
        } else {
            tabs.to_vec()
        },
        anchors: if global_anchors {
            Vec::new()
        } else {
            anchors.to_vec()
        },
        has_tabs: !tabs.is_empty(),
        has_anchors: !anchors.is_empty(),
        budget: Budget(std::cell::Cell::new(MAX_UPGRADE_STEPS)),
    };
    let versions: &[Value] = if global_versions { &[] } else { versions };

    let mut nav = if versions.is_empty() {
        upgrade.navigation(groups, None).unwrap_or_else(|| {
            let mut m = Map::new();
            m.insert("groups".into(), Value::Array(Vec::new()));
            m
        })
    } else {
        let name_of = |v: &Value| -> Option<String> {
            match v {
                Value::String(s) => Some(s.clone()),
                _ => v.get("name").and_then(Value::as_str).map(str::to_owned),
            }
        };
        // The divisions gated to a version: a page under one is in that version only.
        let mut prefixes: Vec<(String, Vec<Option<String>>)> = Vec::new();
        for v in versions {
            let name = name_of(v);
            // `division.version === versionName`, either of them possibly undefined.
            let gated = (upgrade.anchors.iter())
                .chain(upgrade.tabs.iter())
                .filter(|d| {
                    let same = match (d.get("version"), name.as_deref()) {
                        (None, None) => true,
                        (Some(Value::String(own)), Some(n)) => own == n,
                        _ => false,
                    };
                    same && !is_remote(d.get("url"))
                });
            for d in gated {
                let href = match d.get("url") {
                    Some(Value::String(s)) => s.clone(),
                    _ => "undefined".to_owned(),
                };
                match prefixes.iter_mut().find(|(h, _)| *h == href) {
                    Some((_, names)) => names.push(name.clone()),
                    None => prefixes.push((href, vec![name.clone()])),
                }
            }
        }
        let is_locale = (versions.iter()).all(|v| v.is_object() && truthy(v.get("locale")));
        let mut result = Vec::new();
        for v in versions {
            let mut entry = Map::new();
            let name = name_of(v);
            if is_locale {
                entry.insert("language".into(), v["locale"].clone());
                if truthy(v.get("default")) {
                    entry.insert("default".into(), v["default"].clone());
                }
            } else {
                if let Some(n) = &name {
                    entry.insert("version".into(), Value::String(n.clone()));
                }
                if let Some(d) = v.get("default").filter(|_| v.is_object()) {
                    entry.insert("default".into(), d.clone());
                }
            }
            if v.is_object() && truthy(v.get("url")) {
                entry.insert("href".into(), v["url"].clone());
                result.push(Value::Object(entry));
                continue;
            }
            let own = pages_of_version(groups, name.as_deref(), &prefixes, &upgrade.budget);
            // A version with groups of its own is laid out from them; one without, from all. A
            // language is laid out under its name, or its locale when it has none.
            let source = if own.is_empty() { groups } else { &own[..] };
            let layout_name = match &name {
                Some(n) if !n.is_empty() || !is_locale => Some(n.clone()),
                _ if is_locale => v.get("locale").and_then(Value::as_str).map(str::to_owned),
                _ => None,
            };
            match upgrade.navigation(source, layout_name.as_deref()) {
                Some(layout) => entry.extend(layout),
                None => {
                    entry.insert("groups".into(), Value::Array(own));
                }
            }
            result.push(Value::Object(entry));
        }
        let key = if is_locale { "languages" } else { "versions" };
        let mut m = Map::new();
        m.insert(key.into(), Value::Array(result));
        m
    };
    if !global.is_empty() {
        nav.insert("global".into(), Value::Object(global));
    }
    if upgrade.budget.exhausted() {
        return Err(format!(
            "its navigation does not upgrade to docs.json's shape within {MAX_UPGRADE_STEPS} steps (versions × tabs and anchors × pages); Mintlify repeats each page in each division and version as it upgrades"
        ));
    }
    Ok(Value::Object(nav))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Configurations and their upgrade by `@mintlify/validation` 0.1.878 (`validateMintConfig`,
    /// then `upgradeToDocsConfig`); `scripts/mint-upgrade-diff.mjs` compares thousands more.
    #[test]
    fn upgrades_as_mintlify_does() {
        let cases = [
            // A tab with an anchor nested in it holds only that anchor's pages: `api/overview` is in no navigation.
            (
                json!({"name": "x", "favicon": "/f.png", "colors": {"primary": "#112233"}, "navigation": [{"group": "G", "pages": ["intro", "api/overview", "api/v2/users"]}], "tabs": [{"name": "API", "url": "api"}], "anchors": [{"name": "All", "url": "/"}, {"name": "V2", "url": "api/v2"}]}),
                json!({"tabs": [{"tab": "Documentation", "anchors": [{"anchor": "All", "groups": [{"group": "G", "pages": ["intro"]}]}]}, {"tab": "API", "anchors": [{"anchor": "V2", "groups": [{"group": "G", "pages": ["api/v2/users"]}]}]}]}),
            ),
            // A tab's `openapi` generates its operations under the tab; a hidden tab with no pages is dropped.
            (
                json!({"name": "x", "favicon": "/f.png", "colors": {"primary": "#112233"}, "navigation": [{"group": "G", "pages": ["intro"]}], "tabs": [{"name": "API", "url": "api", "openapi": "/spec.json"}, {"name": "Internal", "url": "internal", "isDefaultHidden": true}]}),
                json!({"tabs": [{"tab": "Documentation", "groups": [{"group": "G", "pages": ["intro"]}]}, {"tab": "API", "openapi": {"source": "/spec.json", "directory": "api"}}]}),
            ),
            // Versions: a tab gated to a version, a group of one version.
            (
                json!({"name": "x", "favicon": "/f.png", "colors": {"primary": "#112233"}, "navigation": [{"group": "G", "pages": ["intro", "v1/a", "v2/b"]}, {"group": "Old", "version": "v1", "pages": ["old"]}], "versions": ["v1", "v2"], "tabs": [{"name": "V1 API", "url": "v1", "version": "v1"}, {"name": "V2 API", "url": "v2", "version": "v2"}]}),
                json!({"versions": [{"version": "v1", "tabs": [{"tab": "Documentation", "groups": [{"group": "G", "pages": ["intro"]}, {"group": "Old", "pages": ["old"]}]}, {"tab": "V1 API", "groups": [{"group": "G", "pages": ["v1/a"]}]}]}, {"version": "v2", "tabs": [{"tab": "Documentation", "groups": [{"group": "G", "pages": ["intro"]}]}, {"tab": "V2 API", "groups": [{"group": "G", "pages": ["v2/b"]}]}]}]}),
            ),
            // Locales; tabs that are all external links hold no pages; a hidden primary tab hides every page.
            (
                json!({"name": "x", "favicon": "/f.png", "colors": {"primary": "#112233"}, "navigation": [{"group": "G", "pages": ["intro", {"group": "N", "version": "fr", "pages": ["fr/x"]}]}], "versions": [{"name": "en", "locale": "en"}, {"name": "fr", "locale": "fr"}], "primaryTab": {"name": "Home", "isDefaultHidden": true}, "tabs": [{"name": "Site", "url": "https://x.dev"}]}),
                json!({"languages": [{"language": "en", "tabs": [{"tab": "Home", "hidden": true, "groups": [{"group": "G", "pages": ["intro"]}]}]}, {"language": "fr", "tabs": [{"tab": "Home", "hidden": true, "groups": [{"group": "G", "pages": ["intro", {"group": "N", "pages": ["fr/x"]}]}]}]}], "global": {"tabs": [{"tab": "Site", "href": "https://x.dev"}]}}),
            ),
        ];
        for (config, expected) in cases {
            assert_eq!(upgrade_navigation(&config), Ok(expected), "{config}");
        }
    }

    /// From the review: JavaScript's `trim` takes U+FEFF (a tab's URL then still holds its hidden
    /// page) and leaves U+0085; a `public: false` declares nothing; a hostile file fails fast.
    #[test]
    fn session_31_review_cases() {
        let hidden = json!({"navigation": [{"group": "G", "pages": ["intro", "internal/secret"]}],
            "tabs": [{"name": "Internal", "url": "\u{feff}internal", "isDefaultHidden": true}]});
        let nav = upgrade_navigation(&hidden).unwrap();
        assert_eq!(nav["tabs"][1]["hidden"], json!(true), "{nav}");
        assert_eq!(
            nav["tabs"][1]["groups"][0]["pages"],
            json!(["internal/secret"])
        );
        assert_eq!(js_trim("\u{85}a\u{feff}"), "\u{85}a");
        let closed = json!({"navigation": [{"group": "G", "public": false, "pages": ["a"]}]});
        assert!(!dropped_declarations(&closed).declares_public);
        let open = json!({"navigation": [{"group": "G", "public": "yes", "pages": ["a"]}]});
        assert!(dropped_declarations(&open).declares_public);
        let pages: Vec<String> = (0..1000).map(|i| format!("a/x{i}")).collect();
        let hostile = json!({
            "navigation": [{"group": "G", "pages": pages}],
            "versions": (0..100).map(|i| format!("v{i}")).collect::<Vec<_>>(),
            "tabs": (0..500).map(|_| json!({"name": "T", "url": "a"})).collect::<Vec<_>>(),
            "anchors": [{"name": "A", "url": "a"}],
        });
        assert!(upgrade_navigation(&hostile).is_err());
    }

    #[test]
    fn paths_normalize_as_the_schema_does() {
        assert_eq!(normalize_relative_path("/api/b"), "api/b");
        assert_eq!(normalize_relative_path("./a/../b/"), "b/");
        assert_eq!(normalize_relative_path("../../x"), "x");
        assert_eq!(normalize_relative_path("GET /users"), "GET /users");
        assert!(is_absolute_url(Some(&json!("https://x.dev"))));
        assert!(is_absolute_url(Some(&json!("mailto:a@b"))));
        assert!(!is_absolute_url(Some(&json!("https://"))));
        assert!(!is_absolute_url(Some(&json!("api"))));
    }
}

/// The differential run against Mintlify's own upgrade (`scripts/mint-upgrade-diff.mjs`): for
/// each `*.json` configuration in `$MINT_UPGRADE_CASES`, the upgraded navigation in `*.rust`.
#[cfg(test)]
#[test]
#[ignore = "run by scripts/mint-upgrade-diff.mjs"]
fn write_upgrades_for_the_differential_run() {
    let dir = std::env::var("MINT_UPGRADE_CASES").expect("MINT_UPGRADE_CASES");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let config: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let out = serde_json::to_string(&upgrade_navigation(&config).unwrap()).unwrap();
            std::fs::write(path.with_extension("rust"), out).unwrap();
        }
    }
}
