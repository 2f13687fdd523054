//! The query engine behind the JS API, in plain Rust so that it is unit-tested natively as well.
//!
//! It does no I/O: the JS side asks which files a query needs, fetches them (coalesced, possibly inflated
//! with `DecompressionStream`), hands the bytes back, then asks for results. A search is two round trips
//! at most: term shards for ranking, then metadata shards for the pages returned.

use std::collections::HashMap;
use std::rc::Rc;

use aidocs_core::envelope::{self, ShardKind};
use aidocs_core::{
    Kind, Manifest, MetaShard, PageHit, SearchError, SearchOptions, Searcher, ShardError,
    TermShard, MANIFEST_FILE,
};

use crate::cache::{Shard, ShardCache};

/// Tickets of ranked queries waiting for their metadata; older ones are dropped beyond this many, so an
/// abandoned search (a fetch that failed, a keystroke that superseded it) cannot grow memory.
const MAX_TICKETS: usize = 32;
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
}

impl EngineError {
    pub fn code(&self) -> &'static str {
        match self {
            EngineError::Shard { source, .. } => source.code(),
            EngineError::Search(SearchError::AnalyzerMismatch { .. }) => "analyzer_mismatch",
            EngineError::Search(SearchError::MissingTermShard(_))
            | EngineError::Search(SearchError::MissingMetaShard(_)) => "missing_shard",
            EngineError::Search(SearchError::MetaMismatch(_)) => "meta_mismatch",
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
            EngineError::Search(SearchError::MetaMismatch(f)) => f,
            _ => "",
        }
    }

    pub fn message(&self) -> String {
        match self {
            EngineError::Shard { file, source } => format!("{file}: {source}"),
            EngineError::Search(e) => e.to_string(),
            EngineError::UnknownFile(f) => {
                format!("{f} is not a file of this index (manifest changed?)")
            }
            EngineError::BadOption(m) => m.clone(),
            EngineError::UnknownTicket(t) => format!("search ticket {t} expired or unknown"),
        }
    }
}

impl From<SearchError> for EngineError {
    fn from(e: SearchError) -> Self {
        EngineError::Search(e)
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
    /// `lexical` (or empty). Vector and hybrid modes arrive with the vector shards.
    pub mode: String,
}

impl QueryOptions {
    fn to_search_options(&self) -> Result<SearchOptions, EngineError> {
        if self.k == 0 || self.k > MAX_K {
            return Err(EngineError::BadOption(format!(
                "k must be between 1 and {MAX_K}, got {}",
                self.k
            )));
        }
        let mut kinds = Vec::new();
        for k in self
            .kinds
            .split(',')
            .map(str::trim)
            .filter(|k| !k.is_empty())
        {
            kinds.push(Kind::parse(k).ok_or_else(|| {
                EngineError::BadOption(format!("unknown kind `{k}`: expected docs, api or custom"))
            })?);
        }
        match self.mode.as_str() {
            "" | "lexical" => {}
            other => {
                return Err(EngineError::BadOption(format!(
                    "mode `{other}` is not available in this index: only `lexical` (vectors are not built yet)"
                )))
            }
        }
        if !self.min_score.is_finite() {
            return Err(EngineError::BadOption("min_score must be a number".into()));
        }
        Ok(SearchOptions {
            k: self.k as usize,
            kinds,
            tags: self.tags.clone(),
            group: self.group.clone().filter(|g| !g.is_empty()),
            min_score: self.min_score,
            explain: self.explain,
            ..Default::default()
        })
    }
}

struct Ticket {
    id: u32,
    hits: Vec<PageHit>,
    explain: bool,
}

/// One opened index: its manifest, a bounded cache of decoded shards, and ranked queries in flight.
pub struct Engine {
    searcher: Searcher,
    /// File name → position: term shards first, then metadata shards.
    files: HashMap<String, usize>,
    cache: ShardCache,
    tickets: Vec<Ticket>,
    next_ticket: u32,
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
        let shard_err = |source| EngineError::Shard {
            file: MANIFEST_FILE.to_owned(),
            source,
        };
        let raw = payload(file, raw, ShardKind::Manifest).map_err(shard_err)?;
        let manifest = Manifest::decode_payload(&raw).map_err(shard_err)?;
        let mut files = HashMap::new();
        for (i, s) in manifest.term_shards.iter().enumerate() {
            files.insert(s.file.clone(), i);
        }
        let t = manifest.term_shards.len();
        for (i, s) in manifest.meta_shards.iter().enumerate() {
            files.insert(s.file.clone(), t + i);
        }
        Ok(Engine {
            searcher: Searcher::new(manifest)?,
            files,
            cache: ShardCache::new(cache_limit),
            tickets: Vec::new(),
            next_ticket: 1,
        })
    }

    pub fn manifest(&self) -> &Manifest {
        &self.searcher.manifest
    }

    /// Cache key of metadata shard `i` (term shard `i` is keyed `i`).
    fn meta_id(&self, i: usize) -> usize {
        self.searcher.manifest.term_shards.len() + i
    }

    fn missing_terms(&self, shards: &[usize]) -> Vec<String> {
        shards
            .iter()
            .filter(|&&i| !self.cache.contains(i))
            .map(|&i| self.searcher.manifest.term_shards[i].file.clone())
            .collect()
    }

    /// Term shard files `query` needs that are not cached (the filters rule out absent terms first).
    pub fn files_for_query(&self, query: &str) -> Vec<String> {
        self.missing_terms(&self.searcher.plan(query).shards)
    }

