//! Native query side: reads an index directory with the same `core` code the wasm module runs.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use aidocs_core::{
    Manifest, MetaShard, PageHit, QueryPlan, SearchOptions, SearchResult, Searcher, ShardError,
    TermShard, MANIFEST_FILE,
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
    terms: RefCell<HashMap<usize, Rc<TermShard>>>,
    metas: RefCell<HashMap<usize, Rc<MetaShard>>>,
    /// Bytes of shard files read so far (for payload reports).
    pub bytes_read: RefCell<u64>,
}

impl LocalIndex {
    pub fn open(dir: &Path) -> Result<Self, QueryError> {
        let file = dir.join(MANIFEST_FILE);
        let bytes = std::fs::read(&file).map_err(|source| QueryError::Read {
            file: file.clone(),
            source,
        })?;
        let manifest = Manifest::decode(&bytes).map_err(|source| QueryError::Shard {
            file: file.clone(),
            source,
        })?;
        Ok(LocalIndex {
            dir: dir.to_path_buf(),
            searcher: Searcher::new(manifest)?,
            terms: RefCell::default(),
            metas: RefCell::default(),
            bytes_read: RefCell::new(bytes.len() as u64),
        })
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

    /// Size on disk of an index file, for payload reports.
    pub fn file_size(&self, name: &str) -> u64 {
        std::fs::metadata(self.dir.join(name))
            .map(|m| m.len())
            .unwrap_or(0)
    }

    /// Plans `text`, fetches the term shards it needs and ranks pages.
    fn rank(
        &self,
        text: &str,
        opts: &SearchOptions,
    ) -> Result<(QueryPlan, Vec<PageHit>), QueryError> {
        let plan = self.searcher.plan(text);
        let mut terms: HashMap<usize, Rc<TermShard>> = HashMap::new();
        for &i in &plan.shards {
            terms.insert(i, self.term_shard(i)?);
        }
        let hits = self
            .searcher
            .rank(&plan, |i| terms.get(&i).map(|r| r.as_ref()), opts)?;
        Ok((plan, hits))
    }

    /// Bytes and requests a cold client fetches for `text` with `k` results: manifest, the term shards
    /// the plan names, and the metadata shards of the results.
    pub fn cold_cost(&self, text: &str, opts: &SearchOptions) -> Result<(u64, usize), QueryError> {
        let (plan, hits) = self.rank(text, opts)?;
        let metas = self.searcher.meta_shards_for(&hits);
        let m = &self.searcher.manifest;
        let bytes = self.file_size(MANIFEST_FILE)
            + plan
                .shards
                .iter()
                .map(|&i| self.file_size(&m.term_shards[i].file))
                .sum::<u64>()
            + metas
                .iter()
                .map(|&i| self.file_size(&m.meta_shards[i].file))
                .sum::<u64>();
        Ok((bytes, 1 + plan.shards.len() + metas.len()))
    }

    /// Runs one query end to end: plan, fetch term shards, rank, fetch metadata, assemble.
    pub fn search(
        &self,
        text: &str,
        opts: &SearchOptions,
    ) -> Result<Vec<SearchResult>, QueryError> {
        let (_, hits) = self.rank(text, opts)?;
        let mut metas: HashMap<usize, Rc<MetaShard>> = HashMap::new();
        for i in self.searcher.meta_shards_for(&hits) {
            metas.insert(i, self.meta_shard(i)?);
        }
        Ok(self
            .searcher
            .assemble(hits, |i| metas.get(&i).map(|r| r.as_ref()))?)
    }
}

/// The stable JSON shape of one result (written by `aidocs_core::json`, the code the wasm module runs).
pub fn result_json(r: &SearchResult, explain: bool) -> Value {
    let mut s = String::new();
    aidocs_core::json::push_result(&mut s, r, explain);
    serde_json::from_str(&s).unwrap_or(Value::Null)
}
