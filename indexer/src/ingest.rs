//! Ingestion: turns a site directory or a JSONL file into fingerprinted pending pages, applying the
//! visibility filter *before* anything is parsed into the index. Parsing a pending page into a [`Page`]
//! is a separate step so that the build can skip pages whose fingerprint is already in the cache.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use aidocs_core::analyzer::normalize_exact;
use aidocs_core::search::{EXACT_ENDPOINT_PREFIX, EXACT_OPERATION_PREFIX, EXACT_TITLE_PREFIX};
use aidocs_core::Kind;
use serde::Deserialize;

use crate::chunk::{chunk_markdown, slugify, split_paragraphs, ChunkConfig};
use crate::document::{Chunk, Diagnostic, Page, Visibility};
use crate::mdx::{
    braces_as_text, split_frontmatter, to_markdown, Dialect, Frontmatter, IncludePolicy,
    SnippetResolver,
};
use crate::openapi::{load_spec_text, LoadedOperations, Operation, OperationRef};
use crate::site::{load_site, markdown_files, page_url, resolve_page_file, NavEntry};
use crate::visibility::{
    allowed, normalize_rel, read_bounded, Declared, Flag, SiteFile, SiteRoot, VisibilityRules,
    DEFAULT_MAX_FILE_BYTES,
};

/// Version of everything ingestion derives from a source file; part of every fingerprint. (3: chunks
/// keep their words for typo tolerance; 4: one visibility policy on resolved files, includes
/// checked, HTML comments dropped; 5: `.md` read as Markdown, ESM blocks and fences as MDX reads
/// them; 6: a page's first chunk carries its URL key, for reading a page by URL; 7: that key of the
/// percent-decoded path, as a link in llms.txt escapes it; 8 was a reverted `boost`'s; 9: an
/// operation's text as its page shows it (hidden elements out, `x-mint.content` and metadata in,
/// every response's fields); 10: section anchors are the ids Mintlify renders (`heading_id`); 11:
/// its two passes (`slugifyWithCounter`, then the table of contents'), accordions' headings in
/// their section, updates and steps as sections, generated API sections without anchors; 12: a
/// page's exact-match keys carry their text, hashed and filed under a term of it when indexed; 13:
/// bare as well for a page in a language; 14: frontmatter where Mintlify reads it, files with an HTML
/// comment (which its parser refuses), components it removes, Tailwind's hiding classes. Since 14 a page's fingerprint
/// also holds the hash of the indexer's source (`build.rs`), so a change of the rules re-reads
/// every cached page even when this number is not raised.)
const INGEST_VERSION: u32 = 14;

#[derive(Debug, Clone)]
pub struct IngestOptions {
    /// The most restricted content this build may include: `Public` or `Internal`.
    pub audience: Visibility,
    pub include_unlisted: bool,
    pub openapi: Vec<PathBuf>,
    pub chunk: ChunkConfig,
    /// The largest file the build reads (`--max-file-bytes`).
    pub max_file_bytes: u64,
}

impl IngestOptions {
    pub fn new(audience: Visibility) -> Self {
        IngestOptions {
            audience,
            include_unlisted: false,
            openapi: Vec::new(),
            chunk: ChunkConfig::default(),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
        }
    }
}

/// A site directory as the build reads it: its root and its visibility globs.
#[derive(Debug)]
pub struct Site {
    pub root: SiteRoot,
    pub rules: VisibilityRules,
    /// The loaded specs' operations: an include bound to one (`openapi:` in its frontmatter) takes
    /// its visibility.
    pub operations: LoadedOperations,
    pub branding: crate::site::Branding,
    /// docs.json's `variables`, replaced in pages and snippets (not in specs, as on the site).
    pub variables: crate::mdx::variables::Variables,
}

impl Site {
    pub fn includes(&self, audience: Visibility) -> IncludePolicy<'_> {
        IncludePolicy {
            site: &self.root,
            rules: &self.rules,
            operations: &self.operations,
            audience,
            variables: &self.variables,
        }
    }

    /// Whether every file a cached page included still has the bytes it had (so the page would
    /// parse to the same text): a changed, removed or refused include means parsing it again.
    pub fn includes_unchanged(&self, includes: &[(String, String)]) -> bool {
        includes.iter().all(|(rel, hash)| {
            self.root
                .read_path(&self.root.root.join(rel))
                .is_ok_and(|(f, text)| {
                    let hash = hash.trim_start_matches(crate::mdx::WITHHELD_PREFIX);
                    &f.rel == rel && blake3::hash(text.as_bytes()).to_hex().as_str() == hash
                })
        })
    }
}

/// A page whose content is known and fingerprinted but not yet parsed.
#[derive(Debug, Clone)]
pub struct Pending {
    pub id: String,
    pub fingerprint: String,
    pub source: Source,
}

impl Ingested {
    /// Drops every page's source text: for a build that parses no page again (a lexical build,
    /// once its pages are in the build index).
    pub fn release_sources(&mut self) {
        for p in &mut self.pending {
            match &mut p.source {
                Source::Mdx { text, .. } => *text = String::new(),
                Source::Record { record, .. } => record.text = String::new(),
                Source::Operation { .. } => {}
            }
        }
    }
}

#[derive(Debug, Clone)]
pub enum Source {
    Mdx {
        rel: String,
        text: String,
        frontmatter: Box<Frontmatter>,
        /// Byte offset of the body after the frontmatter (parsed once, during ingestion).
        body_start: usize,
        nav: Option<NavEntry>,
        operation: Option<Operation>,
    },
    Operation {
        op: Operation,
        spec: String,
        nav: Option<NavEntry>,
        /// The URL Mintlify gives the generated page (`/api-reference/users/get-user`).
        url: String,
    },
    Record {
        record: JsonRecord,
        file: String,
        line: usize,
    },
}

/// A JSONL input record.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct JsonRecord {
    pub id: serde_json::Value,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub text: String,
    pub url: Option<String>,
    pub kind: Option<String>,
    /// Any JSON value: `null`, a list or a number is present and withholds the record.
    #[serde(default, deserialize_with = "present")]
    pub visibility: Option<serde_json::Value>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub metadata: Option<serde_json::Value>,
}

/// A field that is present, `null` included, is `Some`.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(d).map(Some)
}

/// Whether a page or record URL may be linked to: a site-relative path (`/x`, not `//host`) or an
/// `http(s)` URL, without whitespace or control characters.
pub fn safe_url(url: &str) -> bool {
    if url.is_empty()
        || url
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
    {
        return false;
    }
    if let Some(rest) = url.strip_prefix('/') {
        return !rest.starts_with('/');
    }
    let lower = url.to_ascii_lowercase();
    ["http://", "https://"]
        .iter()
        .any(|s| lower.starts_with(s) && lower.len() > s.len())
}

/// What ingestion found.
#[derive(Debug, Default)]
pub struct Ingested {
    pub site: Option<Site>,
    pub pending: Vec<Pending>,
    pub diagnostics: Vec<Diagnostic>,
    /// Pages left out by visibility (never read further).
    pub withheld: usize,
    /// Pages left out by `noindex`/`hidden`.
    pub noindex: usize,
}

fn hash_parts(parts: &[&[u8]]) -> String {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().to_hex()[..32].to_owned()
}

/// Ingests a site directory or a `.jsonl` file.
pub fn ingest(input: &Path, opts: &IngestOptions) -> Result<Ingested, Diagnostic> {
    if input.is_file() {
        return ingest_jsonl(input, opts);
    }
    if !input.is_dir() {
        return Err(Diagnostic {
            file: input.display().to_string(),
            line: None,
            message: "input is neither a site directory nor a .jsonl file".into(),
        });
    }
    ingest_site(input, opts)
}