    /// Term shard files worth warming while the user is still typing `partial`.
    pub fn files_for_preload(&self, partial: &str) -> Vec<String> {
        self.missing_terms(&self.searcher.preload_shards(partial))
    }

    /// The cache key and kind of index file `name`.
    fn file(&self, name: &str) -> Result<(usize, ShardKind), EngineError> {
        let id = *self
            .files
            .get(name)
            .ok_or_else(|| EngineError::UnknownFile(name.to_owned()))?;
        let kind = if id < self.searcher.manifest.term_shards.len() {
            ShardKind::Terms
        } else {
            ShardKind::Meta
        };
        Ok((id, kind))
    }

    /// The kind of shard `name` is in this index.
    pub fn kind_of(&self, name: &str) -> Result<ShardKind, EngineError> {
        self.file(name).map(|(_, kind)| kind)
    }

    /// Verifies, decodes and caches one fetched shard.
    pub fn add(
        &mut self,
        name: &str,
        file: &[u8],
        raw: Option<Vec<u8>>,
    ) -> Result<(), EngineError> {
        let (id, kind) = self.file(name)?;
        let shard_err = |source| EngineError::Shard {
            file: name.to_owned(),
            source,
        };
        let terms = self.searcher.manifest.term_shards.len();
        let raw = payload(file, raw, kind).map_err(shard_err)?;
        let shard = if kind == ShardKind::Terms {
            Shard::Terms(Rc::new(
                TermShard::decode_payload(&raw, self.searcher.manifest.num_chunks)
                    .map_err(shard_err)?,
            ))
        } else {
            let entry = &self.searcher.manifest.meta_shards[id - terms];
            let meta = MetaShard::decode_payload(&raw).map_err(shard_err)?;
            // A metadata shard of another build would attach wrong titles to the right pages: reject it
            // here, before it can be cached.
            let pages_ok = meta.first_page == entry.first_page
                && meta.pages.len() == entry.page_count as usize
                && meta.pages.iter().enumerate().all(|(j, p)| {
                    self.searcher
                        .manifest
                        .pages
                        .get(entry.first_page as usize + j)
                        .is_some_and(|e| e.chunk_count as usize == p.chunks.len())
                });
            if !pages_ok {
                return Err(EngineError::Search(SearchError::MetaMismatch(
                    name.to_owned(),
                )));
            }
            Shard::Meta(Rc::new(meta))
        };
        self.cache.insert(id, shard, raw.len());
        Ok(())
    }

    /// Ranks `query` over the cached term shards (all of [`Self::files_for_query`] must have been added)
    /// and returns a ticket for [`Self::files_for_ticket`] and [`Self::results`].
    pub fn rank(&mut self, query: &str, opts: &QueryOptions) -> Result<u32, EngineError> {
        let search = opts.to_search_options()?;
        let plan = self.searcher.plan(query);
        let mut terms: HashMap<usize, Rc<TermShard>> = HashMap::new();
        for &i in &plan.shards {
            match self.cache.get(i) {
                Some(Shard::Terms(t)) => {
                    terms.insert(i, t);
                }
                _ => {
                    return Err(EngineError::Search(SearchError::MissingTermShard(
                        self.searcher.manifest.term_shards[i].file.clone(),
                    )))
                }
            }
        }
        let hits = self
            .searcher
            .rank(&plan, |i| terms.get(&i).map(|t| t.as_ref()), &search)?;
        self.cache.trim();
        let id = self.next_ticket;
        self.next_ticket = self.next_ticket.wrapping_add(1).max(1);
        if self.tickets.len() >= MAX_TICKETS {
            self.tickets.remove(0);
        }
        self.tickets.push(Ticket {
            id,
            hits,
            explain: opts.explain,
        });
        Ok(id)
    }

    fn ticket(&self, id: u32) -> Result<&Ticket, EngineError> {
        self.tickets
            .iter()
            .find(|t| t.id == id)
            .ok_or(EngineError::UnknownTicket(id))
    }

    /// Metadata shard files a ranked query still needs.
    pub fn files_for_ticket(&self, id: u32) -> Result<Vec<String>, EngineError> {
        let t = self.ticket(id)?;
        Ok(self
            .searcher
            .meta_shards_for(&t.hits)
            .into_iter()
            .filter(|&i| !self.cache.contains(self.meta_id(i)))
            .map(|i| self.searcher.manifest.meta_shards[i].file.clone())
            .collect())
    }

    /// The results of a ranked query as the JSON array the CLI prints; consumes the ticket on success.
    pub fn results(&mut self, id: u32) -> Result<String, EngineError> {
        let ticket = self.ticket(id)?;
        let (hits, explain) = (ticket.hits.clone(), ticket.explain);
        let mut metas: HashMap<usize, Rc<MetaShard>> = HashMap::new();
        for i in self.searcher.meta_shards_for(&hits) {
            match self.cache.get(self.meta_id(i)) {
                Some(Shard::Meta(m)) => {
                    metas.insert(i, m);
                }
                _ => {
                    return Err(EngineError::Search(SearchError::MissingMetaShard(
                        self.searcher.manifest.meta_shards[i].file.clone(),
                    )))
                }
            }
        }
        let results = self
            .searcher
            .assemble(hits, |i| metas.get(&i).map(|m| m.as_ref()))?;
        self.release(id);
        self.cache.trim();
        Ok(aidocs_core::json::results_json(&results, explain))
    }

    /// Forgets a ticket (a search abandoned before its results).
    pub fn release(&mut self, id: u32) {
        self.tickets.retain(|t| t.id != id);
    }

    pub fn cache(&self) -> &ShardCache {
        &self.cache
    }

    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }
}
