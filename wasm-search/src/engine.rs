//! The query engine behind the JS API, in plain Rust so that it is unit-tested natively as well.
//!
//! It does no I/O: the JS side asks which files a query needs, fetches them (coalesced, possibly inflated
//! with `DecompressionStream`), hands the bytes back, and asks again until nothing is missing; then it
//! ranks and asks for the metadata of the pages returned. A lexical search is two round trips (term
//! shards, metadata); vector and hybrid add one: the term shards, the vector directory and the static
//! encoder's row shards of the query's terms first, then the vector partitions the query vector probes.
//!
//! A caller that runs the full model (Node and edge runtimes, `aidocs-wasm-encoder`) hands the query's
//! embedding in with [`Engine::provide_query_vector`]; that query then loads the index's projection
//! instead of row shards, and ranks with the exact embedding mapped into the stored space.

use std::collections::HashMap;
use std::rc::Rc;

use aidocs_core::envelope::{self, ShardKind};
use aidocs_core::partitions::{root_kind, PartitionTable};
use aidocs_core::positions::PositionShard;
use aidocs_core::search::TypoNeed;
use aidocs_core::term_rows::TermRowShard;
use aidocs_core::typos::{Correction, TypoDirectory, TypoShard};
use aidocs_core::vectors::{Projection, VectorDir, VectorShard};
use aidocs_core::{
    Kind, Manifest, MetaShard, Mode, PageHit, QueryPlan, SearchError, SearchOptions, Searcher,
    ShardError, TermShard, VectorQuery, MANIFEST_FILE,
};

use crate::cache::{Shard, ShardCache};

/// Tickets of ranked queries waiting for their metadata; older ones are dropped beyond this many, so an
/// abandoned search (a fetch that failed, a keystroke that superseded it) cannot grow memory.
const MAX_TICKETS: usize = 32;
/// Full-model query vectors kept (by query text) for the searches in flight.
const MAX_QUERY_VECTORS: usize = 32;
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
            EngineError::Search(SearchError::MissingStemmer { .. }) => "missing_stemmer",
            EngineError::Search(SearchError::PositionsMismatch(_)) => "positions_mismatch",
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
            | EngineError::Search(SearchError::PositionsMismatch(f)) => f,
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
}

/// The mode named by a `mode` option.
pub fn parse_mode(mode: &str) -> Result<Mode, EngineError> {
    match mode {
        "" => Ok(Mode::Lexical),
        m => Mode::parse(m).ok_or_else(|| {
            EngineError::BadOption(format!(
                "unknown mode `{m}`: expected lexical, vector or hybrid"
            ))
        }),
    }
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
        let mode = parse_mode(&self.mode)?;
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
            ..Default::default()
        })
    }
}

/// The vector side of one ranking: the directory, the query vector and the probed partitions.
type VectorSide = (Rc<VectorDir>, Vec<f32>, HashMap<usize, Rc<VectorShard>>);

struct Ticket {
    id: u32,
    hits: Vec<PageHit>,
    explain: bool,
    corrections: Vec<Correction>,
    facets: Option<aidocs_core::Facets>,
}

/// Cache keys of typo shards start here (far above every other kind's).
const TYPO_SHARD_BASE: usize = 1 << 30;
/// Cache keys of position shards: this plus their term shard's index.
const POSITIONS_BASE: usize = 1 << 29;

/// One opened index: its manifest, a bounded cache of decoded shards, and ranked queries in flight.
///
/// Cache keys: term shards `0..T`, metadata shards `T..T+M`, the vector directory `T+M`, the
/// projection `T+M+1`, row shards next (`S` of them), then vector partitions (known once the directory
/// is loaded).
pub struct Engine {
    searcher: Searcher,
    /// File name → position: term shards first, then metadata shards.
    files: HashMap<String, usize>,
    /// Partition file name → partition index, filled when the vector directory arrives.
    partitions: HashMap<String, usize>,
    cache: ShardCache,
    tickets: Vec<Ticket>,
    next_ticket: u32,
    /// Full-model embeddings of query texts ([`Engine::provide_query_vector`]), oldest first.
    query_vectors: Vec<(String, Vec<f32>)>,
    /// The typo directory once fetched (small; kept outside the cache), and its shards' file names.
    typo_dir: Option<Rc<TypoDirectory>>,
    typo_files: HashMap<String, usize>,
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
            partitions: HashMap::new(),
            cache: ShardCache::new(cache_limit),
            tickets: Vec::new(),
            next_ticket: 1,
            query_vectors: Vec::new(),
            typo_dir: None,
            typo_files: HashMap::new(),
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