fn ingest_jsonl(path: &Path, opts: &IngestOptions) -> Result<Ingested, Diagnostic> {
    let display = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|e| Diagnostic {
        file: display.clone(),
        line: None,
        message: format!("cannot read: {e}"),
    })?;
    let settings = settings_hash(opts, &[]);
    let mut out = Ingested::default();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, line) in src.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let record: JsonRecord = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(e) => {
                out.diagnostics.push(Diagnostic {
                    file: display.clone(),
                    line: Some(line_no),
                    message: format!("invalid record: {e}; expected {{\"id\",\"title\",\"text\",\"url\"?,\"kind\"?,\"visibility\"?,\"tags\"?}}"),
                });
                continue;
            }
        };
        let id = match &record.id {
            serde_json::Value::String(s) if !s.trim().is_empty() => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => {
                out.diagnostics.push(Diagnostic {
                    file: display.clone(),
                    line: Some(line_no),
                    message: "field `id` must be a non-empty string or a number".into(),
                });
                continue;
            }
        };
        if let Some(k) = &record.kind {
            if Kind::parse(k).is_none() {
                out.diagnostics.push(Diagnostic {
                    file: display.clone(),
                    line: Some(line_no),
                    message: format!("field `kind`: `{k}` is not one of docs, api, custom"),
                });
                continue;
            }
        }
        let declared = Declared::from_json_value("visibility", record.visibility.as_ref());
        if let Some(problem) = declared.problem() {
            out.diagnostics.push(Diagnostic {
                file: display.clone(),
                line: Some(line_no),
                message: format!("field {problem}; the record is withheld"),
            });
        }
        if !allowed(declared.visibility(), opts.audience) {
            out.withheld += 1;
            continue;
        }
        if let Some(url) = record.url.as_deref().filter(|u| !safe_url(u)) {
            out.diagnostics.push(Diagnostic {
                file: display.clone(),
                line: Some(line_no),
                message: format!(
                    "field `url`: `{}` is neither a site-relative path (/…) nor an http(s) URL; the record is skipped",
                    url.chars().take(80).collect::<String>()
                ),
            });
            continue;
        }
        if let Some(prev) = seen.insert(id.clone(), line_no) {
            out.diagnostics.push(Diagnostic {
                file: display.clone(),
                line: Some(line_no),
                message: format!(
                    "duplicate id `{id}` (first at line {prev}); this record is skipped"
                ),
            });
            continue;
        }
        out.pending.push(Pending {
            fingerprint: hash_parts(&[settings.as_bytes(), line.as_bytes()]),
            id,
            source: Source::Record {
                record,
                file: display.clone(),
                line: line_no,
            },
        });
    }
    Ok(out)
}

fn settings_hash(opts: &IngestOptions, extra: &[&[u8]]) -> String {
    let head = format!(
        "ingest={INGEST_VERSION};source={};analyzer={};audience={:?};max_chars={};unlisted={};max_file={}",
        env!("AIDOCS_INDEX_SOURCE_HASH"),
        aidocs_core::ANALYZER_VERSION,
        opts.audience,
        opts.chunk.max_chars,
        opts.include_unlisted,
        opts.max_file_bytes
    );
    let mut parts: Vec<&[u8]> = vec![head.as_bytes()];
    parts.extend_from_slice(extra);
    hash_parts(&parts)
}

/// A page file read, its frontmatter parsed.
struct Read {
    rel: String,
    text: String,
    fm: Frontmatter,
    body_start: usize,
    nav: Option<NavEntry>,
}

