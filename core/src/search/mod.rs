//! Searching an index: a [`QuerySession`] reads a query, names the files it needs round by round,
//! takes their bytes and yields ranked, assembled results.
//!
//! No I/O: a caller (the native CLI, the wasm module) fetches what the session names however it can
//! and hands the bytes back. Both sides run this exact code, so they rank identically; floating-point
//! work uses `libm` so that native and wasm round the same way.
//!
//! One concern per file, in the order a query meets them:
//! - [`session`](QuerySession): the rounds (corrections, ranking, metadata) and what each needs.
//! - `files`: [`FileRef`], every file a query can need, its name and its verified decoding.
//! - `tables`: a term's or a page's shard, inline or in directory pages (format v11).
//! - `options`: [`SearchOptions`], [`Mode`], [`Fusion`] and their defaults.
//! - `plan`: the query read into weighted terms, exact keys and term shards ([`QueryPlan`]).
//! - `prefix`: the last word typed as the start of longer words.
//! - `corrections`: typo tolerance.
//! - `phrases`: quoted phrases and their position shards.
//! - `bm25`: BM25F per term and chunk, boosts, lexical ranking ([`bm25f_term`] scores one term).
//! - `fusion`: the vector side and hybrid ranking.
//! - `page_evidence`: a page's score from all its sections, added to its chunks'.
//! - `aggregate`: chunks into pages ([`PageHit`]).
//! - `facets`: filters and facet counts.
//! - `explain`: why a chunk scored what it did.
//! - `assemble`: pages joined with their metadata ([`SearchResult`]).
//! - `evidence`: sections to read under a token budget, with citations ([`Evidence`]).

mod aggregate;
mod assemble;
mod bm25;
mod corrections;
mod evidence;
mod explain;
mod facets;
mod files;
mod fusion;
mod options;
mod page_evidence;
mod phrases;
mod plan;
mod prefix;
mod session;
mod tables;
#[cfg(test)]
mod test_index;

pub use aggregate::{ChunkHit, PageHit};
pub use assemble::{SearchResult, SectionResult};
pub use bm25::bm25f_term;
#[cfg(feature = "evidence")]
pub use evidence::evidence_markdown;
pub use evidence::{Evidence, EvidenceOptions, EvidencePiece, EVIDENCE_TOKENS, MAX_EVIDENCE_PAGES};
pub use explain::{Explanation, TermExplanation};
pub use facets::Facets;
pub use files::{FileRef, Shard};
pub use fusion::VectorQuery;
pub use options::{
    Fusion, Mode, PageParams, SearchOptions, DEFAULT_LEXICAL_WEIGHT_FULL,
    DEFAULT_LEXICAL_WEIGHT_STATIC, DEFAULT_NPROBE, DEFAULT_PAGE_B, DEFAULT_PAGE_K1,
    DEFAULT_PAGE_WEIGHT,
};
pub use phrases::Phrase;
pub use plan::{
    anchored_exact_key, exact_key, exact_key_anchor, is_exact_key, percent_decoded,
    separator_forms, site_relative, url_key, url_parts, ExactKey, QueryPlan, QueryTerm,
    EXACT_ANCHOR_SEPARATOR, EXACT_ENDPOINT_BOOST, EXACT_ENDPOINT_PREFIX, EXACT_OPERATION_PREFIX,
    EXACT_TITLE_BOOST, EXACT_TITLE_PREFIX, EXACT_URL_PREFIX, IDENTIFIER_BOOST, MAX_URL_PAGES,
};
pub use prefix::{
    PrefixTerm, PREFIX_DAMPING, PREFIX_MAX_EXPANSIONS, PREFIX_MAX_SHARDS, PREFIX_MIN_CHARS,
};
pub use session::{QueryOutcome, QuerySession, QueryVector};

use crate::analyzer::Analyzer;
use crate::format::Manifest;

/// Why a search could not complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchError {
    AnalyzerMismatch {
        found: u32,
        expected: u32,
    },
    MissingTermShard(String),
    MissingMetaShard(String),
    MetaMismatch(String),
    PositionsMismatch(String),
    MissingStemmer {
        language: String,
        stemmer: &'static str,
    },
    /// A fetched file that failed verification or decoding ([`Searcher::open_file`]).
    Shard {
        file: String,
        source: crate::ShardError,
    },
    /// A query vector that cannot be used (empty, not finite, the wrong width).
    BadQueryVector(String),
    /// Evidence asked of a reader built without the `evidence` feature (the lean wasm module).
    NoEvidence,
    /// Explanations asked of a reader built without the `explain` feature (the lean wasm module).
    NoExplain,
    /// [`QuerySession::finish`] before the session had everything it needs.
    NotReady,
}

