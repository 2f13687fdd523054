//! The one visibility policy of a build, decided on resolved files.
//!
//! Here is a reference a site makes (a navigation key, a snippet import, a `$ref`, a spec path), give
//! me the file it names, or a refusal: [`SiteRoot::resolve`] follows symlinks, and only a regular file
//! inside the canonical site root and under the size limit is read ([`SiteRoot::read`]). Here is a
//! unit (page, included file, spec, path item, operation, JSONL record), give me who may see it: every
//! declaration that applies to it is read with [`Declared`] (keys and values without regard to case
//! or surrounding spaces; anything present but not exactly one known value withholds), the
//! `aidocs.json` globs with [`VisibilityRules::for_paths`] (matched on the canonical site-relative path
//! with and without its extension), and [`Declared::combine`] keeps the most restrictive. Nothing is
//! parsed into the index, its cache or a demo page before this decision.

use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::document::{Diagnostic, Visibility};
use crate::mintignore::MintIgnore;

/// The largest file a build reads, by default (`--max-file-bytes`).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 << 20;

/// How deep YAML or JSON may nest before it is parsed (frontmatter, specs, configuration).
pub const MAX_NESTING: usize = 128;

/// Whether a unit of `v` may go into a build for `audience`.
pub fn allowed(v: Visibility, audience: Visibility) -> bool {
    match v {
        Visibility::Public => true,
        Visibility::Internal => audience == Visibility::Internal,
        Visibility::Private => false,
    }
}

/// Why a reference was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("no such file")]
    Missing,
    #[error("it resolves to {0}, outside the site")]
    Outside(String),
    #[error("it is not a regular file")]
    NotRegular,
    #[error("it is {size} bytes, over the {limit}-byte limit (--max-file-bytes)")]
    TooLarge { size: u64, limit: u64 },
    #[error("it is not UTF-8 text")]
    NotText,
    #[error("{0}")]
    Io(String),
    /// `.mintignore`, or what Mintlify ignores by default, removes it from the site.
    #[error("`{0}` is excluded from the site (.mintignore or Mintlify's default ignores)")]
    Ignored(String),
}

/// A file of the site, resolved: its canonical path and its canonical site-relative path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SiteFile {
    pub path: PathBuf,
    /// `/`-separated, relative to the canonical site root (empty for a file given outside the site
    /// on the command line).
    pub rel: String,
}

/// The canonical site root and the reading rules every input goes through.
#[derive(Debug, Clone)]
pub struct SiteRoot {
    /// The root as given (messages, joins).
    pub root: PathBuf,
    canonical: PathBuf,
    pub max_bytes: u64,
    /// What Mintlify never publishes: no file it matches is read.
    ignore: std::sync::Arc<MintIgnore>,
}

impl SiteRoot {
    pub fn new(root: &Path, max_bytes: u64) -> Result<Self, Diagnostic> {
        let canonical = root.canonicalize().map_err(|e| Diagnostic {
            file: root.display().to_string(),
            line: None,
            message: format!("the site directory cannot be resolved: {e}"),
        })?;
        let ignore = std::sync::Arc::new(MintIgnore::load(&canonical, max_bytes)?);
        Ok(SiteRoot {
            root: root.to_path_buf(),
            canonical,
            max_bytes,
            ignore,
        })
    }

    /// Whether Mintlify leaves the file at `rel` (site-relative) out of the site.
    pub fn ignores(&self, rel: &str) -> bool {
        self.ignore.ignores(rel)
    }

    /// The site's `.mintignore` text (empty without one).
    pub fn ignore_source(&self) -> &str {
        self.ignore.source()
    }

    /// Resolves `path` (absolute, or relative to the working directory) with symlinks followed; it
    /// must be a regular file inside the canonical root, under the size limit.
    pub fn resolve(&self, path: &Path) -> Result<SiteFile, Refusal> {
        let f = self.resolve_anywhere(path)?;
        if f.rel.is_empty() {
            return Err(Refusal::Outside(f.path.display().to_string()));
        }
        Ok(f)
    }

    /// [`Self::resolve`] for the site's configuration files (docs.json and the files its `$ref`s
    /// name): Mintlify reads them whatever `.mintignore` says, as configuration, never as pages.
    pub fn resolve_config(&self, path: &Path) -> Result<SiteFile, Refusal> {
        let f = self.resolve_file(path, false)?;
        if f.rel.is_empty() {
            return Err(Refusal::Outside(f.path.display().to_string()));
        }
        Ok(f)
    }

    /// [`Self::resolve`] without containment: for files the operator names on the command line
    /// (a file of the site that Mintlify ignores is refused all the same).
    pub fn resolve_anywhere(&self, path: &Path) -> Result<SiteFile, Refusal> {
        self.resolve_file(path, true)
    }

