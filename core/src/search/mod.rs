//! Query planning, BM25F scoring, boosts, chunk→page aggregation and result assembly.
//!
//! No I/O: a caller (the native CLI, the wasm module) drives a [`QuerySession`], which names the files
//! a query needs round by round; the caller fetches them however it can and hands them back. Both sides run this exact code, so
//! they rank identically; floating-point work uses `libm` so that native and wasm round the same way.

use std::collections::{BTreeMap, BTreeSet, HashMap};

mod files;
mod session;

pub use files::{FileRef, Shard};
pub use session::{QueryOutcome, QuerySession, QueryVector};

use crate::analyzer::{normalize_exact, Analyzer, TokenKind};
use crate::fieldnorm::id_to_fieldnorm;
use crate::format::{Field, Kind, Manifest, MetaShard, PageMeta, TermShard, SCORED_FIELDS};

/// Weight multiplier of a query term that is a whole identifier (`x-request-id`, `getuserbyid`), so that
/// the exact identifier outranks pages that only contain its parts.
pub const IDENTIFIER_BOOST: f32 = 1.5;
/// Score multiplier (1 + boost) for a page whose whole title equals the query.
pub const EXACT_TITLE_BOOST: f32 = 1.0;
/// Score multiplier (1 + boost) for an API page whose `METHOD /path` or operationId equals the query.
pub const EXACT_ENDPOINT_BOOST: f32 = 2.0;

/// Prefixes of the exact-match keys stored in the `exact` field.
pub const EXACT_TITLE_PREFIX: &str = "~t:";
pub const EXACT_ENDPOINT_PREFIX: &str = "~e:";
pub const EXACT_OPERATION_PREFIX: &str = "~o:";

/// The exact-match term for `text` under `prefix`: a hash of the normalized text, so that long titles
/// cost a few bytes in the term shards and filters.
pub fn exact_key(prefix: &str, text: &str) -> String {
    format!(
        "{prefix}{:016x}",
        crate::filter::term_hash(&normalize_exact(text))
    )
}

/// Options of one search.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub k: usize,
    /// Only pages of these kinds (empty = all).
    pub kinds: Vec<Kind>,
    /// Only pages carrying every one of these tags.
    pub tags: Vec<String>,
    /// Only pages carrying at least one of these tags (none: no condition).
    pub tags_any: Vec<String>,
    /// Only pages carrying none of these tags.
    pub tags_none: Vec<String>,
    /// Only pages in this navigation group (matched against the group's full path or its last part).
    pub group: Option<String>,
    pub min_score: f32,
    /// Sections returned per page.
    pub max_sections: usize,
    pub explain: bool,
    /// Overrides the manifest's BM25 parameters (used by tuning and the tantivy parity test).
    pub params: Option<crate::format::Bm25Params>,
    /// Lexical, vector or hybrid ranking (vector and hybrid need a query vector and the index's vectors;
    /// without them ranking falls back to lexical).
    pub mode: Mode,
    pub fusion: Fusion,
    /// Vector partitions probed per query (0 = all, which is exact search).
    pub nprobe: usize,
    /// Top chunks of each side that hybrid fusion considers.
    pub candidates: usize,
    /// Read the query's last word, when no space follows it, also as the start of longer words (what
    /// a search box does while the reader types; see [`Searcher::plan_prefix`]).
    pub prefix: bool,
    /// Correct query words the index lacks to the indexed words they most likely meant
    /// ([`Searcher::corrections`]); callers fetch the typo files it names and rank the corrected plan.
    pub typos: bool,
    /// The reader's language (`fr`, `zh-CN`): only pages in it (and pages without a language) are
    /// returned. Ignored when the index has no page in that language, so a reader whose language the
    /// site lacks still gets results.
    pub language: Option<String>,
    /// The docs version (`v2`): only pages in it (and pages in no version). Ignored when the index
    /// has no page in it.
    pub version: Option<String>,
    /// Count the matching pages by kind, tag, group, language and version ([`Facets`], from
    /// [`Searcher::rank_faceted`]).
    pub facets: bool,
    /// Values kept per facet, the commonest first (0 = all).
    pub facet_limit: usize,
}

/// How many of a query's matching pages have each value of each facet (issue 6), for a search box
/// to offer as filters. A facet's counts apply every filter but its own, so a reader who picked
/// `api` still sees how many `docs` pages match. Counted over the pages the ranking considered:
/// every page with a matching word (lexical), the fused candidates (hybrid), the probed partitions'
/// pages (vector); `min_score` applies. Values by count, then name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facets {
    pub kind: Vec<(String, u32)>,
    pub tag: Vec<(String, u32)>,
    pub group: Vec<(String, u32)>,
    pub language: Vec<(String, u32)>,
    /// Docs versions (format v8 indexes of versioned sites).
    pub version: Vec<(String, u32)>,
}

/// The filters of [`SearchOptions`], one per facet, in [`Facets`] order.
const FACET_KIND: usize = 0;
const FACET_TAG: usize = 1;
const FACET_GROUP: usize = 2;
const FACET_LANGUAGE: usize = 3;
const FACET_VERSION: usize = 4;
const FACETS: usize = 5;

/// Prefix search (issue 6): a last word shorter than this is matched whole only (two letters would
/// expand to hundreds of terms).
pub const PREFIX_MIN_CHARS: usize = 3;
/// Term shards a prefix may read: its expansions are bounded by what these hold, so a prefix costs at
/// most this many small fetches.
pub const PREFIX_MAX_SHARDS: usize = 3;
/// Expansions scored per prefix: the terms with the most postings.
pub const PREFIX_MAX_EXPANSIONS: usize = 12;
/// An expansion's score relative to the whole word's, so that exact matches outrank extensions.
pub const PREFIX_DAMPING: f32 = 0.7;

/// How pages are ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Lexical,
    Vector,
    Hybrid,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "lexical" => Some(Mode::Lexical),
            "vector" => Some(Mode::Vector),
            "hybrid" => Some(Mode::Hybrid),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Mode::Lexical => "lexical",
            Mode::Vector => "vector",
            Mode::Hybrid => "hybrid",
        }
    }
}

/// How hybrid ranking combines the two sides' top candidates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fusion {
    /// Each side min-max normalized over its candidates, then `w · lexical + (1 - w) · vector`.
    MinMax { lexical_weight: f32 },
    /// Reciprocal-rank fusion: `Σ 1 / (k + rank)`.
    Rrf { k: f32 },
}

impl Default for Fusion {
    /// The full model's default ([`Fusion::default_for`]).
    fn default() -> Self {
        Fusion::default_for(false)
    }
}

impl Fusion {
    /// Min-max fusion with the BM25 weight chosen for the query encoder: the static encoder's
    /// vectors approximate the model's, so its side gets less weight (see the constants).
    pub fn default_for(static_encoder: bool) -> Self {
        Fusion::MinMax {
            lexical_weight: if static_encoder {
                DEFAULT_LEXICAL_WEIGHT_STATIC
            } else {
                DEFAULT_LEXICAL_WEIGHT_FULL
            },
        }
    }
}

/// The default BM25 weight of min-max fusion with the full model's query vectors. Train-split
/// nDCG@10 by weight 0.55 / 0.65 / 0.75: SciFact 0.7169 / 0.7214 / 0.7165; the 10,000-page corpus
/// (half SciFact, half docs pages) 0.6984 / 0.7063 / 0.7044.
pub const DEFAULT_LEXICAL_WEIGHT_FULL: f32 = 0.65;
/// The default BM25 weight with the static encoder (what the browser runs). Train-split nDCG@10 by
/// weight 0.55 / 0.65 / 0.75 / 0.8: SciFact 0.7138 / 0.7154 / 0.7134 / 0.7124, nearly flat; the
/// 10,000-page corpus 0.6647 / 0.6797 / 0.6900 / 0.6912 against 0.6843 lexical alone. On a mixed
/// corpus the fitted rows are a weaker signal, and a low weight lets them pull below BM25.
pub const DEFAULT_LEXICAL_WEIGHT_STATIC: f32 = 0.75;

/// The default number of vector partitions probed (0 = all): at about 32 chunks per partition, 24
/// probes kept recall@10 against exact search at 0.97 on SciFact train with the static encoder.
pub const DEFAULT_NPROBE: usize = 24;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            k: 10,
            kinds: Vec::new(),
            tags: Vec::new(),
            group: None,
            min_score: 0.0,
            max_sections: 3,
            explain: false,
            params: None,
            mode: Mode::Lexical,
            fusion: Fusion::default(),
            nprobe: DEFAULT_NPROBE,
            candidates: 100,
            prefix: false,
            typos: false,
            language: None,
            version: None,
            tags_any: Vec::new(),
            tags_none: Vec::new(),
            facets: false,
            facet_limit: 20,
        }
    }
}

/// The vector side of a query: the index's vector directory, the query's unit vector, and the
/// partition shards (every index [`Searcher::vector_partitions`] names must be available).
pub struct VectorQuery<'a, F> {
    pub dir: &'a crate::vectors::VectorDir,
    pub query: &'a [f32],
    pub shard: F,
}

/// A query term and how it scores.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryTerm {
    pub text: String,
    pub weight: f32,
    /// Index of the term shard whose range holds the term; `None` when no shard can hold it
    /// (out of every range, or ruled out by the shard's filter).
    pub shard: Option<usize>,
    /// Another way of writing one of the query's identifiers ([`separator_forms`]): scored, but not
    /// encoded into the static query vector (the identifier as typed already is, and its rows would
    /// cost a fetch).
    pub alternate: bool,
}

/// An exact-match key and its boost.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactKey {
    pub key: String,
    pub boost: f32,
    pub label: &'static str,
    pub shard: Option<usize>,
}

/// The last word of a query read as a prefix.
#[derive(Debug, Clone, PartialEq)]
pub struct PrefixTerm {
    /// The word as typed, folded and lowercased, not stemmed (`authen`).
    pub text: String,
    /// The query term the whole word analyzes to, if any: a chunk scores the better of it and its best
    /// damped expansion, never both.
    pub whole: Option<String>,
    pub weight: f32,
    /// Term shards that may hold its expansions (sorted; at most [`PREFIX_MAX_SHARDS`]).
    pub shards: Vec<usize>,
}

/// A file typo tolerance needs before it can correct a query ([`Searcher::corrections`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypoNeed {
    /// The term shard that says whether a query word is indexed.
    TermShard(usize),
    /// The typo directory ([`Manifest::typos`]).
    Directory,
    /// A typo shard of the directory.
    Shard(usize),
}

/// What a query needs: its terms, exact keys, and the term shards to fetch.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryPlan {
    /// The analyzer the query was read with: the index's, in the reader's language.
    pub analyzer: Analyzer,
    pub terms: Vec<QueryTerm>,
    pub exact: Vec<ExactKey>,
    /// The last word as a prefix ([`Searcher::plan_prefix`]).
    pub prefix: Option<PrefixTerm>,
    /// Term shard indexes to fetch, sorted, without duplicates.
    pub shards: Vec<usize>,
    /// The query's quoted phrases of two words or more (`"refresh token"`): only chunks with their
    /// words next to each other, in order, in one field rank ([`Searcher::resolve_phrases`]).
    pub phrases: Vec<Phrase>,
}

