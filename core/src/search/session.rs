//! Here is an open index, a query and its options, give me the files it needs round by round, then
//! its results: [`QuerySession`], the one place that sequences a query (the rustls/quinn-proto
//! shape: the state machine owns the logic, the caller owns the I/O).
//!
//! Rounds, each asked for at once so that a reader fetches them in parallel:
//! 1. typo tolerance (with `typos`): the term shards that say whether a word is indexed, then the
//!    typo directory, then the typo shards of the words' deletion keys;
//! 2. ranking: the term shards of the (corrected) plan, the term and position shards of quoted
//!    phrases, and in vector and hybrid modes the vector directory with the static encoder's row
//!    shards of the query's terms, or the projection for a full-model query vector;
//! 3. the vector partitions the query vector probes (vector and hybrid modes), or the term shards
//!    when a vector query falls back to lexical ranking (no query term has a row);
//! 4. the metadata shards of the ranked pages.
//!
//! A reader loops: [`QuerySession::advance`] with what it has cached, fetch and
//! [`Searcher::open_file`] what is still missing, [`QuerySession::provide`] it, until nothing is
//! missing; then [`QuerySession::finish`]. The session keeps the shards it was given, so a reader's
//! cache may evict them meanwhile.

use crate::typos::{Correction, TypoDirectory};
use crate::vectors::VectorDir;

use super::files::{FileRef, Shard};
use super::{
    Facets, Mode, PageHit, QueryPlan, SearchError, SearchOptions, SearchResult, Searcher, TypoNeed,
    VectorQuery,
};

/// Where a query's vector comes from, in vector and hybrid modes.
#[derive(Debug, Clone, PartialEq)]
pub enum QueryVector {
    /// The index's static query encoder (its term rows): what a browser runs.
    Static,
    /// The full model's embedding of the query, in the model's own space (e.g. 384 values for
    /// all-MiniLM-L6-v2): mapped into the stored space with the index's projection.
    Model(Vec<f32>),
    /// A vector already in the stored vectors' space.
    Stored(Vec<f32>),
}

/// What a finished query gives.
#[derive(Debug, Clone)]
pub struct QueryOutcome {
    pub results: Vec<SearchResult>,
    /// The mode the query ranked in: a vector or hybrid query without a usable vector side ranks
    /// lexically.
    pub mode: Mode,
    /// The typo corrections applied.
    pub corrections: Vec<Correction>,
    /// With `facets`, the counts of the pages the ranking considered.
    pub facets: Option<Facets>,
    /// The plan the query ranked with (corrected, phrases resolved).
    pub plan: QueryPlan,
    /// The query vector in the stored space, when the query had one (vector and hybrid modes).
    pub vector: Option<Vec<f32>>,
}

#[derive(Debug)]
enum Stage {
    Correct,
    Rank,
    Meta {
        hits: Vec<PageHit>,
        mode: Mode,
        facets: Option<Facets>,
        /// The metadata shards of `hits`.
        metas: Vec<FileRef>,
    },
}

/// One query in flight; see the module docs.
#[derive(Debug)]
pub struct QuerySession {
    text: String,
    opts: SearchOptions,
    vector: QueryVector,
    plan: QueryPlan,
    corrections: Vec<Correction>,
    stage: Stage,
    /// The query vector in the stored space, once known (`Some(None)`: no vector side).
    stored: Option<Option<Vec<f32>>>,
    /// Every file provided so far (a query reads tens: a vector, not a map, keeps wasm small).
    shards: Vec<(FileRef, Shard)>,
    /// The files the last [`Self::advance`] found missing and not provided since.
    pending: Vec<FileRef>,
}

