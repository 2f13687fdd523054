//! The query engine behind the JS API, in plain Rust so that it is unit-tested natively as well.
//!
//! It does no I/O and decides nothing about rounds: each search is a core [`QuerySession`] (the one
//! that the native CLI drives too) kept under a ticket. The JS side asks [`Engine::need`] which files
//! the search still lacks, fetches them (coalesced, possibly inflated with `DecompressionStream`),
//! hands the bytes to [`Engine::add`], and asks again until nothing is missing; then it reads the
//! results. A lexical search is two rounds (term shards, metadata); vector and hybrid add one (the
//! partitions the query vector probes); a misspelled word up to three (which words are indexed, the
//! typo directory, its shards).
//!
//! A caller that runs the full model (Node and edge runtimes, `aidocs-wasm-encoder`) hands the query's
//! embedding to [`Engine::begin`]; that search then loads the index's projection instead of row
//! shards, and ranks with the exact embedding mapped into the stored space.

use std::rc::Rc;

use aidocs_core::envelope::{self, ShardKind};
use aidocs_core::message;
use aidocs_core::partitions::{root_kind, PartitionTable};
#[cfg(feature = "evidence")]
use aidocs_core::search::{EVIDENCE_TOKENS, MAX_EVIDENCE_PAGES};
use aidocs_core::text::{concat, split_ascii, Message};
use aidocs_core::typos::TypoDirectory;
use aidocs_core::vectors::VectorDir;
#[cfg(feature = "evidence")]
use aidocs_core::EvidenceOptions;
use aidocs_core::{
    FileRef, Kind, Manifest, Mode, QueryOutcome, QuerySession, QueryVector, SearchError,
    SearchOptions, Searcher, Shard, ShardError, MANIFEST_FILE,
};

use crate::cache::ShardCache;

/// Searches kept; beyond this many the oldest finished one (else the oldest) is dropped, so abandoned
/// searches (a fetch that failed, a keystroke that superseded it) cannot grow memory. A search holds
/// a ticket through all its rounds: a server's handler runs many at once.
const MAX_TICKETS: usize = 256;
/// Upper bound on `k`: a search box shows tens of results, an API client at most hundreds.
pub const MAX_K: u32 = 1000;

/// Why an engine call failed. `code` is stable and shared with the JS error's `code`.
#[derive(Debug, Clone, PartialEq)]
pub enum EngineError {
    /// A file that failed verification or decoding.
    Shard {
        file: String,
        source: ShardError,
    },
    Search(SearchError),
    /// A name that is not in this manifest's file table (a stale client, or a caller bug).
    UnknownFile(String),
    BadOption(String),
    UnknownTicket(u32),
    /// Results asked for before the search had every file it needs.
    NotReady(u32),
}

impl EngineError {
    pub fn code(&self) -> &'static str {
        match self {
            EngineError::Shard { source, .. } => source.code(),
            EngineError::Search(SearchError::AnalyzerMismatch { .. }) => "analyzer_mismatch",
            EngineError::Search(SearchError::MissingTermShard(_))
            | EngineError::Search(SearchError::MissingMetaShard(_)) => "missing_shard",
            EngineError::Search(SearchError::MetaMismatch(_)) => "meta_mismatch",
            EngineError::Search(SearchError::MissingStemmer { .. }) => "missing_stemmer",
            EngineError::Search(SearchError::NoEvidence) => "no_evidence",
            EngineError::Search(SearchError::NoExplain) => "no_explain",
            EngineError::Search(SearchError::PositionsMismatch(_)) => "positions_mismatch",
            EngineError::Search(SearchError::Shard { source, .. }) => source.code(),
            EngineError::Search(SearchError::BadQueryVector(_)) => "bad_option",
            EngineError::Search(SearchError::NotReady) | EngineError::NotReady(_) => "not_ready",
            EngineError::UnknownFile(_) => "unknown_file",
            EngineError::BadOption(_) => "bad_option",
            EngineError::UnknownTicket(_) => "unknown_ticket",
        }
    }

    /// The file the error is about, when there is one.
    pub fn file(&self) -> &str {
        match self {
            EngineError::Shard { file, .. } | EngineError::UnknownFile(file) => file,
            EngineError::Search(SearchError::MissingTermShard(f))
            | EngineError::Search(SearchError::MissingMetaShard(f)) => f,
            EngineError::Search(SearchError::MetaMismatch(f))
            | EngineError::Search(SearchError::PositionsMismatch(f))
            | EngineError::Search(SearchError::Shard { file: f, .. }) => f,
            _ => "",
        }
    }

    pub fn message(&self) -> String {
        match self {
            EngineError::Shard { file, source } => concat(&[file, ": ", &source.message()]),
            EngineError::Search(e) => e.message(),
            EngineError::UnknownFile(f) => {
                concat(&[f, " is not a file of this index (manifest changed?)"])
            }
            EngineError::BadOption(m) => m.clone(),
            EngineError::UnknownTicket(t) => {
                message!["search ticket ", *t, " expired or unknown"]
            }
            EngineError::NotReady(t) => message![
                "search ticket ",
                *t,
                " still needs files: call need() until it returns none"
            ],
        }
    }
}