/// A quoted phrase: its terms with their offsets from the first (a stopword between two words leaves
/// a gap, as it does in the index), and once resolved, the chunks where it occurs.
#[derive(Debug, Clone, PartialEq)]
pub struct Phrase {
    pub terms: Vec<(String, u32)>,
    /// Sorted chunk ordinals; `None` until resolved, and on an index without positions (before
    /// format v7), where the phrase's words rank as plain words.
    pub chunks: Option<Vec<u32>>,
}

impl QueryPlan {
    /// Whether `chunk` has every resolved phrase of the query.
    fn phrases_allow(&self, chunk: u32) -> bool {
        self.phrases.iter().all(|p| {
            p.chunks
                .as_ref()
                .is_none_or(|c| c.binary_search(&chunk).is_ok())
        })
    }
}

/// One scored section of a page.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkHit {
    pub chunk: u32,
    pub score: f32,
}

/// One ranked page, before its metadata is loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct PageHit {
    pub page: u32,
    pub score: f32,
    pub matched_chunks: u32,
    pub sections: Vec<ChunkHit>,
    pub explanation: Option<Explanation>,
}

/// Why a chunk scored what it did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Explanation {
    pub chunk: u32,
    pub bm25: f32,
    pub terms: Vec<TermExplanation>,
    /// Boosts applied, with their multiplier minus one.
    pub boosts: Vec<(&'static str, f32)>,
    /// Vector and hybrid modes: the chunk's 1-based rank on each side (None = not a candidate there)
    /// and its cosine similarity to the query.
    pub lexical_rank: Option<u32>,
    pub vector_rank: Option<u32>,
    pub similarity: Option<f32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TermExplanation {
    pub term: String,
    pub idf: f32,
    pub weight: f32,
    /// (field, term frequency, field length) for each field the term occurs in.
    pub fields: Vec<(&'static str, u32, u32)>,
    pub contribution: f32,
}

/// Per-chunk ranks of each side, for explanations.
struct RankInfo {
    lexical: HashMap<u32, u32>,
    vector: HashMap<u32, u32>,
    similarity: HashMap<u32, f32>,
}

/// A search result with its metadata, the shape the CLI and the wasm API both return.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    pub page: u32,
    pub id: String,
    pub url: String,
    pub title: String,
    pub kind: Kind,
    pub score: f32,
    pub breadcrumb: Vec<String>,
    pub sections: Vec<SectionResult>,
    pub explanation: Option<Explanation>,
    pub api: Option<crate::format::ApiMeta>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SectionResult {
    pub anchor: String,
    pub title: String,
    pub url: String,
    pub score: f32,
    pub excerpt: String,
}

/// Why a search could not complete.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error(
        "index built with analyzer version {found}, this reader has {expected}: rebuild the index"
    )]
    AnalyzerMismatch { found: u32, expected: u32 },
    #[error("term shard {0} was needed but not provided")]
    MissingTermShard(String),
    #[error("metadata shard {0} was needed but not provided")]
    MissingMetaShard(String),
    #[error("metadata shard {0} does not match the manifest's page table")]
    MetaMismatch(String),
    #[error("position shard {0} does not match its term shard")]
    PositionsMismatch(String),
    #[error("{language} pages need the {stemmer} stemmer: load aidocs_search_full_bg.wasm (openIndex's `language` option)")]
    MissingStemmer {
        language: String,
        stemmer: &'static str,
    },
    /// A fetched file that failed verification or decoding ([`Searcher::open_file`]).
    #[error("{file}: {source}")]
    Shard {
        file: String,
        source: crate::ShardError,
    },
    /// A query vector that cannot be used (empty, not finite, the wrong width).
    #[error("{0}")]
    BadQueryVector(String),
    /// [`QuerySession::finish`] before the session had everything it needs.
    #[error("the query still needs files: advance the session until nothing is missing")]
    NotReady,
}

/// A manifest prepared for querying.
#[derive(Debug, Clone)]
pub struct Searcher {
    pub manifest: Manifest,
    /// First chunk ordinal of each page (plus a final sentinel).
    page_first_chunk: Vec<u32>,
}