fn ingest_site(root: &Path, opts: &IngestOptions) -> Result<Ingested, Diagnostic> {
    let site_root = SiteRoot::new(root, opts.max_file_bytes)?;
    let mut config = load_site(&site_root)?;
    let rules = std::mem::take(&mut config.visibility);
    let mut out = Ingested {
        diagnostics: std::mem::take(&mut config.warnings),
        ..Default::default()
    };
    let refused = |rel: &str, e: &dyn std::fmt::Display| Diagnostic {
        file: rel.to_owned(),
        line: None,
        message: format!("not read: {e}; the page is skipped"),
    };

    // Which files are pages (as written, site-relative, and resolved), with their navigation entry.
    let mut files: BTreeMap<String, (SiteFile, Option<NavEntry>)> = BTreeMap::new();
    // Listed pages without a file, by URL: a generated page's listing, or nothing.
    let mut no_file: BTreeMap<String, NavEntry> = BTreeMap::new();
    let config_file = config.config_file.clone().unwrap_or_default();
    if config.config_file.is_some() {
        for (key, nav) in &config.pages {
            match resolve_page_file(&site_root, key) {
                Ok(Some((rel, _))) if !crate::site::is_page_file(&rel) => {
                    out.diagnostics.push(Diagnostic {
                        file: config_file.clone(),
                        line: None,
                        message: format!("navigation lists page `{key}`, but Mintlify publishes no page from `{rel}` (a snippet, or a README, LICENSE or CONTRIBUTING file); it is skipped"),
                    })
                }
                Ok(Some((rel, file))) => {
                    // Two listings of one file: hidden when either is.
                    (files.entry(rel))
                        .and_modify(|(_, n)| {
                            if let Some(n) = n {
                                n.merge_listing(nav);
                            }
                        })
                        .or_insert_with(|| (file, Some(nav.clone())));
                }
                // Perhaps a generated API page's URL (decided once the specs are read, below).
                Ok(None) => {
                    no_file.insert(format!("/{key}"), nav.clone());
                }
                Err((rel, e)) => out.diagnostics.push(Diagnostic {
                    file: config_file.clone(),
                    line: None,
                    message: format!("navigation page `{key}`: `{rel}` is not read: {e}; it is skipped"),
                }),
            }
        }
    }
    // Pages not in the navigation are searched without a configuration, when asked, and where the
    // site indexes its hidden pages (`seo.indexing: "all"`: Mintlify's "page not listed in
    // docs.json" row).
    if config.config_file.is_none() || opts.include_unlisted || config.index_hidden {
        for rel in markdown_files(&site_root) {
            if files.contains_key(&rel) {
                continue;
            }
            match site_root.resolve(&root.join(&rel)) {
                Ok(f) => {
                    files.insert(rel, (f, None));
                }
                Err(e) => out.diagnostics.push(refused(&rel, &e)),
            }
        }
    }

    // Read each page and its frontmatter; decide its visibility before anything else.
    let mut parsed = Vec::new();
    for (rel, (file, nav)) in files {
        // Globs apply to the page as listed and as resolved (a symlink into `drafts/` is a draft).
        let globbed = rules.for_paths([rel.as_str(), file.rel.as_str()]);
        if !allowed(globbed.visibility(), opts.audience) {
            out.withheld += 1;
            continue;
        }
        let text = match site_root.read(&file) {
            Ok(t) => t,
            Err(e) => {
                out.diagnostics.push(refused(&rel, &e));
                continue;
            }
        };
        let (fm, body_start) = match split_frontmatter(&text) {
            Ok((fm, body, _)) => (fm, text.len() - body.len()),
            Err(e) => {
                out.diagnostics.push(Diagnostic {
                    file: rel.clone(),
                    line: Some(e.line),
                    message: format!("{}; the page is skipped", e.message),
                });
                continue;
            }
        };
        parsed.push((
            globbed,
            Read {
                rel,
                text,
                fm,
                body_start,
                nav,
            },
            file.rel,
        ));
    }
    // A file another file imports is a snippet, not a page of its own (Mintlify: it "does not
    // render as a standalone page"), listed in the navigation or not: Mintlify serves no page
    // at its URL.
    let imported = imported_files(&site_root);
    if !imported.is_empty() {
        parsed.retain(|(_, r, resolved)| {
            let snippet = [r.rel.as_str(), resolved.as_str()]
                .iter()
                .any(|rel| imported.contains(&format!("/{}", rel.to_lowercase())));
            if snippet && r.nav.is_some() {
                out.diagnostics.push(Diagnostic {
                    file: r.rel.clone(),
                    line: None,
                    message: "the navigation lists this page, but a file of the site imports it: Mintlify makes a snippet of it and serves no page at its URL; it is skipped".into(),
                });
            }
            out.noindex += usize::from(snippet);
            !snippet
        });
    }
    let parsed: Vec<(Declared, Read)> = parsed.into_iter().map(|(g, r, _)| (g, r)).collect();
    // A site that declares `public` on a page (read here or not), a navigation element or an
    // operation is behind authentication (decided once the specs are read, below).
    let declares_public =
        config.declares_public || (parsed.iter()).any(|(_, r)| r.fm.public.withholds());
    for (_, r) in &parsed {
        if let Some(problem) = r.fm.public.problem() {
            out.diagnostics.push(Diagnostic {
                file: r.rel.clone(),
                line: None,
                message: format!("frontmatter {problem}: the page needs a sign-in, and the site is taken to be behind one"),
            });
        }
    }
    let read_pages: HashSet<String> = parsed.iter().map(|(_, r)| r.rel.clone()).collect();
    let mut reads = Vec::new();
    for (globbed, r) in parsed {
        let Read {
            rel,
            text,
            fm,
            body_start,
            nav,
        } = r;
        let declared = fm.visibility.clone().combine(globbed);
        if let Some(problem) = declared.problem() {
            out.diagnostics.push(Diagnostic {
                file: rel.clone(),
                line: None,
                message: format!("frontmatter {problem}; the page is withheld"),
            });
        }
        if !allowed(declared.visibility(), opts.audience) {
            out.withheld += 1;
            continue;
        }
        // Out of Mintlify's search: `noindex`, `searchable: false`, or hidden (by the page, or by
        // the navigation unless the page says `hidden: false`) on a site that does not index
        // hidden pages.
        let hidden = match fm.hidden {
            Flag::Absent => nav.as_ref().is_some_and(|n| n.hidden),
            ref f => f.withholds(),
        };
        if fm.noindex || (hidden && !config.index_hidden) {
            out.noindex += 1;
            continue;
        }
        reads.push(Read {
            rel,
            text,
            fm,
            body_start,
            nav,
        });
    }

    // OpenAPI specs: from the config, the command line, and page frontmatter. (path, display,
    // named on the command line)
    let mut spec_files: Vec<(PathBuf, String, bool)> = Vec::new();
    for rel in &config.openapi {
        spec_files.push((root.join(rel), rel.clone(), false));
    }
    for p in &opts.openapi {
        spec_files.push((p.clone(), p.display().to_string(), true));
    }
    for r in &reads {
        let Some(reference) = r.fm.openapi.as_deref().and_then(OperationRef::parse) else {
            continue;
        };
        // `openapi: v2-spec POST /x` names a listed spec by its file name: nothing more to read.
        if spec_files
            .iter()
            .any(|(_, display, _)| reference.names_spec(display))
        {
            continue;
        }
        if let Some(spec) = reference.spec {
            match normalize_rel(&spec) {
                Some(rel) => {
                    // Named by its stem (`openapi: v2-spec GET /x`): the file with an extension.
                    let rel = ["", ".json", ".yaml", ".yml"]
                        .iter()
                        .map(|ext| format!("{rel}{ext}"))
                        .find(|c| std::fs::symlink_metadata(root.join(c)).is_ok())
                        .unwrap_or(rel);
                    if !spec_files.iter().any(|(_, d, _)| *d == rel) {
                        spec_files.push((root.join(&rel), rel, false));
                    }
                }
                None => out.diagnostics.push(Diagnostic {
                    file: r.rel.clone(),
                    line: None,
                    message: format!("frontmatter `openapi: {spec}` is not a path inside the site; the spec is not read"),
                }),
            }
        }
    }
    let mut loaded = LoadedOperations::default();
    let mut spec_hashes: Vec<String> = Vec::new();
    // Specs that could not be read: a binding that may point into one cannot be judged.
    let mut unreadable: Vec<String> = Vec::new();
    // Specs an OpenAPI Overlay changes before Mintlify reads them: not understood, withheld.
    let overlaid = crate::overlays::overlaid_specs(&site_root, &config.overlays);
    for (path, display, command_line) in spec_files {
        if loaded.0.contains_key(&display) {
            continue;
        }
        if let Some(overlay) = overlaid.get(&display).filter(|_| !command_line) {
            out.diagnostics.push(Diagnostic {
                file: display.clone(),
                line: None,
                message: format!("an OpenAPI Overlay (`{overlay}`) changes this spec before Mintlify reads it, and this build does not apply overlays: its operations are withheld"),
            });
            spec_hashes.push(format!("{display}:overlaid by {overlay}"));
            unreadable.push(display.clone());
            loaded.0.insert(display, Vec::new());
            continue;
        }
        let spec = read_spec(&site_root, &rules, &path, &display, command_line).and_then(
            |(hash, spec)| {
                spec_hashes.push(hash);
                spec
            },
        );
        match spec {
            Ok(spec) => {
                for message in spec.warnings {
                    out.diagnostics.push(Diagnostic {
                        file: display.clone(),
                        line: None,
                        message,
                    });
                }
                loaded.0.insert(display, spec.operations);
            }
            Err(d) => {
                out.diagnostics.push(Diagnostic {
                    message: format!("{}; the spec is skipped", d.message),
                    ..d
                });
                unreadable.push(display.clone());
                loaded.0.insert(display, Vec::new());
            }
        }
    }

    // A page may name an operation without its spec (`openapi: GET /users`): like Mintlify, look for
    // OpenAPI files anywhere in the site when a loaded spec does not have it (found as a binding
    // finds it).
    let unresolved = reads.iter().any(|r| {
        r.fm.openapi
            .as_deref()
            .and_then(OperationRef::parse)
            .is_some_and(|o| o.spec.is_none() && loaded.find(&o).is_none())
    });
    if unresolved {
        for (path, display) in discover_specs(root) {
            if loaded.0.contains_key(&display) || overlaid.contains_key(&display) {
                continue;
            }
            if let Ok((hash, Ok(spec))) = read_spec(&site_root, &rules, &path, &display, false) {
                spec_hashes.push(hash);
                loaded.0.insert(display, spec.operations);
            }
        }
    }

    // Snippets and specs can change any page: they are part of the settings fingerprint.
    let mut snippet_hash = blake3::Hasher::new();
    let snippets_dir = root.join("snippets");
    // A `snippets` symlink is not walked: it could lead anywhere (includes resolve on their own).
    if std::fs::symlink_metadata(&snippets_dir).is_ok_and(|m| m.is_dir()) {
        for e in walkdir::WalkDir::new(&snippets_dir)
            .sort_by_file_name()
            .into_iter()
            .flatten()
        {
            if e.file_type().is_file() {
                snippet_hash.update(e.path().to_string_lossy().as_bytes());
                if let Ok(t) = read_bounded(e.path(), opts.max_file_bytes) {
                    snippet_hash.update(t.as_bytes());
                }
            }
        }
    }
    let snippet_hash = snippet_hash.finalize().to_hex().to_string();
    let spec_blob = spec_hashes.join("\n");
    // docs.json's variables can change any page's text.
    let variables = serde_json::to_string(&config.variables).unwrap_or_default();
    let settings = settings_hash(
        opts,
        &[
            snippet_hash.as_bytes(),
            spec_blob.as_bytes(),
            rules.source.as_bytes(),
            site_root.ignore_source().as_bytes(),
            variables.as_bytes(),
        ],
    );
    for (level, glob) in rules.unmatched_in(root) {
        out.diagnostics.push(Diagnostic {
            file: "aidocs.json".into(),
            line: None,
            message: format!(
                "`visibility.{}` glob `{glob}` matches no file of the site",
                format!("{level:?}").to_lowercase()
            ),
        });
    }

    let operations = loaded;
    // Behind authentication, a page needs no sign-in only where it is declared public (its own
    // `public: true`, else its navigation element's); `groups` pages always need one.
    let authenticated = declares_public
        || operations.0.values().flatten().any(|op| op.declares_public)
        || unread_pages_declare_public(&site_root, &read_pages);
    let mut signed_in = 0usize;
    reads.retain(|r| {
        let own = match r.fm.public {
            Flag::Absent => None,
            ref f => Some(*f == Flag::Set(true) && r.fm.public_true),
        };
        if !needs_sign_in(authenticated, own, r.nav.as_ref()) && !r.fm.groups {
            return true;
        }
        signed_in += 1;
        let kept = allowed(Visibility::Internal, opts.audience);
        out.withheld += usize::from(!kept);
        kept
    });
    let mut consumed: BTreeMap<(String, String), ()> = BTreeMap::new();
    for r in reads {
        let mut operation = None;
        if let Some(spec_ref) = r.fm.openapi.as_deref() {
            // When the binding is not made: whether the page is withheld, and why.
            let unbound: Option<(bool, String)> = match OperationRef::parse(spec_ref) {
                Some(reference) => match operations.find(&reference) {
                    // Mintlify leaves an `x-excluded` operation out of the site: the page shows
                    // its own text only.
                    Some((display, op)) if op.excluded => {
                        consumed.insert((display.to_owned(), reference.key.clone()), ());
                        Some((false, format!("names the operation `{}`, which its spec marks `x-excluded`", reference.key)))
                    }
                    Some((display, op)) => {
                        consumed.insert((display.to_owned(), reference.key.clone()), ());
                        let mut op = op.clone();
                        // Every operation the reference could mean: the most restrictive wins.
                        op.declared = operations.declared_for(&reference);
                        operation = Some(op);
                        None
                    }
                    // The spec that may hold it could not be read: its visibility is unknown.
                    None if unreadable.iter().any(|d| reference.names_spec(d)) => Some((
                        true,
                        "names an operation of a spec that could not be read, so its visibility is unknown".into(),
                    )),
                    None => Some((false, match &reference.spec {
                        Some(spec) if !operations.has_spec(&reference) => format!(
                            "names the spec `{spec}`, which is none of the loaded specs ({}), by path, file name or name without extension",
                            operations.0.keys().map(String::as_str).collect::<Vec<_>>().join(", ")
                        ),
                        _ => format!("names the operation `{}`, which no loaded spec has", reference.key),
                    })),
                },
                // A binding we cannot read could name an internal operation.
                None => Some((
                    true,
                    "is not `[spec] METHOD /path` or `[spec] webhook name`".into(),
                )),
            };
            if let Some((withhold, problem)) = unbound {
                let outcome = if withhold {
                    "withheld"
                } else {
                    "indexed without it"
                };
                out.diagnostics.push(Diagnostic {
                    file: r.rel.clone(),
                    line: None,
                    message: format!(
                        "frontmatter `openapi: {spec_ref}` {problem}; the page is {outcome}"
                    ),
                });
                if withhold {
                    out.withheld += 1;
                    continue;
                }
            }
        }
        if let Some(op) = &operation {
            if !allowed(op.visibility(), opts.audience) {
                out.withheld += 1;
                continue;
            }
        }
        let id = crate::site::page_key(&r.rel).to_owned();
        let nav_json = serde_json::to_string(&r.nav).unwrap_or_default();
        out.pending.push(Pending {
            fingerprint: hash_parts(&[
                settings.as_bytes(),
                r.rel.as_bytes(),
                r.text.as_bytes(),
                nav_json.as_bytes(),
            ]),
            id,
            source: Source::Mdx {
                rel: r.rel,
                text: r.text,
                frontmatter: Box::new(r.fm),
                body_start: r.body_start,
                nav: r.nav,
                operation,
            },
        });
    }

    // Operations get generated pages where the site asks for them, as Mintlify generates them
    // (`generated_pages`), an MDX page bound to one or not: listed in the navigation (`GET /users`),
    // or every operation of a spec a navigation element names without listing any; and every
    // operation of a spec named on our command line. The rest are searchable through the pages
    // bound to them, never at a URL the site does not have.
    let command_line: std::collections::HashSet<String> = opts
        .openapi
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut used_ids: HashMap<String, usize> =
        out.pending.iter().map(|p| (p.id.clone(), 1)).collect();
    let mut pages = generated_pages(&operations, &config, &command_line, &no_file);
    let generated: HashSet<&str> = (pages.values().flatten()).map(|p| p.url.as_str()).collect();
    for key in no_file
        .keys()
        .filter(|url| !generated.contains(url.as_str()))
    {
        let key = &key[1..];
        out.diagnostics.push(Diagnostic {
            file: config_file.clone(),
            line: None,
            message: format!(
                "navigation lists page `{key}` but no `{key}.mdx`/`.md` exists; it is skipped"
            ),
        });
    }
    for (display, ops) in &operations.0 {
        let from_command_line = command_line.contains(display);
        let mut without_page = 0usize;
        for (i, op) in ops.iter().enumerate() {
            // An operation a page binds has that page; one with no page of its own is said below.
            let bound = consumed.contains_key(&(display.clone(), op.key()));
            if op.excluded {
                continue;
            }
            // Which operations get pages of their own, at what URLs: `generated_pages`.
            let Some(generated) = pages.remove(&(display.as_str(), i)) else {
                without_page += usize::from(!bound);
                continue;
            };
            // An operation's declaration is warned about once, however many pages it has.
            let mut warned = false;
            let base = if op.operation_id.is_empty() {
                slugify(&format!("{} {}", op.method, op.path.replace('/', " ")))
            } else {
                op.operation_id.clone()
            };
            for GeneratedPage {
                url,
                nav,
                listed,
                kept_by,
                rivals,
            } in generated
            {
                // Mintlify makes the page (hidden, or behind sign-in) whether or not this build
                // indexes it: its id is taken either way.
                let mut id = format!("api/{base}");
                let n = used_ids.entry(id.clone()).or_insert(0);
                *n += 1;
                if *n > 1 {
                    id = format!("{id}-{n}");
                }
                // Two pages at one URL: the site shows the one generated last, and the other's
                // text is on no page.
                if let Some(other) = kept_by {
                    out.diagnostics.push(Diagnostic {
                        file: display.clone(),
                        line: None,
                        message: format!(
                            "operation `{}`: its generated page's URL {url} is also the page of {other}, which the site shows; it is not indexed",
                            op.key()
                        ),
                    });
                    out.withheld += 1;
                    continue;
                }
                // Its own `hidden` (`x-mint.metadata`), else listed under a hidden navigation
                // element (any listing of its URL): left out of search as a hidden page. An
                // `x-hidden` operation's bulk page is listed nowhere: left out as an unlisted page
                // is (kept with `seo.indexing: "all"`, which searches unlisted pages too).
                let hidden = match &op.hidden {
                    Flag::Absent => nav.as_ref().is_some_and(|n| n.hidden),
                    own => own.withholds(),
                };
                let unlisted_out = !(listed || opts.include_unlisted || config.index_hidden);
                let hidden = hidden || rivals.hidden;
                let noindex = op.noindex || rivals.noindex;
                if hidden && !config.index_hidden || noindex || unlisted_out {
                    out.noindex += 1;
                    continue;
                }
                if let Some(problem) = op.declared.problem().filter(|_| !warned) {
                    warned = true;
                    out.diagnostics.push(Diagnostic {
                        file: display.clone(),
                        line: None,
                        message: format!("operation `{}`: {problem}; it is withheld", op.key()),
                    });
                }
                let sign_in = needs_sign_in(authenticated, op.public, nav.as_ref());
                signed_in += usize::from(sign_in);
                let visibility = match sign_in {
                    true => op.visibility().max(Visibility::Internal),
                    false => op.visibility(),
                }
                .max(rivals.visibility);
                if !allowed(visibility, opts.audience) {
                    out.withheld += 1;
                    continue;
                }
                let op_json = format!(
                    "{op:?}{}{url}",
                    serde_json::to_string(&nav).unwrap_or_default()
                );
                out.pending.push(Pending {
                    fingerprint: hash_parts(&[
                        settings.as_bytes(),
                        display.as_bytes(),
                        op_json.as_bytes(),
                    ]),
                    id,
                    source: Source::Operation {
                        op: op.clone(),
                        spec: display.clone(),
                        nav,
                        url,
                    },
                });
            }
        }
        if without_page > 0 && !from_command_line {
            out.diagnostics.push(Diagnostic {
                file: display.clone(),
                line: None,
                message: format!(
                    "{without_page} operation(s) have neither an MDX page bound to them (`openapi:` frontmatter) nor a navigation entry that makes Mintlify generate one; they get no page of their own"
                ),
            });
        }
    }
    if signed_in > 0 && opts.audience == Visibility::Public {
        out.diagnostics.push(Diagnostic {
            file: config_file.clone(),
            line: None,
            message: format!(
                "{signed_in} page(s) and generated API page(s) need a sign-in on the site (`groups`, a `public` or `x-mint.metadata.public` other than `true`, or none where pages, navigation groups or operations declare `public`): they are left out of this public build"
            ),
        });
    }
    out.pending.sort_by(|a, b| a.id.cmp(&b.id));
    out.site = Some(Site {
        root: site_root,
        rules,
        operations,
        branding: std::mem::take(&mut config.branding),
        variables: std::mem::take(&mut config.variables),
    });
    Ok(out)
}