impl QuerySession {
    /// A session for `text` under `opts`, with the query vector from `vector` in vector and hybrid
    /// modes. Fails on a model vector that cannot be used (empty, not finite, the wrong width, or an
    /// index without vectors).
    pub fn new(
        searcher: &Searcher,
        text: &str,
        opts: SearchOptions,
        vector: QueryVector,
    ) -> Result<Self, SearchError> {
        if let QueryVector::Model(v) = &vector {
            let Some(r) = &searcher.manifest.vectors else {
                return Err(SearchError::BadQueryVector(
                    "this index has no vectors: a query vector cannot be used".into(),
                ));
            };
            if v.is_empty() || !v.iter().all(|x| x.is_finite()) {
                return Err(SearchError::BadQueryVector(
                    "the query vector must be non-empty and finite".into(),
                ));
            }
            if r.projection.is_none() && v.len() != r.dims as usize {
                return Err(SearchError::BadQueryVector(format!(
                    "the query vector has {} values; this index's vectors ({}) have {}",
                    v.len(),
                    r.model,
                    r.dims
                )));
            }
        }
        let plan = searcher.plan_prefix(text, opts.prefix, opts.language.as_deref());
        Ok(QuerySession {
            text: text.to_owned(),
            opts,
            vector,
            plan,
            corrections: Vec::new(),
            stage: Stage::Correct,
            stored: None,
            shards: Vec::new(),
            pending: Vec::new(),
        })
    }

    /// Hands in a file the session asked for, decoded by [`Searcher::open_file`].
    pub fn provide(&mut self, file: FileRef, shard: Shard) {
        self.pending.retain(|&f| f != file);
        if !self.has(file) {
            self.shards.push((file, shard));
        }
    }

    /// Whether the last [`Self::advance`] asked for `file` and it has not been provided yet: a
    /// reader serving several queries hands a fetched file to each one waiting for it.
    pub fn awaits(&self, file: FileRef) -> bool {
        self.pending.contains(&file)
    }

    /// Moves the query on as far as the files it has allow, taking what it needs from `cached`
    /// (the reader's cache) on the way. Returns the files still missing: fetch them,
    /// [`Self::provide`] them and call again; empty means [`Self::finish`] can run.
    pub fn advance(
        &mut self,
        searcher: &Searcher,
        mut cached: impl FnMut(FileRef) -> Option<Shard>,
    ) -> Result<Vec<FileRef>, SearchError> {
        self.pending.clear();
        loop {
            let need = self.step(searcher)?;
            if need.is_empty() {
                return Ok(need);
            }
            let mut missing = Vec::new();
            for f in need {
                match cached(f) {
                    Some(s) => self.shards.push((f, s)),
                    None => missing.push(f),
                }
            }
            if !missing.is_empty() {
                self.pending.clone_from(&missing);
                return Ok(missing);
            }
        }
    }

    /// The file name of `file` (vector partitions and typo shards are named by directories the
    /// session holds).
    pub fn file_name(&self, searcher: &Searcher, file: FileRef) -> Option<String> {
        searcher.file_name(file, self.vector_dir(), self.typo_dir())
    }

    /// The typo corrections made so far (final once typo tolerance has run).
    pub fn corrections(&self) -> &[Correction] {
        &self.corrections
    }

    /// Whether the query is ranked and every file its results show is here.
    pub fn is_ready(&self) -> bool {
        matches!(&self.stage, Stage::Meta { metas, .. } if self.missing_meta(metas).is_empty())
    }

    /// The results, once [`Self::advance`] returned nothing missing.
    pub fn finish(self, searcher: &Searcher) -> Result<QueryOutcome, SearchError> {
        let Stage::Meta {
            hits, mode, facets, ..
        } = self.stage
        else {
            return Err(SearchError::NotReady);
        };
        let shards = &self.shards;
        let results = searcher.assemble(hits, |i| match find(shards, FileRef::Meta(i as u32)) {
            Some(Shard::Meta(m)) => Some(m.as_ref()),
            _ => None,
        })?;
        Ok(QueryOutcome {
            results,
            mode,
            corrections: self.corrections,
            facets,
            plan: self.plan,
            vector: self.stored.flatten(),
        })
    }

    fn has(&self, file: FileRef) -> bool {
        find(&self.shards, file).is_some()
    }