impl Searcher {
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
            manifest,
            page_first_chunk,
        })
    }

    /// The analyzer a query in the reader's `language` is read with: the one the index analyzed that
    /// language's pages with, when it has pages in it (`fr`, `zh-CN` for `zh`), else the one of pages
    /// without a language (English).
    /// The term shards whose position shards the query's phrases need (sorted): none on an index
    /// without positions, or for a query without a quoted phrase.
    pub fn position_shards(&self, plan: &QueryPlan) -> Vec<usize> {
        if self.manifest.positions.is_none() {
            return Vec::new();
        }
        let shards: BTreeSet<usize> = plan
            .phrases
            .iter()
            .flat_map(|p| &p.terms)
            .filter_map(|(t, _)| self.locate(t))
            .collect();
        shards.into_iter().collect()
    }

    /// Finds where each of `plan`'s phrases occurs, from the term shards (which say each term's
    /// place in its shard) and the position shards of [`Self::position_shards`]. A phrase with a word
    /// the index lacks occurs nowhere. Nothing to do on an index without positions.
    pub fn resolve_phrases<'s, 'p>(
        &self,
        plan: &mut QueryPlan,
        terms: impl Fn(usize) -> Option<&'s TermShard>,
        positions: impl Fn(usize) -> Option<&'p crate::positions::PositionShard>,
    ) -> Result<(), SearchError> {
        if self.manifest.positions.is_none() {
            return Ok(());
        }
        for phrase in &mut plan.phrases {
            let mut lists: Vec<(&[crate::positions::PositionPosting], u32)> = Vec::new();
            let mut absent = false;
            for (term, offset) in &phrase.terms {
                let Some(i) = self.locate(term) else {
                    absent = true;
                    break;
                };
                let shard = terms(i).ok_or_else(|| {
                    SearchError::MissingTermShard(self.manifest.term_shards[i].file.clone())
                })?;
                let Ok(j) = shard.terms.binary_search_by(|t| t.term.as_str().cmp(term)) else {
                    absent = true;
                    break;
                };
                let file = || self.manifest.positions_file(i).unwrap_or_default();
                let ps = positions(i).ok_or_else(|| SearchError::MissingTermShard(file()))?;
                if ps.terms.len() != shard.terms.len() {
                    return Err(SearchError::PositionsMismatch(file()));
                }
                lists.push((&ps.terms[j], *offset));
            }
            phrase.chunks = Some(if absent {
                Vec::new()
            } else {
                crate::positions::phrase_chunks(&lists)
            });
        }
        Ok(())
    }

    /// A query whose analyzer lacks its language's stemmer is refused, never ranked with unstemmed
    /// words against stemmed pages.
    fn check_stemmer(&self, plan: &QueryPlan, opts: &SearchOptions) -> Result<(), SearchError> {
        match plan.analyzer.missing_stemmer() {
            Some(stemmer) => Err(SearchError::MissingStemmer {
                language: opts.language.clone().unwrap_or_default(),
                stemmer,
            }),
            None => Ok(()),
        }
    }

    pub fn query_analyzer(&self, language: Option<&str>) -> Analyzer {
        let tag = language
            .and_then(|l| self.language_id(l))
            .and_then(|i| self.manifest.languages.get(i as usize))
            .map(String::as_str);
        Analyzer::for_index(self.manifest.analyzer_version, tag)
            .unwrap_or_default()
            .for_query()
    }

    /// The page a chunk belongs to.
    pub fn page_of(&self, chunk: u32) -> u32 {
        (self
            .page_first_chunk
            .partition_point(|&first| first <= chunk)
            - 1) as u32
    }

    fn locate(&self, term: &str) -> Option<usize> {
        let i = self.manifest.term_shard_for(term)?;
        match &self.manifest.term_shards[i].filter {
            Some(f) if !f.may_contain(term) => None,
            _ => Some(i),
        }
    }

    /// Typo tolerance: what the query's misspelled words most likely meant. A word is corrected when
    /// it is a plain word of [`crate::typos::TYPO_MIN_CHARS`]+ letters (never an identifier, never
    /// inside double quotes) whose term the index lacks, and, for the last word read as a prefix, no
    /// indexed word starts with it. `Err` lists the files to fetch first: the term shards that say
    /// whether a word is indexed, then the typo directory, then the typo shards of its deletion keys.
    /// `terms`, `dir` and `shards` return what is already loaded.
    pub fn corrections<'s, 't>(
        &self,
        query: &str,
        plan: &QueryPlan,
        terms: impl Fn(usize) -> Option<&'s TermShard>,
        dir: Option<&crate::typos::TypoDirectory>,
        shards: impl Fn(usize) -> Option<&'t crate::typos::TypoShard>,
    ) -> Result<Vec<crate::typos::Correction>, Vec<TypoNeed>> {
        use crate::typos::{
            best_correction, deletion_keys, is_typo_word, Correction, TYPO_MIN_CHARS,
        };
        if self.manifest.typos.is_none() {
            return Ok(Vec::new());
        }
        let quoted = crate::typos::quoted_spans(query);
        let mut need = Vec::new();
        let mut words: Vec<String> = Vec::new();
        for tok in plan.analyzer.analyze(query) {
            if tok.kind != TokenKind::Word
                || quoted
                    .iter()
                    .any(|&(s, e)| tok.offset_from > s && tok.offset_from < e)
            {
                continue;
            }
            let word = crate::analyzer::fold(&query[tok.offset_from..tok.offset_to]);
            if !is_typo_word(&word, TYPO_MIN_CHARS) || words.contains(&word) {
                continue;
            }
            if let Some(si) = self.locate(&tok.text) {
                match terms(si) {
                    Some(t) if t.get(&tok.text).is_some() => continue, // indexed: not a typo
                    Some(_) => {}
                    None => {
                        need.push(TypoNeed::TermShard(si));
                        continue;
                    }
                }
            }
            if let Some(p) = plan.prefix.as_ref().filter(|p| p.text == word) {
                // A word still being typed, while indexed words start with it.
                let missing: Vec<usize> = p
                    .shards
                    .iter()
                    .copied()
                    .filter(|&i| terms(i).is_none())
                    .collect();
                if !missing.is_empty() {
                    need.extend(missing.into_iter().map(TypoNeed::TermShard));
                    continue;
                }
                let get = |i: usize| terms(i).ok_or(SearchError::MissingTermShard(String::new()));
                if self.prefix_expansions(p, &get).is_ok_and(|e| !e.is_empty()) {
                    continue;
                }
            }
            words.push(word);
        }
        if need.is_empty() && !words.is_empty() {
            match dir {
                None => need.push(TypoNeed::Directory),
                Some(dir) => {
                    for k in words.iter().flat_map(|w| deletion_keys(w)) {
                        let i = dir.shard_for(&k);
                        if shards(i).is_none() && !need.contains(&TypoNeed::Shard(i)) {
                            need.push(TypoNeed::Shard(i));
                        }
                    }
                }
            }
        }
        if !need.is_empty() {
            // Duplicates only among term shards (two words in one shard); no sort (wasm size).
            let mut unique = Vec::with_capacity(need.len());
            for n in need {
                if !unique.contains(&n) {
                    unique.push(n);
                }
            }
            return Err(unique);
        }
        let Some(dir) = dir.filter(|_| !words.is_empty()) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for from in words {
            let mut seen: Vec<usize> = Vec::new();
            for k in deletion_keys(&from) {
                let i = dir.shard_for(&k);
                if !seen.contains(&i) {
                    seen.push(i);
                }
            }
            let found = seen
                .iter()
                .flat_map(|&i| shards(i).map_or(&[][..], |s| &s.words[..]));
            if let Some(e) = best_correction(&from, found) {
                out.push(Correction {
                    to: e.word.clone(),
                    from,
                });
            }
        }
        Ok(out)
    }

    /// `plan` with each correction's word searched too, its weight damped by
    /// [`crate::typos::TYPO_DAMPING`] (the misspelled term stays: it matches nothing).
    pub fn corrected_plan(
        &self,
        mut plan: QueryPlan,
        corrections: &[crate::typos::Correction],
    ) -> QueryPlan {
        for c in corrections {
            let from = plan.analyzer.stem_word(&c.from);
            let to = plan.analyzer.stem_word(&c.to);
            let weight = plan
                .terms
                .iter()
                .find(|t| t.text == from)
                .map_or(1.0, |t| t.weight)
                * crate::typos::TYPO_DAMPING;
            let at = plan.terms.partition_point(|t| t.text < to);
            if plan.terms.get(at).is_some_and(|t| t.text == to) {
                continue; // already a query term
            }
            let shard = self.locate(&to);
            if let Some(si) = shard {
                if let Err(i) = plan.shards.binary_search(&si) {
                    plan.shards.insert(i, si);
                }
            }
            plan.terms.insert(
                at,
                QueryTerm {
                    text: to,
                    weight,
                    shard,
                    alternate: false,
                },
            );
        }
        plan
    }

    /// Analyzes the query and lists the term shards it needs.
    pub fn plan(&self, query: &str) -> QueryPlan {
        self.plan_prefix(query, false, None)
    }

    /// [`Self::plan`], and with `prefix` the query's last word, when nothing follows it and it has at
    /// least [`PREFIX_MIN_CHARS`] letters, also as the start of longer indexed terms: `authen` finds
    /// `authentication` (indexed as its stem `authent`), `getuserb` the identifier `getuserbyid`. A
    /// typed word longer than the stem it will have (`authenticati`) matches that stem too. At most
    /// [`PREFIX_MAX_SHARDS`] term shards are read for it. `language`: the reader's, which picks the
    /// analyzer ([`Self::query_analyzer`]).
    pub fn plan_prefix(&self, query: &str, prefix: bool, language: Option<&str>) -> QueryPlan {
        let mut plan = self.plan_words(query, self.query_analyzer(language));
        if prefix {
            plan.prefix = self.prefix_term(query, &plan);
            if let Some(p) = &plan.prefix {
                let shards: BTreeSet<usize> =
                    plan.shards.iter().chain(&p.shards).copied().collect();
                plan.shards = shards.into_iter().collect();
            }
        }
        plan
    }

    fn prefix_term(&self, query: &str, plan: &QueryPlan) -> Option<PrefixTerm> {
        let tail = query
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric())
            .last()
            .map(|(i, _)| &query[i..])?;
        let text = crate::analyzer::fold(tail);
        let chars = text.chars().count();
        if chars < PREFIX_MIN_CHARS {
            return None;
        }
        // The whole word's term, as the analyzer makes it (stemmed, or an identifier kept whole).
        // (`analyze`, not a new `for_each_token` closure: each one is another copy of the tokenizer
        // in the wasm module.)
        let whole = plan
            .analyzer
            .analyze(tail)
            .pop()
            .and_then(|w| plan.terms.iter().find(|t| t.text == w.text))
            .map(|t| (t.text.clone(), t.weight));
        // The shortest stem a typed word may have (see `is_truncated_stem`) sorts first.
        let shortest: String = text.chars().take(min_stem_chars(chars)).collect();
        let first = self.manifest.term_shard_for(&shortest).unwrap_or(0);
        let end = self.manifest.term_shards_for_prefix(&text).end;
        let shards: Vec<usize> = (first..end.max(first + 1).min(self.manifest.term_shards.len()))
            .take(PREFIX_MAX_SHARDS)
            .collect();
        Some(PrefixTerm {
            text,
            weight: whole.as_ref().map_or(1.0, |w| w.1),
            whole: whole.map(|w| w.0),
            shards,
        })
    }

    /// The terms a prefix expands to: those that start with it, or that it starts with as a word
    /// starts with its stem, other than the whole word's own term; the [`PREFIX_MAX_EXPANSIONS`] with
    /// the most postings (ties by term), so both sides pick the same.
    fn prefix_expansions<'s>(
        &self,
        p: &PrefixTerm,
        // `dyn`: one copy in the wasm module for ranking and typo tolerance.
        get: &dyn Fn(usize) -> Result<&'s TermShard, SearchError>,
    ) -> Result<Vec<&'s crate::format::TermPostings>, SearchError> {
        let mut found = Vec::new();
        for &si in &p.shards {
            for t in &get(si)?.terms {
                let term = t.term.as_str();
                if Some(term) != p.whole.as_deref()
                    && !term.starts_with('~')
                    && (term.starts_with(p.text.as_str()) || is_truncated_stem(term, &p.text))
                {
                    found.push(t);
                }
            }
        }
        // Selected, not sorted: a sort instantiated for this one type costs kilobytes of wasm.
        let mut picked = Vec::with_capacity(PREFIX_MAX_EXPANSIONS);
        while picked.len() < PREFIX_MAX_EXPANSIONS && !found.is_empty() {
            let mut best = 0;
            for (i, t) in found.iter().enumerate().skip(1) {
                let b = found[best];
                if (t.postings.len(), core::cmp::Reverse(&t.term))
                    > (b.postings.len(), core::cmp::Reverse(&b.term))
                {
                    best = i;
                }
            }
            picked.push(found.swap_remove(best));
        }
        Ok(picked)
    }

    /// Per chunk (ascending), what the prefix adds to the whole word's score: its best damped
    /// expansion over the whole word's own contribution, if higher; and the expansion that gave it,
    /// for explanations.
    fn prefix_scores<'s>(
        &self,
        p: &PrefixTerm,
        get: &impl Fn(usize) -> Result<&'s TermShard, SearchError>,
        params: &crate::format::Bm25Params,
        avg: &[f32; SCORED_FIELDS],
    ) -> Result<Vec<(u32, f32, &'s str)>, SearchError> {
        let expansions = self.prefix_expansions(p, get)?;
        let n = self.manifest.num_chunks as usize;
        // Dense per-chunk bests (as `lexical_chunks` scores): the first expansion wins ties.
        let mut best = vec![(0f32, 0usize); n];
        let mut touched: Vec<u32> = Vec::new();
        for (ei, t) in expansions.iter().enumerate() {
            let idf = self.idf(&t.postings, params);
            for posting in &t.postings {
                let x = bm25f_term(posting, idf, p.weight * PREFIX_DAMPING, params, avg);
                let Some(b) = best.get_mut(posting.chunk as usize) else {
                    continue;
                };
                if b.0 == 0.0 && x > 0.0 {
                    touched.push(posting.chunk);
                }
                if x > b.0 {
                    *b = (x, ei);
                }
            }
        }
        if let Some(whole) = &p.whole {
            // The whole word is a query term: its shard is in the plan.
            if let Some(tp) = match self.locate(whole) {
                Some(si) => get(si)?.get(whole),
                None => None,
            } {
                let idf = self.idf(&tp.postings, params);
                for posting in &tp.postings {
                    if let Some(b) = best.get_mut(posting.chunk as usize) {
                        b.0 -= bm25f_term(posting, idf, p.weight, params, avg);
                    }
                }
            }
        }
        touched.sort_unstable();
        Ok(touched
            .into_iter()
            .filter_map(|c| {
                let (x, ei) = best[c as usize];
                (x > 0.0).then(|| (c, x, expansions[ei].term.as_str()))
            })
            .collect())
    }

    fn plan_words(&self, query: &str, analyzer: Analyzer) -> QueryPlan {
        let mut weights: BTreeMap<String, f32> = BTreeMap::new();
        let mut forms: Vec<String> = Vec::new();
        for t in analyzer.analyze(query) {
            let w = if t.kind == TokenKind::Identifier {
                forms.extend(separator_forms(&query[t.offset_from..t.offset_to]));
                IDENTIFIER_BOOST
            } else {
                1.0
            };
            let e = weights.entry(t.text).or_insert(0.0);
            *e = e.max(w);
        }
        let mut terms: Vec<QueryTerm> = weights
            .into_iter()
            .map(|(text, weight)| QueryTerm {
                shard: self.locate(&text),
                text,
                weight,
                alternate: false,
            })
            .collect();
        let norm = normalize_exact(query);
        let mut exact = Vec::new();
        if !norm.is_empty() {
            for (prefix, boost, label) in [
                (EXACT_TITLE_PREFIX, EXACT_TITLE_BOOST, "exact title"),
                (
                    EXACT_ENDPOINT_PREFIX,
                    EXACT_ENDPOINT_BOOST,
                    "exact endpoint",
                ),
                (
                    EXACT_OPERATION_PREFIX,
                    EXACT_ENDPOINT_BOOST,
                    "exact operationId",
                ),
            ] {
                let key = exact_key(prefix, &norm);
                exact.push(ExactKey {
                    shard: self.locate(&key),
                    key,
                    boost,
                    label,
                });
            }
        }
        let mut shards: BTreeSet<usize> = terms
            .iter()
            .filter_map(|t| t.shard)
            .chain(exact.iter().filter_map(|e| e.shard))
            .collect();
        // An identifier's other forms are asked for only where that costs no fetch of its own: in a
        // shard the query reads anyway, or one whose filter says the site may use the form.
        for form in forms {
            let Some(i) = self.locate(&form) else {
                continue;
            };
            if terms.iter().any(|t| t.text == form)
                || !(shards.contains(&i) || self.manifest.term_shards[i].filter.is_some())
            {
                continue;
            }
            shards.insert(i);
            let at = terms.partition_point(|t| t.text < form);
            terms.insert(
                at,
                QueryTerm {
                    text: form,
                    weight: IDENTIFIER_BOOST,
                    shard: Some(i),
                    alternate: true,
                },
            );
        }
        QueryPlan {
            analyzer,
            terms,
            exact,
            prefix: None,
            shards: shards.into_iter().collect(),
            phrases: phrases(query, analyzer),
        }
    }

    /// Term shards worth fetching while the user is still typing `partial`: those of its complete words
    /// and the one where its last word, read as a prefix, would sort (no filter can rule a prefix out).
    pub fn preload_shards(&self, partial: &str, language: Option<&str>) -> Vec<usize> {
        let plan = self.plan_prefix(partial, false, language);
        let mut last = None;
        plan.analyzer
            .for_each_token(partial, |t| last = Some(t.text));
        let mut shards: BTreeSet<usize> = plan.shards.into_iter().collect();
        if let Some(i) = last.and_then(|t| self.manifest.term_shard_for(&t)) {
            shards.insert(i);
        }
        shards.into_iter().collect()
    }

    /// The static query encoder's row shards `plan` needs (sorted): one per query term the index may
    /// hold. Empty when the index has no term rows.
    pub fn term_row_shards(&self, plan: &QueryPlan) -> Vec<u32> {
        let Some(rows) = self.term_rows() else {
            return Vec::new();
        };
        let set: BTreeSet<u32> = plan
            .terms
            .iter()
            .filter(|t| t.shard.is_some() && !t.alternate)
            .map(|t| rows.shard_of(&t.text))
            .collect();
        set.into_iter().collect()
    }

    /// The index's static query encoder, when it has one.
    pub fn term_rows(&self) -> Option<&crate::term_rows::TermRowsRef> {
        self.manifest.vectors.as_ref()?.term_rows.as_ref()
    }

    /// The static encoding of `plan`'s query (see [`crate::term_rows`]): `row_shard` returns the
    /// decoded row shard for an index of [`Self::term_row_shards`]. `None` without term rows, or when
    /// no query term has a row (ranking then falls back to lexical).
    pub fn static_query_vector<'r>(
        &self,
        plan: &QueryPlan,
        row_shard: impl Fn(u32) -> Option<&'r crate::term_rows::TermRowShard>,
    ) -> Option<Vec<f32>> {
        let rows = self.term_rows()?;
        crate::term_rows::encode_terms(
            rows,
            plan.terms
                .iter()
                .filter(|t| t.shard.is_some() && !t.alternate)
                .map(|t| t.text.as_str()),
            |t| row_shard(rows.shard_of(t))?.row(t),
        )
    }

    /// The index's language a reader's language tag selects: equal ignoring case, or one is the
    /// other's primary subtag (`zh-CN` reads `zh` pages; `pt` reads `pt-BR` pages).
    pub fn language_id(&self, lang: &str) -> Option<u32> {
        let primary = |t: &str| t.split(['-', '_']).next().unwrap_or(t).to_ascii_lowercase();
        let langs = &self.manifest.languages;
        langs
            .iter()
            .position(|l| l.eq_ignore_ascii_case(lang))
            .or_else(|| langs.iter().position(|l| primary(l) == primary(lang)))
            .map(|i| i as u32)
    }

    fn page_allowed(&self, page: u32, opts: &SearchOptions) -> bool {
        self.page_filters(page, opts).iter().all(|&ok| ok)
    }

    /// Whether `page` passes each facet's filter (kind, tags, group, language).
    fn page_filters(&self, page: u32, opts: &SearchOptions) -> [bool; FACETS] {
        let entry = &self.manifest.pages[page as usize];
        let mut ok = [true; FACETS];
        ok[FACET_KIND] = opts.kinds.is_empty() || opts.kinds.contains(&entry.kind);
        if let Some(group) = &opts.group {
            ok[FACET_GROUP] = entry.group.is_some_and(|g| {
                let name = &self.manifest.groups[g as usize];
                let last = name.rsplit(" > ").next().unwrap_or(name);
                name.eq_ignore_ascii_case(group) || last.eq_ignore_ascii_case(group)
            });
        }
        if let (Some(page_lang), Some(want)) = (
            entry.language,
            opts.language.as_deref().and_then(|l| self.language_id(l)),
        ) {
            ok[FACET_LANGUAGE] = page_lang == want;
        }
        if let (Some(page_version), Some(want)) = (
            entry.version,
            opts.version.as_deref().and_then(|v| {
                let versions = &self.manifest.versions;
                versions.iter().position(|x| x.eq_ignore_ascii_case(v))
            }),
        ) {
            ok[FACET_VERSION] = page_version as usize == want;
        }
        if !(opts.tags.is_empty() && opts.tags_any.is_empty() && opts.tags_none.is_empty()) {
            let set = self.manifest.tagsets.get(entry.tagset as usize);
            let has = |tag: &String| {
                set.is_some_and(|s| {
                    s.iter()
                        .any(|&t| self.manifest.tags[t as usize].eq_ignore_ascii_case(tag))
                })
            };
            ok[FACET_TAG] = opts.tags.iter().all(has)
                && (opts.tags_any.is_empty() || opts.tags_any.iter().any(has))
                && !opts.tags_none.iter().any(has);
        }
        ok
    }

    /// Counts `seen` pages (page, each filter passed, best score) into [`Facets`].
    fn count_facets<'s>(
        &'s self,
        seen: &[(u32, [bool; FACETS], f32)],
        opts: &SearchOptions,
    ) -> Facets {
        // Sorted (value, count) vectors and a selection of the commonest, not a map and a sort:
        // each new map or sort instantiation is kilobytes of every reader's wasm.
        let mut counts: [Vec<(&'s str, u32)>; FACETS] = Default::default();
        for (page, ok, score) in seen {
            if *score < opts.min_score {
                continue;
            }
            let entry = &self.manifest.pages[*page as usize];
            for (f, count) in counts.iter_mut().enumerate() {
                // Every filter but this facet's own.
                if !ok.iter().enumerate().all(|(g, &pass)| pass || g == f) {
                    continue;
                }
                let mut add = |v: &'s str| match count.binary_search_by(|e| e.0.cmp(v)) {
                    Ok(i) => count[i].1 += 1,
                    Err(i) => count.insert(i, (v, 1)),
                };
                match f {
                    FACET_KIND => add(entry.kind.name()),
                    FACET_TAG => {
                        let set = self.manifest.tagsets.get(entry.tagset as usize);
                        for &t in set.into_iter().flatten() {
                            if let Some(tag) = self.manifest.tags.get(t as usize) {
                                add(tag);
                            }
                        }
                    }
                    // One value per page, an index into a manifest list.
                    _ => {
                        let m = &self.manifest;
                        let (id, names) = match f {
                            FACET_GROUP => (entry.group, &m.groups),
                            FACET_LANGUAGE => (entry.language, &m.languages),
                            _ => (entry.version, &m.versions),
                        };
                        if let Some(v) = id.and_then(|i| names.get(i as usize)) {
                            add(v);
                        }
                    }
                }
            }
        }
        let mut facets = counts.into_iter().map(|mut rest| {
            // The commonest first; ties keep name order (the first maximum wins).
            let mut out = Vec::new();
            while !rest.is_empty() && (opts.facet_limit == 0 || out.len() < opts.facet_limit) {
                let mut best = 0;
                for i in 1..rest.len() {
                    if rest[i].1 > rest[best].1 {
                        best = i;
                    }
                }
                let (value, n) = rest.remove(best);
                out.push((value.to_owned(), n));
            }
            out
        });
        let mut next = || facets.next().unwrap_or_default();
        Facets {
            kind: next(),
            tag: next(),
            group: next(),
            language: next(),
            version: next(),
        }
    }

    /// Scores and ranks pages lexically. `shard` returns the decoded term shard for an index of
    /// `manifest.term_shards`; every index in `plan.shards` must be available.
    pub fn rank<'s>(
        &self,
        plan: &QueryPlan,
        shard: impl Fn(usize) -> Option<&'s TermShard>,
        opts: &SearchOptions,
    ) -> Result<Vec<PageHit>, SearchError> {
        self.check_stemmer(plan, opts)?;
        let get = self.getter(&shard);
        let chunks = self.lexical_chunks(plan, &get, opts)?;
        Ok(self.aggregate(chunks, plan, &get, opts, None)?.0)
    }

    /// The vector partitions a query vector probes (`opts.nprobe`, 0 = all).
    pub fn vector_partitions(
        &self,
        dir: &crate::vectors::VectorDir,
        query: &[f32],
        opts: &SearchOptions,
    ) -> Vec<usize> {
        let n = dir.partitions.len();
        let probe = if opts.nprobe == 0 {
            n
        } else {
            opts.nprobe.min(n)
        };
        let mut p = dir.probe(query, probe);
        p.sort_unstable();
        p
    }

    /// Ranks with `opts.mode`: lexical; vector (cosine over the probed partitions); or hybrid (both
    /// sides' top `opts.candidates` chunks fused with `opts.fusion`). Without a vector side, or
    /// for a mismatched one, ranking is lexical. Returns the hits, the mode actually used and, with
    /// `opts.facets`, the query's [`Facets`].
    pub fn rank_faceted<'s, 'v, F>(
        &self,
        plan: &QueryPlan,
        shard: impl Fn(usize) -> Option<&'s TermShard>,
        vectors: Option<VectorQuery<'_, F>>,
        opts: &SearchOptions,
    ) -> Result<(Vec<PageHit>, Mode, Option<Facets>), SearchError>
    where
        F: Fn(usize) -> Option<&'v crate::vectors::VectorShard>,
    {
        self.check_stemmer(plan, opts)?;
        let get = self.getter(&shard);
        let usable = vectors.filter(|v| {
            opts.mode != Mode::Lexical
                && v.query.len() == v.dir.dims as usize
                && self
                    .manifest
                    .vectors
                    .as_ref()
                    .is_some_and(|r| r.dims == v.dir.dims)
        });
        let Some(vq) = usable else {
            let chunks = self.lexical_chunks(plan, &get, opts)?;
            let (hits, facets) = self.aggregate(chunks, plan, &get, opts, None)?;
            return Ok((hits, Mode::Lexical, facets));
        };
        let mut vector: Vec<(u32, f32)> = Vec::new();
        for p in self.vector_partitions(vq.dir, vq.query, opts) {
            let s = (vq.shard)(p)
                .ok_or_else(|| SearchError::MissingTermShard(vq.dir.partitions[p].file.clone()))?;
            vector.extend(
                s.scores(vq.query)
                    .filter(|&(c, _)| c < self.manifest.num_chunks),
            );
        }
        let by_score = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        vector.sort_by(by_score);
        let ranks = |list: &[(u32, f32)]| -> HashMap<u32, u32> {
            list.iter()
                .enumerate()
                .map(|(i, &(c, _))| (c, i as u32 + 1))
                .collect()
        };
        if opts.mode == Mode::Vector {
            // Cosine similarity, shifted to be positive so aggregation (which drops scores <= 0) keeps
            // every probed chunk.
            let mut chunks: Vec<(u32, f32)> = vector.iter().map(|&(c, s)| (c, 1.0 + s)).collect();
            let info = RankInfo {
                lexical: HashMap::new(),
                vector: ranks(&vector),
                similarity: vector.iter().copied().collect(),
            };
            chunks.sort_unstable_by_key(|&(c, _)| c);
            let (hits, facets) = self.aggregate(chunks, plan, &get, opts, Some(&info))?;
            return Ok((hits, Mode::Vector, facets));
        }
        let mut lexical = self.lexical_chunks(plan, &get, opts)?;
        lexical.sort_by(by_score);
        let n = opts.candidates.max(1);
        lexical.truncate(n);
        let vtop = &vector[..vector.len().min(n)];
        let mut fused: HashMap<u32, f32> = HashMap::new();
        match opts.fusion {
            Fusion::MinMax { lexical_weight } => {
                let w = lexical_weight.clamp(0.0, 1.0);
                for (list, weight) in [(&lexical[..], w), (vtop, 1.0 - w)] {
                    let (Some(max), Some(min)) = (list.first(), list.last()) else {
                        continue;
                    };
                    let span = max.1 - min.1;
                    for &(c, s) in list {
                        let norm = if span > 0.0 { (s - min.1) / span } else { 1.0 };
                        *fused.entry(c).or_insert(0.0) += weight * norm;
                    }
                }
            }
            Fusion::Rrf { k } => {
                for list in [&lexical[..], vtop] {
                    for (i, &(c, _)) in list.iter().enumerate() {
                        *fused.entry(c).or_insert(0.0) += 1.0 / (k + i as f32 + 1.0);
                    }
                }
            }
        }
        // A tiny floor keeps candidates that normalized to 0 on their only side.
        let mut chunks: Vec<(u32, f32)> = fused.into_iter().map(|(c, s)| (c, s + 1e-6)).collect();
        chunks.sort_unstable_by_key(|&(c, _)| c);
        let info = RankInfo {
            lexical: ranks(&lexical),
            vector: ranks(vtop),
            similarity: vector.iter().copied().collect(),
        };
        let (hits, facets) = self.aggregate(chunks, plan, &get, opts, Some(&info))?;
        Ok((hits, Mode::Hybrid, facets))
    }

    fn getter<'s, 'f>(
        &'f self,
        shard: &'f impl Fn(usize) -> Option<&'s TermShard>,
    ) -> impl Fn(usize) -> Result<&'s TermShard, SearchError> + 'f {
        move |i: usize| {
            shard(i).ok_or_else(|| {
                SearchError::MissingTermShard(self.manifest.term_shards[i].file.clone())
            })
        }
    }

    /// BM25F (plus exact-match boosts) per chunk: `(chunk, score)` sorted by chunk, scores > 0.
    fn lexical_chunks<'s>(
        &self,
        plan: &QueryPlan,
        get: &impl Fn(usize) -> Result<&'s TermShard, SearchError>,
        opts: &SearchOptions,
    ) -> Result<Vec<(u32, f32)>, SearchError> {
        let params = opts.params.unwrap_or(self.manifest.params);
        let n = self.manifest.num_chunks as usize;
        let mut avg = [0f32; SCORED_FIELDS];
        for (f, a) in avg.iter_mut().enumerate() {
            *a = self.manifest.avg_field_len(f);
        }
        let mut scores = vec![0f32; n];
        let mut touched: Vec<u32> = Vec::new();
        for qt in &plan.terms {
            let Some(si) = qt.shard else { continue };
            let Some(tp) = get(si)?.get(&qt.text) else {
                continue;
            };
            let idf = self.idf(&tp.postings, &params);
            for p in &tp.postings {
                let c = bm25f_term(p, idf, qt.weight, &params, &avg);
                if c > 0.0 {
                    let s = &mut scores[p.chunk as usize];
                    if *s == 0.0 {
                        touched.push(p.chunk);
                    }
                    *s += c;
                }
            }
        }
        if let Some(p) = &plan.prefix {
            for (c, x, _) in self.prefix_scores(p, get, &params, &avg)? {
                let s = &mut scores[c as usize];
                if *s == 0.0 {
                    touched.push(c);
                }
                *s += x;
            }
        }
        // Exact-match boosts apply to chunks that carry the key.
        let mut boosts: HashMap<u32, f32> = HashMap::new();
        for ek in &plan.exact {
            let Some(si) = ek.shard else { continue };
            let Some(tp) = get(si)?.get(&ek.key) else {
                continue;
            };
            for p in &tp.postings {
                let b = boosts.entry(p.chunk).or_insert(0.0);
                *b = b.max(ek.boost);
            }
        }
        let mut boosted: Vec<(u32, f32)> = boosts.into_iter().collect();
        boosted.sort_unstable_by_key(|&(c, _)| c);
        for (c, b) in boosted {
            let s = &mut scores[c as usize];
            if *s == 0.0 {
                touched.push(c);
            }
            *s = *s * (1.0 + b) + b;
        }
        touched.sort_unstable();
        touched.dedup();
        Ok(touched
            .into_iter()
            .map(|c| (c, scores[c as usize]))
            .filter(|&(_, s)| s > 0.0)
            .collect())
    }

    /// Chunks (sorted by chunk) into pages: a page scores its best chunk; filters, order, top k.
    fn aggregate<'s>(
        &self,
        chunks: Vec<(u32, f32)>,
        plan: &QueryPlan,
        get: &impl Fn(usize) -> Result<&'s TermShard, SearchError>,
        opts: &SearchOptions,
        info: Option<&RankInfo>,
    ) -> Result<(Vec<PageHit>, Option<Facets>), SearchError> {
        let params = opts.params.unwrap_or(self.manifest.params);
        let mut avg = [0f32; SCORED_FIELDS];
        for (f, a) in avg.iter_mut().enumerate() {
            *a = self.manifest.avg_field_len(f);
        }
        // Aggregate chunks into pages (chunks are sorted, so a page's chunks are adjacent).
        let mut pages: Vec<PageHit> = Vec::new();
        let mut last_page: Option<(u32, bool)> = None;
        // With facets: every page seen, the filters it passes and its best score.
        let mut seen: Vec<(u32, [bool; FACETS], f32)> = Vec::new();
        for (c, score) in chunks {
            if score <= 0.0 || !plan.phrases_allow(c) {
                continue;
            }
            let page = self.page_of(c);
            if opts.facets {
                match seen.last_mut() {
                    Some(last) if last.0 == page => last.2 = last.2.max(score),
                    _ => seen.push((page, self.page_filters(page, opts), score)),
                }
            }
            let allowed = match last_page {
                Some((p, allowed)) if p == page => allowed,
                _ => {
                    let allowed = self.page_allowed(page, opts);
                    if allowed {
                        pages.push(PageHit {
                            page,
                            score: 0.0,
                            matched_chunks: 0,
                            sections: Vec::new(),
                            explanation: None,
                        });
                    }
                    last_page = Some((page, allowed));
                    allowed
                }
            };
            if let (true, Some(hit)) = (allowed, pages.last_mut()) {
                hit.matched_chunks += 1;
                hit.score = hit.score.max(score);
                hit.sections.push(ChunkHit { chunk: c, score });
            }
        }
        pages.retain(|p| p.score >= opts.min_score);
        pages.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(b.matched_chunks.cmp(&a.matched_chunks))
                .then(
                    self.manifest.pages[a.page as usize]
                        .kind
                        .cmp(&self.manifest.pages[b.page as usize].kind),
                )
                .then(a.page.cmp(&b.page))
        });
        pages.truncate(opts.k);
        for p in &mut pages {
            p.sections
                .sort_by(|a, b| b.score.total_cmp(&a.score).then(a.chunk.cmp(&b.chunk)));
            p.sections.truncate(opts.max_sections.max(1));
            if opts.explain {
                let chunk = p.sections[0].chunk;
                let mut ex = self.explain(plan, get, chunk, &params, &avg)?;
                if let Some(info) = info {
                    ex.lexical_rank = info.lexical.get(&chunk).copied();
                    ex.vector_rank = info.vector.get(&chunk).copied();
                    ex.similarity = info.similarity.get(&chunk).copied();
                }
                p.explanation = Some(ex);
            }
        }
        let facets = opts.facets.then(|| self.count_facets(&seen, opts));
        Ok((pages, facets))
    }

    fn idf(&self, postings: &[crate::format::Posting], params: &crate::format::Bm25Params) -> f32 {
        let df = postings
            .iter()
            .filter(|p| (0..SCORED_FIELDS).any(|f| p.tf[f] > 0 && params.weights[f] > 0.0))
            .count() as f32;
        let n = self.manifest.num_chunks as f32;
        libm::logf(1.0 + (n - df + 0.5) / (df + 0.5))
    }

    fn explain<'s>(
        &self,
        plan: &QueryPlan,
        get: &impl Fn(usize) -> Result<&'s TermShard, SearchError>,
        chunk: u32,
        params: &crate::format::Bm25Params,
        avg: &[f32; SCORED_FIELDS],
    ) -> Result<Explanation, SearchError> {
        let mut ex = Explanation {
            chunk,
            ..Default::default()
        };
        for qt in &plan.terms {
            let Some(si) = qt.shard else { continue };
            let Some(tp) = get(si)?.get(&qt.text) else {
                continue;
            };
            let Ok(pi) = tp.postings.binary_search_by_key(&chunk, |p| p.chunk) else {
                continue;
            };
            let p = &tp.postings[pi];
            let idf = self.idf(&tp.postings, params);
            let contribution = bm25f_term(p, idf, qt.weight, params, avg);
            let fields = (0..SCORED_FIELDS)
                .filter(|&f| p.tf[f] > 0)
                .map(|f| (Field::ALL[f].name(), p.tf[f], id_to_fieldnorm(p.norm[f])))
                .collect();
            ex.bm25 += contribution;
            ex.terms.push(TermExplanation {
                term: qt.text.clone(),
                idf,
                weight: qt.weight,
                fields,
                contribution,
            });
        }
        if let Some(p) = &plan.prefix {
            let scores = self.prefix_scores(p, get, params, avg)?;
            if let Ok(i) = scores.binary_search_by_key(&chunk, |e| e.0) {
                let (_, x, term) = scores[i];
                ex.bm25 += x;
                ex.terms.push(TermExplanation {
                    term: format!("{}* → {term}", p.text),
                    idf: 0.0,
                    weight: p.weight * PREFIX_DAMPING,
                    fields: Vec::new(),
                    contribution: x,
                });
            }
        }
        for ek in &plan.exact {
            let Some(si) = ek.shard else { continue };
            let Some(tp) = get(si)?.get(&ek.key) else {
                continue;
            };
            if tp
                .postings
                .binary_search_by_key(&chunk, |p| p.chunk)
                .is_ok()
            {
                ex.boosts.push((ek.label, ek.boost));
            }
        }
        Ok(ex)
    }

    /// Metadata shard indexes needed to display `hits`, sorted, without duplicates.
    pub fn meta_shards_for(&self, hits: &[PageHit]) -> Vec<usize> {
        let set: BTreeSet<usize> = hits
            .iter()
            .filter_map(|h| self.manifest.meta_shard_for(h.page))
            .collect();
        set.into_iter().collect()
    }

    /// Joins ranked pages with their metadata.
    pub fn assemble<'s>(
        &self,
        hits: Vec<PageHit>,
        meta: impl Fn(usize) -> Option<&'s MetaShard>,
    ) -> Result<Vec<SearchResult>, SearchError> {
        let mut out = Vec::with_capacity(hits.len());
        for hit in hits {
            let mi = self
                .manifest
                .meta_shard_for(hit.page)
                .ok_or_else(|| SearchError::MetaMismatch(format!("page {}", hit.page)))?;
            let file = &self.manifest.meta_shards[mi].file;
            let shard = meta(mi).ok_or_else(|| SearchError::MissingMetaShard(file.clone()))?;
            let page_meta: &PageMeta = hit
                .page
                .checked_sub(shard.first_page)
                .and_then(|i| shard.pages.get(i as usize))
                .ok_or_else(|| SearchError::MetaMismatch(file.clone()))?;
            let entry = &self.manifest.pages[hit.page as usize];
            if page_meta.chunks.len() != entry.chunk_count as usize
                || shard.first_page != self.manifest.meta_shards[mi].first_page
            {
                return Err(SearchError::MetaMismatch(file.clone()));
            }
            let first_chunk = self.page_first_chunk[hit.page as usize];
            let sections = hit
                .sections
                .iter()
                .map(|s| {
                    let c = &page_meta.chunks[(s.chunk - first_chunk) as usize];
                    SectionResult {
                        anchor: c.anchor.clone(),
                        title: c.title.clone(),
                        url: if c.anchor.is_empty() {
                            page_meta.url.clone()
                        } else {
                            format!("{}#{}", page_meta.url, c.anchor)
                        },
                        score: s.score,
                        excerpt: c.excerpt.clone(),
                    }
                })
                .collect();
            out.push(SearchResult {
                page: hit.page,
                id: page_meta.id.clone(),
                url: page_meta.url.clone(),
                title: page_meta.title.clone(),
                kind: entry.kind,
                score: hit.score,
                breadcrumb: page_meta.breadcrumb.clone(),
                sections,
                explanation: hit.explanation,
                api: page_meta.api.clone(),
            });
        }
        Ok(out)
    }
}