impl From<SearchError> for EngineError {
    fn from(e: SearchError) -> Self {
        match e {
            SearchError::Shard { file, source } => EngineError::Shard { file, source },
            e => EngineError::Search(e),
        }
    }
}

/// Validated options of one search.
#[derive(Debug, Clone, Default)]
pub struct QueryOptions {
    pub k: u32,
    /// Comma-separated kinds (`docs,api`); empty = all.
    pub kinds: String,
    /// Tags, all required.
    pub tags: Vec<String>,
    pub group: Option<String>,
    pub min_score: f32,
    pub explain: bool,
    /// `lexical` (or empty), `vector` or `hybrid` (both with the index's static query encoder; without
    /// vectors or a known query term they rank lexically).
    pub mode: String,
    /// Vector partitions probed (`None` = [`aidocs_core::search::DEFAULT_NPROBE`], 0 = all).
    pub nprobe: Option<u32>,
    /// The last word, with nothing after it, is also a prefix (`SearchOptions::prefix`).
    pub prefix: bool,
    /// Words the index lacks are corrected (`SearchOptions::typos`).
    pub typos: bool,
    /// The reader's language (`SearchOptions::language`).
    pub language: Option<String>,
    /// Tags of which at least one is required, and tags excluded (`SearchOptions::tags_any`, `tags_none`).
    pub tags_any: Vec<String>,
    pub tags_none: Vec<String>,
    /// Count the matches by kind, tag, group and language (`SearchOptions::facets`; see
    /// [`Engine::facets_json`]).
    pub facets: bool,
    /// The docs version (`SearchOptions::version`).
    pub version: Option<String>,
    /// Also select evidence of this many tokens (`SearchOptions::evidence`; see
    /// [`Engine::evidence_json`]), from the top `evidence_pages` pages (default 10); 0 pages: the
    /// query is a page's URL, and the evidence is that page's text (`EvidenceOptions::read`).
    pub evidence_tokens: Option<u32>,
    pub evidence_pages: Option<u32>,
    /// The site's URL evidence cites pages under (`EvidenceOptions::site_url`).
    pub evidence_site: Option<String>,
}

/// The mode named by a `mode` option.
pub fn parse_mode(mode: &str) -> Result<Mode, EngineError> {
    match mode {
        "" => Ok(Mode::Lexical),
        m => Mode::parse(m).ok_or_else(|| {
            EngineError::BadOption(concat(&[
                "unknown mode `",
                m,
                "`: expected lexical, vector or hybrid",
            ]))
        }),
    }
}