impl crate::text::Message for SearchError {
    fn write_message(&self, out: &mut String) {
        use crate::text::Part;
        let parts: &[Part] = match self {
            SearchError::AnalyzerMismatch { found, expected } => &[
                "index built with analyzer version ".into(),
                (*found).into(),
                ", this reader has ".into(),
                (*expected).into(),
                ": rebuild the index".into(),
            ],
            SearchError::MissingTermShard(f) => &[
                "term shard ".into(),
                f.into(),
                " was needed but not provided".into(),
            ],
            SearchError::MissingMetaShard(f) => &[
                "metadata shard ".into(),
                f.into(),
                " was needed but not provided".into(),
            ],
            SearchError::MetaMismatch(f) => &[
                "metadata shard ".into(),
                f.into(),
                " does not match the manifest's page table".into(),
            ],
            SearchError::PositionsMismatch(f) => &[
                "position shard ".into(),
                f.into(),
                " does not match its term shard".into(),
            ],
            SearchError::MissingStemmer { language, stemmer } => &[
                language.into(),
                " pages need the ".into(),
                (*stemmer).into(),
                " stemmer: load aidocs_search_full_bg.wasm (openIndex's `language` option)".into(),
            ],
            SearchError::Shard { file, source } => {
                out.push_str(file);
                out.push_str(": ");
                return source.write_message(out);
            }
            SearchError::BadQueryVector(m) => &[m.into()],
            SearchError::NoEvidence => &[
                "evidence needs aidocs_search_full_bg.wasm (openIndex's `evidence` option)".into(),
            ],
            SearchError::NoExplain => &[
                "explain needs aidocs_search_full_bg.wasm (openIndex's `explain` option)".into(),
            ],
            SearchError::NotReady => &[
                "the query still needs files: advance the session until nothing is missing".into(),
            ],
        };
        crate::text::push_parts(out, parts);
    }
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::text::display(self, f)
    }
}

impl std::error::Error for SearchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SearchError::Shard { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A manifest prepared for querying.
#[derive(Debug, Clone)]
pub struct Searcher {
    /// Private: readers name files through [`FileRef`], never from the manifest's tables.
    manifest: Manifest,
    /// First chunk ordinal of each page (plus a final sentinel).
    page_first_chunk: Vec<u32>,
    /// The term and metadata shard tables, inline or paged (format v11).
    tables: tables::ShardTables,
}

impl Searcher {
    /// Prepares `manifest` for querying (its shard tables, inline or paged, are read through the
    /// searcher: [`Self::term_shard_count`], [`Self::whole_tables`]).
    pub fn new(manifest: Manifest) -> Result<Self, SearchError> {
        if Analyzer::for_index(manifest.analyzer_version, None).is_none() {
            return Err(SearchError::AnalyzerMismatch {
                found: manifest.analyzer_version,
                expected: crate::analyzer::ANALYZER_VERSION,
            });
        }
        let mut page_first_chunk = Vec::with_capacity(manifest.pages.len() + 1);
        let mut acc = 0u32;
        for p in &manifest.pages {
            page_first_chunk.push(acc);
            acc += p.chunk_count;
        }
        page_first_chunk.push(acc);
        Ok(Searcher {
            tables: tables::ShardTables::new(&manifest),
            manifest,
            page_first_chunk,
        })
    }

    /// The manifest, read-only: what an index holds (for `inspect` and summaries). A reader that
    /// computes file names from it is a bug: [`Searcher::file_name`] names every file.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The page a chunk belongs to.
    pub fn page_of(&self, chunk: u32) -> u32 {
        (self
            .page_first_chunk
            .partition_point(|&first| first <= chunk)
            - 1) as u32
    }

    /// [`Self::page_of`] for a chunk known to be in page `from` or a later one: a walk along the
    /// pages in order (what a query's chunks, sorted, visit) costs the log of the distance between
    /// two pages looked up, not of the site's page count (galloping, then a binary search).
    pub(super) fn page_of_from(&self, chunk: u32, from: u32) -> u32 {
        let firsts = &self.page_first_chunk;
        let from = from as usize;
        if firsts.get(from).is_none_or(|&first| first > chunk) {
            return self.page_of(chunk);
        }
        // Pages `from..` whose first chunk is at most `chunk`: the last of them is the page.
        let mut step = 1;
        let mut hi = from + 1;
        while hi < firsts.len() && firsts[hi] <= chunk {
            hi = from + 1 + step;
            step *= 2;
        }
        let hi = hi.min(firsts.len());
        (from + firsts[from..hi].partition_point(|&first| first <= chunk)).saturating_sub(1) as u32
    }
}

/// `items` sorted, without duplicates: what collecting into a `BTreeSet` gave, without the stable
/// sort its bulk build compiles in (issue 21: the query path's only stable sort, a few KB of every
/// reader's wasm).
pub(crate) fn sorted_unique<T: Ord>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut v: Vec<T> = items.into_iter().collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod page_of_tests {
    /// The walk along pages finds every chunk's page as the search from the start does, from any
    /// page at or before it (and, falling back, from one after it), with pages of no chunks.
    #[test]
    fn issue_21_page_of_from_agrees_with_page_of() {
        let (mut s, _) = super::test_index::index(&["a"], 1);
        let mut seed = 11u64;
        for round in 0..40 {
            let mut firsts = vec![0u32];
            for _ in 0..(round * 3 + 1) {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                // Some pages hold no chunk; most a few; some many.
                let len = [0, 1, 1, 2, 3, 7, 40][(seed >> 33) as usize % 7];
                firsts.push(firsts.last().unwrap() + len);
            }
            s.page_first_chunk = firsts.clone();
            let chunks = *firsts.last().unwrap();
            for c in 0..chunks {
                let want = s.page_of(c);
                for from in 0..firsts.len() as u32 + 2 {
                    assert_eq!(
                        s.page_of_from(c, from),
                        want,
                        "{firsts:?} chunk {c} from {from}"
                    );
                }
            }
        }
    }
}