    fn dir_id(&self) -> usize {
        let m = &self.searcher.manifest;
        m.term_shards.len() + m.meta_shards.len()
    }

    fn projection_id(&self) -> usize {
        self.dir_id() + 1
    }

    fn row_id(&self, i: u32) -> usize {
        self.dir_id() + 2 + i as usize
    }

    fn partition_id(&self, i: usize) -> usize {
        let rows = self.searcher.term_rows().map_or(0, |r| r.shards as usize);
        self.dir_id() + 2 + rows + i
    }

    /// Whether `mode` can use vectors here: vector or hybrid, on an index with vectors and a query
    /// encoder for them (the static one, or a full-model vector the caller provided).
    fn vector_mode(&self, mode: Mode, full: bool) -> bool {
        mode != Mode::Lexical
            && self.searcher.manifest.vectors.is_some()
            && (full || self.searcher.term_rows().is_some())
    }

    /// Records the full model's embedding of `query` (in the model's own space, e.g. 384 values for
    /// all-MiniLM-L6-v2): later [`Self::files_for_query`] and [`Self::rank`] calls for this text use it
    /// instead of the static encoder. The model must be the one the index's vectors came from.
    pub fn provide_query_vector(
        &mut self,
        query: &str,
        vector: Vec<f32>,
    ) -> Result<(), EngineError> {
        self.forget_query_vector(query);
        let Some(v) = &self.searcher.manifest.vectors else {
            return Err(EngineError::BadOption(
                "this index has no vectors: a query vector cannot be used".into(),
            ));
        };
        if v.projection.is_none() && vector.len() != v.dims as usize {
            return Err(EngineError::BadOption(format!(
                "the query vector has {} values; this index's vectors ({}) have {}",
                vector.len(),
                v.model,
                v.dims
            )));
        }
        if vector.is_empty() || !vector.iter().all(|x| x.is_finite()) {
            return Err(EngineError::BadOption(
                "the query vector must be non-empty and finite".into(),
            ));
        }
        if self.query_vectors.len() >= MAX_QUERY_VECTORS {
            self.query_vectors.remove(0);
        }
        self.query_vectors.push((query.to_owned(), vector));
        Ok(())
    }

    /// Drops the vector provided for `query`: its searches use the static encoder again.
    pub fn forget_query_vector(&mut self, query: &str) {
        self.query_vectors.retain(|(q, _)| q != query);
    }

    /// The full-model vector provided for `query`, if any.
    fn full_vector(&self, query: &str) -> Option<Vec<f32>> {
        self.query_vectors
            .iter()
            .find(|(q, _)| q == query)
            .map(|(_, v)| v.clone())
    }

    /// The projection file, when the index has one and it is not cached.
    fn missing_projection(&self) -> Option<String> {
        let p = self
            .searcher
            .manifest
            .vectors
            .as_ref()?
            .projection
            .clone()?;
        (!self.cache.contains(self.projection_id())).then_some(p)
    }