/// The files Mintlify takes for snippets because a file of the site imports them
/// (`categorizeFilePaths` in `@mintlify/prebuild`): every `.mdx`, `.md`, `.jsx` and `.tsx` file
/// it publishes (`.mintignore` and its defaults apply; hidden folders and `snippets/` are read
/// too; bytes that are not UTF-8 read as replacement characters) is scanned line by line before
/// any parse, and a line outside code fences that starts with `import ` names a file (`import X
/// from './a.mdx'`; a line in a paragraph or a comment counts). An `import` line the scan cannot
/// read is read as the statement it starts, over the lines it takes (Mintlify parses the file
/// then; `import {` … `} from './a.mdx'` is one). Each source that is
/// a path (`/…`, `./…`, `../…`) is resolved against the importing file as it is written; the set
/// holds them lower-cased with a leading `/` (`/shared/part.mdx`), as Mintlify compares them.
fn imported_files(site: &SiteRoot) -> HashSet<String> {
    static IMPORT_SOURCE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"import\s+(?:[\w$*{},\s]+?\s+from\s+)?['"]([^'"]+)['"]"#)
            .expect("a valid pattern")
    });
    // The same statement from where a line starts it, over as many lines as it takes.
    static IMPORT_STATEMENT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"^import\s+(?:[\w$*{},\s]+?\s+from\s+)?['"]([^'"]+)['"]"#)
            .expect("a valid pattern")
    });
    let mut imported = HashSet::new();
    for (rel, path) in site.published_files() {
        let lower = rel.to_lowercase();
        let scanned = [".mdx", ".md", ".jsx", ".tsx"]
            .iter()
            .any(|ext| lower.ends_with(ext));
        if !scanned {
            continue;
        }
        let Ok(bytes) = site
            .resolve(&path)
            .and_then(|f| crate::visibility::read_bounded_bytes(&f.path, site.max_bytes))
        else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        if !text.contains("import") {
            continue;
        }
        let mut sources: Vec<&str> = Vec::new();
        let mut fences = crate::mdx::LineFences::default();
        let mut offset = 0usize;
        for line in text.split('\n') {
            let at = offset;
            offset += line.len() + 1;
            if fences.is_code(line) {
                continue;
            }
            if !(line.starts_with("import ") || line.starts_with("import\t")) {
                continue;
            }
            let before = sources.len();
            sources.extend(
                IMPORT_SOURCE
                    .captures_iter(line)
                    .map(|c| c.get(1).map_or("", |m| m.as_str())),
            );
            if sources.len() == before {
                // A statement is read over at most 4 KB (a thousand such lines cannot make the
                // scan quadratic).
                let mut end = (at + 4096).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                sources.extend(
                    IMPORT_STATEMENT
                        .captures(&text[at..end])
                        .and_then(|c| c.get(1))
                        .map(|m| m.as_str()),
                );
            }
        }
        let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
        for source in sources {
            let joined = if source.starts_with('/') {
                source.to_owned()
            } else if source.starts_with("./") || source.starts_with("../") {
                format!("/{dir}/{source}")
            } else {
                continue;
            };
            imported.insert(posix_normalize(&joined).to_lowercase());
        }
    }
    imported
}

