//! The build-side index: a tantivy index in a cache directory that persists between builds.
//!
//! Each chunk is a tantivy document with the scored fields (`title`, `headings`, `body`, `code`) run
//! through the `core` analyzer, the `exact` keys as raw terms, and a stored JSON blob with everything the
//! exporter needs. Documents carry their page's fingerprint, so a rebuild re-parses and re-indexes only
//! pages whose fingerprint changed and deletes pages that disappeared.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use aidocs_core::{Analyzer, ApiMeta, Kind};
use serde::{Deserialize, Serialize};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, STORED, STRING,
};
use tantivy::tokenizer::{PreTokenizedString, TextAnalyzer, Token, TokenStream, Tokenizer};
use tantivy::{Index, IndexWriter, TantivyDocument, Term};

use crate::document::{Diagnostic, Page};
use crate::index_terms::{IndexTerms, NO_CHUNK};

/// Bumped whenever the schema or the stored blob changes: an old cache is then discarded.
const CACHE_LAYOUT: &str = "aidocs-cache-v5";
pub const TOKENIZER: &str = "aidocs";
/// Excerpt source kept per chunk, in characters.
pub const EXCERPT_CHARS: usize = 280;

/// The `core` analyzer as a tantivy tokenizer, so build and query tokenize with the same code.
#[derive(Clone, Default)]
pub struct AidocsTokenizer {
    analyzer: Analyzer,
    tokens: Vec<Token>,
}

pub struct AidocsTokenStream<'a> {
    tokens: &'a mut Vec<Token>,
    index: usize,
}

impl Tokenizer for AidocsTokenizer {
    type TokenStream<'a> = AidocsTokenStream<'a>;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> AidocsTokenStream<'a> {
        self.tokens.clear();
        let tokens = &mut self.tokens;
        self.analyzer
            .for_each_token(text, |t| tokens.push(tantivy_token(t)));
        AidocsTokenStream {
            tokens: &mut self.tokens,
            index: 0,
        }
    }
}

impl TokenStream for AidocsTokenStream<'_> {
    fn advance(&mut self) -> bool {
        self.index += 1;
        self.index <= self.tokens.len()
    }
    fn token(&self) -> &Token {
        &self.tokens[self.index - 1]
    }
    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.index - 1]
    }
}

/// The schema's fields.
#[derive(Clone, Copy)]
pub struct Fields {
    pub page_id: Field,
    pub fingerprint: Field,
    /// Warnings the page's parse produced, re-reported when the page is reused from the cache.
    pub warnings: Field,
    /// The files the page included, with their hashes ([`Page::includes`]).
    pub includes: Field,
    pub data: Field,
    /// title, headings, body, code, exact — in `aidocs_core::Field` order.
    pub text: [Field; aidocs_core::FIELD_COUNT],
}

pub fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let page_id = b.add_text_field("page_id", STRING | STORED);
    let fingerprint = b.add_text_field("fingerprint", STRING | STORED);
    let warnings = b.add_text_field("warnings", STORED);
    let includes = b.add_text_field("includes", STORED);
    let data = b.add_text_field("data", STORED);
    // Positions too: quoted phrases (format v7's position shards).
    let analyzed = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(TOKENIZER)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let raw = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("raw")
            .set_index_option(IndexRecordOption::WithFreqs)
            .set_fieldnorms(false),
    );
    let title = b.add_text_field("title", analyzed.clone());
    let headings = b.add_text_field("headings", analyzed.clone());
    let body = b.add_text_field("body", analyzed.clone());
    let code = b.add_text_field("code", analyzed);
    let exact = b.add_text_field("exact", raw);
    (
        b.build(),
        Fields {
            page_id,
            fingerprint,
            warnings,
            includes,
            data,
            text: [title, headings, body, code, exact],
        },
    )
}

/// Page-level data stored with every chunk.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StoredPage {
    pub id: String,
    pub url: String,
    pub title: String,
    pub kind: String,
    pub breadcrumb: Vec<String>,
    pub group: Option<String>,
    pub tags: Vec<String>,
    pub api: Option<ApiMeta>,
    pub language: Option<String>,
    pub version: Option<String>,
    /// [`Page::description`] (`llms.txt`).
    #[serde(default)]
    pub description: String,
}

