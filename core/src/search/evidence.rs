//! Here are a query's ranked pages with their metadata and section text, and a token budget, give me
//! the evidence an assistant should read (issue 22): the best sections first, adjacent sections of
//! a page merged into one piece, near-duplicates dropped, at most `page_tokens` from any one page,
//! each piece with its citation, and the whole never over budget as [`crate::tokens::estimate`]
//! counts it (an upper bound of cl100k's count).
//!
//! What the budget bounds is the Markdown rendering ([`evidence_markdown`]: a citation header per
//! piece, then its text), what an agent reads; the JSON ([`crate::json::evidence_json`]) carries the
//! same pieces. Sections are candidates in score order (section scores are comparable across pages:
//! a page scores its best section); a candidate that does not fit is cut at a line, then a word,
//! when at least [`MIN_PIECE_TOKENS`] remain, else skipped for a smaller one.

use crate::format::{ApiMeta, Kind, MetaShard, PageMeta, PageText};
use crate::tokens::estimate;

use super::{Mode, PageHit, SearchError, Searcher};

/// A piece smaller than this is not worth its citation.
pub const MIN_PIECE_TOKENS: u32 = 48;
/// Sections of one page an evidence query considers (the search box shows 3).
pub const EVIDENCE_SECTIONS: usize = 12;
/// Shingle overlap above which a section repeats one already taken (a page copied into another).
const DUPLICATE_OVERLAP: f32 = 0.8;

/// What evidence to select, in tokens (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvidenceOptions {
    /// The most tokens the evidence's Markdown may take.
    pub tokens: u32,
    /// The pages considered (the top ones of the ranking).
    pub pages: usize,
    /// The most tokens one page may take; `None`: half the budget.
    pub page_tokens: Option<u32>,
}

/// The budgets a caller may ask for: below the smallest, no piece fits with its citation; above
/// the largest, one request would read a site's worth of text.
pub const EVIDENCE_TOKENS: core::ops::RangeInclusive<u32> = 64..=64_000;
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
            })
    }

    fn page_cap(&self) -> u32 {
        self.page_tokens
            .unwrap_or(self.tokens / 2)
            .max(MIN_PIECE_TOKENS)
            .min(self.tokens)
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
    /// How the pieces were found: the ranking's mode, and whether typo corrections applied.
    pub mode: Mode,
    pub corrected: bool,
    /// Sections of pages that have no text file (an index before format v9) stand in with their
    /// excerpt.
    pub excerpts_only: bool,
}

struct Chosen {
    page_rank: u32,
    page: u32,
    chunk: u32,
    score: f32,
    text: String,
    truncated: bool,
}