    fn vector_dir(&self) -> Option<&VectorDir> {
        match find(&self.shards, FileRef::VectorDir) {
            Some(Shard::VectorDir(d)) => Some(d),
            _ => None,
        }
    }

    fn typo_dir(&self) -> Option<&TypoDirectory> {
        match find(&self.shards, FileRef::TypoDir) {
            Some(Shard::TypoDir(d)) => Some(d),
            _ => None,
        }
    }

    /// Runs the query as far as the files it holds allow; returns the files the next round needs
    /// (empty once it is ranked and its metadata is here).
    fn step(&mut self, searcher: &Searcher) -> Result<Vec<FileRef>, SearchError> {
        loop {
            match &self.stage {
                Stage::Correct => {
                    if self.opts.typos {
                        match self.correct(searcher) {
                            Ok(c) => self.corrections = c,
                            Err(need) => return Ok(need),
                        }
                        if !self.corrections.is_empty() {
                            let plan = self.plan.clone();
                            self.plan = searcher.corrected_plan(plan, &self.corrections);
                        }
                    }
                    self.stage = Stage::Rank;
                }
                Stage::Rank => {
                    let need = self.rank_needs(searcher)?;
                    if !need.is_empty() {
                        return Ok(need);
                    }
                    self.stage = self.rank(searcher)?;
                }
                Stage::Meta { metas, .. } => return Ok(self.missing_meta(metas)),
            }
        }
    }

    /// [`Searcher::corrections`] over the files held: the corrections, or the files to fetch.
    fn correct(&self, searcher: &Searcher) -> Result<Vec<Correction>, Vec<FileRef>> {
        let shards = &self.shards;
        searcher
            .corrections(
                &self.text,
                &self.plan,
                |i| terms(shards, i),
                self.typo_dir(),
                |i| match find(shards, FileRef::Typos(i as u32)) {
                    Some(Shard::Typos(t)) => Some(t.as_ref()),
                    _ => None,
                },
            )
            .map_err(|need| {
                need.into_iter()
                    .map(|n| match n {
                        TypoNeed::TermShard(i) => FileRef::Terms(i as u32),
                        TypoNeed::Directory => FileRef::TypoDir,
                        TypoNeed::Shard(i) => FileRef::Typos(i as u32),
                    })
                    .collect()
            })
    }

    /// Whether the query ranks with vectors: vector or hybrid mode, on an index with vectors and an
    /// encoder for them (the static one, or a vector the caller gave).
    fn wants_vectors(&self, searcher: &Searcher) -> bool {
        self.opts.mode != Mode::Lexical
            && searcher.manifest.vectors.is_some()
            && (self.vector != QueryVector::Static || searcher.term_rows().is_some())
    }

    /// The files ranking needs that the session lacks (one round: what is knowable now).
    fn rank_needs(&mut self, searcher: &Searcher) -> Result<Vec<FileRef>, SearchError> {
        // Quoted phrases: their words' term and position shards.
        let mut want: Vec<FileRef> = Vec::new();
        for i in searcher.position_shards(&self.plan) {
            want.push(FileRef::Terms(i as u32));
            want.push(FileRef::Positions(i as u32));
        }
        let plan_terms: Vec<FileRef> = (self.plan.shards.iter())
            .map(|&i| FileRef::Terms(i as u32))
            .collect();
        if !self.wants_vectors(searcher) {
            want.extend(plan_terms);
            return Ok(self.missing(want));
        }
        if self.opts.mode == Mode::Hybrid {
            want.extend(plan_terms.iter().copied());
        }
        want.push(FileRef::VectorDir);
        let projection =
            (searcher.manifest.vectors.as_ref()).is_some_and(|v| v.projection.is_some());
        match &self.vector {
            QueryVector::Static => want.extend(
                searcher
                    .term_row_shards(&self.plan)
                    .into_iter()
                    .map(FileRef::TermRows),
            ),
            QueryVector::Model(_) if projection => want.push(FileRef::Projection),
            _ => {}
        }
        let need = self.missing(want);
        if !need.is_empty() {
            return Ok(need);
        }
        if self.stored.is_none() {
            self.stored = Some(self.stored_vector(searcher)?);
        }
        let want = match (&self.stored, self.vector_dir()) {
            (Some(Some(q)), Some(dir)) if q.len() == dir.dims as usize => (searcher
                .vector_partitions(dir, q, &self.opts))
            .into_iter()
            .map(|i| FileRef::Vectors(i as u32))
            .collect(),
            // No query term has a row: the query ranks lexically.
            _ => plan_terms,
        };
        Ok(self.missing(want))
    }