impl QueryOptions {
    fn to_search_options(&self) -> Result<SearchOptions, EngineError> {
        if self.k == 0 || self.k > MAX_K {
            return Err(EngineError::BadOption(message![
                "k must be between 1 and ",
                MAX_K,
                ", got ",
                self.k
            ]));
        }
        let mut kinds = Vec::new();
        for k in split_ascii(&self.kinds, b',')
            .map(str::trim)
            .filter(|k| !k.is_empty())
        {
            kinds.push(Kind::parse(k).ok_or_else(|| {
                EngineError::BadOption(concat(&[
                    "unknown kind `",
                    k,
                    "`: expected docs, api or custom",
                ]))
            })?);
        }
        let mode = parse_mode(&self.mode)?;
        if !self.min_score.is_finite() {
            return Err(EngineError::BadOption("min_score must be a number".into()));
        }
        #[cfg(not(feature = "evidence"))]
        let evidence = match self.evidence_tokens {
            None => None,
            Some(_) => return Err(EngineError::Search(SearchError::NoEvidence)),
        };
        #[cfg(feature = "evidence")]
        let evidence = match self.evidence_tokens {
            None => None,
            Some(tokens) => {
                let mut e = EvidenceOptions::new(tokens).ok_or_else(|| {
                    EngineError::BadOption(message![
                        "tokens must be between ",
                        *EVIDENCE_TOKENS.start(),
                        " and ",
                        *EVIDENCE_TOKENS.end(),
                        ", got ",
                        tokens
                    ])
                })?;
                if self.evidence_pages == Some(0) {
                    // The query is a page's URL: its text (`EvidenceOptions::read`).
                    e.read = true;
                } else if let Some(p) = self.evidence_pages {
                    if p as usize > MAX_EVIDENCE_PAGES {
                        return Err(EngineError::BadOption(message![
                            "pages must be between 1 and ",
                            MAX_EVIDENCE_PAGES,
                            ", got ",
                            p
                        ]));
                    }
                    e.pages = p as usize;
                }
                e.site_url = self.evidence_site.clone().filter(|s| !s.is_empty());
                Some(e)
            }
        };
        Ok(SearchOptions {
            k: self.k as usize,
            kinds,
            tags: self.tags.clone(),
            group: self.group.clone().filter(|g| !g.is_empty()),
            min_score: self.min_score,
            explain: self.explain,
            mode,
            nprobe: self
                .nprobe
                .map_or(aidocs_core::search::DEFAULT_NPROBE, |n| n as usize),
            prefix: self.prefix,
            typos: self.typos,
            language: self.language.clone(),
            version: self.version.clone(),
            tags_any: self.tags_any.clone(),
            tags_none: self.tags_none.clone(),
            facets: self.facets,
            evidence,
            ..Default::default()
        })
    }
}

/// One search in flight: its session until it is ranked and its metadata is here, then its outcome.
struct Ticket {
    id: u32,
    session: Option<QuerySession>,
    outcome: Option<QueryOutcome>,
    explain: bool,
    /// The text files `need` named for this search (evidence): named by metadata, not by the
    /// manifest, so `add` resolves them here, also after another search was handed the file.
    #[cfg(feature = "evidence")]
    texts: Vec<(String, FileRef)>,
}

/// One opened index: its manifest, a bounded cache of decoded shards, and the searches in flight.
pub struct Engine {
    searcher: Searcher,
    cache: ShardCache,
    tickets: Vec<Ticket>,
    next_ticket: u32,
    /// The directories that name vector partitions and typo shards, once fetched: small, and kept
    /// outside the bounded cache so that a name in flight always resolves.
    vector_dir: Option<Rc<VectorDir>>,
    typo_dir: Option<Rc<TypoDirectory>>,
}

/// Verifies the envelope of `file` (magic, version, kind, length, CRC) and returns its codec
/// (0 stored, 1 zlib): what the JS side checks before inflating with `DecompressionStream`.
pub fn verify(name: &str, file: &[u8], kind: ShardKind) -> Result<u8, EngineError> {
    envelope::check(file, kind)
        .map(|h| h.codec)
        .map_err(|source| EngineError::Shard {
            file: name.to_owned(),
            source,
        })
}