    fn resolve_file(&self, path: &Path, honour_ignores: bool) -> Result<SiteFile, Refusal> {
        let real = match path.canonicalize() {
            Ok(p) => p,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Refusal::Missing),
            Err(e) => return Err(Refusal::Io(e.to_string())),
        };
        let meta = std::fs::metadata(&real).map_err(|e| Refusal::Io(e.to_string()))?;
        if !meta.is_file() {
            return Err(Refusal::NotRegular);
        }
        if meta.len() > self.max_bytes {
            return Err(Refusal::TooLarge {
                size: meta.len(),
                limit: self.max_bytes,
            });
        }
        let rel = real
            .strip_prefix(&self.canonical)
            .map(|r| r.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        // A file of the site that Mintlify ignores, as written or as resolved (a link into
        // `drafts/` is a draft), is never read, however it is named.
        let written = self.written_rel(path);
        for r in [Some(&rel), written.as_ref()].into_iter().flatten() {
            if honour_ignores && self.ignore.ignores(r) {
                return Err(Refusal::Ignored(r.clone()));
            }
        }
        Ok(SiteFile { path: real, rel })
    }

    /// Every file Mintlify publishes from the site, as (site-relative path as written, path),
    /// sorted: what it ignores is neither listed nor walked (`node_modules` can be large), and
    /// symlinked folders are not followed (their files resolve on their own when named).
    pub fn published_files(&self) -> impl Iterator<Item = (String, PathBuf)> + '_ {
        walkdir::WalkDir::new(&self.root)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                e.depth() == 0 || self.written_rel(e.path()).is_none_or(|r| !self.ignores(&r))
            })
            .flatten()
            .filter(|e| e.file_type().is_file())
            .filter_map(|e| {
                let rel = self.written_rel(e.path())?;
                (!self.ignores(&rel)).then(|| (rel, e.into_path()))
            })
    }

    /// `path` relative to the site root as written, before any symlink is followed (`..` and `.`
    /// folded lexically): what globs see besides the resolved path. `None` outside the root.
    pub fn written_rel(&self, path: &Path) -> Option<String> {
        let rel = path
            .strip_prefix(&self.root)
            .or_else(|_| path.strip_prefix(&self.canonical))
            .ok()?;
        normalize_rel(&rel.to_string_lossy().replace('\\', "/"))
    }

    /// Reads a resolved file as text, never more than the size limit (the file may have grown since
    /// it was resolved), and only if it is still a regular file.
    pub fn read(&self, f: &SiteFile) -> Result<String, Refusal> {
        read_bounded(&f.path, self.max_bytes)
    }

    /// Resolves and reads in one step.
    pub fn read_path(&self, path: &Path) -> Result<(SiteFile, String), Refusal> {
        let f = self.resolve(path)?;
        let text = self.read(&f)?;
        Ok((f, text))
    }
}

/// Reads a regular file as UTF-8, at most `limit` bytes.
pub fn read_bounded(path: &Path, limit: u64) -> Result<String, Refusal> {
    String::from_utf8(read_bounded_bytes(path, limit)?).map_err(|_| Refusal::NotText)
}

