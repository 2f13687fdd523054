//! `aidocs-index build`: ingest → visibility filter → (re)parse changed pages → tantivy → export → write.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use aidocs_core::{Audience, Bm25Params};
use rayon::prelude::*;

use crate::build_vectors::{embed_chunks, EmbedCounts};
use crate::chunk::ChunkConfig;
use crate::document::Page;
use crate::document::{Diagnostic, Visibility};
use crate::embed::{EmbedError, Embedder};
use crate::export::{export_site, write, Export, LanguageLayout, ShardSizes, WriteStats};
use crate::ingest::{ingest, parse, parse_isolated, IngestOptions};
use crate::tantivy_cache::{BuildIndex, IndexError};

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub input: PathBuf,
    pub out: PathBuf,
    /// Where the tantivy index and the vectors persist between builds; default: the user's cache
    /// directory ([`default_cache_dir`]). Never inside the output or its parent directory.
    pub cache_dir: Option<PathBuf>,
    /// Where the chunk vectors persist: default `cache_dir` when one is given, else one directory
    /// per site and audience ([`default_embeddings_dir`]), shared by every output built from them.
    pub embeddings_dir: Option<PathBuf>,
    /// The largest file the build reads (`--max-file-bytes`).
    pub max_file_bytes: u64,
    pub audience: Visibility,
    pub include_unlisted: bool,
    pub openapi: Vec<PathBuf>,
    pub strict: bool,
    pub sizes: ShardSizes,
    pub chunk: ChunkConfig,
    pub params: Bm25Params,
    pub keep_old: bool,
    pub progress: bool,
    /// Chunk vectors for vector and hybrid search.
    pub embeddings: Embeddings,
    /// The embedding model directory (default: [`crate::embed::locate`]).
    pub model_dir: Option<PathBuf>,
    /// At most this many chunks embedded by one build (`--embed-budget`); the others take their
    /// section heading's vector until a later build embeds them ([`crate::build_vectors`]).
    pub embed_budget: Option<usize>,
    /// The static query encoder's fit.
    pub encoder: crate::static_fit::FitOptions,
    /// One index per language, or one for all (`--single-index`).
    pub languages: LanguageLayout,
    /// Write `llms.txt` and `llms-full.txt` beside the index ([`crate::llms`]; `--no-llms-txt`).
    pub llms_txt: bool,
}

/// Whether a build embeds its chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Embeddings {
    /// Lexical only (`--no-embeddings`).
    Off,
    /// Embed when the model is installed; otherwise warn and build a lexical-only index.
    Auto,
    /// Fail when the model is missing (`--require-embeddings`).
    Require,
}

impl BuildOptions {
    pub fn new(input: impl Into<PathBuf>, out: impl Into<PathBuf>) -> Self {
        BuildOptions {
            input: input.into(),
            out: out.into(),
            cache_dir: None,
            embeddings_dir: None,
            max_file_bytes: crate::visibility::DEFAULT_MAX_FILE_BYTES,
            audience: Visibility::Public,
            include_unlisted: false,
            openapi: Vec::new(),
            strict: false,
            sizes: ShardSizes::default(),
            chunk: ChunkConfig::default(),
            params: Bm25Params::default(),
            keep_old: false,
            progress: false,
            embeddings: Embeddings::Off,
            model_dir: None,
            embed_budget: None,
            encoder: Default::default(),
            languages: LanguageLayout::default(),
            llms_txt: true,
        }
    }
}

/// What a build did, printed as the summary (`--json` for machines).
#[derive(Debug, Clone, serde::Serialize)]
pub struct BuildSummary {
    pub pages: usize,
    pub chunks: usize,
    pub term_shards: usize,
    pub meta_shards: usize,
    pub terms: usize,
    /// Bytes of `manifest.bin` (a multilingual site's partition table).
    pub manifest_bytes: usize,
    /// A multilingual site's language partitions: what a reader of each language opens.
    pub partitions: Vec<PartitionSummary>,
    pub output: WriteStats,
    pub pages_parsed: usize,
    pub pages_reused: usize,
    pub pages_removed: usize,
    pub withheld_by_visibility: usize,
    pub skipped_noindex: usize,
    pub warnings: Vec<Diagnostic>,
    /// The embedding model of the index's vectors, when it has them.
    pub embedding_model: Option<String>,
    /// Chunks embedded by this build (the others came from the vector cache, or were deferred).
    pub chunks_embedded: usize,
    /// Tokens the model read for those chunks, and the seconds it took (throughput).
    pub chunk_tokens_embedded: usize,
    pub chunk_embed_seconds: f64,
    /// Chunks past `--embed-budget`: their section heading's vector stands in for now.
    pub chunks_deferred: usize,
    /// Titles and headings embedded by this build for the static query encoder's fit.
    pub short_texts_embedded: usize,
    pub embed_seconds: f64,
    pub seconds: f64,
}