/// `/a/./b/../c` as `/a/c` (`posix.normalize` of an absolute path; `..` above the root stays at it).
pub(crate) fn posix_normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}

/// Reads a spec through the site's rules (inside the site unless named on the command line) and
/// flattens it with its globs applied: `Err` when it cannot be read, else its fingerprint line
/// (`display:hash`) and the parse.
fn read_spec(
    site: &SiteRoot,
    rules: &VisibilityRules,
    path: &Path,
    display: &str,
    command_line: bool,
) -> Result<(String, Result<crate::openapi::Spec, Diagnostic>), Diagnostic> {
    let file = if command_line {
        // The operator names these (one inside the site that Mintlify ignores is refused as
        // well); the repository's references stay inside the site.
        site.resolve_anywhere(path)
    } else {
        site.resolve(path)
    };
    let (f, text) = file
        .and_then(|f| site.read(&f).map(|t| (f, t)))
        .map_err(|e| Diagnostic {
            file: display.to_owned(),
            line: None,
            message: format!("cannot read: {e}"),
        })?;
    let hash = format!("{display}:{}", blake3::hash(text.as_bytes()).to_hex());
    let globbed = rules.for_paths([display, f.rel.as_str()]);
    Ok((hash, load_spec_text(&text, path, display, globbed)))
}

/// Files in the site that look like OpenAPI 3 documents (checked by their first 4 KiB).
fn discover_specs(root: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || !(e.file_name().to_string_lossy().starts_with('.')
                    || e.file_name() == "node_modules")
        })
        .flatten()
    {
        let p = e.path();
        if !e.file_type().is_file()
            || !matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("json" | "yaml" | "yml")
            )
        {
            continue;
        }
        let mut head = vec![0u8; 4096];
        let n = std::fs::File::open(p)
            .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
            .unwrap_or(0);
        let head = String::from_utf8_lossy(&head[..n]);
        if head.contains("\"openapi\"") || head.lines().any(|l| l.starts_with("openapi:")) {
            if let Ok(rel) = p.strip_prefix(root) {
                out.push((p.to_path_buf(), rel.to_string_lossy().replace('\\', "/")));
            }
        }
    }
    out
}

fn first_heading(markdown: &str) -> Option<String> {
    // A heading's marker is no part of its text (a hidden heading has none to show).
    markdown.lines().find_map(|l| {
        let text = crate::heading_id::strip_marker(l.strip_prefix("# ")?);
        Some(text.trim().to_owned()).filter(|t| !t.is_empty())
    })
}

fn title_from_id(id: &str) -> String {
    let last = id.rsplit('/').next().unwrap_or(id);
    let mut t = last.replace(['-', '_'], " ");
    if let Some(f) = t.get(0..1) {
        t = f.to_uppercase() + &t[1..];
    }
    t
}

fn nav_fields(
    nav: &Option<NavEntry>,
) -> (Vec<String>, Option<String>, Option<String>, Option<String>) {
    match nav {
        Some(n) => (
            n.breadcrumb.clone(),
            n.group(),
            n.language.clone(),
            n.version.clone(),
        ),
        None => (Vec::new(), None, None, None),
    }
}

/// An exact-match key as a page carries it until it is indexed: its prefix and its text, made the
/// key the index stores (hashed, filed under a term of the text in the page's language:
/// [`aidocs_core::search::anchored_exact_key`]) where the page's analyzer is at hand.
fn exact_key_text(prefix: &str, text: &str) -> String {
    format!("{prefix}{text}")
}

