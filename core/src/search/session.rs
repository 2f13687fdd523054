//! Here is an open index, a query and its options, give me the files it needs round by round, then
//! its results: [`QuerySession`], the one place that sequences a query (the rustls/quinn-proto
//! shape: the state machine owns the logic, the caller owns the I/O).
//!
//! Rounds, each asked for at once so that a reader fetches them in parallel:
//! 0. on an index whose shard tables are paged (format v11, a large site), the directory pages of
//!    the query's terms: the plan is made once they are here;
//! 1. typo tolerance (with `typos`): the term shards that say whether a word is indexed, with the
//!    files of round 2 for the plan as it stands (a query with nothing to correct then needs no
//!    round 2); only when a word is missing, the typo directory, then the typo shards of the words'
//!    deletion keys;
//! 2. ranking: the term shards of the (corrected) plan, the term and position shards of quoted
//!    phrases, and in vector and hybrid modes the vector directory with the static encoder's row
//!    shards of the query's terms, or the projection for a full-model query vector;
//! 3. the vector partitions the query vector probes (vector and hybrid modes), or the term shards
//!    when a vector query falls back to lexical ranking (no query term has a row);
//! 4. the metadata shards of the ranked pages (on a paged index, first the directory pages that
//!    name them);
//! 5. with `evidence` (issue 22), the section text files of the top pages, which their metadata
//!    names (format v9).
//!
//! A reader loops: [`QuerySession::advance`] with what it has cached, fetch and
//! [`Searcher::open_file`] what is still missing, [`QuerySession::provide`] it, until nothing is
//! missing; then [`QuerySession::finish`]. The session keeps the shards it was given, so a reader's
//! cache may evict them meanwhile.

use crate::typos::{Correction, TypoDirectory};
use crate::vectors::VectorDir;

use super::evidence::{Evidence, EVIDENCE_SECTIONS};
use super::files::{FileRef, Shard};
use super::{
    Facets, Mode, PageHit, QueryPlan, SearchError, SearchOptions, SearchResult, Searcher,
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
    /// The typo corrections applied, and [`Correction::dropped_quotes`] when the quoted phrases
    /// ranked as plain words.
    pub corrections: Vec<Correction>,
    /// With `facets`, the counts of the pages the ranking considered.
    pub facets: Option<Facets>,
    /// The plan the query ranked with (corrected, phrases resolved).
    pub plan: QueryPlan,
    /// The query vector in the stored space, when the query had one (vector and hybrid modes).
    pub vector: Option<Vec<f32>>,
    /// With `evidence`, the sections to read within its budget.
    pub evidence: Option<Evidence>,
}