impl Searcher {
    /// Selects the evidence of ranked `hits` (see the module docs). `meta(i)`: metadata shard `i`;
    /// `text(page)`: the page's section text, `None` where it has none.
    pub fn evidence<'s>(
        &self,
        hits: &[PageHit],
        meta: impl Fn(usize) -> Option<&'s MetaShard>,
        text: impl Fn(u32) -> Option<&'s PageText>,
        opts: &EvidenceOptions,
        mode: Mode,
        corrected: bool,
    ) -> Result<Evidence, SearchError> {
        let mut candidates: Vec<(u32, u32, f32)> = Vec::new();
        for (rank, hit) in hits.iter().take(opts.pages).enumerate() {
            for s in &hit.sections {
                candidates.push((rank as u32, s.chunk, s.score));
            }
        }
        candidates.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));

        let page_cap = opts.page_cap();
        let mut used_by_page: Vec<(u32, u32)> = Vec::new();
        let mut used: u32 = 0;
        let mut chosen: Vec<Chosen> = Vec::new();
        let mut shingles: Vec<Vec<u64>> = Vec::new();
        let mut excerpts_only = false;
        for (rank, chunk, score) in candidates {
            let hit = &hits[rank as usize];
            let page_meta = self.page_meta(hit.page, &meta)?;
            let first = self.page_first_chunk[hit.page as usize];
            let local = (chunk - first) as usize;
            let Some(cm) = page_meta.chunks.get(local) else {
                continue;
            };
            let body = match text(hit.page).and_then(|t| t.sections.get(local)) {
                Some(t) => t.as_str(),
                None => {
                    excerpts_only = true;
                    cm.excerpt.as_str()
                }
            };
            let body = body.trim();
            if body.is_empty() {
                continue;
            }
            let marks = shingle(body);
            if shingles
                .iter()
                .any(|s| overlap(s, &marks) >= DUPLICATE_OVERLAP)
            {
                continue;
            }
            let page_used = used_by_page
                .iter()
                .find(|(p, _)| *p == hit.page)
                .map_or(0, |(_, u)| *u);
            // A piece of its own costs its header; a section right after a chosen one of the page
            // joins that piece under a sub-heading. (One right before a chosen section is charged
            // a header of its own: it will head the merged piece, and the section after it then
            // needs only the sub-heading, shorter than the header charged for it.)
            let joins = chosen
                .iter()
                .any(|c| c.page == hit.page && c.chunk + 1 == chunk);
            let header = if joins {
                estimate(&sub_heading(&cm.title)) + 1
            } else {
                estimate(&piece_header(page_meta, cm)) + 1
            };
            let avail = (opts.tokens - used)
                .min(page_cap.saturating_sub(page_used))
                .saturating_sub(header);
            let (body, truncated) = if estimate(body) + 1 <= avail {
                (body.to_owned(), false)
            } else if avail >= MIN_PIECE_TOKENS {
                (cut_to(body, avail - 1), true)
            } else {
                continue;
            };
            if body.is_empty() {
                continue;
            }
            let cost = header + estimate(&body) + 1;
            used += cost;
            match used_by_page.iter_mut().find(|(p, _)| *p == hit.page) {
                Some((_, u)) => *u += cost,
                None => used_by_page.push((hit.page, cost)),
            }
            shingles.push(marks);
            chosen.push(Chosen {
                page_rank: rank,
                page: hit.page,
                chunk,
                score,
                text: body,
                truncated,
            });
            if opts.tokens - used < MIN_PIECE_TOKENS {
                break;
            }
        }

        // Adjacent sections of a page become one piece, in reading order.
        chosen.sort_by(|a, b| a.page.cmp(&b.page).then(a.chunk.cmp(&b.chunk)));
        let mut pieces: Vec<EvidencePiece> = Vec::new();
        for c in chosen {
            let page_meta = self.page_meta(c.page, &meta)?;
            let first = self.page_first_chunk[c.page as usize];
            let cm = &page_meta.chunks[(c.chunk - first) as usize];
            match pieces.last_mut() {
                Some(p) if p.page == c.page && p.chunks.last() == Some(&(c.chunk - 1)) => {
                    let prev = &page_meta.chunks[(c.chunk - 1 - first) as usize];
                    if cm.title != prev.title || cm.anchor != prev.anchor {
                        p.text.push_str("\n\n");
                        p.text.push_str(&sub_heading(&cm.title));
                    }
                    p.text.push_str("\n\n");
                    p.text.push_str(&c.text);
                    p.chunks.push(c.chunk);
                    p.score = p.score.max(c.score);
                    p.truncated |= c.truncated;
                }
                _ => pieces.push(EvidencePiece {
                    page: c.page,
                    page_rank: c.page_rank,
                    page_id: page_meta.id.clone(),
                    page_title: page_meta.title.clone(),
                    section: if cm.anchor.is_empty() {
                        String::new()
                    } else {
                        cm.title.clone()
                    },
                    heading_path: cm.heading_path.clone(),
                    url: if cm.anchor.is_empty() {
                        page_meta.url.clone()
                    } else {
                        format!("{}#{}", page_meta.url, cm.anchor)
                    },
                    breadcrumb: page_meta.breadcrumb.clone(),
                    kind: self.manifest.pages[c.page as usize].kind,
                    api: page_meta.api.clone(),
                    chunks: vec![c.chunk],
                    score: c.score,
                    text: c.text,
                    truncated: c.truncated,
                    tokens: 0,
                }),
            }
        }
        pieces.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(a.page_rank.cmp(&b.page_rank))
                .then(a.chunks[0].cmp(&b.chunks[0]))
        });
        for (n, p) in pieces.iter_mut().enumerate() {
            p.tokens = estimate(&piece_markdown(n + 1, p));
        }
        // What was charged bounds what the pieces cost (estimates of parts add up to at least the
        // estimate of the whole); should that ever fail, the budget still holds.
        while pieces.iter().map(|p| p.tokens).sum::<u32>() > opts.tokens {
            pieces.pop();
        }
        let tokens = pieces.iter().map(|p| p.tokens).sum();
        Ok(Evidence {
            pieces,
            tokens,
            budget: opts.tokens,
            mode,
            corrected,
            excerpts_only,
        })
    }

    fn page_meta<'s>(
        &self,
        page: u32,
        meta: &impl Fn(usize) -> Option<&'s MetaShard>,
    ) -> Result<&'s PageMeta, SearchError> {
        let mi = self
            .manifest
            .meta_shard_for(page)
            .ok_or_else(|| SearchError::MetaMismatch(format!("page {page}")))?;
        let file = &self.manifest.meta_shards[mi].file;
        let shard = meta(mi).ok_or_else(|| SearchError::MissingMetaShard(file.clone()))?;
        page.checked_sub(shard.first_page)
            .and_then(|i| shard.pages.get(i as usize))
            .filter(|p| p.chunks.len() == self.manifest.pages[page as usize].chunk_count as usize)
            .ok_or_else(|| SearchError::MetaMismatch(file.clone()))
    }
}