/// Reads a regular file, at most `limit` bytes: the file is checked before it is opened (opening a
/// FIFO blocks) and again once open, and never more than `limit` bytes are read even if it grows.
pub fn read_bounded_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, Refusal> {
    // Checked before opening: opening a FIFO blocks until a writer comes.
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Refusal::Missing,
        _ => Refusal::Io(e.to_string()),
    })?;
    if !meta.is_file() {
        return Err(Refusal::NotRegular);
    }
    let file = std::fs::File::open(path).map_err(|e| Refusal::Io(e.to_string()))?;
    let meta = file.metadata().map_err(|e| Refusal::Io(e.to_string()))?;
    if !meta.is_file() {
        return Err(Refusal::NotRegular);
    }
    if meta.len() > limit {
        return Err(Refusal::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Refusal::Io(e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(Refusal::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// A site-relative reference (`./guides/../drafts/x`, `/drafts/x`) normalised lexically to
/// `drafts/x`; `None` when it leaves the site (`../x`), is empty, or holds a NUL or a backslash.
pub fn normalize_rel(reference: &str) -> Option<String> {
    let r = reference.trim();
    if r.contains(['\0', '\\']) {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in Path::new(r.trim_start_matches('/')).components() {
        match c {
            Component::Normal(s) => parts.push(s.to_str()?),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => {}
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// What a unit's declarations say about its visibility.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Declared {
    /// Nothing declared.
    #[default]
    Absent,
    Known(Visibility),
    /// Present but not exactly one known value: withholds the unit. The text says what was found.
    Unreadable(String),
}

impl Declared {
    /// The most restrictive of two declarations (an unreadable one withholds).
    pub fn combine(self, other: Declared) -> Declared {
        match (self, other) {
            (Declared::Unreadable(a), _) | (_, Declared::Unreadable(a)) => Declared::Unreadable(a),
            (Declared::Known(a), Declared::Known(b)) => Declared::Known(a.max(b)),
            (Declared::Known(a), Declared::Absent) | (Declared::Absent, Declared::Known(a)) => {
                Declared::Known(a)
            }
            (Declared::Absent, Declared::Absent) => Declared::Absent,
        }
    }

    /// A glob's verdict as a declaration.
    pub fn from_glob(v: Option<Visibility>) -> Declared {
        v.map_or(Declared::Absent, Declared::Known)
    }

    /// The visibility to apply: public when nothing is declared, private when unreadable.
    pub fn visibility(&self) -> Visibility {
        match self {
            Declared::Absent => Visibility::Public,
            Declared::Known(v) => *v,
            Declared::Unreadable(_) => Visibility::Private,
        }
    }

    /// The reason a unit is withheld because of an unreadable declaration.
    pub fn problem(&self) -> Option<&str> {
        match self {
            Declared::Unreadable(s) => Some(s),
            _ => None,
        }
    }

    fn of_text(key: &str, s: &str) -> Declared {
        match Visibility::parse(s) {
            Some(v) => Declared::Known(v),
            None => {
                Declared::Unreadable(format!("`{key}: {s}` is not public, internal or private"))
            }
        }
    }

    /// `visibility:` in a YAML mapping (frontmatter), merge keys already applied by the caller: every
    /// key that reads `visibility` without regard to case or spaces.
    pub fn from_yaml(map: &serde_norway::Mapping) -> Declared {
        let mut out = Declared::Absent;
        for found in yaml_keys(map, "visibility") {
            let (key, v) = match found {
                Ok(kv) => kv,
                Err(problem) => {
                    out = out.combine(Declared::Unreadable(problem));
                    continue;
                }
            };
            let d = match v {
                serde_norway::Value::String(s) => Declared::of_text(key, s),
                serde_norway::Value::Null => {
                    Declared::Unreadable(format!("`{key}` is empty (null)"))
                }
                serde_norway::Value::Sequence(_) => {
                    Declared::Unreadable(format!("`{key}` is a list, not one value"))
                }
                serde_norway::Value::Mapping(_) => {
                    Declared::Unreadable(format!("`{key}` is a mapping, not one value"))
                }
                serde_norway::Value::Tagged(_) => {
                    Declared::Unreadable(format!("`{key}` carries a YAML tag"))
                }
                serde_norway::Value::Bool(b) => {
                    Declared::Unreadable(format!("`{key}: {b}` is not public, internal or private"))
                }
                serde_norway::Value::Number(n) => {
                    Declared::Unreadable(format!("`{key}: {n}` is not public, internal or private"))
                }
            };
            out = out.combine(d);
        }
        out
    }

    /// A JSON value that must be one visibility word (a JSONL record's `visibility`, an OpenAPI
    /// `x-visibility`); `None` is absent.
    pub fn from_json_value(key: &str, v: Option<&serde_json::Value>) -> Declared {
        match v {
            None => Declared::Absent,
            Some(serde_json::Value::String(s)) => Declared::of_text(key, s),
            Some(other) => Declared::Unreadable(format!(
                "`{key}` is {}, not one of public, internal or private",
                json_kind(other)
            )),
        }
    }

    /// The declarations of an OpenAPI object (document, path item, operation, parameter, schema):
    /// `x-visibility`, `x-internal` (a [`Flag`]: true withholds as internal, text not understood as
    /// private) and `x-mint.groups` (internal), keys read
    /// without regard to case or spaces.
    pub fn from_openapi(obj: &serde_json::Value) -> Declared {
        let Some(map) = obj.as_object() else {
            return Declared::Absent;
        };
        let mut out = Declared::Absent;
        for (k, v) in map {
            if is_key(k, "x-visibility") {
                out = out.combine(Declared::from_json_value(k.trim(), Some(v)));
            }
        }
        // `x-mint: {groups: [...]}`: only signed-in members of those groups see it.
        let gated = (map.iter())
            .filter(|(k, _)| is_key(k, "x-mint"))
            .any(|(_, v)| {
                v.as_object()
                    .is_some_and(|m| m.keys().any(|k| is_key(k, "groups")))
            });
        if gated {
            out = out.combine(Declared::Known(Visibility::Internal));
        }
        out.combine(match Flag::from_json(obj, "x-internal") {
            Flag::Set(true) => Declared::Known(Visibility::Internal),
            Flag::Set(false) | Flag::Absent => Declared::Absent,
            Flag::Unreadable(why) => Declared::Unreadable(why),
        })
    }
}

/// A yes/no declaration (`hidden`, `noindex`, `x-excluded`, `x-hidden`, `x-internal`): absent,
/// set, or present but not understood, which withholds like a `true` does (`hidden: maybe`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Flag {
    #[default]
    Absent,
    Set(bool),
    /// The text says what was found.
    Unreadable(String),
}

impl Flag {
    /// Whether it withholds what carries it: set, or not understood.
    pub fn withholds(&self) -> bool {
        matches!(self, Flag::Set(true) | Flag::Unreadable(_))
    }

    /// The most restrictive of two (an unreadable one withholds).
    pub fn combine(self, other: Flag) -> Flag {
        match (self, other) {
            (Flag::Unreadable(a), _) | (_, Flag::Unreadable(a)) => Flag::Unreadable(a),
            (Flag::Set(a), Flag::Set(b)) => Flag::Set(a || b),
            (Flag::Set(a), Flag::Absent) | (Flag::Absent, Flag::Set(a)) => Flag::Set(a),
            (Flag::Absent, Flag::Absent) => Flag::Absent,
        }
    }

    /// The reason it withholds, when it was not understood.
    pub fn problem(&self) -> Option<&str> {
        match self {
            Flag::Unreadable(s) => Some(s),
            _ => None,
        }
    }

    /// Text where a boolean belongs. Words YAML 1.1 takes for yes (`yes`, `on`, `"true"`) set the
    /// flag; no text unsets it: JavaScript, which renders the site, takes any non-empty string for
    /// true (`hidden: "false"`, `hidden: no` hide the page there), so only the boolean `false` and
    /// the number 0 say no.
    fn of_text(key: &str, s: &str) -> Flag {
        match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Flag::Set(true),
            _ => Flag::Unreadable(format!(
                "`{key}: {s}` is text, not the boolean true or false"
            )),
        }
    }

    fn of_number(key: &str, n: &str) -> Flag {
        match n {
            "0" => Flag::Set(false),
            "1" => Flag::Set(true),
            _ => Flag::Unreadable(format!("`{key}: {n}` is not true or false")),
        }
    }

    /// Every key of a YAML mapping (frontmatter, merge keys applied) that reads `name` without
    /// regard to case or spaces, combined.
    pub fn from_yaml(map: &serde_norway::Mapping, name: &str) -> Flag {
        let mut out = Flag::Absent;
        for found in yaml_keys(map, name) {
            let (key, v) = match found {
                Ok(kv) => kv,
                Err(problem) => {
                    out = out.combine(Flag::Unreadable(problem));
                    continue;
                }
            };
            out = out.combine(match v {
                serde_norway::Value::Bool(b) => Flag::Set(*b),
                serde_norway::Value::String(s) => Flag::of_text(key, s),
                serde_norway::Value::Number(n) => Flag::of_number(key, &n.to_string()),
                serde_norway::Value::Null => Flag::Unreadable(format!("`{key}` is empty (null)")),
                serde_norway::Value::Sequence(_) => {
                    Flag::Unreadable(format!("`{key}` is a list, not true or false"))
                }
                serde_norway::Value::Mapping(_) => {
                    Flag::Unreadable(format!("`{key}` is a mapping, not true or false"))
                }
                serde_norway::Value::Tagged(_) => {
                    Flag::Unreadable(format!("`{key}` carries a YAML tag"))
                }
            });
        }
        out
    }

    /// Every key of a JSON object (an OpenAPI operation or path item) that reads `name` without
    /// regard to case or spaces, combined.
    pub fn from_json(obj: &serde_json::Value, name: &str) -> Flag {
        match obj.as_object() {
            Some(map) => Flag::from_json_map(map, name),
            None => Flag::Absent,
        }
    }

    /// [`Flag::from_json`] of an object's map (a navigation element).
    pub fn from_json_map(map: &serde_json::Map<String, serde_json::Value>, name: &str) -> Flag {
        let mut out = Flag::Absent;
        for (k, v) in map.iter().filter(|(k, _)| is_key(k, name)) {
            let key = k.trim();
            out = out.combine(match v {
                serde_json::Value::Bool(b) => Flag::Set(*b),
                serde_json::Value::String(s) => Flag::of_text(key, s),
                serde_json::Value::Number(n) => Flag::of_number(key, &n.to_string()),
                other => Flag::Unreadable(format!(
                    "`{key}` is {}, not true or false",
                    json_kind(other)
                )),
            });
        }
        out
    }
}

/// Every key of a YAML mapping that reads `name` without regard to case or spaces, with its value
/// (the key trimmed), or the problem of a key that carries a YAML tag.
fn yaml_keys<'a>(
    map: &'a serde_norway::Mapping,
    name: &'a str,
) -> impl Iterator<Item = Result<(&'a str, &'a serde_norway::Value), String>> + 'a {
    map.iter().filter_map(move |(k, v)| match k {
        serde_norway::Value::String(s) if is_key(s, name) => Some(Ok((s.trim(), v))),
        serde_norway::Value::Tagged(t) if t.value.as_str().is_some_and(|s| is_key(s, name)) => {
            Some(Err(format!("a YAML tag on the `{name}` key")))
        }
        _ => None,
    })
}

pub(crate) fn is_key(k: &str, want: &str) -> bool {
    k.trim().eq_ignore_ascii_case(want)
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "an object",
    }
}

/// One glob of `aidocs.json`, as written and as matched.
#[derive(Debug)]
struct Rule {
    level: Visibility,
    written: String,
    matched: AtomicBool,
}

/// Visibility globs from `aidocs.json` (`{"visibility": {"internal": ["ops/**"], "private": [...]}}`),
/// matched on canonical site-relative paths with and without their extension. A leading `/` is the
/// site root; a trailing `/`, or a plain name without wildcards, also covers everything below it.
#[derive(Debug, Default)]
pub struct VisibilityRules {
    set: Option<GlobSet>,
    /// Per glob of `set`, the rule it came from.
    owners: Vec<usize>,
    rules: Vec<Rule>,
    /// The raw rules, part of the cache fingerprint.
    pub source: String,
}

impl VisibilityRules {
    /// Parses the `visibility` object of `aidocs.json` (`file` names it in errors).
    pub fn parse(
        value: &serde_json::Value,
        source: String,
        file: &str,
    ) -> Result<Self, Diagnostic> {
        let err = |message: String| Diagnostic {
            file: file.to_owned(),
            line: None,
            message,
        };
        let mut rules = Vec::new();
        let mut b = GlobSetBuilder::new();
        let mut owners = Vec::new();
        let Some(top) = value.as_object() else {
            return Err(err("`aidocs.json` must be a JSON object".into()));
        };
        let mut found = top.iter().filter(|(k, _)| is_key(k, "visibility"));
        let vis = found.next().map(|(_, v)| v);
        if found.next().is_some() {
            return Err(err(
                "field `visibility` is written more than once (in different cases); write one"
                    .into(),
            ));
        }
        let Some(vis) = vis else {
            return Ok(VisibilityRules {
                source,
                ..Default::default()
            });
        };
        let Some(levels) = vis.as_object() else {
            return Err(err(if vis.is_array() {
                "field `visibility` is written more than once, or is a list: write one object of levels (internal, private) to glob lists".into()
            } else {
                "field `visibility` must be an object of levels (internal, private) to glob lists"
                    .into()
            }));
        };
        for (level_key, list) in levels {
            let level = match Visibility::parse(level_key) {
                Some(Visibility::Public) => {
                    return Err(err(format!(
                        "field `visibility.{level_key}`: globs can only restrict (internal, private); the most restrictive declaration always wins"
                    )))
                }
                Some(v) => v,
                None => {
                    return Err(err(format!(
                        "field `visibility.{level_key}` is not internal or private"
                    )))
                }
            };
            let Some(list) = list.as_array() else {
                return Err(err(format!(
                    "field `visibility.{level_key}` must be an array of glob strings"
                )));
            };
            for g in list {
                let Some(written) = g.as_str() else {
                    return Err(err(format!(
                        "field `visibility.{level_key}`: {g} is not a glob string"
                    )));
                };
                let rule = rules.len();
                for pattern in glob_patterns(written) {
                    let glob = Glob::new(&pattern).map_err(|e| {
                        err(format!(
                            "field `visibility.{level_key}`: bad glob `{written}`: {e}"
                        ))
                    })?;
                    b.add(glob);
                    owners.push(rule);
                }
                rules.push(Rule {
                    level,
                    written: written.to_owned(),
                    matched: AtomicBool::new(false),
                });
            }
        }
        let set = b
            .build()
            .map_err(|e| err(format!("field `visibility`: {e}")))?;
        Ok(VisibilityRules {
            set: Some(set),
            owners,
            rules,
            source,
        })
    }

    /// The most restrictive level the globs give a canonical site-relative path, if any.
    pub fn for_path(&self, rel: &str) -> Option<Visibility> {
        let set = self.set.as_ref()?;
        let mut out: Option<Visibility> = None;
        let stem = strip_extension(rel);
        for candidate in [Some(rel), stem].into_iter().flatten() {
            for i in set.matches(candidate) {
                let rule = &self.rules[self.owners[i]];
                rule.matched.store(true, Ordering::Relaxed);
                out = Some(out.map_or(rule.level, |o| o.max(rule.level)));
            }
        }
        out
    }

    /// [`Self::for_path`] over every path a unit is known by (as written and as resolved).
    pub fn for_paths<'a>(&self, rels: impl IntoIterator<Item = &'a str>) -> Declared {
        rels.into_iter().fold(Declared::Absent, |d, r| {
            d.combine(Declared::from_glob(self.for_path(r)))
        })
    }

    /// The globs that match no file of the site (hidden folders and `node_modules` aside), as
    /// written, with their level: a glob that names nothing is almost always a mistyped path.
    pub fn unmatched_in(&self, root: &Path) -> Vec<(Visibility, String)> {
        if self.rules.is_empty() {
            return Vec::new();
        }
        let walker = walkdir::WalkDir::new(root)
            .follow_links(false)
            .into_iter()
            .filter_entry(|e| {
                let name = e.file_name().to_string_lossy();
                e.depth() == 0 || !(name.starts_with('.') || name == "node_modules")
            });
        for e in walker.flatten().take(1_000_000) {
            if let Ok(rel) = e.path().strip_prefix(root) {
                let rel = rel.to_string_lossy().replace('\\', "/");
                if !rel.is_empty() {
                    self.for_path(&rel);
                }
            }
        }
        self.unmatched()
            .into_iter()
            .map(|(l, g)| (l, g.to_owned()))
            .collect()
    }

    /// The globs that matched no path so far, as written, with their level.
    pub fn unmatched(&self) -> Vec<(Visibility, &str)> {
        self.rules
            .iter()
            .filter(|r| !r.matched.load(Ordering::Relaxed))
            .map(|r| (r.level, r.written.as_str()))
            .collect()
    }
}

/// The globset patterns of one written glob: `/drafts/**` → `drafts/**`; `drafts/` → `drafts/**`;
/// `drafts` (no wildcard) → `drafts` and `drafts/**`.
fn glob_patterns(written: &str) -> Vec<String> {
    let g = written.trim();
    let g = g.strip_prefix("./").unwrap_or(g);
    let g = g.trim_start_matches('/');
    if g.is_empty() {
        return vec!["**".into()];
    }
    if let Some(dir) = g.strip_suffix('/') {
        return vec![format!("{}/**", dir.trim_end_matches('/'))];
    }
    let mut out = vec![g.to_owned()];
    if !g.contains(['*', '?', '[', '{']) {
        out.push(format!("{g}/**"));
    }
    out
}

fn strip_extension(rel: &str) -> Option<&str> {
    let name_start = rel.rfind('/').map_or(0, |i| i + 1);
    let dot = rel[name_start..].rfind('.')?;
    (dot > 0).then(|| &rel[..name_start + dot])
}

/// An upper bound of how deep YAML (or JSON, a subset) nests, read without parsing it: block
/// indentation levels, sequence dashes on one line and open flow brackets. Checked before a parser
/// sees the text, since YAML parsers take quadratic time on deep nesting.
pub fn nesting_depth(src: &str) -> usize {
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    let mut max = 0usize;
    for line in src.lines() {
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if flow == 0 {
            while indents.last().is_some_and(|&i| i >= indent) {
                indents.pop();
            }
            indents.push(indent);
        }
        let mut dashes = 0;
        let mut rest = body;
        while let Some(r) = rest.strip_prefix('-') {
            if r.starts_with([' ', '\t']) || r.is_empty() {
                dashes += 1;
                rest = r.trim_start();
            } else {
                break;
            }
        }
        // A quote opens a quoted scalar only where a scalar starts (at the line's start, after `: `,
        // `[`, `{` or `,`): in `it's [[[[` or `a:'[[` the quote is text and the brackets
        // count. Counting too much refuses a file; counting too little would let a deep one through.
        let mut quote: Option<char> = None;
        let mut escaped = false;
        let mut at_start = true;
        let mut last = ' ';
        let mut line_max = flow;
        let mut chars = rest.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(q) = quote {
                if escaped {
                    escaped = false;
                } else if q == '"' && c == '\\' {
                    escaped = true;
                } else if q == '\'' && c == '\'' && chars.peek() == Some(&'\'') {
                    escaped = true; // `''` is a quote inside a single-quoted scalar
                } else if c == q {
                    quote = None;
                    at_start = false;
                    last = c;
                }
                continue;
            }
            if c.is_whitespace() {
                // Only `: ` starts a scalar mid-line (`- ` and `? ` do at the line's start, handled
                // above); `a - "x [[[` is one plain scalar in flow context.
                if last == ':' {
                    at_start = true;
                }
                last = c;
                continue;
            }
            match c {
                '"' | '\'' if at_start => quote = Some(c),
                '[' | '{' => {
                    flow += 1;
                    line_max = line_max.max(flow);
                }
                ']' | '}' => flow = flow.saturating_sub(1),
                _ => {}
            }
            at_start = matches!(c, '[' | '{' | ',');
            last = c;
        }
        max = max.max(indents.len() + dashes + line_max);
    }
    max
}