/// The manifest a reader in `language` opens, from a `manifest.bin` that is a language partition
/// table (format v8); `None` when it is the index's own manifest (a single-language site). `raw`:
/// the table's payload when the caller inflated it.
pub fn partition_manifest(
    file: &[u8],
    raw: Option<Vec<u8>>,
    language: Option<&str>,
) -> Result<Option<String>, EngineError> {
    let shard_err = |source| EngineError::Shard {
        file: MANIFEST_FILE.to_owned(),
        source,
    };
    if root_kind(file).map_err(shard_err)? == ShardKind::Manifest {
        return Ok(None);
    }
    let raw = payload(file, raw, ShardKind::Partitions).map_err(shard_err)?;
    let table = PartitionTable::decode_payload(&raw).map_err(shard_err)?;
    Ok(Some(table.choose(language).manifest.clone()))
}

/// The verified payload: `raw` when the caller inflated it (checked against the header), else inflated here.
fn payload(file: &[u8], raw: Option<Vec<u8>>, kind: ShardKind) -> Result<Vec<u8>, ShardError> {
    match raw {
        Some(raw) => {
            let header = envelope::check(file, kind)?;
            envelope::check_inflated(&header, &raw)?;
            Ok(raw)
        }
        None => envelope::open(file, kind),
    }
}

impl Engine {
    /// Opens an index from its manifest file (`raw` = its payload when inflated by the caller).
    pub fn open(
        file: &[u8],
        raw: Option<Vec<u8>>,
        cache_limit: usize,
    ) -> Result<Self, EngineError> {
        Self::open_named(MANIFEST_FILE, file, raw, cache_limit)
    }

    /// Opens an index from its manifest file `name`: `manifest.bin`, or a language partition's
    /// `l/<hash>.bin` (errors name it).
    pub fn open_named(
        name: &str,
        file: &[u8],
        raw: Option<Vec<u8>>,
        cache_limit: usize,
    ) -> Result<Self, EngineError> {
        let shard_err = |source| EngineError::Shard {
            file: name.to_owned(),
            source,
        };
        let raw = payload(file, raw, ShardKind::Manifest).map_err(shard_err)?;
        let version = envelope::read_header(file).map_err(shard_err)?.version;
        let manifest = Manifest::decode_versioned(&raw, version).map_err(shard_err)?;
        Ok(Engine {
            searcher: Searcher::new(manifest)?,
            cache: ShardCache::new(cache_limit),
            tickets: Vec::new(),
            next_ticket: 1,
            vector_dir: None,
            typo_dir: None,
        })
    }

    pub fn manifest(&self) -> &Manifest {
        self.searcher.manifest()
    }

    /// The index's searcher: its shard tables' counts and lookups.
    pub fn searcher(&self) -> &Searcher {
        &self.searcher
    }

    /// Starts a search of `query` and returns its ticket for [`Self::need`] and the results.
    /// `vector`: the full model's embedding of the query (in the model's own space, e.g. 384 values
    /// for all-MiniLM-L6-v2), which vector and hybrid modes then use instead of the index's static
    /// encoder; the model must be the one the index's vectors came from.
    pub fn begin(
        &mut self,
        query: &str,
        opts: &QueryOptions,
        vector: Option<Vec<f32>>,
    ) -> Result<u32, EngineError> {
        let mut search = opts.to_search_options()?;
        search.fusion = aidocs_core::Fusion::default_for(vector.is_none());
        let vector = match vector {
            Some(v) if search.mode != Mode::Lexical => QueryVector::Model(v),
            _ => QueryVector::Static,
        };
        let session = QuerySession::new(&self.searcher, query, search, vector)?;
        let id = self.next_ticket;
        self.next_ticket = self.next_ticket.wrapping_add(1).max(1);
        if self.tickets.len() >= MAX_TICKETS {
            let finished = self.tickets.iter().position(|t| t.session.is_none());
            self.tickets.remove(finished.unwrap_or(0));
        }
        self.tickets.push(Ticket {
            id,
            session: Some(session),
            outcome: None,
            explain: opts.explain,
            #[cfg(feature = "evidence")]
            texts: Vec::new(),
        });
        Ok(id)
    }

    /// The index files search `id` still needs that are not cached: fetch them, [`Self::add`]
    /// them, and ask again. Empty = its results are ready. A search that fails is forgotten.
    pub fn need(&mut self, id: u32) -> Result<Vec<String>, EngineError> {
        let step = self.step(id);
        if step.is_err() {
            self.release(id);
        }
        step
    }