/// The stored blob of one chunk.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StoredChunk {
    pub page: StoredPage,
    pub index: u32,
    pub chunk_count: u32,
    pub anchor: String,
    pub title: String,
    pub heading_path: Vec<String>,
    pub excerpt: String,
    /// The section's whole text as readers see it ([`crate::document::Chunk::text`]): the page's
    /// text file (format v9), what evidence quotes, and `llms-full.txt` (complete on a warm build,
    /// where unchanged pages are not parsed again).
    #[serde(default)]
    pub text: String,
    /// Token count per scored field (exact, unlike the 1-byte field norms).
    pub lens: [u64; aidocs_core::SCORED_FIELDS],
    /// blake3 of the text the embedding model reads ([`crate::embed::chunk_text`]): the vector cache key
    /// without the text. Empty in caches written before vectors existed.
    #[serde(default)]
    pub text_hash: String,
    /// The chunk's words as readers type them (folded, unstemmed, letters only) with their counts:
    /// the vocabulary typo tolerance corrects to ([`aidocs_core::typos`]). Empty in the chunks
    /// `read_contents` gives: it moves them into [`IndexContents::words`].
    #[serde(default)]
    pub words: Vec<(String, u32)>,
}

impl StoredChunk {
    pub fn kind(&self) -> Kind {
        Kind::parse(&self.page.kind).unwrap_or(Kind::Docs)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("cache directory {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("tantivy index in {path}: {source}")]
    Tantivy {
        path: PathBuf,
        source: tantivy::TantivyError,
    },
    #[error("cache entry is corrupt ({0}); delete the cache directory and rebuild")]
    Corrupt(String),
}

/// What the cache holds of a page: the fingerprint it was parsed from, the warnings of that parse
/// and the files it included.
#[derive(Debug, Clone, Default)]
pub struct CachedPage {
    pub fingerprint: String,
    pub warnings: Vec<Diagnostic>,
    pub includes: Vec<(String, String)>,
}

/// The persistent build index.
pub struct BuildIndex {
    pub index: Index,
    pub fields: Fields,
    dir: PathBuf,
}

fn excerpt(text: &str) -> String {
    let mut end = text.len();
    if let Some((i, _)) = text.char_indices().nth(EXCERPT_CHARS) {
        end = i;
    }
    text[..end].to_owned()
}

impl BuildIndex {
    /// Opens the cache, or creates it (wiping one of another layout).
    pub fn open(dir: &Path) -> Result<Self, IndexError> {
        let io = |source| IndexError::Io {
            path: dir.to_path_buf(),
            source,
        };
        let tv = |source| IndexError::Tantivy {
            path: dir.to_path_buf(),
            source,
        };
        let marker = dir.join("LAYOUT");
        let tdir = dir.join("tantivy");
        let fresh = std::fs::read_to_string(&marker)
            .map(|s| s.trim() != CACHE_LAYOUT)
            .unwrap_or(true);
        if fresh {
            if tdir.exists() {
                std::fs::remove_dir_all(&tdir).map_err(io)?;
            }
            std::fs::create_dir_all(&tdir).map_err(io)?;
        }
        let (schema, fields) = schema();
        let index = if fresh || !tdir.join("meta.json").exists() {
            Index::create_in_dir(&tdir, schema).map_err(tv)?
        } else {
            let index = Index::open_in_dir(&tdir).map_err(tv)?;
            if index.schema() != schema {
                drop(index);
                std::fs::remove_dir_all(&tdir).map_err(io)?;
                std::fs::create_dir_all(&tdir).map_err(io)?;
                Index::create_in_dir(&tdir, schema).map_err(tv)?
            } else {
                index
            }
        };
        std::fs::write(&marker, CACHE_LAYOUT).map_err(io)?;
        index
            .tokenizers()
            .register(TOKENIZER, TextAnalyzer::from(AidocsTokenizer::default()));
        Ok(BuildIndex {
            index,
            fields,
            dir: dir.to_path_buf(),
        })
    }

    fn tv(&self, source: tantivy::TantivyError) -> IndexError {
        IndexError::Tantivy {
            path: self.dir.clone(),
            source,
        }
    }

    /// Calls `f(segment ordinal, doc id, stored document)` for every live (not deleted) document.
    fn for_each_live_doc(
        &self,
        searcher: &tantivy::Searcher,
        mut f: impl FnMut(usize, u32, TantivyDocument) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        for (si, seg) in searcher.segment_readers().iter().enumerate() {
            let store = seg.get_store_reader(64).map_err(|e| self.tv(e.into()))?;
            for doc in 0..seg.max_doc() {
                if seg.alive_bitset().is_some_and(|a| !a.is_alive(doc)) {
                    continue;
                }
                f(si, doc, store.get(doc).map_err(|e| self.tv(e))?)?;
            }
        }
        Ok(())
    }

    /// Page id → what the cache holds of it.
    pub fn fingerprints(&self) -> Result<HashMap<String, CachedPage>, IndexError> {
        let mut out = HashMap::new();
        let reader = self.index.reader().map_err(|e| self.tv(e))?;
        let searcher = reader.searcher();
        self.for_each_live_doc(&searcher, |_, _, d| {
            let text = |f: Field| {
                d.get_first(f)
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_owned()
            };
            let entry = out
                .entry(text(self.fields.page_id))
                .or_insert_with(|| CachedPage {
                    fingerprint: text(self.fields.fingerprint),
                    warnings: Vec::new(),
                    includes: Vec::new(),
                });
            if let Some(w) = d.get_first(self.fields.warnings).and_then(|v| v.as_str()) {
                entry.warnings =
                    serde_json::from_str(w).map_err(|e| IndexError::Corrupt(e.to_string()))?;
            }
            if let Some(w) = d.get_first(self.fields.includes).and_then(|v| v.as_str()) {
                entry.includes =
                    serde_json::from_str(w).map_err(|e| IndexError::Corrupt(e.to_string()))?;
            }
            Ok(())
        })?;
        Ok(out)
    }

    pub fn writer(&self) -> Result<IndexWriter<TantivyDocument>, IndexError> {
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .clamp(1, 4);
        self.lock_writer(|| {
            self.index
                .writer_with_num_threads(threads, 64_000_000 * threads)
        })
    }

    /// Opens a writer, waiting a moment for a writer lock that is busy
    /// ([`crate::lock_wait`]: `purge_deleted` opens the second writer of a build right after the
    /// first is gone). A lock still busy after the wait is another writer's, and fails as before.
    fn lock_writer(
        &self,
        open: impl Fn() -> tantivy::Result<IndexWriter<TantivyDocument>>,
    ) -> Result<IndexWriter<TantivyDocument>, IndexError> {
        use tantivy::directory::error::LockError;
        crate::lock_wait::retry_while_busy(open, |e| {
            matches!(
                e,
                tantivy::TantivyError::LockFailure(LockError::LockBusy, _)
            )
        })
        .map_err(|e| self.tv(e))
    }

    /// Rewrites every segment that holds deleted documents, then removes the files no segment uses:
    /// a deleted document (a page that became private, a page's earlier text) leaves no byte in the
    /// cache. tantivy only marks deletions; its segments keep the stored text until merged.
    pub fn purge_deleted(&self) -> Result<(), IndexError> {
        let metas = self
            .index
            .searchable_segment_metas()
            .map_err(|e| self.tv(e))?;
        let with_deletes: Vec<_> = metas
            .iter()
            .filter(|m| m.has_deletes())
            .map(|m| m.id())
            .collect();
        let mut writer = self.lock_writer(|| self.index.writer_with_num_threads(1, 15_000_000))?;
        writer.set_merge_policy(Box::new(tantivy::indexer::NoMergePolicy));
        if !with_deletes.is_empty() {
            writer.merge(&with_deletes).wait().map_err(|e| self.tv(e))?;
        }
        writer
            .garbage_collect_files()
            .wait()
            .map_err(|e| self.tv(e))?;
        writer.wait_merging_threads().map_err(|e| self.tv(e))?;
        Ok(())
    }

    pub fn delete_page(&self, writer: &IndexWriter<TantivyDocument>, id: &str) {
        writer.delete_term(Term::from_field_text(self.fields.page_id, id));
    }

    /// Adds a parsed page (its chunks as documents).
    pub fn add_page(
        &self,
        writer: &IndexWriter<TantivyDocument>,
        page: &Page,
        fingerprint: &str,
        warnings: &[Diagnostic],
    ) -> Result<usize, IndexError> {
        // Each page in its language's analyzer: its tokens go to tantivy pre-tokenized, since a
        // field's registered tokenizer is one for every document.
        let analyzer = &Analyzer::for_language(page.language.as_deref());
        let stored_page = StoredPage {
            id: page.id.clone(),
            url: page.url.clone(),
            title: page.title.clone(),
            kind: page.kind.name().to_owned(),
            breadcrumb: page.breadcrumb.clone(),
            group: page.group.clone(),
            tags: page.tags.clone(),
            api: page.api.clone(),
            language: page.language.clone(),
            version: page.version.clone(),
            description: page.description.clone(),
        };
        let count = |t: &str| {
            let mut n = 0u64;
            analyzer.for_each_token(t, |_| n += 1);
            n
        };
        let chunk_count = page.chunks.len() as u32;
        for (i, c) in page.chunks.iter().enumerate() {
            let title = page.title.clone();
            let texts = [
                title.as_str(),
                c.headings.as_str(),
                c.body.as_str(),
                c.code.as_str(),
            ];
            let stored = StoredChunk {
                page: stored_page.clone(),
                index: i as u32,
                chunk_count,
                anchor: c.anchor.clone(),
                title: if c.title.is_empty() {
                    page.title.clone()
                } else {
                    c.title.clone()
                },
                heading_path: c.heading_path.clone(),
                excerpt: excerpt(if c.body.is_empty() { &c.code } else { &c.body }),
                text: c.text(),
                lens: [
                    count(texts[0]),
                    count(texts[1]),
                    count(texts[2]),
                    count(texts[3]),
                ],
                text_hash: crate::embed::text_hash(&crate::embed::chunk_text(&page.title, c)),
                words: typo_words(analyzer, &texts),
            };
            let mut doc = TantivyDocument::new();
            doc.add_text(self.fields.page_id, &page.id);
            doc.add_text(self.fields.fingerprint, fingerprint);
            doc.add_text(
                self.fields.data,
                serde_json::to_string(&stored).map_err(|e| IndexError::Corrupt(e.to_string()))?,
            );
            for (f, t) in texts.iter().enumerate() {
                if !t.is_empty() {
                    doc.add_pre_tokenized_text(self.fields.text[f], pre_tokenized(analyzer, t));
                }
            }
            if i == 0 {
                if !page.includes.is_empty() {
                    doc.add_text(
                        self.fields.includes,
                        serde_json::to_string(&page.includes)
                            .map_err(|e| IndexError::Corrupt(e.to_string()))?,
                    );
                }
                if !warnings.is_empty() {
                    doc.add_text(
                        self.fields.warnings,
                        serde_json::to_string(warnings)
                            .map_err(|e| IndexError::Corrupt(e.to_string()))?,
                    );
                }
                // The URL key: reading a page by its URL (`aidocs_core::search::url_key`).
                let url = aidocs_core::search::url_key(&page.url);
                // Each key filed under a term of its text, and, for a page in a language, bare as
                // well: what a reader of an index of several languages, or one lacking the
                // language's stemmer, looks up (`Searcher::exact_key_anchors`).
                let query_side = (*analyzer).for_query();
                let in_language = page.language.as_deref().is_some_and(|l| !l.is_empty());
                let keys = (page.exact_keys.iter())
                    .flat_map(|k| match k.get(..3).filter(|p| p.starts_with('~')) {
                        Some(prefix) => {
                            let bare = aidocs_core::search::exact_key(prefix, &k[3..]);
                            let filed = aidocs_core::search::anchored_exact_key(
                                prefix,
                                &k[3..],
                                &query_side,
                            );
                            let both = in_language && filed != bare;
                            [Some(filed), both.then_some(bare)]
                        }
                        None => [Some(k.clone()), None],
                    })
                    .flatten()
                    .chain(url);
                for k in keys {
                    doc.add_text(self.fields.text[aidocs_core::Field::Exact as usize], &k);
                }
            }
            writer.add_document(doc).map_err(|e| self.tv(e))?;
        }
        Ok(page.chunks.len())
    }
}

/// A `core` token in tantivy's form.
fn tantivy_token(t: aidocs_core::Token) -> Token {
    Token {
        offset_from: t.offset_from,
        offset_to: t.offset_to,
        position: t.position as usize,
        text: t.text,
        position_length: 1,
    }
}

/// `text` as `analyzer` tokenizes it, in tantivy's form.
fn pre_tokenized(analyzer: &Analyzer, text: &str) -> PreTokenizedString {
    let mut tokens = Vec::new();
    analyzer.for_each_token(text, |t| tokens.push(tantivy_token(t)));
    PreTokenizedString {
        text: text.to_owned(),
        tokens,
    }
}

/// The words of `texts` typo tolerance may correct to, with their counts, sorted.
fn typo_words(analyzer: &aidocs_core::Analyzer, texts: &[&str]) -> Vec<(String, u32)> {
    let mut words: BTreeMap<String, u32> = BTreeMap::new();
    for t in texts {
        analyzer.for_each_token(t, |tok| {
            if tok.kind == aidocs_core::TokenKind::Word {
                let w = aidocs_core::analyzer::fold(&t[tok.offset_from..tok.offset_to]);
                if aidocs_core::typos::is_typo_word(&w, aidocs_core::typos::TYPO_VOCAB_MIN_CHARS) {
                    *words.entry(w).or_default() += 1;
                }
            }
        });
    }
    words.into_iter().collect()
}

/// Everything the exporter reads out of the index: the chunks, held, and the terms, walked.
pub struct IndexContents {
    /// Chunks in export order: pages by id, chunks by index.
    pub chunks: Vec<StoredChunk>,
    /// Every term's postings and positions, read from the index one term at a time.
    pub terms: IndexTerms,
    /// The chunks' words (taken out of them: a `String` per word and chunk was 2 GB of a
    /// 100,000-page build), counted by page language.
    pub words: WordCounts,
}

/// The words typo tolerance corrects to ([`StoredChunk::words`]) with their counts over the site's
/// chunks, by page language (`""`: pages without one).
#[derive(Debug, Default)]
pub struct WordCounts {
    by_language: BTreeMap<String, HashMap<String, u64>>,
}

impl WordCounts {
    pub fn add(&mut self, language: Option<&str>, words: Vec<(String, u32)>) {
        let language = language.unwrap_or_default();
        let counts = match self.by_language.get_mut(language) {
            Some(c) => c,
            None => self.by_language.entry(language.to_owned()).or_default(),
        };
        for (w, n) in words {
            *counts.entry(w).or_default() += u64::from(n);
        }
    }

    /// The counts over the pages of one index: `Some(l)`, the pages in `l` or in no language (a
    /// language partition); `None`, every page.
    pub fn of_index(&self, language: Option<&str>) -> BTreeMap<&str, u64> {
        let mut out: BTreeMap<&str, u64> = BTreeMap::new();
        for (l, counts) in &self.by_language {
            if language.is_none_or(|want| l.is_empty() || l == want) {
                for (w, n) in counts {
                    *out.entry(w.as_str()).or_default() += n;
                }
            }
        }
        out
    }
}

impl BuildIndex {
    /// Reads live documents and assigns chunk ordinals; the terms are read when walked.
    pub fn read_contents(&self) -> Result<IndexContents, IndexError> {
        let reader = self
            .index
            .reader_builder()
            .reload_policy(tantivy::ReloadPolicy::Manual)
            .try_into()
            .map_err(|e| self.tv(e))?;
        let searcher = reader.searcher();
        // (segment, doc) → stored chunk.
        let mut docs: Vec<(usize, u32, StoredChunk)> = Vec::new();
        let mut words = WordCounts::default();
        self.for_each_live_doc(&searcher, |si, doc, d| {
            let blob = d
                .get_first(self.fields.data)
                .and_then(|v| v.as_str())
                .unwrap_or_default();
            let mut chunk: StoredChunk =
                serde_json::from_str(blob).map_err(|e| IndexError::Corrupt(e.to_string()))?;
            let language = chunk.page.language.as_deref().filter(|l| !l.is_empty());
            words.add(language, std::mem::take(&mut chunk.words));
            docs.push((si, doc, chunk));
            Ok(())
        })?;
        docs.sort_by(|a, b| {
            a.2.page
                .id
                .cmp(&b.2.page.id)
                .then(a.2.index.cmp(&b.2.index))
        });
        let mut ordinals: Vec<Vec<u32>> = (searcher.segment_readers().iter())
            .map(|seg| vec![NO_CHUNK; seg.max_doc() as usize])
            .collect();
        for (ord, (si, doc, _)) in docs.iter().enumerate() {
            ordinals[*si][*doc as usize] = ord as u32;
        }
        Ok(IndexContents {
            chunks: docs.into_iter().map(|(_, _, c)| c).collect(),
            terms: IndexTerms {
                searcher,
                fields: self.fields.text,
                ordinals,
                dir: self.dir.clone(),
            },
            words,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The writer lock of the previous writer released a moment late (as when a forked child still
    /// holds its descriptor): the next writer waits for it instead of failing the build with
    /// `LockBusy` (a flaky `issue_18_redteam` run on a loaded machine).
    #[test]
    fn a_writer_lock_released_late_is_waited_for() {
        let tmp = tempfile::tempdir().unwrap();
        let index = BuildIndex::open(tmp.path()).unwrap();
        let first = index.writer().unwrap();
        let released = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            drop(first);
        });
        let second = index.writer();
        released.join().unwrap();
        assert!(second.is_ok(), "{:?}", second.err());
        // A lock that stays held (another build's writer) still fails, after the wait.
        let held = second.unwrap();
        let t = std::time::Instant::now();
        let third = index.writer();
        assert!(matches!(third, Err(IndexError::Tantivy { .. })));
        assert!(t.elapsed() >= std::time::Duration::from_secs(2));
        drop(held);
    }
}