/// [`nesting_depth`] as a check with a message.
pub fn check_nesting(src: &str) -> Result<(), String> {
    let depth = nesting_depth(src);
    if depth > MAX_NESTING {
        Err(format!(
            "nests about {depth} levels deep, over the limit of {MAX_NESTING}; not parsed"
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(s: &str) -> Declared {
        let mut v: serde_norway::Value = serde_norway::from_str(s).unwrap();
        v.apply_merge().unwrap();
        Declared::from_yaml(v.as_mapping().unwrap())
    }

    #[test]
    fn issue_18_declarations_present_but_not_understood_withhold() {
        assert_eq!(
            yaml("visibility: public"),
            Declared::Known(Visibility::Public)
        );
        assert_eq!(
            yaml("Visibility: Internal"),
            Declared::Known(Visibility::Internal)
        );
        assert_eq!(
            yaml(" VISIBILITY :  private "),
            Declared::Known(Visibility::Private)
        );
        for s in [
            "visibility: [private]",
            "visibility: ~",
            "visibility:",
            "visibility: null",
            "visibility: !x private",
            "visibility: 3",
            "visibility: true",
            "visibility: secret",
            "visibility: {level: private}",
            "!x visibility: public",
        ] {
            assert!(matches!(yaml(s), Declared::Unreadable(_)), "{s}");
            assert_eq!(yaml(s).visibility(), Visibility::Private, "{s}");
        }
        assert_eq!(
            yaml("defaults: &d\n  visibility: internal\npage:\n  <<: *d\n<<: *d\ntitle: x"),
            Declared::Known(Visibility::Internal)
        );
        assert_eq!(
            yaml("visibility: public\nVisibility: private"),
            Declared::Known(Visibility::Private)
        );
        assert_eq!(yaml("title: x"), Declared::Absent);
    }

    /// Hidden-page review: `hidden: yes`, `noindex: "TRUE"` and every other value that is present
    /// but not the boolean false withhold; JavaScript, which renders the site, takes any non-empty
    /// text for true.
    #[test]
    fn issue_18_flags_withhold_unless_plainly_false() {
        let flag = |s: &str| {
            let mut v: serde_norway::Value = serde_norway::from_str(s).unwrap();
            v.apply_merge().unwrap();
            Flag::from_yaml(v.as_mapping().unwrap(), "hidden")
        };
        assert_eq!(flag("title: x"), Flag::Absent);
        assert_eq!(flag("hidden: false"), Flag::Set(false));
        assert_eq!(flag("hidden: 0"), Flag::Set(false));
        for s in [
            "hidden: true",
            "hidden: True",
            "Hidden: yes",
            "hidden: on",
            "hidden: 1",
            "hidden: \"True\"",
            "hidden: !!bool true",
            "hidden: false\nHIDDEN: true",
        ] {
            assert_eq!(flag(s), Flag::Set(true), "{s}");
        }
        for s in [
            "hidden: \"false\"",
            "hidden: no",
            "hidden: off",
            "hidden: 2",
            "hidden:",
            "hidden: [true]",
            "hidden: {a: 1}",
            "hidden: maybe",
            "hidden: !x false",
            "!x hidden: false",
        ] {
            let f = flag(s);
            assert!(
                matches!(f, Flag::Unreadable(_)) && f.withholds(),
                "{s}: {f:?}"
            );
        }
        let json = |s: &str| Flag::from_json(&serde_json::from_str(s).unwrap(), "x-excluded");
        assert_eq!(json(r#"{"X-Excluded": true}"#), Flag::Set(true));
        assert_eq!(json(r#"{"x-excluded": "true"}"#), Flag::Set(true));
        assert_eq!(json(r#"{"x-excluded": false}"#), Flag::Set(false));
        assert!(json(r#"{"x-excluded": "false"}"#).withholds());
        assert!(json(r#"{"x-excluded": {}}"#).withholds());
    }

    #[test]
    fn issue_18_openapi_declarations() {
        let j = |s: &str| Declared::from_openapi(&serde_json::from_str(s).unwrap());
        assert_eq!(
            j(r#"{"x-internal": true}"#),
            Declared::Known(Visibility::Internal)
        );
        assert_eq!(
            j(r#"{"x-internal": "true"}"#),
            Declared::Known(Visibility::Internal)
        );
        assert_eq!(
            j(r#"{"X-Internal": " TRUE "}"#),
            Declared::Known(Visibility::Internal)
        );
        assert_eq!(j(r#"{"x-internal": false}"#), Declared::Absent);
        assert_eq!(j(r#"{"x-internal": 0}"#), Declared::Absent);
        assert_eq!(
            j(r#"{"x-internal": 1}"#),
            Declared::Known(Visibility::Internal)
        );
        for s in [
            r#"{"x-internal": 2}"#,
            r#"{"x-internal": "false"}"#,
            r#"{"x-internal": null}"#,
        ] {
            assert!(matches!(j(s), Declared::Unreadable(_)), "{s}");
        }
        assert!(matches!(
            j(r#"{"x-visibility": ["private"]}"#),
            Declared::Unreadable(_)
        ));
        assert!(matches!(
            j(r#"{"x-visibility": "secret"}"#),
            Declared::Unreadable(_)
        ));
        assert!(matches!(
            j(r#"{"x-visibility": null}"#),
            Declared::Unreadable(_)
        ));
        assert_eq!(
            j(r#"{"x-visibility": "public", "x-internal": true}"#),
            Declared::Known(Visibility::Internal)
        );
    }

    #[test]
    fn issue_18_globs_match_resolved_paths_with_and_without_extension() {
        let rules = VisibilityRules::parse(
            &serde_json::json!({"visibility": {"private": ["/drafts/**", "notes/", "secret/page", "plain"], "internal": ["ops/*.mdx", "never/**"]}}),
            String::new(),
            "aidocs.json",
        )
        .unwrap();
        assert_eq!(rules.for_path("drafts/x.mdx"), Some(Visibility::Private));
        assert_eq!(rules.for_path("notes/a/b.md"), Some(Visibility::Private));
        assert_eq!(rules.for_path("secret/page.mdx"), Some(Visibility::Private));
        assert_eq!(rules.for_path("plain/x.mdx"), Some(Visibility::Private));
        assert_eq!(rules.for_path("ops/run.mdx"), Some(Visibility::Internal));
        assert_eq!(rules.for_path("guides/x.mdx"), None);
        let unmatched = rules.unmatched();
        assert_eq!(unmatched, vec![(Visibility::Internal, "never/**")]);
        for bad in [
            serde_json::json!({"visibility": {"secret": ["x"]}}),
            serde_json::json!({"visibility": {"private": [1]}}),
            serde_json::json!({"visibility": {"private": "x"}}),
            serde_json::json!({"visibility": {"public": ["x"]}}),
            serde_json::json!({"visibility": ["x"]}),
        ] {
            assert!(
                VisibilityRules::parse(&bad, String::new(), "aidocs.json").is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn issue_18_references_are_normalized_and_never_leave_the_site() {
        assert_eq!(normalize_rel("./drafts/x").as_deref(), Some("drafts/x"));
        assert_eq!(
            normalize_rel("guides/../drafts/x").as_deref(),
            Some("drafts/x")
        );
        assert_eq!(normalize_rel("/drafts/x").as_deref(), Some("drafts/x"));
        assert_eq!(normalize_rel("../outside/x"), None);
        assert_eq!(normalize_rel("a/../../x"), None);
        assert_eq!(normalize_rel("a\\..\\x"), None);
        assert_eq!(normalize_rel("./"), None);
    }

    #[test]
    fn issue_18_files_outside_the_root_or_not_regular_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let site = tmp.path().join("site");
        std::fs::create_dir_all(&site).unwrap();
        std::fs::write(tmp.path().join("outside.mdx"), "x").unwrap();
        std::fs::write(site.join("in.mdx"), "in").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("outside.mdx"), site.join("link.mdx")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", site.join("zero.mdx")).unwrap();
        let root = SiteRoot::new(&site, 4).unwrap();
        assert_eq!(root.read_path(&site.join("in.mdx")).unwrap().1, "in");
        assert!(matches!(
            root.resolve(&site.join("link.mdx")),
            Err(Refusal::Outside(_))
        ));
        assert!(matches!(
            root.resolve(&site.join("../outside.mdx")),
            Err(Refusal::Outside(_))
        ));
        assert_eq!(
            root.resolve(&site.join("zero.mdx")),
            Err(Refusal::NotRegular)
        );
        assert_eq!(
            root.resolve(Path::new("/dev/zero")),
            Err(Refusal::NotRegular)
        );
        std::fs::write(site.join("big.mdx"), "12345").unwrap();
        assert!(matches!(
            root.resolve(&site.join("big.mdx")),
            Err(Refusal::TooLarge { .. })
        ));
        assert_eq!(root.resolve(&site.join("none.mdx")), Err(Refusal::Missing));
    }

    #[test]
    fn issue_18_nesting_is_measured_before_parsing() {
        assert!(nesting_depth("a: 1\nb:\n  c: [1, {d: 2}]\n") <= 4);
        // Issue 18: a quote inside a plain scalar opens nothing; the brackets after it count.
        let deep = "[".repeat(200);
        for hidden in [
            format!("t: [it's, {deep}"),
            format!("t: a:'x, {deep}"),
            format!("t: [x\"y, {deep}"),
            format!("title: [a - \"x, {deep}"),
            format!("paths: [a ? 'x, {deep}"),
        ] {
            assert!(nesting_depth(&hidden) > MAX_NESTING, "{hidden}");
        }
        assert!(
            nesting_depth(&format!("t: '{deep}'\nu: \"{deep}\"")) < 4,
            "quoted text"
        );
        assert!(nesting_depth(&format!("t: 'it''s {deep}'")) < 4);
        let deep_flow = "[".repeat(100_000);
        assert!(check_nesting(&deep_flow).is_err());
        let deep_block: String = (0..300)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        assert!(check_nesting(&deep_block).is_err());
        let dashes = format!("{}x\n", "- ".repeat(500));
        assert!(check_nesting(&dashes).is_err());
        assert!(check_nesting("title: \"[[[[\"\n").is_ok());
    }
}