    fn step(&mut self, id: u32) -> Result<Vec<String>, EngineError> {
        let searcher = &self.searcher;
        let cache = &mut self.cache;
        let (vector_dir, typo_dir) = (&self.vector_dir, &self.typo_dir);
        let t =
            (self.tickets.iter_mut().find(|t| t.id == id)).ok_or(EngineError::UnknownTicket(id))?;
        let Some(session) = t.session.as_mut() else {
            return Ok(Vec::new());
        };
        // The directories live beside the cache: a search never refetches them after an eviction.
        let missing = session.advance(searcher, |f| {
            cache.get(f).or_else(|| match f {
                FileRef::VectorDir => vector_dir.clone().map(Shard::VectorDir),
                FileRef::TypoDir => typo_dir.clone().map(Shard::TypoDir),
                _ => None,
            })
        })?;
        let mut names = Vec::with_capacity(missing.len());
        for &f in &missing {
            // A name the index lists twice (a tampered manifest or directory) would never reach
            // this search: `add` resolves a name to the first file that has it.
            let name = session.file_name(searcher, f);
            let resolves = match f {
                // Named by the metadata the session holds; pages of identical text share a name
                // (`add` hands the file to each).
                FileRef::Text(_) => name.as_ref().map(|_| f),
                _ => name
                    .as_deref()
                    .and_then(|n| searcher.file_ref(n, vector_dir.as_deref(), typo_dir.as_deref())),
            };
            match name {
                Some(name) if resolves == Some(f) => {
                    #[cfg(feature = "evidence")]
                    if matches!(f, FileRef::Text(_)) {
                        t.texts.push((name.clone(), f));
                    }
                    // Pages of identical text share a file: named once.
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                name => {
                    return Err(EngineError::Search(SearchError::MetaMismatch(
                        // Unnamed: its kind.
                        name.unwrap_or_else(|| concat(&[f.kind().name(), " file"])),
                    )));
                }
            }
        }
        if missing.is_empty() {
            let session = t.session.take().expect("checked above");
            t.outcome = Some(session.finish(searcher)?);
        }
        cache.trim();
        Ok(names)
    }

    /// Term shard files worth warming while the user types `partial` (in the reader's `language`).
    pub fn files_for_preload(&self, partial: &str, language: Option<&str>) -> Vec<String> {
        (self.searcher.preload_files(partial, language).into_iter())
            .filter(|&f| !self.cache.contains(f))
            .filter_map(|f| self.searcher.file_name(f, None, None))
            .collect()
    }

    /// What index file `name` is (a text file: to the first search that asked for it).
    fn file(&self, name: &str) -> Result<FileRef, EngineError> {
        let f =
            (self.searcher).file_ref(name, self.vector_dir.as_deref(), self.typo_dir.as_deref());
        // Text files (evidence only) are named by the metadata a search holds.
        #[cfg(feature = "evidence")]
        let f = f.or_else(|| {
            (self.tickets.iter().flat_map(|t| &t.texts))
                .find(|(n, _)| n == name)
                .map(|&(_, f)| f)
        });
        f.ok_or_else(|| EngineError::UnknownFile(name.to_owned()))
    }

    /// The kind of shard `name` is in this index.
    pub fn kind_of(&self, name: &str) -> Result<ShardKind, EngineError> {
        self.file(name).map(FileRef::kind)
    }

    /// Verifies, decodes and caches one fetched file, and hands it to every search waiting for it.
    pub fn add(
        &mut self,
        name: &str,
        file: &[u8],
        raw: Option<Vec<u8>>,
    ) -> Result<(), EngineError> {
        let f = self.file(name)?;
        let shard = match self.cache.get(f) {
            // Names are content hashes: a file fetched twice (two searches at once) is decoded once.
            Some(s) => s,
            None => {
                let (shard, cost) = self.searcher.open_file(f, name, file, raw)?;
                match &shard {
                    Shard::VectorDir(d) => self.vector_dir = Some(d.clone()),
                    Shard::TypoDir(d) => self.typo_dir = Some(d.clone()),
                    _ => {}
                }
                self.cache.insert(f, shard.clone(), cost);
                shard
            }
        };
        for t in &mut self.tickets {
            let Some(s) = t.session.as_mut() else {
                continue;
            };
            if s.awaits(f) {
                s.provide(f, shard.clone());
            }
            // Another page of the same text: the decoded file, checked against that page first.
            #[cfg(feature = "evidence")]
            for g in s.awaited_texts(&self.searcher, name) {
                match (g, &shard) {
                    (FileRef::Text(page), Shard::Text(t)) if self.searcher.text_fits(page, t) => {
                        s.provide(g, shard.clone())
                    }
                    _ => {
                        return Err(EngineError::Search(SearchError::MetaMismatch(
                            name.to_owned(),
                        )))
                    }
                }
            }
        }
        Ok(())
    }

    fn outcome(&self, id: u32) -> Result<&QueryOutcome, EngineError> {
        let t = (self.tickets.iter().find(|t| t.id == id)).ok_or(EngineError::UnknownTicket(id))?;
        t.outcome.as_ref().ok_or(EngineError::NotReady(id))
    }

    /// The typo corrections a search applied, as JSON.
    pub fn corrections_json(&self, id: u32) -> Result<String, EngineError> {
        Ok(aidocs_core::json::corrections_json(
            &self.outcome(id)?.corrections,
        ))
    }

    /// The facet counts of a search with `facets` (`null` without), as JSON.
    pub fn facets_json(&self, id: u32) -> Result<String, EngineError> {
        Ok(match &self.outcome(id)?.facets {
            Some(f) => aidocs_core::json::facets_json(f),
            None => "null".to_owned(),
        })
    }

    /// `query` with its corrected words replaced and dropped quotes removed (what the CLI prints as
    /// "showing results for"), or `None` when the search corrected nothing.
    pub fn corrected_query(&self, id: u32, query: &str) -> Result<Option<String>, EngineError> {
        let c = &self.outcome(id)?.corrections;
        Ok((!c.is_empty()).then(|| aidocs_core::typos::corrected_query(query, c)))
    }

    /// The evidence of a search begun with `evidence_tokens`, as the JSON `aidocs-index context
    /// --json` prints (`null` without).
    pub fn evidence_json(&self, id: u32, query: &str) -> Result<String, EngineError> {
        let outcome = self.outcome(id)?;
        #[cfg(feature = "evidence")]
        if let Some(e) = &outcome.evidence {
            return Ok(aidocs_core::json::evidence_json(query, e));
        }
        let _ = (outcome, query);
        Ok("null".to_owned())
    }

    /// The evidence of a search as the Markdown `aidocs-index context` prints (empty without).
    pub fn evidence_markdown(&self, id: u32) -> Result<String, EngineError> {
        let outcome = self.outcome(id)?;
        #[cfg(feature = "evidence")]
        if let Some(e) = &outcome.evidence {
            return Ok(aidocs_core::search::evidence_markdown(e));
        }
        let _ = outcome;
        Ok(String::new())
    }

    /// The results of a search as the JSON array the CLI prints; consumes the ticket.
    pub fn results(&mut self, id: u32) -> Result<String, EngineError> {
        let outcome = self.outcome(id)?;
        let explain = (self.tickets.iter().find(|t| t.id == id)).is_some_and(|t| t.explain);
        let json = aidocs_core::json::results_json(&outcome.results, explain);
        self.release(id);
        Ok(json)
    }

    /// Forgets a search (abandoned, or done).
    pub fn release(&mut self, id: u32) {
        self.tickets.retain(|t| t.id != id);
        self.cache.trim();
    }

    pub fn cache(&self) -> &ShardCache {
        &self.cache
    }

    /// Drops the decoded shards. The directory pages of a paged index (format v11) stay with the
    /// searcher, outside the cache's bound, as the manifest does: they name the shards, and are
    /// a small, fixed share of the index (all of a 100,000-page site's hold ~36,000 entries).
    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }
}