/// The fewest letters a stem of a typed word of `chars` letters is taken to have: stems of at least 5
/// letters, and English suffixes the stemmer removes are at most 7 letters (`-ication`), so a typed
/// word one letter short of its whole is at most 6 past its stem.
fn min_stem_chars(chars: usize) -> usize {
    5.max(chars.saturating_sub(6))
}

/// Whether `term` may be the stem of a word that starts with `typed`: `typed` starts with it, and it
/// is long enough ([`min_stem_chars`]): `authenticati` → `authent`, `tokenizat` → `token`, but
/// `authen` ↛ `auth`.
fn is_truncated_stem(term: &str, typed: &str) -> bool {
    term.len() < typed.len()
        && typed.starts_with(term)
        && term.chars().count() >= min_stem_chars(typed.chars().count())
}

/// BM25F contribution of one term to one chunk: field frequencies are length-normalized per field,
/// weighted, summed, then saturated once (Robertson & Zaragoza's BM25F).
#[allow(clippy::needless_range_loop)] // four parallel per-field arrays
pub fn bm25f_term(
    p: &crate::format::Posting,
    idf: f32,
    weight: f32,
    params: &crate::format::Bm25Params,
    avg: &[f32; SCORED_FIELDS],
) -> f32 {
    let mut tf = 0f32;
    for f in 0..SCORED_FIELDS {
        if p.tf[f] == 0 || params.weights[f] == 0.0 {
            continue;
        }
        let len = id_to_fieldnorm(p.norm[f]) as f32;
        let norm = if avg[f] > 0.0 {
            1.0 - params.b + params.b * len / avg[f]
        } else {
            1.0
        };
        tf += params.weights[f] * p.tf[f] as f32 / norm;
    }
    if tf == 0.0 {
        return 0.0;
    }
    weight * idf * (params.k1 + 1.0) * tf / (params.k1 + tf)
}