fn api_keys(op: &Operation, keys: &mut Vec<String>) {
    keys.push(exact_key_text(EXACT_ENDPOINT_PREFIX, &op.key()));
    if !op.operation_id.is_empty() {
        keys.push(exact_key_text(EXACT_OPERATION_PREFIX, &op.operation_id));
    }
}

fn api_meta(op: &Operation) -> aidocs_core::ApiMeta {
    aidocs_core::ApiMeta {
        method: op.method.clone(),
        path: op.path.clone(),
        operation_id: op.operation_id.clone(),
    }
}

/// [`parse`], with a panic in one page's parse caught and returned as that page's error (naming its
/// file), so one hostile page never aborts the build.
pub fn parse_isolated(
    p: &Pending,
    site: Option<&Site>,
    opts: &IngestOptions,
) -> Result<(Page, Vec<Diagnostic>), Diagnostic> {
    isolated(p, || parse(p, site, opts))
}

/// [`parse_isolated`] that also returns the Markdown the page's chunks were cut from (its MDX as
/// text, an operation's reference appended): what the demo renders.
pub fn parse_isolated_with_markdown(
    p: &Pending,
    site: Option<&Site>,
    opts: &IngestOptions,
) -> Result<(Page, String, Vec<Diagnostic>), Diagnostic> {
    isolated(p, || parse_with_markdown(p, site, opts))
}

/// Runs one page's parse so that a panic in it is that page's error, never the build's.
fn isolated<T>(p: &Pending, parse: impl FnOnce() -> T) -> Result<T, Diagnostic> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(parse)).map_err(|e| {
        let why = e
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| e.downcast_ref::<&str>().copied())
            .unwrap_or("a panic");
        let file = match &p.source {
            Source::Mdx { rel, .. } => rel.clone(),
            Source::Operation { spec, op, .. } => format!("{spec} ({})", op.key()),
            Source::Record { file, line, .. } => format!("{file}:{line}"),
        };
        Diagnostic {
            file,
            line: None,
            message: format!(
                "the page could not be read ({why}); it is skipped. Please report this input"
            ),
        }
    })
}

/// A page's body, or a piece of a spec's text (a description, `x-mint.content`), as the page shows
/// it: read in its dialect from `root` (the folder its imports are relative to), hidden elements
/// left out. Markdown (a `.md` page, a description) may be compiled as MDX or shown as Markdown
/// (Mintlify compiles every page as MDX, and falls back to the text when a description's MDX
/// fails): what either reading hides is left out (the Markdown reading, then the MDX reading of
/// what it kept, its braces text but for comments: `/repos/{owner}` is what a reader sees).
fn render_shown_text(
    text: &str,
    dialect: Dialect,
    root: &Path,
    snippets: &mut SnippetResolver<'_>,
) -> String {
    if text.trim().is_empty() {
        return String::new();
    }
    match dialect {
        Dialect::Mdx => to_markdown(text, Dialect::Mdx, root, snippets),
        Dialect::Markdown => {
            let shown = to_markdown(text, Dialect::Markdown, root, snippets);
            to_markdown(&braces_as_text(&shown), Dialect::Mdx, root, snippets)
        }
    }
}

/// Parses a pending page into chunks. Warnings (missing snippets) are returned alongside.
pub fn parse(p: &Pending, site: Option<&Site>, opts: &IngestOptions) -> (Page, Vec<Diagnostic>) {
    let (page, _, warnings) = parse_with_markdown(p, site, opts);
    (page, warnings)
}

/// [`parse`], with the Markdown the chunks were cut from.
pub fn parse_with_markdown(
    p: &Pending,
    site: Option<&Site>,
    opts: &IngestOptions,
) -> (Page, String, Vec<Diagnostic>) {
    let mut warnings = Vec::new();
    let (page, markdown) = match &p.source {
        Source::Mdx {
            rel,
            text,
            frontmatter: fm,
            body_start,
            nav,
            operation,
        } => {
            let Some(site) = site else {
                unreachable!("a page of a site is parsed with its site")
            };
            let root = &site.root.root;
            let body = text.get(*body_start..).unwrap_or_default();
            let dir = root
                .join(rel)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| root.to_path_buf());
            let mut snippets = SnippetResolver::new(site.includes(opts.audience));
            let body = crate::mdx::raw_text(body, &site.variables, true);
            // A `.md` page too is compiled as MDX by Mintlify: what either reading hides stays
            // out (as for a spec's description). A page Mintlify's parser refuses shows readers a
            // placeholder in its place: none of its text is indexed.
            let dialect = Dialect::of(rel);
            let mut markdown = render_shown_text(&body, dialect, &dir, &mut snippets);
            if dialect == Dialect::Markdown {
                snippets.unparseable =
                    crate::mdx::mdx_refuses(&body, &dir, site.includes(opts.audience));
            }
            if let Some(why) = snippets.unparseable.take() {
                warnings.push(Diagnostic {
                    file: rel.clone(),
                    line: None,
                    message: format!(
                        "Mintlify cannot parse this page ({why}); it serves \"A parsing error occurred\" in its place, so only the page's title and description are indexed"
                    ),
                });
                markdown.clear();
            }
            if fm.headings_without_ids {
                markdown = crate::mdx::without_heading_ids(&markdown);
            }
            let op_markdown = operation.as_ref().map(|op| {
                op.markdown(opts.audience, &mut |text, dialect| {
                    render_shown_text(
                        // A spec's text is raw like a page's: no marker characters of its own.
                        &crate::mdx::raw_text(text, &Default::default(), false),
                        dialect,
                        root,
                        &mut snippets,
                    )
                })
            });
            let includes = std::mem::take(&mut snippets.includes);
            for w in snippets.warnings {
                warnings.push(Diagnostic {
                    file: rel.clone(),
                    line: None,
                    message: w,
                });
            }
            let title = fm
                .title
                .clone()
                .or_else(|| operation.as_ref().map(Operation::title))
                .or_else(|| first_heading(&markdown))
                .unwrap_or_else(|| title_from_id(&p.id));
            let mut description = fm.description.clone().unwrap_or_default();
            let mut keys = vec![exact_key_text(EXACT_TITLE_PREFIX, &title)];
            if let Some(s) = &fm.sidebar_title {
                if normalize_exact(s) != normalize_exact(&title) {
                    keys.push(exact_key_text(EXACT_TITLE_PREFIX, s));
                    description = format!("{s}. {description}");
                }
            }
            let mut tags = fm.tags.clone();
            if let (Some(op), Some(op_markdown)) = (operation, op_markdown) {
                api_keys(op, &mut keys);
                markdown.push_str("\n\n");
                markdown.push_str(&op_markdown);
                tags.extend(op.tags.iter().cloned());
            }
            let mut chunks = chunk_markdown(&title, &description, &markdown, opts.chunk);
            if let Some(op) = operation {
                chunks[0].code = format!(
                    "{} {} {}\n{}",
                    op.method, op.path, op.operation_id, chunks[0].code
                );
            }
            let (breadcrumb, group, language, version) = nav_fields(nav);
            let language = fm.language.clone().or(language);
            let page = Page {
                id: p.id.clone(),
                url: page_url(&p.id),
                title,
                description: fm.description.clone().unwrap_or_default(),
                kind: if operation.is_some() {
                    Kind::Api
                } else {
                    Kind::Docs
                },
                breadcrumb,
                group,
                tags,
                language,
                version,
                api: operation.as_ref().map(api_meta),
                exact_keys: keys,
                chunks,
                source: rel.clone(),
                includes,
            };
            (page, markdown)
        }
        Source::Operation { op, spec, nav, url } => {
            let Some(site) = site else {
                unreachable!("an operation of a site is parsed with its site")
            };
            let title = op.title();
            let mut keys = vec![exact_key_text(EXACT_TITLE_PREFIX, &title)];
            api_keys(op, &mut keys);
            let root = &site.root.root;
            let mut snippets = SnippetResolver::new(site.includes(opts.audience));
            let markdown = op.markdown(opts.audience, &mut |text, dialect| {
                render_shown_text(
                    // A spec's text is raw like a page's: no marker characters of its own.
                    &crate::mdx::raw_text(text, &Default::default(), false),
                    dialect,
                    root,
                    &mut snippets,
                )
            });
            // What `x-mint.content` imports: a cached page is parsed again when it changes.
            let includes = std::mem::take(&mut snippets.includes);
            for w in snippets.warnings {
                warnings.push(Diagnostic {
                    file: spec.clone(),
                    line: None,
                    message: format!("operation `{}`: {w}", op.key()),
                });
            }
            let mut chunks = chunk_markdown(&title, "", &markdown, opts.chunk);
            chunks[0].code = format!(
                "{} {} {}\n{}",
                op.method, op.path, op.operation_id, chunks[0].code
            );
            let (mut breadcrumb, mut group, language, version) = nav_fields(nav);
            if breadcrumb.is_empty() {
                breadcrumb = vec!["API reference".to_owned()];
                if let Some(t) = op.tags.first() {
                    breadcrumb.push(t.clone());
                }
                group = Some(breadcrumb.join(" > "));
            }
            let page = Page {
                id: p.id.clone(),
                url: url.clone(),
                title,
                description: String::new(),
                kind: Kind::Api,
                breadcrumb,
                group,
                tags: op.tags.clone(),
                language,
                version,
                api: Some(api_meta(op)),
                exact_keys: keys,
                chunks,
                source: spec.clone(),
                includes,
            };
            (page, markdown)
        }
        Source::Record { record, file, line } => {
            let title = if record.title.trim().is_empty() {
                p.id.clone()
            } else {
                record.title.clone()
            };
            let paras: Vec<String> = record
                .text
                .split("\n\n")
                .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|s| !s.is_empty())
                .collect();
            let chunks = split_paragraphs(&paras, opts.chunk.max_chars)
                .into_iter()
                .map(|body| Chunk {
                    anchor: String::new(),
                    title: title.clone(),
                    body,
                    ..Default::default()
                })
                .collect();
            let page = Page {
                id: p.id.clone(),
                url: record.url.clone().unwrap_or_else(|| format!("#{}", p.id)),
                title: title.clone(),
                description: String::new(),
                kind: record
                    .kind
                    .as_deref()
                    .and_then(Kind::parse)
                    .unwrap_or(Kind::Custom),
                breadcrumb: Vec::new(),
                group: None,
                tags: record.tags.clone(),
                language: None,
                version: None,
                api: None,
                exact_keys: vec![exact_key_text(EXACT_TITLE_PREFIX, &title)],
                chunks,
                source: format!("{file}:{line}"),
                includes: Vec::new(),
            };
            (page, paras.join("\n\n"))
        }
    };
    (page, markdown, warnings)
}

