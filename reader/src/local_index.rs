//! Native query side: reads an index directory with the same `core` code the wasm module runs.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use aidocs_core::partitions::{root_kind, LanguagePartition, PartitionTable};
use aidocs_core::search::Facets;
use aidocs_core::typos::Correction;
use aidocs_core::vectors::{Projection, VectorDir, VectorShard};
use aidocs_core::{
    FileRef, Manifest, MetaShard, Mode, QueryOutcome, QueryPlan, QuerySession, QueryVector,
    SearchError, SearchOptions, SearchResult, Searcher, Shard, ShardError, ShardKind, TermShard,
    MANIFEST_FILE,
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
    /// A file the index does not have (a term shard past the manifest's, a vector partition of a
    /// directory without it).
    #[error("{0:?} is not a file of this index")]
    NoSuchFile(FileRef),
}

/// An opened index directory with an in-memory cache of decoded shards.
///
/// A query is a [`QuerySession`] (core decides which files, in which rounds); this type only reads
/// the files it names from disk ([`Self::query`] is the whole fetch loop).
pub struct LocalIndex {
    dir: PathBuf,
    pub searcher: Searcher,
    partition: Option<LanguagePartition>,
    cache: RefCell<HashMap<FileRef, Shard>>,
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
            cache: RefCell::default(),
            bytes_read: RefCell::new(bytes_read),
        })
    }

    /// The language partition this index is (a multilingual site's), or `None` for a site's only index.
    pub fn partition(&self) -> Option<&LanguagePartition> {
        self.partition.as_ref()
    }

    /// Runs `text` under `opts`, with the query vector from `vector` in vector and hybrid modes:
    /// the native reader's fetch loop over core's [`QuerySession`].
    pub fn query(
        &self,
        text: &str,
        vector: QueryVector,
        opts: &SearchOptions,
    ) -> Result<QueryOutcome, QueryError> {
        self.run(text, vector, opts, false)
            .map(|(outcome, _)| outcome)
    }

    /// [`Self::query`], and the names of the files it needed, in the order a cold client (nothing
    /// cached) fetches them, round by round. A cold run reads every file afresh, on a searcher of its
    /// own: the directory pages this index's searcher holds (format v11) are fetched again too.
    fn run(
        &self,
        text: &str,
        vector: QueryVector,
        opts: &SearchOptions,
        cold: bool,
    ) -> Result<(QueryOutcome, Vec<String>), QueryError> {
        let fresh;
        let searcher = if cold {
            fresh = Searcher::new(self.searcher.manifest().clone())?;
            &fresh
        } else {
            &self.searcher
        };
        let mut session = QuerySession::new(searcher, text, opts.clone(), vector)?;
        let mut fetched = Vec::new();
        loop {
            let cache = self.cache.borrow();
            let missing = session.advance(searcher, |f| {
                (!cold).then(|| cache.get(&f).cloned()).flatten()
            })?;
            drop(cache);
            if missing.is_empty() {
                break;
            }
            for f in missing {
                let name = session
                    .file_name(searcher, f)
                    .ok_or(QueryError::NoSuchFile(f))?;
                let shard = match cold {
                    true => self.read_open(searcher, f, &name)?,
                    false => self.load(f, &name)?,
                };
                session.provide(f, shard);
                fetched.push(name);
            }
        }
        Ok((session.finish(searcher)?, fetched))
    }

    /// Index file `f` (called `name`), from the cache or read, verified and decoded.
    fn load(&self, f: FileRef, name: &str) -> Result<Shard, QueryError> {
        if let Some(s) = self.cache.borrow().get(&f) {
            return Ok(s.clone());
        }
        let shard = self.read_open(&self.searcher, f, name)?;
        *self.bytes_read.borrow_mut() += self.file_size(name);
        self.cache.borrow_mut().insert(f, shard.clone());
        Ok(shard)
    }

    /// Index file `f` (called `name`) read from disk, verified and decoded by `searcher` (a cold
    /// run's reads are not counted in `bytes_read`: its files are reported by name).
    fn read_open(&self, searcher: &Searcher, f: FileRef, name: &str) -> Result<Shard, QueryError> {
        let file = self.dir.join(name);
        let bytes = std::fs::read(&file).map_err(|source| QueryError::Read {
            file: file.clone(),
            source,
        })?;
        let (shard, _) = searcher
            .open_file(f, name, &bytes, None)
            .map_err(|e| match e {
                SearchError::Shard { source, .. } => QueryError::Shard { file, source },
                e => QueryError::Search(e),
            })?;
        Ok(shard)
    }

    /// Index file `f` as what `pick` takes from it; `vector_dir` names vector partitions.
    fn load_as<T>(
        &self,
        f: FileRef,
        vector_dir: Option<&VectorDir>,
        pick: impl FnOnce(Shard) -> Option<T>,
    ) -> Result<T, QueryError> {
        // A table's file is named by its directory page (format v11): that page first.
        if let Some(page) = self.searcher.unheld_directory(f) {
            let name =
                (self.searcher.file_name(page, None, None)).ok_or(QueryError::NoSuchFile(f))?;
            self.load(page, &name)?;
        }
        let name =
            (self.searcher.file_name(f, vector_dir, None)).ok_or(QueryError::NoSuchFile(f))?;
        // `open_file` decodes a file as the kind its `FileRef` names, so `pick` always matches.
        pick(self.load(f, &name)?).ok_or(QueryError::NoSuchFile(f))
    }

    pub fn term_shard(&self, i: usize) -> Result<Rc<TermShard>, QueryError> {
        self.load_as(FileRef::Terms(i as u32), None, |s| match s {
            Shard::Terms(t) => Some(t),
            _ => None,
        })
    }

    pub fn meta_shard(&self, i: usize) -> Result<Rc<MetaShard>, QueryError> {
        self.load_as(FileRef::Meta(i as u32), None, |s| match s {
            Shard::Meta(m) => Some(m),
            _ => None,
        })
    }

    /// The vector directory, when the index has vectors.
    pub fn vector_dir(&self) -> Result<Option<Rc<VectorDir>>, QueryError> {
        if self.searcher.manifest().vectors.is_none() {
            return Ok(None);
        }
        self.load_as(FileRef::VectorDir, None, |s| match s {
            Shard::VectorDir(d) => Some(Some(d)),
            _ => None,
        })
    }

    pub fn vector_shard(&self, dir: &VectorDir, i: usize) -> Result<Rc<VectorShard>, QueryError> {
        self.load_as(FileRef::Vectors(i as u32), Some(dir), |s| match s {
            Shard::Vectors(v) => Some(v),
            _ => None,
        })
    }

    /// The projection from the model's space to the stored vectors, when the index has one.
    pub fn projection(&self) -> Result<Option<Rc<Projection>>, QueryError> {
        if self
            .searcher
            .file_name(FileRef::Projection, None, None)
            .is_none()
        {
            return Ok(None);
        }
        self.load_as(FileRef::Projection, None, |s| match s {
            Shard::Projection(p) => Some(Some(p)),
            _ => None,
        })
    }

    /// `text`'s vector in the stored space, as a vector-mode session computes it from `vector` (the
    /// index's static encoder, or the full model's embedding, projected): `None` when the index has
    /// no vectors or the vector has no direction (no query term has a row, an all-zero embedding).
    /// With `opts.typos`, corrected words are encoded too.
    pub fn stored_vector(
        &self,
        text: &str,
        vector: QueryVector,
        opts: &SearchOptions,
    ) -> Result<Option<Vec<f32>>, QueryError> {
        if self.searcher.manifest().vectors.is_none() {
            return Ok(None);
        }
        let opts = SearchOptions {
            mode: Mode::Vector,
            ..opts.clone()
        };
        Ok(self.query(text, vector, &opts)?.vector)
    }

    /// `text` encoded by the index's static query encoder (the browser's encoder): `None` when the
    /// index has none or no query term has a row ([`Self::stored_vector`]).
    pub fn static_vector(
        &self,
        text: &str,
        opts: &SearchOptions,
    ) -> Result<Option<Vec<f32>>, QueryError> {
        if self.searcher.term_rows().is_none() {
            return Ok(None);
        }
        self.stored_vector(text, QueryVector::Static, opts)
    }

    /// The plan of `text` under `opts` (prefix search, typo corrections, phrases resolved) and the
    /// corrections made. Runs the query lexically.
    pub fn plan(
        &self,
        text: &str,
        opts: &SearchOptions,
    ) -> Result<(QueryPlan, Vec<Correction>), QueryError> {
        let opts = SearchOptions {
            mode: Mode::Lexical,
            ..opts.clone()
        };
        let outcome = self.query(text, QueryVector::Static, &opts)?;
        Ok((outcome.plan, outcome.corrections))
    }

    /// Size on disk of an index file, for payload reports.
    pub fn file_size(&self, name: &str) -> u64 {
        std::fs::metadata(self.dir.join(name))
            .map(|m| m.len())
            .unwrap_or(0)
    }

    /// Bytes and requests a cold browser client fetches for `text`: `manifest.bin`, on a multilingual
    /// site the language partition's manifest it names (issue 25: the figure left it out), and every
    /// file the query's session names (typo files, term and position shards, the vector side,
    /// metadata).
    pub fn cold_cost(
        &self,
        text: &str,
        vector: QueryVector,
        opts: &SearchOptions,
    ) -> Result<(u64, usize), QueryError> {
        let (_, mut files) = self.run(text, vector, opts, true)?;
        files.push(MANIFEST_FILE.to_owned());
        files.extend(self.partition.as_ref().map(|p| p.manifest.clone()));
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

    /// [`Self::search`] with `opts.mode` and the query's vector in the stored space (`None`: the
    /// index's static encoder); returns the mode actually used.
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
        let vector = query_vec.map_or(QueryVector::Static, |v| QueryVector::Stored(v.to_vec()));
        let o = self.query(text, vector, opts)?;
        Ok((o.results, o.mode, o.facets))
    }
}

/// The stable JSON shape of one result (written by `aidocs_core::json`, the code the wasm module runs).
pub fn result_json(r: &SearchResult, explain: bool) -> Value {
    let mut s = String::new();
    aidocs_core::json::push_result(&mut s, r, explain);
    serde_json::from_str(&s).unwrap_or(Value::Null)
}