/// The Markdown an assistant reads: each piece under a numbered citation header.
pub fn evidence_markdown(e: &Evidence) -> String {
    let mut out = String::new();
    for (n, p) in e.pieces.iter().enumerate() {
        out.push_str(&piece_markdown(n + 1, p));
    }
    out
}

/// One piece: `### [n] Page › Section`, its URL, the API operation when there is one, the text.
fn piece_markdown(n: usize, p: &EvidencePiece) -> String {
    let mut out = header_of(n, &p.page_title, &p.section, &p.url, p.api.as_ref());
    out.push_str(&p.text);
    out.push_str("\n\n");
    out
}

/// The header a chunk would head its piece with, numbered as the widest number a budget of up to
/// 48 million tokens can reach (pieces are numbered only once chosen).
fn piece_header(page: &PageMeta, c: &crate::format::ChunkMeta) -> String {
    let section = if c.anchor.is_empty() { "" } else { &c.title };
    let url = if c.anchor.is_empty() {
        page.url.clone()
    } else {
        format!("{}#{}", page.url, c.anchor)
    };
    header_of(999_999, &page.title, section, &url, page.api.as_ref())
}

fn header_of(n: usize, title: &str, section: &str, url: &str, api: Option<&ApiMeta>) -> String {
    let mut out = String::from("### [");
    out.push_str(&n.to_string());
    out.push_str("] ");
    out.push_str(&one_line(title));
    if !section.is_empty() && section != title {
        out.push_str(" › ");
        out.push_str(&one_line(section));
    }
    out.push('\n');
    out.push_str(url);
    out.push('\n');
    if let Some(a) = api {
        out.push_str(&a.method);
        out.push(' ');
        out.push_str(&a.path);
        if !a.operation_id.is_empty() {
            out.push_str(" (");
            out.push_str(&a.operation_id);
            out.push(')');
        }
        out.push('\n');
    }
    out.push('\n');
    out
}

fn sub_heading(title: &str) -> String {
    format!("#### {}", one_line(title))
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The longest prefix of `text` whose estimate stays within `tokens`, ending at a line break when
/// one fits, else at a space; "…" marks the cut. Line estimates add up to at least the estimate of
/// their concatenation, so the sum bounds the result.
fn cut_to(text: &str, tokens: u32) -> String {
    let budget = tokens.saturating_sub(estimate(ELLIPSIS));
    let mut out = String::new();
    let mut used = 0;
    for line in text.split_inclusive('\n') {
        let cost = estimate(line);
        if used + cost <= budget {
            out.push_str(line);
            used += cost;
            continue;
        }
        for word in line.split_inclusive(' ') {
            let cost = estimate(word);
            if used + cost > budget {
                break;
            }
            out.push_str(word);
            used += cost;
        }
        break;
    }
    let mut out = out.trim_end().to_owned();
    if out.len() < text.trim_end().len() && !out.is_empty() {
        out.push_str(ELLIPSIS);
    }
    out
}

const ELLIPSIS: &str = "…";

/// Hashes of the text's word trigrams (lowercased ASCII words), sorted and deduplicated.
fn shingle(text: &str) -> Vec<u64> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut out: Vec<u64> = words
        .windows(3.min(words.len().max(1)))
        .map(|w| {
            // FNV-1a over the folded words.
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for word in w {
                for b in word.bytes() {
                    h = (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x100_0000_01b3);
                }
                h = (h ^ 0x20).wrapping_mul(0x100_0000_01b3);
            }
            h
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The share of the smaller set found in the larger (both sorted).
fn overlap(a: &[u64], b: &[u64]) -> f32 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let common = small
        .iter()
        .filter(|h| large.binary_search(h).is_ok())
        .count();
    common as f32 / small.len() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_22_cut_stays_within_its_tokens() {
        let text = "First line of words.\nSecond line is here with more words.\nThird.";
        for t in 1..40 {
            let cut = cut_to(text, t);
            assert!(estimate(&cut) <= t, "{t}: {cut:?}");
        }
        assert_eq!(cut_to(text, 200), text);
        assert_eq!(cut_to(text, 12), "First line of words.…");
        assert!(cut_to(&"x".repeat(100_000), 10).is_empty());
    }

    #[test]
    fn issue_22_overlap_finds_copies_not_neighbours() {
        let a = shingle("Set the API key in the dashboard before the first request.");
        let b = shingle("set the api key in the dashboard before the first request");
        let c = shingle("Rotate keys every ninety days from the settings page.");
        assert!(overlap(&a, &b) > 0.99);
        assert!(overlap(&a, &c) < 0.1);
        assert_eq!(overlap(&a, &[]), 0.0);
    }
}
