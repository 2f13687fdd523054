//! Here are a query's ranked pages with their metadata and section text, and a token budget, give me
//! the evidence an assistant should read (issue 22): each top page's best section first, in rank
//! order, at most `tokens / (pages + 2)` of it (breadth: which pages answer; on CoNaLa train it put
//! the judged page in 2,000-token evidence for 0.588 of the intents where the best section by score
//! alone did for 0.505), then the other sections by score (depth), adjacent sections of
//! a page merged into one piece, near-duplicates dropped, at most `page_tokens` from any one page,
//! each piece with its citation, and the whole never over budget as [`crate::tokens::estimate`]
//! counts it (above cl100k's count on every corpus measured).
//!
//! What the budget bounds is the Markdown rendering ([`evidence_markdown`]: a citation header per
//! piece, then its text), what an agent reads; the JSON ([`crate::json::evidence_json`]) carries the
//! same pieces. After the breadth pass, sections are candidates in score order (section scores are
//! comparable across pages: a page scores its best section); a candidate that does not fit is cut
//! at a line, then a word (a code block it cuts is closed), when at least 48 tokens remain, else
//! skipped for a smaller one. A cut keeps the paragraphs where the query's terms are (the window
//! of whole paragraphs, outside code fences, that holds the most query-term weight, the earliest
//! of equals; an ellipsis marks a skipped start): on CoNaLa train (1,487 intents, Sphinx sources
//! of long reference pages) the judged section's definition was in 2,000-token evidence for 0.080
//! of the intents, against 0.024 when every cut kept a section's start (1,000 tokens: 0.032 against
//! 0.005; 4,000: 0.116 against 0.073); the judged page as often (0.729).

use crate::format::{ApiMeta, Kind};

use super::Mode;

#[cfg(feature = "evidence")]
mod read;
#[cfg(feature = "evidence")]
mod select;
#[cfg(feature = "evidence")]
pub use select::evidence_markdown;

/// Sections of one page an evidence query considers (the search box shows 3).
pub const EVIDENCE_SECTIONS: usize = 12;

/// What evidence to select, in tokens (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceOptions {
    /// The most tokens the evidence's Markdown may take.
    pub tokens: u32,
    /// The pages considered (the top ones of the ranking).
    pub pages: usize,
    /// The most tokens one page may take; `None`: half the budget (at least 96, so that a small
    /// budget still holds one piece with its citation).
    pub page_tokens: Option<u32>,
    /// The URL the site's root is served at (`https://docs.example.com`): citations become absolute
    /// (`https://docs.example.com/guides/x#a`), what an agent hands on; counted in the budget.
    pub site_url: Option<String>,
    /// The query is a page's URL, not words: the evidence is that page's text, or with an anchor
    /// (`/guides/x#a`) that section's, in reading order, cut to the budget ([`super::Searcher::read`]).
    pub read: bool,
}

/// The budgets a caller may ask for: below the smallest, no piece fits with its citation; above
/// the largest, one request would read a site's worth of text.
pub const EVIDENCE_TOKENS: core::ops::RangeInclusive<u32> = 100..=64_000;
/// The most pages an evidence query may consider.
pub const MAX_EVIDENCE_PAGES: usize = 50;

impl EvidenceOptions {
    /// Evidence of `tokens` from the top 10 pages, at most half of it from one page; `None` for a
    /// budget outside [`EVIDENCE_TOKENS`].
    pub fn new(tokens: u32) -> Option<Self> {
        EVIDENCE_TOKENS
            .contains(&tokens)
            .then_some(EvidenceOptions {
                tokens,
                pages: 10,
                page_tokens: None,
                site_url: None,
                read: false,
            })
    }
}

/// One citable piece of evidence: one section, or adjacent sections of one page.
#[derive(Debug, Clone, PartialEq)]
pub struct EvidencePiece {
    /// The page's ordinal and its rank among the query's pages (0 = first).
    pub page: u32,
    pub page_rank: u32,
    pub page_id: String,
    pub page_title: String,
    /// The first section's title and heading path (empty for the page's summary).
    pub section: String,
    pub heading_path: Vec<String>,
    /// The page URL with the first section's anchor.
    pub url: String,
    pub breadcrumb: Vec<String>,
    pub kind: Kind,
    pub api: Option<ApiMeta>,
    /// The chunk ordinals the piece holds, ascending and adjacent.
    pub chunks: Vec<u32>,
    /// The best section score among them.
    pub score: f32,
    pub text: String,
    /// Cut to fit the budget.
    pub truncated: bool,
    /// The estimated tokens of the piece's Markdown (header and text).
    pub tokens: u32,
}

/// The evidence of a query.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    pub pieces: Vec<EvidencePiece>,
    /// The estimated tokens of [`evidence_markdown`], never above `budget`.
    pub tokens: u32,
    pub budget: u32,
    /// How the pieces were found: the ranking's mode, and whether the query was corrected (typos, or
    /// quotes dropped).
    pub mode: Mode,
    pub corrected: bool,
    /// Sections of pages that have no text file (an index before format v9) stand in with their
    /// excerpt.
    pub excerpts_only: bool,
}