/// One language partition of a build.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PartitionSummary {
    pub language: String,
    pub pages: usize,
    pub chunks: usize,
    pub term_shards: usize,
    pub manifest: String,
    pub manifest_bytes: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{0}")]
    Input(Diagnostic),
    #[error("--strict: {} problem(s) in the input, first: {}", .0.len(), .0[0])]
    Strict(Vec<Diagnostic>),
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error("writing {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the output directory {0} is inside the site directory's cache or equals the input")]
    BadOutput(PathBuf),
    #[error("the cache directory {cache} is inside {served}, which may be served with the site: the cache holds every page's text; choose a --cache-dir elsewhere (default: the user's cache directory)")]
    CacheServed { cache: PathBuf, served: PathBuf },
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error("the cache directory {0} is in use by another build (its build.lock is held): wait for that build, or pass another --cache-dir")]
    CacheBusy(PathBuf),
}

/// Holds `cache_dir/build.lock` (an `flock`) for the whole build: two builds sharing a cache would
/// otherwise interleave their reads and writes of the tantivy index and the embedding cache (each
/// tantivy writer only locks its own step). A lock still busy after [`crate::lock_wait`]'s wait is
/// another build's.
fn lock_cache(cache_dir: &Path) -> Result<std::fs::File, BuildError> {
    use std::fs::TryLockError;
    let (path, file) = lock_file(cache_dir)?;
    match crate::lock_wait::retry_while_busy(
        || file.try_lock(),
        |e| matches!(e, TryLockError::WouldBlock),
    ) {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(BuildError::CacheBusy(cache_dir.to_path_buf())),
        Err(TryLockError::Error(source)) => Err(BuildError::Write { path, source }),
    }
}

/// Holds `dir/build.lock` of a shared vector cache until the returned file closes, waiting while
/// another build holds it (builds of two outputs of one site take turns instead of failing).
fn lock_shared(dir: &Path) -> Result<std::fs::File, BuildError> {
    std::fs::create_dir_all(dir).map_err(|source| BuildError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    let (path, file) = lock_file(dir)?;
    file.lock()
        .map_err(|source| BuildError::Write { path, source })?;
    Ok(file)
}

/// `dir/build.lock`, opened (created if need be) for an `flock`.
fn lock_file(dir: &Path) -> Result<(PathBuf, std::fs::File), BuildError> {
    let path = dir.join("build.lock");
    let file = (std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true))
    .open(&path)
    .map_err(|source| BuildError::Write {
        path: path.clone(),
        source,
    })?;
    Ok((path, file))
}

/// The default build cache: `$AIDOCS_CACHE_DIR`, else `$XDG_CACHE_HOME/aidocs/builds`, else
/// `~/.cache/aidocs/builds`, else the system's temporary directory; one directory per site, output
/// and audience. Never beside the output (with `--out public/_search` that is the web root) nor in
/// the site's source (which hosted platforms deploy).
pub fn default_cache_dir(opts: &BuildOptions) -> PathBuf {
    let out = std::path::absolute(&opts.out).unwrap_or_else(|_| opts.out.clone());
    cache_base().join(cache_key(opts, Some(&out)))
}

/// The default home of a build's chunk vectors when no `--cache-dir` is given: one directory per
/// site and audience (`<site key>-embeddings` beside the builds' caches), so `build`, `build
/// --search-box` and `demo` of one site at one visibility level embed each text once (issue 25:
/// each new output re-embedded the whole site, 3.5 minutes for 314 pages on 2 cores). Vectors are
/// keyed by model and text; a build prunes the ones of text it no longer indexes, as before.
pub fn default_embeddings_dir(opts: &BuildOptions) -> PathBuf {
    cache_base().join(format!("{}-embeddings", cache_key(opts, None)))
}