/// A generated page of an operation: its URL; where the navigation lists it (`nav`: the listings of
/// every page written at that URL merged, the most restrictive wins; none for a spec named on our
/// command line) or that it is listed nowhere (`listed`: an `x-hidden` operation's bulk page);
/// when a page generated after it takes the same URL (the site shows that one), which; and what
/// the other operations written at that URL would make of it ([`Rivals`]).
struct GeneratedPage {
    url: String,
    nav: Option<NavEntry>,
    listed: bool,
    kept_by: Option<String>,
    rivals: Rivals,
}

/// What the other operations whose pages are written at a URL say of it. Mintlify writes them
/// asynchronously (sibling navigation elements and the pages of one are generated concurrently),
/// so which page a reader finds there is not a fact we can rely on: the URL is kept from search
/// if any of them would be, and needs the most restrictive audience of any of them.
#[derive(Clone, Copy, Default)]
struct Rivals {
    /// One of them is hidden: its own `x-mint.metadata.hidden`, else a hidden listing.
    hidden: bool,
    /// One of them is `noindex`.
    noindex: bool,
    /// The most restrictive audience among them.
    visibility: Visibility,
}

/// What writes a generated page, as far as the order of writes goes: the listings (phase 0, in
/// navigation order), then the bulk generations (phase 1, an element before
/// those inside it, up to `subtree_end`), then our command line's specs (phase 2).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Writer {
    phase: u8,
    element: usize,
    subtree_end: usize,
}

impl Writer {
    /// Whether Mintlify writes the two concurrently, so that which is written last is not known:
    /// bulk generations of elements neither inside the other (`generateBulkNav`'s `Promise.all`
    /// over a navigation level's items, each reading and writing a whole spec). Listings are
    /// written as the navigation is walked (each waits on the one read of its spec, and those
    /// waits resume in the order they were made), which the differential runs confirm.
    fn concurrent_with(&self, other: &Writer) -> bool {
        let inside = |a: &Writer, b: &Writer| a.element <= b.element && b.element < a.subtree_end;
        self.phase == 1 && other.phase == 1 && !inside(self, other) && !inside(other, self)
    }
}

/// How a page is placed: listed under a navigation element, made by a bulk generation but left out
/// of the navigation (`x-hidden`), or made for a spec named on our command line.
#[derive(Clone, Copy)]
enum Placed<'c> {
    Listed(&'c NavEntry),
    Unlisted,
    CommandLine,
}