    /// `full` mapped into the stored space (`Err` names the missing projection or a wrong width).
    fn project(&mut self, full: &[f32]) -> Result<Vec<f32>, EngineError> {
        let Some(v) = self.searcher.manifest.vectors.clone() else {
            return Err(EngineError::BadOption("this index has no vectors".into()));
        };
        let Some(name) = v.projection.clone() else {
            // Stored at the model's width: the (unit) embedding is used as it is, as natively.
            return Ok(full.to_vec());
        };
        let p = match self.cache.get(self.projection_id()) {
            Some(Shard::Projection(p)) => p,
            _ => return Err(EngineError::Search(SearchError::MissingTermShard(name))),
        };
        p.apply(full).ok_or_else(|| {
            EngineError::BadOption(format!(
                "the query vector has {} values; this index's model ({}) embeds into {}",
                full.len(),
                v.model,
                p.in_dims
            ))
        })
    }

    fn missing_rows(&self, plan: &QueryPlan) -> Vec<String> {
        let Some(rows) = self.searcher.term_rows() else {
            return Vec::new();
        };
        self.searcher
            .term_row_shards(plan)
            .into_iter()
            .filter(|&i| !self.cache.contains(self.row_id(i)))
            .map(|i| rows.file(i))
            .collect()
    }

    /// The cached vector directory.
    fn vector_dir(&mut self) -> Option<Rc<VectorDir>> {
        match self.cache.get(self.dir_id()) {
            Some(Shard::VectorDir(d)) => Some(d),
            _ => None,
        }
    }

    /// The query's static vector from cached row shards (`Err` names a missing row shard).
    fn static_vector(&mut self, plan: &QueryPlan) -> Result<Option<Vec<f32>>, EngineError> {
        let Some(rows) = self.searcher.term_rows().cloned() else {
            return Ok(None);
        };
        let mut shards: HashMap<u32, Rc<TermRowShard>> = HashMap::new();
        for i in self.searcher.term_row_shards(plan) {
            match self.cache.get(self.row_id(i)) {
                Some(Shard::TermRows(r)) => {
                    shards.insert(i, r);
                }
                _ => {
                    return Err(EngineError::Search(SearchError::MissingTermShard(
                        rows.file(i),
                    )))
                }
            }
        }
        Ok(self
            .searcher
            .static_query_vector(plan, |i| shards.get(&i).map(|r| r.as_ref())))
    }

    /// Index files `query` needs in `mode` that are not cached (the filters rule out absent terms
    /// first). Call again after adding them: vector and hybrid queries learn which partitions to
    /// probe only once the directory and the query's term rows are here. Empty = ready to rank.
    pub fn files_for_query(
        &mut self,
        query: &str,
        mode: &str,
        nprobe: Option<u32>,
        prefix: bool,
        typos: bool,
        language: Option<&str>,
    ) -> Vec<String> {
        let plan = self.searcher.plan_prefix(query, prefix, language);
        // Typo tolerance first: which words are indexed, then the directory, then the typo shards.
        let plan = if typos {
            match self.corrections(query, &plan) {
                Ok(c) => self.searcher.corrected_plan(plan, &c),
                Err(need) => return need,
            }
        } else {
            plan
        };
        let need = self.files_for_ranking(query, &plan, mode, nprobe);
        if !need.is_empty() {
            return need;
        }
        // Last, for a quoted phrase: its words' term and position shards.
        let mut need = Vec::new();
        for i in self.searcher.position_shards(&plan) {
            if !self.cache.contains(i) {
                need.push(self.searcher.manifest.term_shards[i].file.clone());
            }
            if !self.cache.contains(POSITIONS_BASE + i) {
                need.extend(self.searcher.manifest.positions_file(i));
            }
        }
        need
    }

