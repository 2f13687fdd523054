//! What a caller may ask of a search: [`SearchOptions`], the ranking [`Mode`] and hybrid [`Fusion`], and their
//! defaults (tuned on train splits; the figures are on each constant).

use crate::format::Kind;

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
    /// Explain each result. Needs the `explain` feature: without it a [`QuerySession`](super::QuerySession)
    /// fails with [`SearchError::NoExplain`](super::SearchError::NoExplain) (the lean wasm module),
    /// and `Searcher::rank` explains nothing.
    pub explain: bool,
    /// Overrides the manifest's BM25 parameters (used by tuning and the tantivy parity test).
    pub params: Option<crate::format::Bm25Params>,
    /// Lexical, vector or hybrid ranking (vector and hybrid need a query vector and the index's vectors;
    /// without them ranking falls back to lexical).
    pub mode: Mode,
    pub fusion: Fusion,
    /// Vector partitions probed per query (0 = all, which is exact search).
    pub nprobe: usize,
    /// Each side's top pages whose chunks hybrid fusion considers (counted in pages, so that one
    /// long page's sections cannot take them all).
    pub candidates: usize,
    /// Read the query's last word, when no space follows it, also as the start of longer words (what
    /// a search box does while the reader types; see [`Searcher::plan_prefix`](super::Searcher::plan_prefix)).
    pub prefix: bool,
    /// Correct query words the index lacks to the indexed words they most likely meant
    /// ([`Searcher::corrections`](super::Searcher::corrections)); callers fetch the typo files it names and rank the corrected plan.
    pub typos: bool,
    /// The reader's language (`fr`, `zh-CN`): only pages in it (and pages without a language) are
    /// returned. Ignored when the index has no page in that language, so a reader whose language the
    /// site lacks still gets results.
    pub language: Option<String>,
    /// The docs version (`v2`): only pages in it (and pages in no version). Ignored when the index
    /// has no page in it.
    pub version: Option<String>,
    /// Count the matching pages by kind, tag, group, language and version ([`Facets`](super::Facets), from
    /// [`Searcher::rank_faceted`](super::Searcher::rank_faceted)).
    pub facets: bool,
    /// Values kept per facet, the commonest first (0 = all).
    pub facet_limit: usize,
    /// How a page's whole text adds to the score of its best chunk (see
    /// `search/page_evidence.rs`); weight 0 ranks a page by its best chunk alone.
    pub page: PageParams,
    /// Also select evidence under a token budget from the top pages' section text (issue 22).
    pub evidence: Option<super::evidence::EvidenceOptions>,
}

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

/// The default [`PageParams::weight`]. Chosen with [`DEFAULT_PAGE_K1`] and [`DEFAULT_PAGE_B`] on train
/// splits only, by the mean nDCG@10 of CoNaLa train (1,487 intents, long pages) and the pipecat-docs
/// questions' train split (`bench/queries/pipecat-docs`, 80 queries), with the Mintlify sites' title
/// queries not to lose. weight / k1 / b → CoNaLa / pipecat: none 0.283 / 0.630; the credit before
/// (idf per word absent from the best chunk, weight 0.6) 0.315 / 0.625; 0.6 / 1.2 / 0 0.380 / 0.623;
/// 0.3 / 2 / 0 0.365 / 0.659; 0.2 / 8 / 0.15 0.384 / 0.681; 0.15 / 12 / 0 0.436 / 0.669;
/// 0.1 / 50 / 0 0.491 / 0.673; **0.08 / 50 / 0 0.482 / 0.686**; 0.06 / 80 / 0 0.481 / 0.689;
/// 0.1 / 1000 / 0 (linear) 0.497 / 0.593, and titles lose (0.978 → 0.962). 0.08 / 50 and
/// 0.06 / 80 tie within the pipecat set's noise (80 queries); the larger CoNaLa set decides. Adding
/// the credit before as a second term (0.2–0.6 × idf per word absent from the best chunk) gained ≤
/// 0.006 on CoNaLa and lost up to 0.025 on pipecat: left out. SciFact is unchanged (pages of one
/// section get no credit).
pub const DEFAULT_PAGE_WEIGHT: f32 = 0.08;

/// How a page's whole text adds to its best chunk's score (see `search/page_evidence.rs`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageParams {
    /// The credit's weight; 0 ranks a page by its best chunk alone.
    pub weight: f32,
    /// BM25's k1 over the whole page.
    pub k1: f32,
    /// How much a page longer than average (in chunks) discounts its words, 0 to 1.
    pub b: f32,
}

impl Default for PageParams {
    fn default() -> Self {
        PageParams {
            weight: DEFAULT_PAGE_WEIGHT,
            k1: DEFAULT_PAGE_K1,
            b: DEFAULT_PAGE_B,
        }
    }
}

/// The default [`PageParams::k1`].
pub const DEFAULT_PAGE_K1: f32 = 50.0;

/// The default [`PageParams::b`].
pub const DEFAULT_PAGE_B: f32 = 0.0;

/// The default number of vector partitions probed (0 = all): at about 32 chunks per partition, 24
/// probes kept recall@10 against exact search at 0.97 on SciFact train with the static encoder.
pub const DEFAULT_NPROBE: usize = 24;

impl SearchOptions {
    /// Whether results carry explanations: asked for, and built with the `explain` feature (a
    /// constant false otherwise, so that the explaining code leaves the lean module).
    pub(super) fn explains(&self) -> bool {
        cfg!(feature = "explain") && self.explain
    }
}

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
            page: PageParams::default(),
            evidence: None,
        }
    }
}