/// The other ways an identifier is written: `getUserById`, `get_user_by_id`, `get-user-by-id` and
/// `getuserbyid` are one name, and a reader types whichever they remember. Whole identifiers are
/// indexed as written, so the query also asks for the joined, snake and kebab forms of its parts
/// where that costs no extra fetch (see `plan_words`). Only names of plain parts joined by `_` or `-`
/// or by case: paths, dotted names and `C++` keep their one form.
/// The query's quoted phrases of two terms or more, analyzed as the rest of the query: words and
/// identifier parts with their offsets (whole identifiers sit at their first part's position, so the
/// parts carry the order).
fn phrases(query: &str, analyzer: Analyzer) -> Vec<Phrase> {
    let mut out = Vec::new();
    for (start, end) in crate::typos::quoted_spans(query) {
        let quote = query[start..].chars().next().map_or(1, char::len_utf8);
        let inner = query.get(start + quote..end).unwrap_or("");
        let toks: Vec<_> = analyzer
            .analyze(inner)
            .into_iter()
            .filter(|t| t.kind != TokenKind::Identifier)
            .collect();
        let Some(first) = toks.first().map(|t| t.position) else {
            continue;
        };
        let terms: Vec<(String, u32)> = toks
            .into_iter()
            .map(|t| (t.text, t.position - first))
            .collect();
        if terms.len() >= 2 {
            out.push(Phrase {
                terms,
                chunks: None,
            });
        }
    }
    out
}

