//! Native query side: reads an index directory with the same `core` code the wasm module runs.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use aidocs_core::partitions::{root_kind, LanguagePartition, PartitionTable};
use aidocs_core::positions::PositionShard;
use aidocs_core::search::{Facets, TypoNeed};
use aidocs_core::term_rows::TermRowShard;
use aidocs_core::typos::{Correction, TypoDirectory, TypoShard};
use aidocs_core::vectors::{Projection, VectorDir, VectorShard};
use aidocs_core::{
    Manifest, MetaShard, Mode, PageHit, QueryPlan, SearchOptions, SearchResult, Searcher,
    ShardError, ShardKind, TermShard, VectorQuery, MANIFEST_FILE,
};
use serde_json::Value;

#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    #[error("{file}: {source}")]
    Read {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{file}: {source} (code {})", .source.code())]
    Shard { file: PathBuf, source: ShardError },
    #[error(transparent)]
    Search(#[from] aidocs_core::SearchError),
}

/// An opened index directory with an in-memory cache of decoded shards.
pub struct LocalIndex {
    dir: PathBuf,
    pub searcher: Searcher,
    partition: Option<LanguagePartition>,
    terms: RefCell<HashMap<usize, Rc<TermShard>>>,
    metas: RefCell<HashMap<usize, Rc<MetaShard>>>,
    vector_dir: RefCell<Option<Rc<VectorDir>>>,
    vector_shards: RefCell<HashMap<usize, Rc<VectorShard>>>,
    row_shards: RefCell<HashMap<u32, Rc<TermRowShard>>>,
    projection: RefCell<Option<Rc<Projection>>>,
    typo_dir: RefCell<Option<Rc<TypoDirectory>>>,
    typo_shards: RefCell<HashMap<usize, Rc<TypoShard>>>,
    position_shards: RefCell<HashMap<usize, Rc<PositionShard>>>,
    /// Bytes of shard files read so far (for payload reports).
    pub bytes_read: RefCell<u64>,
}

impl LocalIndex {
    /// Opens the index in `dir` for a reader of no particular language: a multilingual site's
    /// default partition.
    pub fn open(dir: &Path) -> Result<Self, QueryError> {
        Self::open_language(dir, None)
    }

    /// Opens the index a reader in `language` searches: the index itself, or on a site written as
    /// one index per language (format v8) that language's partition ([`PartitionTable::choose`]).
    pub fn open_language(dir: &Path, language: Option<&str>) -> Result<Self, QueryError> {
        let read = |name: &str| {
            let file = dir.join(name);
            std::fs::read(&file)
                .map_err(|source| QueryError::Read {
                    file: file.clone(),
                    source,
                })
                .map(|bytes| (file, bytes))
        };
        let shard_err = |file: &Path| {
            let file = file.to_path_buf();
            move |source| QueryError::Shard { file, source }
        };
        let (root_file, root) = read(MANIFEST_FILE)?;
        let mut bytes_read = root.len() as u64;
        let (manifest, partition) = match root_kind(&root).map_err(shard_err(&root_file))? {
            ShardKind::Partitions => {
                let table = PartitionTable::decode(&root).map_err(shard_err(&root_file))?;
                let chosen = table.choose(language).clone();
                let (file, bytes) = read(&chosen.manifest)?;
                bytes_read += bytes.len() as u64;
                let manifest = Manifest::decode(&bytes).map_err(shard_err(&file))?;
                (manifest, Some(chosen))
            }
            _ => (
                Manifest::decode(&root).map_err(shard_err(&root_file))?,
                None,
            ),
        };
        Ok(LocalIndex {
            dir: dir.to_path_buf(),
            searcher: Searcher::new(manifest)?,
            partition,
            terms: RefCell::default(),
            metas: RefCell::default(),
            vector_dir: RefCell::default(),
            vector_shards: RefCell::default(),
            row_shards: RefCell::default(),
            projection: RefCell::default(),
            typo_dir: RefCell::default(),
            typo_shards: RefCell::default(),
            position_shards: RefCell::default(),
            bytes_read: RefCell::new(bytes_read),
        })
    }

    /// The language partition this index is (a multilingual site's), or `None` for a site's only index.
    pub fn partition(&self) -> Option<&LanguagePartition> {
        self.partition.as_ref()
    }

    fn read(&self, name: &str) -> Result<Vec<u8>, QueryError> {
        let file = self.dir.join(name);
        let b = std::fs::read(&file).map_err(|source| QueryError::Read { file, source })?;
        *self.bytes_read.borrow_mut() += b.len() as u64;
        Ok(b)
    }

    pub fn term_shard(&self, i: usize) -> Result<Rc<TermShard>, QueryError> {
        if let Some(s) = self.terms.borrow().get(&i) {
            return Ok(s.clone());
        }
        let name = &self.searcher.manifest.term_shards[i].file;
        let shard = TermShard::decode(&self.read(name)?, self.searcher.manifest.num_chunks)
            .map_err(|source| QueryError::Shard {
                file: self.dir.join(name),
                source,
            })?;
        let rc = Rc::new(shard);
        self.terms.borrow_mut().insert(i, rc.clone());
        Ok(rc)
    }

    /// The position shard of term shard `i` (an index of format v7).
    pub fn position_shard(&self, i: usize) -> Result<Rc<PositionShard>, QueryError> {
        if let Some(s) = self.position_shards.borrow().get(&i) {
            return Ok(s.clone());
        }
        let name = self.searcher.manifest.positions_file(i).unwrap_or_default();
        let shard = PositionShard::decode(&self.read(&name)?, self.searcher.manifest.num_chunks)
            .map_err(|source| QueryError::Shard {
                file: self.dir.join(&name),
                source,
            })?;
        let rc = Rc::new(shard);
        self.position_shards.borrow_mut().insert(i, rc.clone());
        Ok(rc)
    }

    pub fn meta_shard(&self, i: usize) -> Result<Rc<MetaShard>, QueryError> {
        if let Some(s) = self.metas.borrow().get(&i) {
            return Ok(s.clone());
        }
        let name = &self.searcher.manifest.meta_shards[i].file;
        let shard = MetaShard::decode(&self.read(name)?).map_err(|source| QueryError::Shard {
            file: self.dir.join(name),
            source,
        })?;
        let rc = Rc::new(shard);
        self.metas.borrow_mut().insert(i, rc.clone());
        Ok(rc)
    }

    /// The typo directory, when the index has one.
    pub fn typo_dir(&self) -> Result<Option<Rc<TypoDirectory>>, QueryError> {
        let Some(name) = &self.searcher.manifest.typos else {
            return Ok(None);
        };
        if let Some(d) = self.typo_dir.borrow().as_ref() {
            return Ok(Some(d.clone()));
        }
        let dir = TypoDirectory::decode(&self.read(name)?).map_err(|source| QueryError::Shard {
            file: self.dir.join(name),
            source,
        })?;
        let rc = Rc::new(dir);
        *self.typo_dir.borrow_mut() = Some(rc.clone());
        Ok(Some(rc))
    }

    pub fn typo_shard(&self, dir: &TypoDirectory, i: usize) -> Result<Rc<TypoShard>, QueryError> {
        if let Some(s) = self.typo_shards.borrow().get(&i) {
            return Ok(s.clone());
        }
        let name = dir.shard_file(i);
        let shard = TypoShard::decode(&self.read(&name)?).map_err(|source| QueryError::Shard {
            file: self.dir.join(&name),
            source,
        })?;
        let rc = Rc::new(shard);
        self.typo_shards.borrow_mut().insert(i, rc.clone());
        Ok(rc)
    }

    /// What typo tolerance corrects in `text` (see [`Searcher::corrections`]), reading the files it
    /// names as it names them; and the typo files (directory, shards) it needed.
    pub fn corrections(
        &self,
        text: &str,
        plan: &QueryPlan,
    ) -> Result<(Vec<Correction>, Vec<String>), QueryError> {
        let mut files = Vec::new();
        // Term shards, then the directory, then typo shards: three rounds at most.
        for _ in 0..4 {
            let dir = self.typo_dir.borrow().clone();
            let terms = self.terms.borrow();
            let shards = self.typo_shards.borrow();
            let step = self.searcher.corrections(
                text,
                plan,
                |i| terms.get(&i).map(|r| r.as_ref()),
                dir.as_deref(),
                |i| shards.get(&i).map(|r| r.as_ref()),
            );
            drop((terms, shards));
            match step {
                Ok(c) => return Ok((c, files)),
                Err(need) => {
                    for n in need {
                        match n {
                            TypoNeed::TermShard(i) => {
                                self.term_shard(i)?;
                            }
                            TypoNeed::Directory => {
                                self.typo_dir()?;
                                files.extend(self.searcher.manifest.typos.clone());
                            }
                            TypoNeed::Shard(i) => {
                                if let Some(d) = &dir {
                                    self.typo_shard(d, i)?;
                                    files.push(d.shard_file(i));
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok((Vec::new(), files))
    }

    /// The typo files a cold client reads for `text`: the directory and the typo shards of the words
    /// it corrects (none when every word is indexed).
    fn typo_files(&self, text: &str, plan: &QueryPlan) -> Result<Vec<String>, QueryError> {
        self.corrections(text, plan)?; // loads the term shards that say which words are indexed
        let Some(dir) = self.typo_dir.borrow().clone() else {
            return Ok(Vec::new());
        };
        let terms = self.terms.borrow();
        let ask = |d: Option<&TypoDirectory>| {
            self.searcher
                .corrections(
                    text,
                    plan,
                    |i| terms.get(&i).map(|r| r.as_ref()),
                    d,
                    |_| None,
                )
                .err()
                .unwrap_or_default()
        };
        if ask(None) != [TypoNeed::Directory] {
            return Ok(Vec::new());
        }
        let mut files: Vec<String> = self.searcher.manifest.typos.iter().cloned().collect();
        for n in ask(Some(&dir)) {
            if let TypoNeed::Shard(i) = n {
                files.push(dir.shard_file(i));
            }
        }
        Ok(files)
    }

    /// The plan of `text` under `opts` (prefix search, typo corrections) and the corrections made.
    pub fn plan(
        &self,
        text: &str,
        opts: &SearchOptions,
    ) -> Result<(QueryPlan, Vec<Correction>), QueryError> {
        let plan = self
            .searcher
            .plan_prefix(text, opts.prefix, opts.language.as_deref());
        let (mut plan, corrections) = if opts.typos {
            let (corrections, _) = self.corrections(text, &plan)?;
            (
                self.searcher.corrected_plan(plan, &corrections),
                corrections,
            )
        } else {
            (plan, Vec::new())
        };
        // Quoted phrases: where their words occur next to each other.
        let mut terms = HashMap::new();
        let mut positions = HashMap::new();
        for i in self.searcher.position_shards(&plan) {
            terms.insert(i, self.term_shard(i)?);
            positions.insert(i, self.position_shard(i)?);
        }
        if !terms.is_empty() {
            self.searcher.resolve_phrases(
                &mut plan,
                |i| terms.get(&i).map(|t: &Rc<TermShard>| t.as_ref()),
                |i| positions.get(&i).map(|p: &Rc<PositionShard>| p.as_ref()),
            )?;
        }
        Ok((plan, corrections))
    }

    /// The vector directory, when the index has vectors.
    pub fn vector_dir(&self) -> Result<Option<Rc<VectorDir>>, QueryError> {
        let Some(r) = &self.searcher.manifest.vectors else {
            return Ok(None);
        };
        if let Some(d) = self.vector_dir.borrow().as_ref() {
            return Ok(Some(d.clone()));
        }
        let dir = VectorDir::decode(&self.read(&r.file)?).map_err(|source| QueryError::Shard {
            file: self.dir.join(&r.file),
            source,
        })?;
        let rc = Rc::new(dir);
        *self.vector_dir.borrow_mut() = Some(rc.clone());
        Ok(Some(rc))
    }

    pub fn vector_shard(&self, dir: &VectorDir, i: usize) -> Result<Rc<VectorShard>, QueryError> {
        if let Some(s) = self.vector_shards.borrow().get(&i) {
            return Ok(s.clone());
        }
        let name = &dir.partitions[i].file;
        let shard = VectorShard::decode(&self.read(name)?).map_err(|source| QueryError::Shard {
            file: self.dir.join(name),
            source,
        })?;
        let rc = Rc::new(shard);
        self.vector_shards.borrow_mut().insert(i, rc.clone());
        Ok(rc)
    }

    /// The projection from the model's space to the stored vectors, when the index has one.
    pub fn projection(&self) -> Result<Option<Rc<Projection>>, QueryError> {
        let Some(name) = self
            .searcher
            .manifest
            .vectors
            .as_ref()
            .and_then(|v| v.projection.clone())
        else {
            return Ok(None);
        };
        if let Some(p) = self.projection.borrow().as_ref() {
            return Ok(Some(p.clone()));
        }
        let p = Projection::decode(&self.read(&name)?).map_err(|source| QueryError::Shard {
            file: self.dir.join(&name),
            source,
        })?;
        let rc = Rc::new(p);
        *self.projection.borrow_mut() = Some(rc.clone());
        Ok(Some(rc))
    }

    /// A full-model query embedding in the stored vectors' space (projected when the index is).
    pub fn to_stored_space(&self, v: Vec<f32>) -> Result<Option<Vec<f32>>, QueryError> {
        Ok(match self.projection()? {
            Some(p) => p.apply(&v),
            None => Some(v),
        })
    }

    /// Row shard `i` of the static query encoder (the index must have term rows).
    pub fn row_shard(&self, i: u32) -> Result<Rc<TermRowShard>, QueryError> {
        if let Some(s) = self.row_shards.borrow().get(&i) {
            return Ok(s.clone());
        }
        let Some(rows) = self.searcher.term_rows() else {
            return Err(QueryError::Search(
                aidocs_core::SearchError::MissingTermShard(format!(
                    "term row shard {i} (this index has no static encoder)"
                )),
            ));
        };
        let name = rows.file(i);
        let shard =
            TermRowShard::decode(&self.read(&name)?).map_err(|source| QueryError::Shard {
                file: self.dir.join(&name),
                source,
            })?;
        let rc = Rc::new(shard);
        self.row_shards.borrow_mut().insert(i, rc.clone());
        Ok(rc)
    }

    /// `text` encoded by the index's static query encoder (the browser's encoder): `None` when the
    /// index has none or no query term has a row. With `opts.typos`, corrected words are encoded too.
    pub fn static_vector(
        &self,
        text: &str,
        opts: &SearchOptions,
    ) -> Result<Option<Vec<f32>>, QueryError> {
        let (plan, _) = self.plan(text, opts)?;
        let mut shards = HashMap::new();
        for i in self.searcher.term_row_shards(&plan) {
            shards.insert(i, self.row_shard(i)?);
        }
        Ok(self
            .searcher
            .static_query_vector(&plan, |i| shards.get(&i).map(|r| r.as_ref())))
    }

    /// Size on disk of an index file, for payload reports.
    pub fn file_size(&self, name: &str) -> u64 {
        std::fs::metadata(self.dir.join(name))
            .map(|m| m.len())
            .unwrap_or(0)
    }

    /// Plans `text`, fetches the shards it needs and ranks pages with `opts.mode`, given the query's vector (from an encoder that maps into
    /// the index's vector space). Returns the mode actually used.
    pub fn rank_with(
        &self,
        text: &str,
        query_vec: Option<&[f32]>,
        opts: &SearchOptions,
    ) -> Result<(QueryPlan, Vec<PageHit>, Mode, Option<Facets>), QueryError> {
        let (plan, _) = self.plan(text, opts)?;
        let mut terms: HashMap<usize, Rc<TermShard>> = HashMap::new();
        if opts.mode != Mode::Vector || query_vec.is_none() {
            for &i in &plan.shards {
                terms.insert(i, self.term_shard(i)?);
            }
        }
        let dir = match (opts.mode, query_vec) {
            (Mode::Lexical, _) | (_, None) => None,
            _ => self.vector_dir()?,
        };
        let mut vshards: HashMap<usize, Rc<VectorShard>> = HashMap::new();
        let vq = match (&dir, query_vec) {
            (Some(d), Some(q)) => {
                for i in self.searcher.vector_partitions(d, q, opts) {
                    vshards.insert(i, self.vector_shard(d, i)?);
                }
                Some(VectorQuery {
                    dir: d.as_ref(),
                    query: q,
                    shard: |i: usize| vshards.get(&i).map(|r| r.as_ref()),
                })
            }
            _ => None,
        };
        if vq.is_none() && opts.mode == Mode::Vector {
            // Degrade to lexical: fetch the term shards skipped above.
            for &i in &plan.shards {
                terms.insert(i, self.term_shard(i)?);
            }
        }
        let (hits, used, facets) =
            self.searcher
                .rank_faceted(&plan, |i| terms.get(&i).map(|r| r.as_ref()), vq, opts)?;
        Ok((plan, hits, used, facets))
    }

    /// Bytes and requests a cold browser client fetches for `text` with `k` results: the manifest, the
    /// term shards the plan names, and the metadata shards of the results; in vector and hybrid modes
    /// (given the query vector) also the vector directory, the probed partitions and the static
    /// encoder's row shards of the query terms (vector mode skips the term shards).
    pub fn cold_cost(
        &self,
        text: &str,
        query_vec: Option<&[f32]>,
        opts: &SearchOptions,
    ) -> Result<(u64, usize), QueryError> {
        let (plan, hits, used, _) = self.rank_with(text, query_vec, opts)?;
        let m = &self.searcher.manifest;
        let mut files: Vec<String> = vec![MANIFEST_FILE.to_owned()];
        if opts.typos {
            files.extend(
                self.typo_files(
                    text,
                    &self
                        .searcher
                        .plan_prefix(text, opts.prefix, opts.language.as_deref()),
                )?,
            );
        }
        if used != Mode::Vector {
            files.extend(plan.shards.iter().map(|&i| m.term_shards[i].file.clone()));
        }
        for i in self.searcher.position_shards(&plan) {
            files.extend(m.positions_file(i));
        }
        if let (true, Some(q), Some(dir)) = (used != Mode::Lexical, query_vec, self.vector_dir()?) {
            files.push(
                m.vectors
                    .as_ref()
                    .map(|v| v.file.clone())
                    .unwrap_or_default(),
            );
            files.extend(
                self.searcher
                    .vector_partitions(&dir, q, opts)
                    .into_iter()
                    .map(|i| dir.partitions[i].file.clone()),
            );
            if let Some(rows) = self.searcher.term_rows() {
                files.extend(
                    self.searcher
                        .term_row_shards(&plan)
                        .into_iter()
                        .map(|i| rows.file(i)),
                );
            }
        }
        files.extend(
            self.searcher
                .meta_shards_for(&hits)
                .into_iter()
                .map(|i| m.meta_shards[i].file.clone()),
        );
        Ok((files.iter().map(|f| self.file_size(f)).sum(), files.len()))
    }

    /// Runs one query end to end: plan, fetch term shards, rank, fetch metadata, assemble.
    pub fn search(
        &self,
        text: &str,
        opts: &SearchOptions,
    ) -> Result<Vec<SearchResult>, QueryError> {
        self.search_with(text, None, opts).map(|(r, _)| r)
    }

    /// [`Self::search`] with `opts.mode` and the query's vector; returns the mode actually used.
    pub fn search_with(
        &self,
        text: &str,
        query_vec: Option<&[f32]>,
        opts: &SearchOptions,
    ) -> Result<(Vec<SearchResult>, Mode), QueryError> {
        self.search_faceted(text, query_vec, opts)
            .map(|(results, used, _)| (results, used))
    }

    /// [`Self::search_with`], and with `opts.facets` the query's facet counts.
    pub fn search_faceted(
        &self,
        text: &str,
        query_vec: Option<&[f32]>,
        opts: &SearchOptions,
    ) -> Result<(Vec<SearchResult>, Mode, Option<Facets>), QueryError> {
        let (_, hits, used, facets) = self.rank_with(text, query_vec, opts)?;
        let mut metas: HashMap<usize, Rc<MetaShard>> = HashMap::new();
        for i in self.searcher.meta_shards_for(&hits) {
            metas.insert(i, self.meta_shard(i)?);
        }
        Ok((
            self.searcher
                .assemble(hits, |i| metas.get(&i).map(|r| r.as_ref()))?,
            used,
            facets,
        ))
    }
}

/// The stable JSON shape of one result (written by `aidocs_core::json`, the code the wasm module runs).
pub fn result_json(r: &SearchResult, explain: bool) -> Value {
    let mut s = String::new();
    aidocs_core::json::push_result(&mut s, r, explain);
    serde_json::from_str(&s).unwrap_or(Value::Null)
}