    /// The files ranking the (corrected) `plan` in `mode` needs: term shards, and for vector and
    /// hybrid modes the directory, rows or projection, then partitions.
    fn files_for_ranking(
        &mut self,
        query: &str,
        plan: &QueryPlan,
        mode: &str,
        nprobe: Option<u32>,
    ) -> Vec<String> {
        let mode = parse_mode(mode).unwrap_or(Mode::Lexical);
        let full = self.full_vector(query);
        if !self.vector_mode(mode, full.is_some()) {
            return self.missing_terms(&plan.shards);
        }
        let mut need = if mode == Mode::Hybrid {
            self.missing_terms(&plan.shards)
        } else {
            Vec::new()
        };
        if !self.cache.contains(self.dir_id()) {
            if let Some(v) = &self.searcher.manifest.vectors {
                need.push(v.file.clone());
            }
        }
        match &full {
            Some(_) => need.extend(self.missing_projection()),
            None => need.extend(self.missing_rows(plan)),
        }
        if !need.is_empty() {
            return need;
        }
        let q = match &full {
            // A wrong width is reported by `rank`.
            Some(f) => self.project(f).ok(),
            None => self.static_vector(plan).ok().flatten(),
        };
        let (Some(q), Some(dir)) = (q, self.vector_dir()) else {
            // No query term has a row: the query ranks lexically.
            return self.missing_terms(&plan.shards);
        };
        let opts = SearchOptions {
            nprobe: nprobe.map_or(aidocs_core::search::DEFAULT_NPROBE, |n| n as usize),
            ..Default::default()
        };
        self.searcher
            .vector_partitions(&dir, &q, &opts)
            .into_iter()
            .filter(|&i| !self.cache.contains(self.partition_id(i)))
            .map(|i| dir.partitions[i].file.clone())
            .collect()
    }

    /// [`Searcher::corrections`] over what is cached: the corrections, or the files still needed.
    fn corrections(&self, query: &str, plan: &QueryPlan) -> Result<Vec<Correction>, Vec<String>> {
        let cache = &self.cache;
        let step = self.searcher.corrections(
            query,
            plan,
            |i| match cache.peek(i) {
                Some(Shard::Terms(t)) => Some(t.as_ref()),
                _ => None,
            },
            self.typo_dir.as_deref(),
            |i| match cache.peek(TYPO_SHARD_BASE + i) {
                Some(Shard::Typos(t)) => Some(t.as_ref()),
                _ => None,
            },
        );
        step.map_err(|need| {
            let m = &self.searcher.manifest;
            need.into_iter()
                .filter_map(|n| match n {
                    TypoNeed::TermShard(i) => Some(m.term_shards[i].file.clone()),
                    TypoNeed::Directory => m.typos.clone(),
                    TypoNeed::Shard(i) => self.typo_dir.as_ref().map(|d| d.shard_file(i)),
                })
                .collect()
        })
    }

    /// Term shard files worth warming while the user types `partial` (in the reader's `language`).
    pub fn files_for_preload(&self, partial: &str, language: Option<&str>) -> Vec<String> {
        self.missing_terms(&self.searcher.preload_shards(partial, language))
    }