pub fn separator_forms(raw: &str) -> Vec<String> {
    let mut forms: Vec<String> = Vec::new();
    if raw
        .chars()
        .any(|c| !c.is_alphanumeric() && c != '_' && c != '-')
    {
        return forms;
    }
    let parts = crate::analyzer::split_identifier(raw);
    if parts.len() < 2 {
        return forms;
    }
    let whole = crate::analyzer::fold(raw);
    for sep in ["", "_", "-"] {
        let mut form = String::new();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                form.push_str(sep);
            }
            form.push_str(&crate::analyzer::fold(part));
        }
        if form != whole && form.len() <= crate::analyzer::MAX_TOKEN_BYTES && !forms.contains(&form)
        {
            forms.push(form);
        }
    }
    forms
}

#[cfg(test)]
mod prefix_tests {
    //! Issue 6: the last word typed is also a prefix.
    use super::*;
    use crate::format::{
        Audience, Bm25Params, Kind, Manifest, MetaShardEntry, PageEntry, TermShard, TermShardEntry,
    };

    /// One chunk per text, indexed as the indexer does (analyzer terms in the body field), in term
    /// shards of at most `per_shard` terms.
    pub(super) fn index(texts: &[&str], per_shard: usize) -> (Searcher, Vec<TermShard>) {
        let all = crate::format::analyzed_postings(texts, 6);
        let shards: Vec<TermShard> = all
            .chunks(per_shard)
            .map(|c| TermShard { terms: c.to_vec() })
            .collect();
        let n = texts.len() as u32;
        let manifest = Manifest {
            build_id: "b".into(),
            generator: "t".into(),
            analyzer_version: crate::ANALYZER_VERSION,
            audience: Audience::Public,
            params: Bm25Params::default(),
            num_chunks: n,
            field_tokens: [0, 0, 6 * n as u64, 0],
            groups: Vec::new(),
            tags: Vec::new(),
            tagsets: Vec::new(),
            pages: (0..n)
                .map(|_| PageEntry {
                    chunk_count: 1,
                    kind: Kind::Docs,
                    group: None,
                    tagset: 0,
                    language: None,
                    version: None,
                })
                .collect(),
            term_shards: shards
                .iter()
                .enumerate()
                .map(|(i, s)| TermShardEntry {
                    first: s.terms[0].term.clone(),
                    file: format!("t/{i}.bin"),
                    term_count: s.terms.len() as u32,
                    filter: None,
                })
                .collect(),
            meta_shards: vec![MetaShardEntry {
                first_page: 0,
                page_count: n,
                file: "m/0.bin".into(),
            }],
            vectors: None,
            typos: None,
            languages: Vec::new(),
            positions: None,
            versions: Vec::new(),
        };
        (Searcher::new(manifest).unwrap(), shards)
    }

    fn ranked(s: &Searcher, shards: &[TermShard], query: &str, prefix: bool) -> Vec<u32> {
        let plan = s.plan_prefix(query, prefix, None);
        let opts = SearchOptions {
            prefix,
            ..Default::default()
        };
        s.rank(&plan, |i| shards.get(i), &opts)
            .unwrap()
            .into_iter()
            .map(|h| h.page)
            .collect()
    }

    const TEXTS: [&str; 5] = [
        "Authentication with API keys and passwords",
        "Rotate an author's avatar",
        "Auth tokens expire after an hour",
        "Call getUserById to read a user",
        "Webhooks retry failed deliveries",
    ];

    #[test]
    fn issue_6_the_last_word_typed_matches_longer_words() {
        let (s, shards) = index(&TEXTS, 4);
        // Without prefix search a partial word finds nothing.
        assert!(ranked(&s, &shards, "authen", false).is_empty());
        assert_eq!(ranked(&s, &shards, "authen", true), vec![0]);
        // A typed word longer than its stem (`authent`) still finds it.
        assert_eq!(ranked(&s, &shards, "authenticati", true), vec![0]);
        // Identifiers are prefixes of their whole form.
        assert_eq!(ranked(&s, &shards, "getuserb", true), vec![3]);
        assert_eq!(ranked(&s, &shards, "call getUserB", true)[0], 3);
        // Only the last word: a finished word followed by a space is matched whole.
        assert!(ranked(&s, &shards, "webhoo ", true).is_empty());
        // Too short to expand.
        assert!(ranked(&s, &shards, "we", true).is_empty());
    }

    #[test]
    fn issue_6_identifiers_match_in_any_separator_form() {
        let texts = [
            "Call get_user_by_id",
            "Get the user id: get a user and its id, user by user",
            "Send x-request-id",
            "Every request has an id: the request id, an x of the request",
            "Then get_zebra",
        ];
        // A term per shard, so that `get-user-by-id`, `get_user_by_id` and `getuserbyid` sort into
        // different shards (`get_zebra` sorts between the last two).
        let (plain, shards) = index(&texts, 1);
        // Without filters a form is asked for only in a shard the query reads anyway: never a fetch
        // of its own (sites past about 21,000 terms have no filters).
        for q in ["get-user-by-id", "getUserById", "X_Request_Id"] {
            let plan = plain.plan(q);
            let own: BTreeSet<usize> = Analyzer::english()
                .analyze(q)
                .into_iter()
                .filter_map(|t| plain.locate(&t.text))
                .chain(plan.exact.iter().filter_map(|e| e.shard))
                .collect();
            assert_eq!(plan.shards, own.into_iter().collect::<Vec<_>>(), "{q}");
        }
        // With filters (what smaller sites have) every form the site uses is found.
        let mut manifest = plain.manifest.clone();
        for (entry, shard) in manifest.term_shards.iter_mut().zip(&shards) {
            entry.filter =
                crate::filter::TermFilter::build(shard.terms.iter().map(|t| t.term.as_str()));
        }
        let s = Searcher::new(manifest).unwrap();
        // (A name typed joined, `getuserbyid`, finds `getUserById` but not `get_user_by_id`: that
        // needs the index to store the joined form too, an analyzer change.)
        for q in ["getUserById", "get-user-by-id", "GET_USER_BY_ID"] {
            let r = ranked(&s, &shards, q, false);
            assert_eq!(r.first(), Some(&0), "{q}: {r:?}");
        }
        for q in ["X_Request_Id", "xRequestId"] {
            assert_eq!(ranked(&s, &shards, q, false).first(), Some(&2), "{q}");
        }
        assert_eq!(
            separator_forms("getUserById"),
            vec!["get_user_by_id", "get-user-by-id"]
        );
        assert_eq!(
            separator_forms("X-Request-ID"),
            vec!["xrequestid", "x_request_id"]
        );
        assert!(separator_forms("docs.json").is_empty());
        assert!(separator_forms("/v1/users").is_empty());
        // The form the site uses is an identifier term of the plan, boosted as the form typed; the
        // forms it does not use are ruled out by the filters.
        let plan = s.plan("getUserById");
        let w = |t: &str| plan.terms.iter().find(|x| x.text == t).map(|x| x.weight);
        assert_eq!(w("get_user_by_id"), Some(IDENTIFIER_BOOST));
        assert_eq!(w("get-user-by-id"), None);
    }

    #[test]
    fn issue_6_exact_words_outrank_their_extensions() {
        let (s, shards) = index(&TEXTS, 4);
        // "auth" is a word of page 2 and the start of words of pages 0 and 1.
        let hits = ranked(&s, &shards, "auth", true);
        assert_eq!(hits[0], 2, "{hits:?}");
        assert!(hits.contains(&0) && hits.contains(&1), "{hits:?}");
        // The prefix adds the better of the whole word and its best extension, never both.
        let plan = s.plan_prefix("auth", true, None);
        let p = plan.prefix.as_ref().unwrap();
        assert_eq!(p.whole.as_deref(), Some("auth"));
        let opts = SearchOptions {
            prefix: true,
            explain: true,
            ..Default::default()
        };
        let hits = s.rank(&plan, |i| shards.get(i), &opts).unwrap();
        let whole = hits.iter().find(|h| h.page == 2).unwrap();
        let ex = whole.explanation.as_ref().unwrap();
        assert_eq!(ex.terms.len(), 1, "{ex:?}");
        let extension = hits.iter().find(|h| h.page == 0).unwrap();
        let ex = extension.explanation.as_ref().unwrap();
        assert!(ex.terms[0].term.starts_with("auth* → "), "{ex:?}");
    }