    /// The files of `want` the session lacks, each once, in order.
    fn missing(&self, want: Vec<FileRef>) -> Vec<FileRef> {
        let mut need = Vec::new();
        for f in want {
            if !self.has(f) && !need.contains(&f) {
                need.push(f);
            }
        }
        need
    }

    /// The query vector in the stored space, from the files held; `None` when the static encoder
    /// knows none of the query's terms.
    fn stored_vector(&self, searcher: &Searcher) -> Result<Option<Vec<f32>>, SearchError> {
        let shards = &self.shards;
        Ok(match &self.vector {
            QueryVector::Static => searcher.static_query_vector(&self.plan, |i| {
                match find(shards, FileRef::TermRows(i)) {
                    Some(Shard::TermRows(r)) => Some(r.as_ref()),
                    _ => None,
                }
            }),
            QueryVector::Stored(v) => Some(v.clone()),
            QueryVector::Model(v) => match find(shards, FileRef::Projection) {
                Some(Shard::Projection(p)) => Some(p.apply(v).ok_or_else(|| {
                    SearchError::BadQueryVector(format!(
                        "the query vector has {} values; this index's model embeds into {}",
                        v.len(),
                        p.in_dims
                    ))
                })?),
                // Stored at the model's width: the (unit) embedding is used as it is.
                _ => Some(v.clone()),
            },
        })
    }

    /// Resolves the phrases and ranks, over the files held.
    fn rank(&mut self, searcher: &Searcher) -> Result<Stage, SearchError> {
        let shards = &self.shards;
        if !searcher.position_shards(&self.plan).is_empty() {
            searcher.resolve_phrases(
                &mut self.plan,
                |i| terms(shards, i),
                |i| match find(shards, FileRef::Positions(i as u32)) {
                    Some(Shard::Positions(p)) => Some(p.as_ref()),
                    _ => None,
                },
            )?;
        }
        let vectors = match (&self.stored, self.vector_dir()) {
            (Some(Some(q)), Some(dir)) if self.wants_vectors(searcher) => Some(VectorQuery {
                dir,
                query: q.as_slice(),
                shard: |i: usize| match find(shards, FileRef::Vectors(i as u32)) {
                    Some(Shard::Vectors(v)) => Some(v.as_ref()),
                    _ => None,
                },
            }),
            _ => None,
        };
        let (hits, mode, facets) =
            searcher.rank_faceted(&self.plan, |i| terms(shards, i), vectors, &self.opts)?;
        let metas = searcher
            .meta_shards_for(&hits)
            .into_iter()
            .map(|i| FileRef::Meta(i as u32))
            .collect();
        Ok(Stage::Meta {
            hits,
            mode,
            facets,
            metas,
        })
    }

    fn missing_meta(&self, metas: &[FileRef]) -> Vec<FileRef> {
        self.missing(metas.to_vec())
    }
}

fn find(shards: &[(FileRef, Shard)], file: FileRef) -> Option<&Shard> {
    shards.iter().find(|(f, _)| *f == file).map(|(_, s)| s)
}

fn terms(shards: &[(FileRef, Shard)], i: usize) -> Option<&crate::TermShard> {
    match find(shards, FileRef::Terms(i as u32)) {
        Some(Shard::Terms(t)) => Some(t.as_ref()),
        _ => None,
    }
}