/// The directory of the default caches: `$AIDOCS_CACHE_DIR`, else `$XDG_CACHE_HOME/aidocs/builds`,
/// else `~/.cache/aidocs/builds`, else the system's temporary directory.
fn cache_base() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("AIDOCS_CACHE_DIR")
        .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("aidocs").join("builds")))
        .or_else(|| env("HOME").map(|d| d.join(".cache").join("aidocs").join("builds")))
        .unwrap_or_else(|| std::env::temp_dir().join("aidocs").join("builds"))
}

/// 16 hex digits naming the cache of the site, audience and (for a build's own cache) output.
fn cache_key(opts: &BuildOptions, out: Option<&Path>) -> String {
    let input = (opts.input.canonicalize())
        .or_else(|_| std::path::absolute(&opts.input))
        .unwrap_or_else(|_| opts.input.clone());
    let key = match out {
        Some(out) => format!("{}|{}|{:?}", input.display(), out.display(), opts.audience),
        None => format!("{}|{:?}", input.display(), opts.audience),
    };
    blake3::hash(key.as_bytes()).to_hex()[..16].to_owned()
}

/// Refuses a cache directory inside the output or the output's parent directory (the web root of
/// `--out public/_search`), or inside the site's source directory (a docs repository is committed
/// and, on hosted platforms, deployed as it is), compared on resolved paths.
fn check_cache_dir(cache: &Path, out: &Path, input: &Path) -> Result<(), BuildError> {
    let cache = resolve_lenient(cache);
    let out = resolve_lenient(out);
    let served = out.parent().map(Path::to_path_buf).unwrap_or(out.clone());
    if cache.starts_with(&served) {
        return Err(BuildError::CacheServed {
            cache,
            served: served.clone(),
        });
    }
    let input = resolve_lenient(input);
    if input.is_dir() && cache.starts_with(&input) {
        return Err(BuildError::CacheServed {
            cache,
            served: input,
        });
    }
    Ok(())
}

/// Build caches of the releases that kept them beside the output (`<out>/../.aidocs-cache/<key>`,
/// in the served tree, holding the text of every page, withheld ones included) are removed; each
/// removal is reported. Only directories carrying our cache's `LAYOUT` marker are touched.
fn remove_served_caches(out: &Path, keep: &Path, warnings: &mut Vec<Diagnostic>) {
    let out = resolve_lenient(out);
    let Some(old) = out.parent().map(|p| p.join(".aidocs-cache")) else {
        return;
    };
    // Never through a link: a repository that controls the output's parent could point it at
    // the user's other caches.
    if !std::fs::symlink_metadata(&old).is_ok_and(|m| m.is_dir()) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(&old) else {
        return;
    };
    let keep = resolve_lenient(keep);
    for e in entries.flatten() {
        let dir = e.path();
        let ours = std::fs::read_to_string(dir.join("LAYOUT"))
            .is_ok_and(|m| m.trim_start().starts_with("aidocs-cache-v"));
        if !ours || resolve_lenient(&dir) == keep || !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let message = match std::fs::remove_dir_all(&dir) {
            Ok(()) => "an old build cache in the served directory (it holds the text of withheld pages) is removed; caches now live outside it".to_owned(),
            Err(e) => format!("an old build cache in the served directory (it holds the text of withheld pages) could not be removed: {e}; delete it"),
        };
        warnings.push(Diagnostic {
            file: dir.display().to_string(),
            line: None,
            message,
        });
    }
    let _ = std::fs::remove_dir(&old); // only when empty
}

/// `p` with its nearest existing ancestor resolved (symlinks followed) and the rest appended.
fn resolve_lenient(p: &Path) -> PathBuf {
    let resolve = |p: &Path| -> PathBuf {
        // The nearest existing ancestor resolved (symlinks followed), the rest appended.
        let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let mut tail = Vec::new();
        let mut cur = abs.as_path();
        loop {
            if let Ok(c) = cur.canonicalize() {
                let mut r = c;
                for t in tail.iter().rev() {
                    r.push(t);
                }
                return r;
            }
            match (cur.parent(), cur.file_name()) {
                (Some(parent), Some(name)) => {
                    tail.push(name.to_owned());
                    cur = parent;
                }
                _ => return abs,
            }
        }
    };
    resolve(p)
}