    #[test]
    fn issue_6_a_prefix_reads_a_bounded_number_of_shards() {
        // One term per shard: a prefix shared by many terms still reads at most PREFIX_MAX_SHARDS.
        let texts: Vec<String> = (0..40).map(|i| format!("config{i:02}")).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let (s, shards) = index(&refs, 1);
        let plan = s.plan_prefix("conf", true, None);
        let p = plan.prefix.as_ref().unwrap();
        assert!(
            !p.shards.is_empty() && p.shards.len() <= PREFIX_MAX_SHARDS,
            "{:?}",
            p.shards
        );
        assert!(!ranked(&s, &shards, "conf", true).is_empty());
        // Plans without prefix search are unchanged.
        assert_eq!(s.plan_prefix("conf", false, None), s.plan("conf"));
    }
}

#[cfg(test)]
mod typo_tests {
    //! Issue 6: words the index lacks are corrected to the indexed words they most likely meant.
    use super::*;
    use crate::format::TermShard;
    use crate::typos::{Correction, TypoDirectory, TypoShard, TypoWord};

    const TEXTS: [&str; 5] = [
        "Vitamin D deficiency and cancer",
        "Vitals monitoring in intensive care",
        "Authentication with tokens",
        "Call getUserById to read a user",
        "Cancer screening guidelines",
    ];

    /// The example index with its words in one typo shard.
    fn index() -> (Searcher, Vec<TermShard>, TypoDirectory, TypoShard) {
        let (s, shards) = super::prefix_tests::index(&TEXTS, 3);
        let mut manifest = s.manifest.clone();
        manifest.typos = Some("y/d.bin".into());
        let mut words: Vec<String> = Vec::new();
        for t in TEXTS {
            for tok in Analyzer::english().analyze(t) {
                let w = crate::analyzer::fold(&t[tok.offset_from..tok.offset_to]);
                if tok.kind == TokenKind::Word
                    && crate::typos::is_typo_word(&w, 3)
                    && !words.contains(&w)
                {
                    words.push(w);
                }
            }
        }
        words.sort();
        let typo = TypoShard {
            words: words
                .into_iter()
                .map(|word| TypoWord { word, frequency: 1 })
                .collect(),
        };
        let dir = TypoDirectory {
            shard_prefix: "y/s-".into(),
            separators: Vec::new(),
        };
        (Searcher::new(manifest).unwrap(), shards, dir, typo)
    }

    fn corrections(query: &str, prefix: bool) -> Vec<Correction> {
        let (s, shards, dir, typo) = index();
        let plan = s.plan_prefix(query, prefix, None);
        s.corrections(query, &plan, |i| shards.get(i), Some(&dir), |_| Some(&typo))
            .unwrap()
    }

    fn pairs(c: &[Correction]) -> Vec<(&str, &str)> {
        c.iter().map(|c| (c.from.as_str(), c.to.as_str())).collect()
    }

    #[test]
    fn issue_6_misspelled_words_are_corrected_to_indexed_words() {
        let c = corrections("Vitamn D deficency", false);
        assert_eq!(
            pairs(&c),
            vec![("vitamn", "vitamin"), ("deficency", "deficiency")]
        );
        assert_eq!(
            crate::typos::corrected_query("Vitamn D deficency", &c),
            "vitamin D deficiency"
        );
        // Indexed words, short words, identifiers and quoted words are left alone.
        assert!(corrections("vitamin cancer", false).is_empty());
        assert!(corrections("cnacer", false).len() == 1);
        assert!(corrections("vit", false).is_empty());
        assert!(corrections("getUserByIdd", false).is_empty());
        assert!(corrections("\"vitamn\" levels", false).is_empty());
        // Nothing within reach: nothing corrected.
        assert!(corrections("zzzzqqqq", false).is_empty());
    }

    #[test]
    fn issue_6_a_word_still_being_typed_is_not_a_typo() {
        // "scree" starts "screening": prefix search finds it, typo tolerance stays out of the way.
        assert!(corrections("cancer scree", true).is_empty());
        // Nor is one that runs past an indexed stem ("screenig" starts "screen", the stem of
        // "screening": prefix search finds that).
        assert!(corrections("cancer screenig", true).is_empty());
        // Once nothing indexed starts with it or is started by it, it is corrected.
        assert_eq!(
            pairs(&corrections("cancer screeming", true)),
            vec![("screeming", "screening")]
        );
    }

    #[test]
    fn issue_6_corrections_name_their_files_round_by_round() {
        let (s, shards, dir, typo) = index();
        let q = "vitamn levels";
        let plan = s.plan(q);
        let none = |_: usize| -> Option<&TermShard> { None };
        let need = s.corrections(q, &plan, none, None, |_| None).unwrap_err();
        assert!(
            need.iter().all(|n| matches!(n, TypoNeed::TermShard(_))),
            "{need:?}"
        );
        let terms = |i: usize| shards.get(i);
        assert_eq!(
            s.corrections(q, &plan, terms, None, |_| None).unwrap_err(),
            vec![TypoNeed::Directory]
        );
        assert_eq!(
            s.corrections(q, &plan, terms, Some(&dir), |_| None)
                .unwrap_err(),
            vec![TypoNeed::Shard(0)]
        );
        assert_eq!(
            s.corrections(q, &plan, terms, Some(&dir), |_| Some(&typo))
                .unwrap()
                .len(),
            1
        );
        // An index without typo files corrects nothing and needs nothing.
        let (plain, _) = super::prefix_tests::index(&TEXTS, 3);
        assert_eq!(
            plain.corrections(q, &plan, none, None, |_| None),
            Ok(Vec::new())
        );
    }

    #[test]
    fn issue_6_a_corrected_word_ranks_below_the_word_typed_right() {
        let (s, shards, _, _) = index();
        let opts = SearchOptions::default();
        let c = vec![Correction {
            from: "vitamn".into(),
            to: "vitamin".into(),
        }];
        let fixed = s.corrected_plan(s.plan("vitamn"), &c);
        let hits = s.rank(&fixed, |i| shards.get(i), &opts).unwrap();
        assert_eq!(hits.iter().map(|h| h.page).collect::<Vec<_>>(), vec![0]);
        let exact = s
            .rank(&s.plan("vitamin"), |i| shards.get(i), &opts)
            .unwrap();
        let ratio = hits[0].score / exact[0].score;
        assert!((ratio - crate::typos::TYPO_DAMPING).abs() < 1e-4, "{ratio}");
    }
}

#[cfg(test)]
mod language_tests {
    //! Issue 6: a reader's language selects that language's pages.
    use super::*;

    #[test]
    fn issue_6_a_readers_language_selects_its_pages() {
        let texts = [
            "Quickstart guide",
            "Guide de démarrage",
            "Quickstart API reference",
        ];
        let (s, shards) = super::prefix_tests::index(&texts, 8);
        let mut m = s.manifest.clone();
        m.languages = vec!["en".into(), "fr".into()];
        m.pages[0].language = Some(0);
        m.pages[1].language = Some(1);
        m.pages[2].language = None; // no language: every reader sees it
        let s = Searcher::new(m).unwrap();
        let pages = |q: &str, lang: Option<&str>| -> Vec<u32> {
            let opts = SearchOptions {
                language: lang.map(str::to_owned),
                ..Default::default()
            };
            let mut p: Vec<u32> = s
                .rank(&s.plan(q), |i| shards.get(i), &opts)
                .unwrap()
                .into_iter()
                .map(|h| h.page)
                .collect();
            p.sort_unstable();
            p
        };
        assert_eq!(pages("guide", None), vec![0, 1]);
        assert_eq!(pages("guide", Some("fr")), vec![1]);
        assert_eq!(pages("guide", Some("FR-ca")), vec![1]);
        assert_eq!(pages("quickstart", Some("en-US")), vec![0, 2]);
        assert_eq!(pages("quickstart", Some("fr")), vec![2]);
        // A language the index lacks filters nothing.
        assert_eq!(pages("guide", Some("de")), vec![0, 1]);
        assert_eq!(s.language_id("zh"), None);
        assert_eq!(s.language_id("en"), Some(0));
    }

    #[test]
    fn issue_6_a_query_is_read_with_its_readers_language_analyzer() {
        let (s, shards) = super::prefix_tests::index(&["Guide de démarrage", "Quickstart"], 8);
        let mut m = s.manifest.clone();
        m.languages = vec!["en".into(), "fr".into()];
        m.pages[1].language = Some(1);
        let s = Searcher::new(m.clone()).unwrap();
        let terms = |lang: Option<&str>| -> Vec<String> {
            let plan = s.plan_prefix("les déploiements", false, lang);
            plan.terms.into_iter().map(|t| t.text).collect()
        };
        // English: `les` is a word, `deploiements` stems as English; French: `les` is a stopword
        // and the stemmer reads the accents.
        assert_eq!(terms(None), ["deploiement", "les"]);
        assert_eq!(terms(Some("en")), terms(None));
        let fr = Analyzer::for_language(Some("fr"));
        if cfg!(feature = "stemmers") {
            assert_eq!(
                terms(Some("fr-FR")),
                [fr.analyze("déploiements")[0].text.clone()]
            );
        }
        assert_eq!(
            fr.missing_stemmer().is_some(),
            cfg!(not(feature = "stemmers"))
        );
        // A language the index has no page in reads the query as English.
        assert_eq!(terms(Some("de")), terms(None));
        // A reader without the language's stemmer refuses to rank rather than rank unstemmed words.
        let opts = SearchOptions {
            language: Some("fr".into()),
            ..Default::default()
        };
        let ranked = s.rank(
            &s.plan_prefix("guide", false, Some("fr")),
            |i| shards.get(i),
            &opts,
        );
        if cfg!(feature = "stemmers") {
            assert!(ranked.is_ok());
        } else {
            assert_eq!(
                ranked.unwrap_err(),
                SearchError::MissingStemmer {
                    language: "fr".into(),
                    stemmer: "french"
                }
            );
        }
        // An index of analyzer version 2 reads every query as English, whatever the language.
        m.analyzer_version = 2;
        let v2 = Searcher::new(m).unwrap();
        let plan = v2.plan_prefix("les déploiements", false, Some("fr"));
        assert_eq!(plan.terms.len(), 2);
        assert!(plan.analyzer.missing_stemmer().is_none());
    }
}

#[cfg(test)]
mod facet_tests {
    //! Issue 6: facet counts for the current query and compound tag filters.
    use super::*;