/// The generated pages of every operation that gets one (by spec and position in it), as Mintlify
/// generates them (`generateOpenApiFromDocsConfig` in `@mintlify/prebuild`, `processOpenApiPath`
/// in `@mintlify/scraping`), whether or not a page of the site binds the operation too (`openapi:`
/// frontmatter: that page is another page):
/// - an operation the navigation lists gets a page per URL directory it is listed under, never
///   numbered;
/// - a spec's bulk pages are made once per navigation element that names the spec without listing
///   any of its operations, under that element's directory, and numbered within their navigation
///   group of that element (the label of the operation's first tag;
///   `generateUniqueFilenameWithoutExtension`: `a`, `a-1`, `a-2`, past any taken, so `a`, `a`,
///   `a-1` give `a`, `a-1`, `a-1-1`), every operation of the spec taking its name there but an
///   `x-hidden` one, whose page is made and listed nowhere.
///
/// Listed operations are written first, each listing in navigation order, then the bulk pages, an
/// element's before those of the elements inside it: where two operations' pages share a URL, the
/// later is the page the site has. Whether a URL is hidden from search is decided over every
/// listing of it, whichever operation's page is written there (`generatePathToHiddenFromSearchDict`
/// in `@mintlify/common`: any hidden listing hides it, a navigation page written as its path
/// included); so is whether it needs a sign-in (the most restrictive wins). Specs named on our
/// command line are numbered among themselves, after everything else.
fn generated_pages<'o>(
    operations: &'o LoadedOperations,
    config: &'o crate::site::SiteConfig,
    command_line: &HashSet<String>,
    listed_by_url: &'o BTreeMap<String, NavEntry>,
) -> HashMap<(&'o str, usize), Vec<GeneratedPage>> {
    // (phase, order, spec, position): the order Mintlify writes the pages in.
    type WriteOrder<'o> = (u8, usize, &'o str, usize);
    let mut placed: Vec<(WriteOrder<'o>, String, Placed<'o>, Writer)> = Vec::new();
    let mut own = NameGroup::default();
    for (display, ops) in &operations.0 {
        let elements = config
            .generated_specs
            .get(display)
            .map_or(&[][..], Vec::as_slice);
        for element in elements {
            let mut groups: HashMap<&str, NameGroup> = HashMap::new();
            for (i, op) in ops.iter().enumerate() {
                if op.excluded {
                    continue;
                }
                let group = groups.entry(op.nav_group.as_str()).or_default();
                let base = crate::openapi::generated_url(op, &element.dir);
                let url = group.name(&base, !op.x_hidden);
                let how = match op.x_hidden {
                    true => Placed::Unlisted,
                    false => Placed::Listed(&element.nav),
                };
                let by = Writer {
                    phase: 1,
                    element: element.write_order,
                    subtree_end: element.subtree_end,
                };
                placed.push(((1, element.write_order, display.as_str(), i), url, how, by));
            }
        }
        for (i, op) in ops.iter().enumerate() {
            if op.excluded {
                continue;
            }
            let listing = config.listing(display, &op.key());
            for placement in listing {
                let url = crate::openapi::generated_url(op, &placement.dir);
                let order = (0, placement.write_order, display.as_str(), i);
                let by = Writer {
                    phase: 0,
                    element: placement.write_order,
                    subtree_end: placement.write_order,
                };
                placed.push((order, url, Placed::Listed(&placement.nav), by));
            }
            if listing.is_empty() && elements.is_empty() && command_line.contains(display) {
                let base = crate::openapi::generated_url(op, crate::site::DEFAULT_API_DIRECTORY);
                let url = own.name(&base, true);
                let by = Writer {
                    phase: 2,
                    element: 0,
                    subtree_end: 0,
                };
                placed.push(((2, 0, display.as_str(), i), url, Placed::CommandLine, by));
            }
        }
    }
    placed.sort_by(|a, b| a.0.cmp(&b.0));
    // Each URL: the operation written there last, and what its listings say.
    struct AtUrl {
        kept: (usize, usize),
        nav: Option<NavEntry>,
        listed: bool,
        /// Each writer there, and the operation it writes there last.
        writers: Vec<(Writer, (usize, usize))>,
        kept_by: Writer,
    }
    let mut at_url: HashMap<&str, AtUrl> = HashMap::new();
    let spec_index: HashMap<&str, usize> = (operations.0.keys().enumerate())
        .map(|(n, d)| (d.as_str(), n))
        .collect();
    for ((_, _, display, i), url, how, by) in &placed {
        let entry = at_url.entry(url.as_str()).or_insert(AtUrl {
            kept: (0, 0),
            nav: None,
            listed: false,
            writers: Vec::new(),
            kept_by: *by,
        });
        entry.kept = (spec_index[display], *i);
        entry.kept_by = *by;
        // What each writer writes there last (one element writes in order).
        match entry.writers.iter_mut().find(|(b, _)| b == by) {
            Some(last) => last.1 = entry.kept,
            None => entry.writers.push((*by, entry.kept)),
        }
        match how {
            Placed::Listed(nav) => {
                merge_listing_into(&mut entry.nav, nav);
                entry.listed = true;
            }
            Placed::CommandLine => entry.listed = true,
            Placed::Unlisted => {}
        }
    }
    // A navigation page written as a generated page's URL (`api-reference/users/list`) lists it
    // there too: once generated, the navigation holds its pages as such paths.
    for (url, here) in at_url.iter_mut() {
        if let Some(nav) = listed_by_url.get(*url) {
            merge_listing_into(&mut here.nav, nav);
            here.listed = true;
        }
    }
    let specs: Vec<&str> = operations.0.keys().map(String::as_str).collect();
    let op_at = |(spec, i): (usize, usize)| &operations.0[specs[spec]][i];
    let name = |at: (usize, usize)| format!("`{}` of {}", op_at(at).key(), specs[at.0]);
    let rivals = |here: &AtUrl| {
        let nav_hidden = here.nav.as_ref().is_some_and(|n| n.hidden);
        let rival = |(by, op): &&(Writer, (usize, usize))| {
            *op != here.kept && by.concurrent_with(&here.kept_by)
        };
        let mut rivals = Rivals::default();
        for op in (here.writers.iter()).filter(rival).map(|&(_, w)| op_at(w)) {
            let hidden = match &op.hidden {
                Flag::Absent => nav_hidden,
                own => own.withholds(),
            };
            rivals.hidden |= hidden;
            rivals.noindex |= op.noindex;
            rivals.visibility = rivals.visibility.max(op.visibility());
        }
        rivals
    };
    // By operation, then URL.
    let mut pages: BTreeMap<(&'o str, usize), BTreeMap<&str, GeneratedPage>> = BTreeMap::new();
    for ((_, _, display, i), url, _, _) in &placed {
        let here = &at_url[url.as_str()];
        let kept = here.kept;
        (pages.entry((*display, *i)).or_default())
            .entry(url.as_str())
            .or_insert_with(|| GeneratedPage {
                url: url.clone(),
                nav: here.nav.clone(),
                listed: here.listed,
                kept_by: (kept != (spec_index[display], *i)).then(|| name(kept)),
                rivals: rivals(here),
            });
    }
    pages
        .into_iter()
        .map(|(op, by_url)| (op, by_url.into_values().collect()))
        .collect()
}

/// Another listing of a URL joins what its earlier listings said ([`NavEntry::merge_listing`]).
fn merge_listing_into(merged: &mut Option<NavEntry>, nav: &NavEntry) {
    match merged {
        Some(merged) => merged.merge_listing(nav),
        None => *merged = Some(nav.clone()),
    }
}

/// The names taken in one navigation group of generated pages, and how far each base's numbers
/// are known to be taken: numbering resumes there (names are never given back), so a spec of
/// thousands of operations of one summary is numbered in linear time.
#[derive(Default)]
struct NameGroup {
    taken: HashSet<String>,
    /// Base → n: the base and its `-1` … `-n` are taken.
    known: HashMap<String, usize>,
}

impl NameGroup {
    /// `generateUniqueFilenameWithoutExtension`: `base`, else its first free `base-n`; the name is
    /// taken when `take` (a hidden operation's page takes none in its group).
    fn name(&mut self, base: &str, take: bool) -> String {
        let name = match self.known.get(base) {
            None if !self.taken.contains(base) => base.to_owned(),
            known => {
                let mut n = known.copied().unwrap_or(0);
                loop {
                    n += 1;
                    let candidate = format!("{base}-{n}");
                    if !self.taken.contains(&candidate) {
                        self.known.insert(base.to_owned(), n - 1);
                        break candidate;
                    }
                }
            }
        };
        if take {
            self.taken.insert(name.clone());
        }
        name
    }
}

/// Whether a page or generated page needs a sign-in. Its own declaration decides first
/// (frontmatter `public`, an operation's `x-mint.metadata.public`; anything but the exact `true`
/// keeps it behind the sign-in on any site, the most restrictive reading); else, on a site behind
/// authentication, its navigation element's `public` opens it; on any other site it is open.
fn needs_sign_in(authenticated: bool, own: Option<bool>, nav: Option<&NavEntry>) -> bool {
    match own {
        Some(open) => !open,
        None => authenticated && !nav.is_some_and(|n| n.public),
    }
}

/// Whether a page file this build did not read (not listed, or withheld by a glob) declares
/// `public`: Mintlify serves every page file, by its URL, behind the site's one sign-in.
fn unread_pages_declare_public(site: &SiteRoot, read: &HashSet<String>) -> bool {
    markdown_files(site)
        .iter()
        .filter(|rel| !read.contains(*rel))
        .any(|rel| {
            (site.read_path(&site.root.join(rel)).ok()).is_some_and(|(_, text)| {
                split_frontmatter(&text).is_ok_and(|(fm, _, _)| fm.public.withholds())
            })
        })
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_24_a_panic_in_one_page_is_that_pages_error() {
        let p = Pending {
            id: "guide".into(),
            fingerprint: String::new(),
            source: Source::Mdx {
                rel: "guide.mdx".into(),
                text: "# Guide\n".into(),
                frontmatter: Box::default(),
                body_start: 0,
                nav: None,
                operation: None,
            },
        };
        // A site page parsed without its site is a bug that panics; it must come back as an error.
        let e = parse_isolated(&p, None, &IngestOptions::new(Visibility::Public)).unwrap_err();
        assert_eq!(e.file, "guide.mdx");
        assert!(e.message.contains("skipped"), "{}", e.message);
    }
}