    /// The cache key and kind of index file `name`.
    fn file(&self, name: &str) -> Result<(usize, ShardKind), EngineError> {
        if let Some(&id) = self.files.get(name) {
            let kind = if id < self.searcher.manifest.term_shards.len() {
                ShardKind::Terms
            } else {
                ShardKind::Meta
            };
            return Ok((id, kind));
        }
        if let Some(v) = &self.searcher.manifest.vectors {
            if v.file == name {
                return Ok((self.dir_id(), ShardKind::VectorDir));
            }
            if v.projection.as_deref() == Some(name) {
                return Ok((self.projection_id(), ShardKind::Projection));
            }
            if let Some(i) = v.term_rows.as_ref().and_then(|r| r.shard_of_file(name)) {
                return Ok((self.row_id(i), ShardKind::TermRows));
            }
        }
        if let Some(&i) = self.partitions.get(name) {
            return Ok((self.partition_id(i), ShardKind::Vectors));
        }
        if self.searcher.manifest.typos.as_deref() == Some(name) {
            return Ok((TYPO_SHARD_BASE - 1, ShardKind::TypoDir));
        }
        if let Some(&i) = self.typo_files.get(name) {
            return Ok((TYPO_SHARD_BASE + i, ShardKind::Typos));
        }
        if let Some(i) = self.searcher.manifest.positions_shard_of(name) {
            return Ok((POSITIONS_BASE + i, ShardKind::Positions));
        }
        Err(EngineError::UnknownFile(name.to_owned()))
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
        let dims = self
            .searcher
            .manifest
            .vectors
            .as_ref()
            .map_or(0, |v| v.dims);
        let mismatch = || EngineError::Search(SearchError::MetaMismatch(name.to_owned()));
        let shard = match kind {
            ShardKind::Terms => Shard::Terms(Rc::new(
                TermShard::decode_payload(&raw, self.searcher.manifest.num_chunks)
                    .map_err(shard_err)?,
            )),
            ShardKind::VectorDir => {
                // v2 stored f32 centroids, v3 int8: the header says which.
                let version = envelope::read_header(file).map_err(shard_err)?.version;
                let dir = VectorDir::decode_versioned(&raw, version).map_err(shard_err)?;
                if dir.dims != dims {
                    return Err(mismatch());
                }
                self.partitions = dir
                    .partitions
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.file.clone(), i))
                    .collect();
                Shard::VectorDir(Rc::new(dir))
            }
            ShardKind::Vectors => {
                // v2–v3 stored int8 absolute vectors, v4 4-bit residuals: the header says which.
                let version = envelope::read_header(file).map_err(shard_err)?.version;
                let v = VectorShard::decode_versioned(&raw, version).map_err(shard_err)?;
                if v.dims != dims {
                    return Err(mismatch());
                }
                Shard::Vectors(Rc::new(v))
            }
            ShardKind::TermRows => {
                let r = TermRowShard::decode_payload(&raw).map_err(shard_err)?;
                if r.dims != dims {
                    return Err(mismatch());
                }
                Shard::TermRows(Rc::new(r))
            }
            ShardKind::TypoDir => {
                let dir = TypoDirectory::decode_payload(&raw).map_err(shard_err)?;
                self.typo_files = (0..dir.shard_count())
                    .map(|i| (dir.shard_file(i), i))
                    .collect();
                self.typo_dir = Some(Rc::new(dir));
                return Ok(());
            }
            ShardKind::Typos => {
                Shard::Typos(Rc::new(TypoShard::decode_payload(&raw).map_err(shard_err)?))
            }
            ShardKind::Positions => Shard::Positions(Rc::new(
                PositionShard::decode_payload(&raw, self.searcher.manifest.num_chunks)
                    .map_err(shard_err)?,
            )),
            ShardKind::Projection => {
                let p = Projection::decode_payload(&raw).map_err(shard_err)?;
                if p.out_dims != dims {
                    return Err(mismatch());
                }
                Shard::Projection(Rc::new(p))
            }
            _ => {
                let entry = &self.searcher.manifest.meta_shards[id - terms];
                let meta = MetaShard::decode_payload(&raw).map_err(shard_err)?;
                // A metadata shard of another build would attach wrong titles to the right pages:
                // reject it here, before it can be cached.
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
                    return Err(mismatch());
                }
                Shard::Meta(Rc::new(meta))
            }
        };
        self.cache.insert(id, shard, raw.len());
        Ok(())
    }

    /// Ranks `query` over the cached shards (everything [`Self::files_for_query`] named must have been
    /// added) and returns a ticket for [`Self::files_for_ticket`] and [`Self::results`].
    pub fn rank(&mut self, query: &str, opts: &QueryOptions) -> Result<u32, EngineError> {
        let mut search = opts.to_search_options()?;
        let plan = self
            .searcher
            .plan_prefix(query, search.prefix, search.language.as_deref());
        let missing = |file: String| EngineError::Search(SearchError::MissingTermShard(file));
        let corrections = if search.typos {
            self.corrections(query, &plan)
                .map_err(|need| missing(need.into_iter().next().unwrap_or_default()))?
        } else {
            Vec::new()
        };
        let mut plan = self.searcher.corrected_plan(plan, &corrections);
        // Quoted phrases: where their words occur next to each other.
        let phrase_shards = self.searcher.position_shards(&plan);
        if !phrase_shards.is_empty() {
            // (Vectors, not maps: a few shards, and every map instantiation is wasm bytes.)
            let mut found: Vec<(usize, Rc<TermShard>, Rc<PositionShard>)> = Vec::new();
            for i in phrase_shards {
                let Some(Shard::Terms(t)) = self.cache.get(i) else {
                    return Err(missing(self.searcher.manifest.term_shards[i].file.clone()));
                };
                let Some(Shard::Positions(p)) = self.cache.get(POSITIONS_BASE + i) else {
                    let file = self.searcher.manifest.positions_file(i).unwrap_or_default();
                    return Err(missing(file));
                };
                found.push((i, t, p));
            }
            let find = |i: usize| found.iter().find(|f| f.0 == i);
            self.searcher.resolve_phrases(
                &mut plan,
                |i| find(i).map(|f| f.1.as_ref()),
                |i| find(i).map(|f| f.2.as_ref()),
            )?;
        }
        // The vector side: the static encoding, the directory and the probed partitions.
        let mut vector: Option<VectorSide> = None;
        let full = self.full_vector(query);
        search.fusion = aidocs_core::Fusion::default_for(full.is_none());
        if self.vector_mode(search.mode, full.is_some()) {
            let q = match &full {
                Some(f) => Some(self.project(f)?),
                None => self.static_vector(&plan)?,
            };
            if let Some(q) = q {
                let dir = self.vector_dir().ok_or_else(|| {
                    missing(
                        self.searcher
                            .manifest
                            .vectors
                            .as_ref()
                            .map_or_else(String::new, |v| v.file.clone()),
                    )
                })?;
                let mut parts = HashMap::new();
                for i in self.searcher.vector_partitions(&dir, &q, &search) {
                    match self.cache.get(self.partition_id(i)) {
                        Some(Shard::Vectors(v)) => {
                            parts.insert(i, v);
                        }
                        _ => return Err(missing(dir.partitions[i].file.clone())),
                    }
                }
                vector = Some((dir, q, parts));
            }
        }
        let lexical_needed = vector.is_none() || search.mode == Mode::Hybrid;
        let mut terms: HashMap<usize, Rc<TermShard>> = HashMap::new();
        if lexical_needed {
            for &i in &plan.shards {
                match self.cache.get(i) {
                    Some(Shard::Terms(t)) => {
                        terms.insert(i, t);
                    }
                    _ => return Err(missing(self.searcher.manifest.term_shards[i].file.clone())),
                }
            }
        }
        let vq = vector.as_ref().map(|(dir, q, parts)| VectorQuery {
            dir: dir.as_ref(),
            query: q.as_slice(),
            shard: |i: usize| parts.get(&i).map(|v| v.as_ref()),
        });
        let (hits, _, facets) = self.searcher.rank_faceted(
            &plan,
            |i| terms.get(&i).map(|t| t.as_ref()),
            vq,
            &search,
        )?;
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
            corrections,
            facets,
        });
        Ok(id)
    }

    fn ticket(&self, id: u32) -> Result<&Ticket, EngineError> {
        self.tickets
            .iter()
            .find(|t| t.id == id)
            .ok_or(EngineError::UnknownTicket(id))
    }

    /// The typo corrections a ranked query applied, as JSON.
    pub fn corrections_json(&self, id: u32) -> Result<String, EngineError> {
        Ok(aidocs_core::json::corrections_json(
            &self.ticket(id)?.corrections,
        ))
    }

    /// The facet counts of a query ranked with `facets` (`null` without), as JSON.
    pub fn facets_json(&self, id: u32) -> Result<String, EngineError> {
        Ok(match &self.ticket(id)?.facets {
            Some(f) => aidocs_core::json::facets_json(f),
            None => "null".to_owned(),
        })
    }

    /// `query` with its corrected words replaced (what the CLI prints as "showing results for"), or
    /// `None` when the ranked query corrected nothing.
    pub fn corrected_query(&self, id: u32, query: &str) -> Result<Option<String>, EngineError> {
        let c = &self.ticket(id)?.corrections;
        Ok((!c.is_empty()).then(|| aidocs_core::typos::corrected_query(query, c)))
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