    /// Five pages that all match "token": kinds, tags, groups and languages vary.
    fn searcher() -> (Searcher, Vec<TermShard>) {
        let texts = [
            "token refresh guide",
            "token api reference",
            "token api errors",
            "rotate a token",
            "jeton token",
        ];
        let (s, shards) = super::prefix_tests::index(&texts, 8);
        let mut m = s.manifest.clone();
        m.tags = vec!["auth".into(), "beta".into(), "errors".into()];
        m.tagsets = vec![vec![], vec![0], vec![0, 1], vec![2]];
        m.groups = vec!["Guides".into(), "API > Tokens".into()];
        m.languages = vec!["en".into(), "fr".into()];
        m.versions = vec!["v1".into(), "v2".into()];
        let pages = [
            (Kind::Docs, Some(0), 1, Some(0), Some(1)),
            (Kind::Api, Some(1), 2, Some(0), Some(1)),
            (Kind::Api, Some(1), 3, Some(0), Some(0)),
            (Kind::Docs, None, 0, Some(0), None),
            (Kind::Docs, Some(0), 1, Some(1), Some(1)),
        ];
        for (p, (kind, group, tagset, language, version)) in m.pages.iter_mut().zip(pages) {
            p.kind = kind;
            p.group = group;
            p.tagset = tagset;
            p.language = language;
            p.version = version;
        }
        (Searcher::new(m).unwrap(), shards)
    }

    fn run(s: &Searcher, shards: &[TermShard], opts: SearchOptions) -> (Vec<u32>, Facets) {
        let opts = SearchOptions {
            facets: true,
            ..opts
        };
        let plan = s.plan("token");
        let (hits, _, facets) = s
            .rank_faceted(
                &plan,
                |i| shards.get(i),
                None::<VectorQuery<'_, fn(usize) -> Option<&'static crate::vectors::VectorShard>>>,
                &opts,
            )
            .unwrap();
        let mut pages: Vec<u32> = hits.into_iter().map(|h| h.page).collect();
        pages.sort_unstable();
        (pages, facets.unwrap())
    }

    fn pairs(v: &[(&str, u32)]) -> Vec<(String, u32)> {
        v.iter().map(|&(a, n)| (a.to_owned(), n)).collect()
    }

    #[test]
    fn issue_6_facets_count_every_match_by_kind_tag_group_and_language() {
        let (s, shards) = searcher();
        let (pages, f) = run(&s, &shards, SearchOptions::default());
        assert_eq!(pages, [0, 1, 2, 3, 4]);
        assert_eq!(f.kind, pairs(&[("docs", 3), ("api", 2)]));
        // Commonest first, ties by name.
        assert_eq!(f.tag, pairs(&[("auth", 3), ("beta", 1), ("errors", 1)]));
        assert_eq!(f.group, pairs(&[("API > Tokens", 2), ("Guides", 2)]));
        assert_eq!(f.language, pairs(&[("en", 4), ("fr", 1)]));
        assert_eq!(f.version, pairs(&[("v2", 3), ("v1", 1)]));
        // Without `facets`, none are counted.
        let (_, _, none) = s
            .rank_faceted(
                &s.plan("token"),
                |i| shards.get(i),
                None::<VectorQuery<'_, fn(usize) -> Option<&'static crate::vectors::VectorShard>>>,
                &SearchOptions::default(),
            )
            .unwrap();
        assert!(none.is_none());
    }

    #[test]
    fn issue_6_a_facet_ignores_its_own_filter_and_applies_the_others() {
        let (s, shards) = searcher();
        let api = SearchOptions {
            kinds: vec![Kind::Api],
            ..Default::default()
        };
        let (pages, f) = run(&s, &shards, api);
        assert_eq!(pages, [1, 2]);
        // The kind facet still counts docs pages (the reader may switch)...
        assert_eq!(f.kind, pairs(&[("docs", 3), ("api", 2)]));
        // ... the others count only the api pages.
        assert_eq!(f.tag, pairs(&[("auth", 1), ("beta", 1), ("errors", 1)]));
        assert_eq!(f.language, pairs(&[("en", 2)]));
        // A language filter narrows every facet but the language one.
        let fr = SearchOptions {
            language: Some("fr".into()),
            ..Default::default()
        };
        let (pages, f) = run(&s, &shards, fr);
        assert_eq!(pages, [4]);
        assert_eq!(f.language, pairs(&[("en", 4), ("fr", 1)]));
        assert_eq!(f.kind, pairs(&[("docs", 1)]));
        // A docs version keeps its pages and the pages in none (page 3); the version facet still
        // counts the other version; a version the index lacks filters nothing.
        let v1 = SearchOptions {
            version: Some("V1".into()),
            ..Default::default()
        };
        let (pages, f) = run(&s, &shards, v1);
        assert_eq!(pages, [2, 3]);
        assert_eq!(f.version, pairs(&[("v2", 3), ("v1", 1)]));
        assert_eq!(f.kind, pairs(&[("api", 1), ("docs", 1)]));
        let v9 = SearchOptions {
            version: Some("v9".into()),
            ..Default::default()
        };
        assert_eq!(run(&s, &shards, v9).0, [0, 1, 2, 3, 4]);
        // The limit keeps the commonest values.
        let (_, f) = run(
            &s,
            &shards,
            SearchOptions {
                facet_limit: 1,
                ..Default::default()
            },
        );
        assert_eq!(f.tag, pairs(&[("auth", 3)]));
    }

    #[test]
    fn issue_6_compound_tag_filters_all_any_none() {
        let (s, shards) = searcher();
        let tags = |all: &[&str], any: &[&str], none: &[&str]| -> Vec<u32> {
            let owned = |v: &[&str]| v.iter().map(|t| t.to_string()).collect();
            run(
                &s,
                &shards,
                SearchOptions {
                    tags: owned(all),
                    tags_any: owned(any),
                    tags_none: owned(none),
                    ..Default::default()
                },
            )
            .0
        };
        assert_eq!(tags(&["auth"], &[], &[]), [0, 1, 4]);
        assert_eq!(tags(&["auth", "beta"], &[], &[]), [1]);
        assert_eq!(tags(&[], &["beta", "errors"], &[]), [1, 2]);
        assert_eq!(tags(&[], &[], &["auth"]), [2, 3]);
        assert_eq!(tags(&["auth"], &[], &["BETA"]), [0, 4]); // tags match ignoring case
        assert_eq!(tags(&[], &["errors"], &["errors"]), Vec::<u32>::new());
    }
}

#[cfg(test)]
mod phrase_tests {
    //! Issue 6: quoted phrases match their words next to each other, in order, in one field.
    use super::*;
    use crate::positions::{PositionPosting, PositionShard};

    /// The prefix tests' index, with position shards aligned with its term shards (body field).
    fn index(texts: &[&str], per_shard: usize) -> (Searcher, Vec<TermShard>, Vec<PositionShard>) {
        let (s, shards) = super::prefix_tests::index(texts, per_shard);
        let mut at: BTreeMap<String, Vec<PositionPosting>> = BTreeMap::new();
        for (chunk, t) in texts.iter().enumerate() {
            for tok in Analyzer::english().analyze(t) {
                let list = at.entry(tok.text).or_default();
                if list.last().map(|p| p.chunk) != Some(chunk as u32) {
                    list.push(PositionPosting {
                        chunk: chunk as u32,
                        positions: Vec::new(),
                    });
                }
                let ps = &mut list.last_mut().unwrap().positions;
                let packed = crate::positions::pack(Field::Body as u8, tok.position);
                if ps.last() != Some(&packed) {
                    ps.push(packed);
                }
            }
        }
        let positions = shards
            .iter()
            .map(|t| PositionShard {
                terms: t.terms.iter().map(|p| at[&p.term].clone()).collect(),
            })
            .collect();
        let mut m = s.manifest.clone();
        m.positions = Some("p/x-".into());
        (Searcher::new(m).unwrap(), shards, positions)
    }

    fn ranked(
        s: &Searcher,
        shards: &[TermShard],
        positions: &[PositionShard],
        q: &str,
    ) -> Vec<u32> {
        let mut plan = s.plan(q);
        // Only the phrases' shards are needed, and they are named.
        for i in s.position_shards(&plan) {
            assert!(i < positions.len());
        }
        s.resolve_phrases(&mut plan, |i| shards.get(i), |i| positions.get(i))
            .unwrap();
        let mut pages: Vec<u32> = s
            .rank(&plan, |i| shards.get(i), &SearchOptions::default())
            .unwrap()
            .into_iter()
            .map(|h| h.page)
            .collect();
        pages.sort_unstable();
        pages
    }

    #[test]
    fn issue_6_quoted_phrases_need_their_words_in_order() {
        let texts = [
            "Refresh the token before it expires",
            "The token refresh endpoint",
            "Refresh a page, then read the token",
            "Call get_user_by_id with the user id",
            "快速入门指南",
        ];
        let (s, shards, positions) = index(&texts, 2);
        let r = |q: &str| ranked(&s, &shards, &positions, q);
        assert_eq!(r("refresh token"), [0, 1, 2]);
        // A stopword between the words is part of the phrase (both sides skip it the same way).
        assert_eq!(r("\"refresh the token\""), [0]);
        assert_eq!(r("\"token refresh\""), [1]);
        // Curly quotes too; the words outside the quotes rank as usual.
        assert_eq!(r("“token refresh” endpoint"), [1]);
        // Words present but apart, or a word the index lacks: nothing.
        assert!(r("\"refresh page token\"").is_empty());
        assert!(r("\"refresh zebra\"").is_empty());
        // Identifier parts keep their order; a one-word phrase is a plain word.
        assert_eq!(r("\"get_user_by_id with\""), [3]);
        assert_eq!(r("\"token\""), [0, 1, 2]);
        // CJK phrases by their bigrams.
        assert_eq!(r("\"快速入门\""), [4]);
        assert!(r("\"入门快速\"").is_empty());
        // An unterminated quote runs to the end of the query.
        assert_eq!(r("\"token refresh"), [1]);
    }

    #[test]
    fn issue_6_phrases_need_positions_and_name_their_files() {
        let texts = ["refresh the token", "token refresh"];
        let (s, shards, positions) = index(&texts, 1);
        let plan = s.plan("\"token refresh\" now");
        let mut want: Vec<usize> = ["token", "refresh"]
            .iter()
            .filter_map(|t| s.locate(t))
            .collect();
        want.sort_unstable();
        assert_eq!(s.position_shards(&plan), want);
        assert!(s.position_shards(&s.plan("token refresh")).is_empty());
        // A missing position shard is a typed error naming it.
        let mut p = plan.clone();
        let err = s
            .resolve_phrases(&mut p, |i| shards.get(i), |_| None)
            .unwrap_err();
        assert!(matches!(err, SearchError::MissingTermShard(f) if f.starts_with("p/x-")));
        // One that does not match its term shard too.
        let mut p = plan.clone();
        let empty = PositionShard::default();
        let err = s
            .resolve_phrases(&mut p, |i| shards.get(i), |_| Some(&empty))
            .unwrap_err();
        assert!(matches!(err, SearchError::PositionsMismatch(_)));
        // An index without positions (before format v7) ranks the phrase's words as plain words.
        let mut m = s.manifest.clone();
        m.positions = None;
        let old = Searcher::new(m).unwrap();
        let mut plan = old.plan("\"token refresh\"");
        assert!(old.position_shards(&plan).is_empty());
        old.resolve_phrases(&mut plan, |i| shards.get(i), |i| positions.get(i))
            .unwrap();
        let hits = old
            .rank(&plan, |i| shards.get(i), &SearchOptions::default())
            .unwrap();
        assert_eq!(hits.len(), 2);
    }
}