#[derive(Debug)]
enum Stage {
    /// The plan was made without directory pages it needed (format v11): make it again once here.
    Plan,
    Correct,
    Rank,
    Meta {
        hits: Vec<PageHit>,
        mode: Mode,
        facets: Option<Facets>,
        /// The metadata shards of `hits`, once the directory pages naming them are here.
        metas: Option<Vec<FileRef>>,
        /// With `evidence`, once the metadata is here: the text files of the top pages.
        texts: Option<Vec<FileRef>>,
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
    /// index without vectors); one of no direction (all zeros) is no vector side, and the query
    /// ranks lexically, as a static vector of no known term does.
    pub fn new(
        searcher: &Searcher,
        text: &str,
        opts: SearchOptions,
        vector: QueryVector,
    ) -> Result<Self, SearchError> {
        // A lexical query has no vector side, whatever it was given.
        let vector = if opts.mode == Mode::Lexical {
            QueryVector::Static
        } else {
            vector
        };
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
                return Err(SearchError::BadQueryVector(crate::message![
                    "the query vector has ",
                    v.len(),
                    " values; this index's vectors (",
                    &r.model,
                    ") have ",
                    r.dims
                ]));
            }
        }
        let mut opts = opts;
        if opts.evidence.is_some() && !cfg!(feature = "evidence") {
            return Err(SearchError::NoEvidence);
        }
        if opts.explain && !cfg!(feature = "explain") {
            return Err(SearchError::NoExplain);
        }
        if let Some(e) = &opts.evidence {
            // Evidence reads the top pages and more of their sections than a result list shows.
            opts.k = opts.k.max(e.pages);
            opts.max_sections = opts.max_sections.max(EVIDENCE_SECTIONS);
        }
        // (Compiled out of readers without evidence, such as the lean wasm module.)
        let read = cfg!(feature = "evidence") && opts.evidence.as_ref().is_some_and(|e| e.read);
        if read {
            // Reading a page by URL: its URL key's term shard, then its metadata and text.
            opts.typos = false;
            opts.prefix = false;
            opts.mode = Mode::Lexical;
        }
        let (plan, missed) = Self::make_plan(searcher, text, &opts);
        Ok(QuerySession {
            text: text.to_owned(),
            opts,
            vector,
            plan,
            corrections: Vec::new(),
            stage: if missed.is_empty() {
                Stage::Correct
            } else {
                Stage::Plan
            },
            stored: None,
            shards: Vec::new(),
            pending: Vec::new(),
        })
    }

    /// The plan of `text` under `opts`, and the directory pages it was made without.
    fn make_plan(
        searcher: &Searcher,
        text: &str,
        opts: &SearchOptions,
    ) -> (QueryPlan, Vec<FileRef>) {
        searcher.missed();
        let plan = match opts
            .evidence
            .as_ref()
            .filter(|e| cfg!(feature = "evidence") && e.read)
        {
            Some(e) => searcher.plan_url(super::site_relative(text, e.site_url.as_deref())),
            None => searcher.plan_prefix(text, opts.prefix, opts.language.as_deref()),
        };
        (plan, searcher.missed())
    }

    /// Hands in a file the session asked for, decoded by [`Searcher::open_file`] (a shard of
    /// another kind than `file` names is ignored: the session asks for the file again).
    pub fn provide(&mut self, file: FileRef, shard: Shard) {
        if shard.is(file) && !self.has(file) {
            self.pending.retain(|&f| f != file);
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
                // A table's file is named by its directory page (format v11): that page first.
                if let Some(dir) = searcher.unheld_directory(f) {
                    if !missing.contains(&dir) {
                        missing.push(dir);
                    }
                    continue;
                }
                match cached(f).filter(|s| s.is(f)) {
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
        match file {
            // (Compiled out of readers without evidence, such as the lean wasm module.)
            FileRef::Text(page) if cfg!(feature = "evidence") => {
                let i = searcher.meta_shard_for(page)?;
                match find(&self.shards, FileRef::Meta(i as u32))? {
                    Shard::Meta(m) => searcher.text_file_name(page, m),
                    _ => None,
                }
            }
            _ => searcher.file_name(file, self.vector_dir(), self.typo_dir()),
        }
    }

    /// The text files this query waits for that are called `name`: pages of identical text share
    /// one file, so one fetched file may answer several of them.
    pub fn awaited_texts(&self, searcher: &Searcher, name: &str) -> Vec<FileRef> {
        (self.pending.iter().copied())
            .filter(|f| matches!(f, FileRef::Text(_)))
            .filter(|&f| self.file_name(searcher, f).as_deref() == Some(name))
            .collect()
    }

    /// What the file called `name` is to this query ([`Searcher::file_ref`], and the text files
    /// its metadata names): the inverse of [`Self::file_name`].
    pub fn file_ref(&self, searcher: &Searcher, name: &str) -> Option<FileRef> {
        if let Some(f) = searcher.file_ref(name, self.vector_dir(), self.typo_dir()) {
            return Some(f);
        }
        if !cfg!(feature = "evidence") {
            return None;
        }
        match &self.stage {
            Stage::Meta {
                texts: Some(texts), ..
            } => texts
                .iter()
                .copied()
                .find(|&f| self.file_name(searcher, f).as_deref() == Some(name)),
            _ => None,
        }
    }

    /// Whether the query is ranked and every file its results (and evidence) show is here.
    pub fn is_ready(&self) -> bool {
        match &self.stage {
            Stage::Meta {
                metas: Some(metas),
                texts,
                ..
            } => {
                self.missing_meta(metas).is_empty()
                    && (self.evidence().is_none()
                        || texts
                            .as_ref()
                            .is_some_and(|t| self.missing(t.clone()).is_empty()))
            }
            _ => false,
        }
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
        let meta = |i: usize| match find(shards, FileRef::Meta(i as u32)) {
            Some(Shard::Meta(m)) => Some(m.as_ref()),
            _ => None,
        };
        #[cfg(not(feature = "evidence"))]
        let evidence = None;
        #[cfg(feature = "evidence")]
        let mut hits = hits;
        #[cfg(feature = "evidence")]
        let evidence = match &self.opts.evidence {
            Some(e) if e.read => {
                let (page, evidence) = searcher.read(
                    &self.text,
                    &hits,
                    meta,
                    |page| match find(shards, FileRef::Text(page)) {
                        Some(Shard::Text(t)) => Some(t.as_ref()),
                        _ => None,
                    },
                    e,
                )?;
                // The result is the page read, none when no page has the URL.
                hits.retain(|h| Some(h.page) == page);
                Some(evidence)
            }
            Some(e) => Some(searcher.evidence(
                &hits,
                &self.plan,
                meta,
                |page| match find(shards, FileRef::Text(page)) {
                    Some(Shard::Text(t)) => Some(t.as_ref()),
                    _ => None,
                },
                e,
                mode,
                !self.corrections.is_empty(),
            )?),
            None => None,
        };
        let results = searcher.assemble(hits, meta)?;
        Ok(QueryOutcome {
            results,
            mode,
            corrections: self.corrections,
            facets,
            plan: self.plan,
            vector: self.stored.flatten(),
            evidence,
        })
    }

    /// The evidence asked for; `None` in a reader built without the feature, whose text-round code
    /// then compiles away (`new` refuses such a query).
    fn evidence(&self) -> Option<&super::EvidenceOptions> {
        if cfg!(feature = "evidence") {
            self.opts.evidence.as_ref()
        } else {
            None
        }
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
        self.take_directories(searcher)?;
        loop {
            match &self.stage {
                Stage::Plan => {
                    let (plan, missed) = Self::make_plan(searcher, &self.text, &self.opts);
                    if !missed.is_empty() {
                        return Ok(missed);
                    }
                    self.plan = plan;
                    self.stage = Stage::Correct;
                }
                Stage::Correct => {
                    if self.opts.typos {
                        match self.correct(searcher) {
                            Ok(c) => self.corrections = c,
                            Err(mut need) => {
                                // The first round of corrections reads the words' term shards; the
                                // ranking's files of the plan as it stands come in the same round.
                                // Most queries have nothing to correct, and their ranking then
                                // needs no round of its own (issue 21: one sequential round trip
                                // fewer); a corrected word's shard is read in a later round.
                                if need.iter().all(|f| matches!(f, FileRef::Terms(_))) {
                                    for f in self.missing(self.rank_wants(searcher)) {
                                        if !need.contains(&f) {
                                            need.push(f);
                                        }
                                    }
                                }
                                return Ok(need);
                            }
                        }
                        if !self.corrections.is_empty() {
                            // A corrected word may sit on a directory page not read yet.
                            searcher.missed();
                            let plan =
                                searcher.corrected_plan(self.plan.clone(), &self.corrections);
                            let missed = searcher.missed();
                            if !missed.is_empty() {
                                return Ok(missed);
                            }
                            self.plan = plan;
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
                Stage::Meta {
                    metas: None, hits, ..
                } => {
                    searcher.missed();
                    let wanted = (searcher.meta_shards_for(hits).into_iter())
                        .map(|i| FileRef::Meta(i as u32))
                        .collect();
                    let missed = searcher.missed();
                    if !missed.is_empty() {
                        return Ok(missed);
                    }
                    if let Stage::Meta { metas, .. } = &mut self.stage {
                        *metas = Some(wanted);
                    }
                }
                Stage::Meta {
                    metas: Some(metas),
                    texts,
                    hits,
                    ..
                } => {
                    let missing = self.missing_meta(metas);
                    let Some(pages) = self.evidence().map(|e| e.pages) else {
                        return Ok(missing);
                    };
                    if !missing.is_empty() {
                        return Ok(missing);
                    }
                    if let Some(texts) = texts {
                        return Ok(self.missing(texts.clone()));
                    }
                    // The metadata names each page's text file: the pages that have one.
                    let wanted: Vec<FileRef> = (hits.iter().take(pages))
                        .map(|h| FileRef::Text(h.page))
                        .filter(|&f| self.file_name(searcher, f).is_some())
                        .collect();
                    if let Stage::Meta { texts, .. } = &mut self.stage {
                        *texts = Some(wanted);
                    }
                }
            }
        }
    }

    /// [`Searcher::corrections`] over the files held: the corrections, or the files to fetch.
    fn correct(&self, searcher: &Searcher) -> Result<Vec<Correction>, Vec<FileRef>> {
        let shards = &self.shards;
        searcher.corrections(
            &self.text,
            &self.plan,
            |i| terms(shards, i),
            self.typo_dir(),
            |i| match find(shards, FileRef::Typos(i as u32)) {
                Some(Shard::Typos(t)) => Some(t.as_ref()),
                _ => None,
            },
        )
    }

    /// Whether the query ranks with vectors: vector or hybrid mode, on an index with vectors and an
    /// encoder for them (the static one, or a vector the caller gave).
    fn wants_vectors(&self, searcher: &Searcher) -> bool {
        self.opts.mode != Mode::Lexical
            && searcher.manifest.vectors.is_some()
            && (self.vector != QueryVector::Static || searcher.term_rows().is_some())
    }

    /// The files the ranking of the plan as it stands reads first: the plan's term shards (when
    /// the lexical side ranks or explains), its phrases' term and position shards, and on the vector
    /// side the directory with the query terms' row shards or the projection.
    fn rank_wants(&self, searcher: &Searcher) -> Vec<FileRef> {
        // Quoted phrases: their words' term and position shards.
        let mut want: Vec<FileRef> = Vec::new();
        for i in searcher.position_shards(&self.plan) {
            want.push(FileRef::Terms(i as u32));
            want.push(FileRef::Positions(i as u32));
        }
        let plan_terms = (self.plan.shards.iter()).map(|&i| FileRef::Terms(i as u32));
        if !self.wants_vectors(searcher) {
            want.extend(plan_terms);
            return want;
        }
        // Hybrid ranks both sides; an explanation names every query term's statistics.
        if self.opts.mode == Mode::Hybrid || self.opts.explains() {
            want.extend(plan_terms);
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
        want
    }

    /// The files ranking needs that the session lacks (one round: what is knowable now).
    fn rank_needs(&mut self, searcher: &Searcher) -> Result<Vec<FileRef>, SearchError> {
        let need = self.missing(self.rank_wants(searcher));
        if !self.wants_vectors(searcher) || !need.is_empty() {
            return Ok(need);
        }
        let plan_terms: Vec<FileRef> = (self.plan.shards.iter())
            .map(|&i| FileRef::Terms(i as u32))
            .collect();
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
            // A model vector of no direction (all zeros, or zero once projected) says nothing about
            // the query, as a static vector of no known term: no vector side, the query ranks
            // lexically.
            QueryVector::Model(v) => match find(shards, FileRef::Projection) {
                Some(Shard::Projection(p)) => {
                    if v.len() != p.in_dims as usize {
                        return Err(SearchError::BadQueryVector(crate::message![
                            "the query vector has ",
                            v.len(),
                            " values; this index's model embeds into ",
                            p.in_dims
                        ]));
                    }
                    p.apply(v)
                }
                // Stored at the model's width: the (unit) embedding is used as it is.
                _ => has_direction(v).then(|| v.clone()),
            },
        })
    }

    /// Resolves the phrases and ranks, over the files held. When no section of the index has the
    /// quoted phrases as they are (all of them), their words rank as plain words, and a
    /// [`Correction::dropped_quotes`] says so (a reader who gets nothing drops the quotes next; the
    /// files are the same). A phrase some section has keeps its quotes, even when filters leave no
    /// result.
    fn rank(&mut self, searcher: &Searcher) -> Result<Stage, SearchError> {
        let shards = &self.shards;
        if self.evidence().is_some_and(|e| e.read) {
            let hits = searcher.url_hits(&self.plan, |i| terms(shards, i))?;
            return Ok(Stage::Meta {
                hits,
                mode: Mode::Lexical,
                facets: None,
                metas: None,
                texts: None,
            });
        }
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
        let (mut hits, mut mode, mut facets) = self.rank_plan(searcher, &self.plan)?;
        if hits.is_empty() && !self.plan.phrases_occur() {
            let mut plain = self.plan.clone();
            for p in &mut plain.phrases {
                p.chunks = None;
            }
            let relaxed = self.rank_plan(searcher, &plain)?;
            if !relaxed.0.is_empty() {
                (hits, mode, facets) = relaxed;
                self.plan = plain;
                self.corrections.push(Correction::dropped_quotes());
            }
        }
        Ok(Stage::Meta {
            hits,
            mode,
            facets,
            metas: None,
            texts: None,
        })
    }

    /// Ranks `plan` (its phrases resolved) over the files held.
    fn rank_plan(
        &self,
        searcher: &Searcher,
        plan: &QueryPlan,
    ) -> Result<(Vec<PageHit>, Mode, Option<Facets>), SearchError> {
        let shards = &self.shards;
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
        searcher.rank_faceted(plan, |i| terms(shards, i), vectors, &self.opts)
    }

    /// Hands the directory pages the session holds to `searcher` (a reader's cache may give a page
    /// the searcher has not opened): a page that does not fit its slot is refused.
    fn take_directories(&self, searcher: &Searcher) -> Result<(), SearchError> {
        for (f, s) in &self.shards {
            if let Shard::Directory(page) = s {
                if searcher.unheld_directory_page(*f) && !searcher.take_directory(*f, page) {
                    return Err(SearchError::MetaMismatch(
                        searcher.directory_file(*f).unwrap_or_default(),
                    ));
                }
            }
        }
        Ok(())
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

/// Whether `v` points somewhere: a vector whose norm is zero (or too small to normalise) has no
/// direction to rank by.
fn has_direction(v: &[f32]) -> bool {
    // The test `Projection::apply` makes of a projected vector, so both paths agree.
    libm::sqrtf(crate::quantize::dot_f32(v, v)).is_normal()
}

#[cfg(test)]
mod tests;