pub(crate) fn progress_bar(enabled: bool, len: u64, msg: &'static str) -> indicatif::ProgressBar {
    if !enabled {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new(len);
    pb.set_style(
        indicatif::ProgressStyle::with_template("{msg:>10} [{bar:30}] {pos}/{len} {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    pb.set_message(msg);
    pb
}

/// A parsed page's id and fingerprint, owned, so that its source can be released.
struct PendingKey {
    id: String,
    fingerprint: String,
}

impl PendingKey {
    fn of(p: &crate::ingest::Pending) -> Self {
        PendingKey {
            id: p.id.clone(),
            fingerprint: p.fingerprint.clone(),
        }
    }
}

/// Runs a build.
pub fn build(opts: &BuildOptions) -> Result<BuildSummary, BuildError> {
    let started = Instant::now();
    if opts.audience == Visibility::Private {
        return Err(BuildError::Input(Diagnostic {
            file: "--visibility".into(),
            line: None,
            message: "private content is never written; use public or internal".into(),
        }));
    }
    let out_abs = std::path::absolute(&opts.out).unwrap_or_else(|_| opts.out.clone());
    let in_abs = std::path::absolute(&opts.input).unwrap_or_else(|_| opts.input.clone());
    if out_abs == in_abs {
        return Err(BuildError::BadOutput(opts.out.clone()));
    }
    let ingest_opts = IngestOptions {
        audience: opts.audience,
        include_unlisted: opts.include_unlisted,
        openapi: opts.openapi.clone(),
        chunk: opts.chunk,
        max_file_bytes: opts.max_file_bytes,
    };
    let cache_dir = opts
        .cache_dir
        .clone()
        .unwrap_or_else(|| default_cache_dir(opts));
    check_cache_dir(&cache_dir, &opts.out, &opts.input)?;
    let embeddings_dir = (opts.embeddings_dir.clone())
        .or_else(|| opts.cache_dir.clone())
        .unwrap_or_else(|| default_embeddings_dir(opts));
    if embeddings_dir != cache_dir {
        check_cache_dir(&embeddings_dir, &opts.out, &opts.input)?;
    }
    let mut ingested = ingest(&opts.input, &ingest_opts).map_err(BuildError::Input)?;
    let mut warnings = ingested.diagnostics.clone();
    remove_served_caches(&opts.out, &cache_dir, &mut warnings);
    let embedder = match opts.embeddings {
        Embeddings::Off => None,
        mode => {
            match crate::embed::locate(opts.model_dir.as_deref()).and_then(|d| Embedder::load(&d)) {
                Ok(e) => Some(e),
                Err(e) if mode == Embeddings::Auto && matches!(e, EmbedError::NotFound { .. }) => {
                    warnings.push(Diagnostic {
                        file: "embeddings".into(),
                        line: None,
                        message: format!("building a lexical-only index: {e}"),
                    });
                    None
                }
                Err(e) => return Err(e.into()),
            }
        }
    };

    std::fs::create_dir_all(&cache_dir).map_err(|source| BuildError::Write {
        path: cache_dir.clone(),
        source,
    })?;
    // Held until the build returns (the lock is released when the file closes).
    let _cache_lock = lock_cache(&cache_dir)?;
    // A shared vector cache is other builds' too: a build that embeds holds it to the end (it is
    // read, pruned and appended), waiting for another build of the site to finish with it.
    let shared_vectors = embeddings_dir != cache_dir;
    let mut embeddings_lock = None;
    if shared_vectors && embedder.is_some() {
        embeddings_lock = Some(lock_shared(&embeddings_dir)?);
    }
    let index = BuildIndex::open(&cache_dir)?;
    let cached = index.fingerprints()?;

    // A cached page is reused when its source and every file it included are unchanged.
    let reusable = |p: &crate::ingest::Pending| {
        cached.get(&p.id).is_some_and(|c| {
            c.fingerprint == p.fingerprint
                && ingested
                    .site
                    .as_ref()
                    .is_none_or(|s| s.includes_unchanged(&c.includes))
        })
    };
    let (reused, to_parse): (Vec<_>, Vec<_>) = ingested.pending.iter().partition(|p| reusable(p));
    for p in &reused {
        warnings.extend(cached[&p.id].warnings.iter().cloned());
    }
    let live: HashSet<&str> = ingested.pending.iter().map(|p| p.id.as_str()).collect();
    let removed: Vec<&String> = cached
        .keys()
        .filter(|id| !live.contains(id.as_str()))
        .collect();

    let pb = progress_bar(opts.progress, to_parse.len() as u64, "parsing");
    let attempts: Vec<_> = to_parse
        .par_iter()
        .map(|p| {
            let r = parse_isolated(p, ingested.site.as_ref(), &ingest_opts);
            pb.inc(1);
            (p, r)
        })
        .collect();
    pb.finish_and_clear();
    // A page whose parse panicked is reported and left out (its cached version too).
    let mut failed: Vec<&str> = Vec::new();
    let mut parsed = Vec::with_capacity(attempts.len());
    for (p, r) in attempts {
        match r {
            // Its id and fingerprint, owned: the sources can go once parsed (below).
            Ok(done) => parsed.push((PendingKey::of(p), done)),
            Err(d) => {
                warnings.push(d);
                failed.push(p.id.as_str());
            }
        }
    }
    for (_, (_, page_warnings)) in &parsed {
        warnings.extend(page_warnings.iter().cloned());
    }
    // Under --strict nothing is written, not even to the cache.
    if opts.strict && !warnings.is_empty() {
        return Err(BuildError::Strict(warnings));
    }

    if !to_parse.is_empty() || !removed.is_empty() {
        let mut writer = index.writer()?;
        let pb = progress_bar(opts.progress, parsed.len() as u64, "indexing");
        for id in removed
            .iter()
            .map(|s| s.as_str())
            .chain(failed.iter().copied())
        {
            index.delete_page(&writer, id);
        }
        for (p, (page, page_warnings)) in &parsed {
            index.delete_page(&writer, &p.id);
            index.add_page(&writer, page, &p.fingerprint, page_warnings)?;
            pb.inc(1);
        }
        pb.finish_and_clear();
        writer.commit().map_err(|e| IndexError::Tantivy {
            path: cache_dir.clone(),
            source: e,
        })?;
        writer
            .wait_merging_threads()
            .map_err(|e| IndexError::Tantivy {
                path: cache_dir.clone(),
                source: e,
            })?;
        // Replaced and removed pages leave no text behind (a page that turned private included).
        index.purge_deleted()?;
    }

    // Text withdrawn since the last build: a page gone (deleted, withheld, or failed), or an include
    // a page published before and withholds now. A fresh cache cannot rule it out.
    let withheld_now = |includes: &[(String, String)]| {
        includes
            .iter()
            .filter(|(_, h)| h.starts_with(crate::mdx::WITHHELD_PREFIX))
            .map(|(rel, _)| rel.clone())
            .collect::<HashSet<String>>()
    };
    let include_withdrawn = parsed.iter().any(|(p, (page, _))| {
        cached.get(&p.id).is_some_and(|c| {
            let before = withheld_now(&c.includes);
            withheld_now(&page.includes)
                .iter()
                .any(|rel| !before.contains(rel) && c.includes.iter().any(|(r, _)| r == rel))
        })
    });
    let withdrawn =
        !removed.is_empty() || !failed.is_empty() || include_withdrawn || cached.is_empty();
    let edited = parsed.iter().any(|(p, _)| cached.contains_key(&p.id));
    let (pages_parsed, pages_reused) = (to_parse.len(), reused.len());
    // A lexical build reads no page again (embedding may parse some again): their sources and
    // parsed bodies go before the index is read (issue 25: build memory).
    if embedder.is_none() {
        parsed.clear();
        parsed.shrink_to_fit();
        ingested.release_sources();
        crate::retained_heap::release_free_memory();
    }

    // Vectors of withdrawn text go with it: a build that embeds prunes its own model's file (see
    // `embed_chunks`); any other model's file, which it cannot prune, is removed.
    if withdrawn {
        let current = embedder
            .as_ref()
            .map(|e| crate::embed::EmbeddingCache::path_in(&embeddings_dir, &e.model_id));
        if shared_vectors && embeddings_lock.is_none() {
            embeddings_lock.replace(lock_shared(&embeddings_dir)?);
        }
        remove_vector_caches(&embeddings_dir, current.as_deref())?;
        // Vectors an older build kept in its own cache, before they moved to a shared one.
        if shared_vectors {
            remove_vector_caches(&cache_dir, None)?;
        }
    }

    // Nothing parsed, nothing withdrawn, every input as the last build into this output had it:
    // its files are this build's, and when they are all still there nothing is exported.
    let record_key =
        crate::export_record::key(opts, embedder.as_ref().map(|e| &e.model_id), &ingested);
    let unchanged = pages_parsed == 0 && removed.is_empty() && !withdrawn;
    let recorded = (record_key.as_deref())
        .filter(|_| unchanged)
        .and_then(|key| crate::export_record::current(&cache_dir, &opts.out, key, opts.keep_old));
    if let Some(index) = recorded {
        return Ok(BuildSummary {
            pages: index.pages,
            chunks: index.chunks,
            term_shards: index.term_shards,
            meta_shards: index.meta_shards,
            terms: index.terms,
            manifest_bytes: index.manifest_bytes,
            partitions: index.partitions,
            output: WriteStats {
                files: index.files,
                bytes: index.bytes,
                new_files: 0,
                removed_files: 0,
            },
            pages_parsed: 0,
            pages_reused,
            pages_removed: 0,
            withheld_by_visibility: ingested.withheld,
            skipped_noindex: ingested.noindex,
            warnings,
            embedding_model: index.embedding_model,
            chunks_embedded: 0,
            chunk_tokens_embedded: 0,
            chunk_embed_seconds: 0.0,
            chunks_deferred: 0,
            short_texts_embedded: 0,
            embed_seconds: 0.0,
            seconds: started.elapsed().as_secs_f64(),
        });
    }

    let contents = index.read_contents()?;
    let audience = if opts.audience == Visibility::Internal {
        Audience::Internal
    } else {
        Audience::Public
    };
    let embed_started = Instant::now();
    let mut embedded = EmbedCounts::default();
    let vectors = match &embedder {
        None => None,
        Some(e) => {
            let parsed_pages: HashMap<&str, &Page> = parsed
                .iter()
                .map(|(p, (page, _))| (p.id.as_str(), page))
                .collect();
            let reparse = |id: &str| -> Option<Page> {
                let p = ingested.pending.iter().find(|p| p.id == id)?;
                Some(parse(p, ingested.site.as_ref(), &ingest_opts).0)
            };
            let heap = crate::retained_heap::RetainedHeap::new();
            let (v, counts) = embed_chunks(
                e,
                &contents,
                &embeddings_dir,
                &parsed_pages,
                reparse,
                opts.encoder.sentences,
                opts.embed_budget,
                opts.progress,
            )?;
            drop(heap);
            embedded = counts;
            Some(v)
        }
    };
    let embed_seconds = embed_started.elapsed().as_secs_f64();
    let pages = contents
        .chunks
        .iter()
        .map(|c| c.page.id.as_str())
        .collect::<HashSet<_>>()
        .len();
    let chunks = contents.chunks.len();
    let llms = opts
        .llms_txt
        .then(|| crate::llms::for_build(&contents.chunks, &ingested));
    let exported = export_site(
        contents,
        audience,
        opts.params,
        opts.sizes,
        vectors.as_ref(),
        &opts.encoder,
        opts.languages,
    )?;
    // `--keep-old` keeps the previous shards for open sessions, but never past a withdrawal: they
    // hold the text of the pages this build no longer publishes (a fresh cache cannot tell).
    // An edited page may have lost text on purpose (a sentence removed, a parameter turned
    // internal): its old shards are not kept either. `--keep-old` keeps them when pages are only
    // added or unchanged.
    let keep_old = opts.keep_old && !withdrawn && !edited;
    if opts.keep_old && !keep_old && opts.out.join("manifest.bin").exists() {
        warnings.push(Diagnostic {
            file: "--keep-old".into(),
            line: None,
            message: match removed.first() {
                Some(id) => format!(
                    "{} page(s) were withdrawn or deleted since the last build (`{id}` among them): the previous shards, which hold their text, are removed",
                    removed.len()
                ),
                None if cached.is_empty() => "the build cache is new, so withdrawn text cannot be ruled out: the previous shards are removed".into(),
                None if withdrawn => "text was withdrawn since the last build (a page that failed, or an include now withheld): the previous shards, which hold it, are removed".into(),
                None => "pages were edited since the last build, and an edit may remove text on purpose: the previous shards are removed (--keep-old keeps them when pages are only added)".into(),
            },
        });
    }
    let stats = crate::export_record::forget(&cache_dir, &opts.out)
        .and_then(|()| write(&exported, &opts.out, keep_old))
        .and_then(|stats| crate::llms::write(&opts.out, llms.as_ref()).map(|()| stats))
        .map_err(|source| BuildError::Write {
            path: opts.out.clone(),
            source,
        })?;
    let manifest_bytes = exported.files.last().map_or(0, |(_, b)| b.len());
    let summary = BuildSummary {
        pages,
        chunks,
        // A multilingual site's shards: every partition's.
        term_shards: shard_count(&exported, aidocs_core::Manifest::term_shard_count),
        meta_shards: shard_count(&exported, aidocs_core::Manifest::meta_shard_count),
        terms: exported.terms,
        manifest_bytes,
        partitions: exported
            .partitions
            .iter()
            .map(|p| PartitionSummary {
                language: p.language.clone(),
                pages: p.manifest.pages.len(),
                chunks: p.manifest.num_chunks as usize,
                term_shards: p.manifest.term_shard_count(),
                manifest: p.file.clone(),
                manifest_bytes: p.manifest_bytes,
            })
            .collect(),
        output: stats,
        pages_parsed,
        pages_reused,
        pages_removed: removed.len(),
        withheld_by_visibility: ingested.withheld,
        skipped_noindex: ingested.noindex,
        warnings,
        embedding_model: vectors.as_ref().map(|v| v.model.clone()),
        chunks_embedded: embedded.chunks,
        chunk_tokens_embedded: embedded.tokens,
        chunk_embed_seconds: embedded.seconds,
        chunks_deferred: embedded.deferred,
        short_texts_embedded: embedded.short_texts,
        embed_seconds,
        seconds: started.elapsed().as_secs_f64(),
    };
    let llms_files: &[&str] = match llms {
        Some(_) => &[crate::llms::INDEX_FILE, crate::llms::FULL_FILE],
        None => &[],
    };
    let recorded = crate::export_record::RecordedIndex {
        pages: summary.pages,
        chunks: summary.chunks,
        term_shards: summary.term_shards,
        meta_shards: summary.meta_shards,
        terms: summary.terms,
        manifest_bytes: summary.manifest_bytes,
        partitions: summary.partitions.clone(),
        files: summary.output.files,
        bytes: summary.output.bytes,
        embedding_model: summary.embedding_model.clone(),
    };
    // An index with chunks left over by the embedding budget is not recorded: the next build has
    // them to embed, so it must not be skipped as unchanged.
    if let Some(key) = record_key.as_ref().filter(|_| embedded.deferred == 0) {
        crate::export_record::save(&cache_dir, &opts.out, key, &exported, llms_files, recorded)
            .map_err(|source| BuildError::Write {
                path: cache_dir.clone(),
                source,
            })?;
    }
    Ok(summary)
}

/// Removes the vector cache files (`embeddings-*.bin`) of `cache_dir` other than `keep`.
fn remove_vector_caches(cache_dir: &Path, keep: Option<&Path>) -> Result<(), BuildError> {
    let Ok(entries) = std::fs::read_dir(cache_dir) else {
        return Ok(());
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("embeddings-") && Some(e.path().as_path()) != keep {
            std::fs::remove_file(e.path()).map_err(|source| BuildError::Write {
                path: e.path(),
                source,
            })?;
        }
    }
    Ok(())
}

/// `count` of the export's one manifest, or summed over its language partitions.
fn shard_count(exported: &Export, count: impl Fn(&aidocs_core::Manifest) -> usize) -> usize {
    match exported.partitions.as_slice() {
        [] => count(&exported.manifest),
        parts => parts.iter().map(|p| count(&p.manifest)).sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second build on a cache in use fails with a clear error instead of interleaving with the
    /// first; once the first is done, it runs.
    #[test]
    fn a_cache_in_use_by_another_build_is_refused() {
        let (www, caches) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/example-site");
        let cache = caches.path().join("cache");
        std::fs::create_dir_all(&cache).unwrap();
        let mut opts = BuildOptions::new(&site, www.path().join("_search"));
        opts.cache_dir = Some(cache.clone());
        opts.embeddings = Embeddings::Off;
        let held = lock_cache(&cache).unwrap();
        let t = Instant::now();
        let err = build(&opts).unwrap_err();
        assert!(matches!(err, BuildError::CacheBusy(_)), "{err}");
        assert!(err.to_string().contains("--cache-dir"), "{err}");
        assert!(t.elapsed() >= std::time::Duration::from_secs(2));
        drop(held);
        let s = build(&opts).unwrap();
        assert!(s.pages > 0);
    }
}
