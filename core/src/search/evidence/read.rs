//! Reading one page (or one section) by its URL: what an agent asks after a search
//! ([`super::EvidenceOptions::read`]; issue 22's `read_page` and `read_section`).

use crate::format::{MetaShard, PageText};
use crate::search::plan::{decoded_path, percent_decoded, site_relative, url_parts};
use crate::tokens::estimate;

use super::super::{Mode, PageHit, SearchError, Searcher};
use super::select::{append_section, cut_to, piece_header};
use super::{Evidence, EvidenceOptions};

impl Searcher {
    /// The text of the page at `url` among `hits` (the pages carrying its URL key; the first whose
    /// metadata URL has the same path, compared as [`url_parts`] does, exactly or else ignoring
    /// ASCII case), or with an anchor, of that section (its chunks, the continuations of a long
    /// section included), as one piece cut to the budget. Returns the page read (`None` when no
    /// page has that URL) and the evidence (no piece when the page has no such section).
    pub fn read<'s>(
        &self,
        url: &str,
        hits: &[PageHit],
        meta: impl Fn(usize) -> Option<&'s MetaShard>,
        text: impl Fn(u32) -> Option<&'s PageText>,
        opts: &EvidenceOptions,
    ) -> Result<(Option<u32>, Evidence), SearchError> {
        let url = site_relative(url, opts.site_url.as_deref());
        let (path, anchor) = url_parts(url);
        // Compared unescaped (an anchor also as written: one stored with a `%` in it).
        let (path, raw_anchor) = (decoded_path(path), anchor);
        let anchor = anchor.map(percent_decoded);
        let (path, anchor) = (path.as_str(), anchor.as_deref());
        let mut evidence = Evidence {
            pieces: Vec::new(),
            tokens: 0,
            budget: opts.tokens,
            mode: Mode::Lexical,
            corrected: false,
            excerpts_only: false,
        };
        // The page whose URL is the one asked for, fragment aside (a record's query or host tell
        // pages of one path apart); else the first of the same path, exactly, then ignoring case.
        let asked = percent_decoded(url.split_once('#').map_or(url, |(u, _)| u).trim());
        let mut best: Option<(u8, u32)> = None;
        for hit in hits {
            let page_url = &self.page_meta(hit.page, &meta)?.url;
            let whole = percent_decoded(page_url.split_once('#').map_or(page_url, |(u, _)| u));
            let other = decoded_path(url_parts(page_url).0);
            let rank = if whole == asked {
                0
            } else if other == path {
                1
            } else if other.eq_ignore_ascii_case(path) {
                2
            } else {
                continue;
            };
            if best.is_none_or(|(r, _)| rank < r) {
                best = Some((rank, hit.page));
            }
        }
        let Some((_, page)) = best else {
            return Ok((None, evidence));
        };
        let page_meta = self.page_meta(page, &meta)?;
        let texts = text(page);
        evidence.excerpts_only = texts.is_none();
        // The chunks read: all, or the anchor's (a long section's parts share its anchor) with
        // the subsections under it (an H2 whose text is all in its H3s reads as them).
        let all = &page_meta.chunks;
        let chunks: Vec<usize> = match anchor {
            None => (0..all.len()).collect(),
            Some(a) => match (all.iter())
                .position(|c| c.anchor == a || Some(c.anchor.as_str()) == raw_anchor)
            {
                None => Vec::new(),
                Some(start) => {
                    let (head, a) = (&all[start].heading_path, &all[start].anchor);
                    let under = |c: &crate::format::ChunkMeta| {
                        &c.anchor == a
                            || (!head.is_empty()
                                && c.heading_path.len() > head.len()
                                && c.heading_path.starts_with(head))
                    };
                    (start..all.len()).take_while(|&i| under(&all[i])).collect()
                }
            },
        };
        let Some(&first) = chunks.first() else {
            return Ok((Some(page), evidence));
        };
        let mut body = String::new();
        for (n, &i) in chunks.iter().enumerate() {
            let cm = &page_meta.chunks[i];
            let section = match texts.and_then(|t| t.sections.get(i)) {
                Some(t) => t.as_str(),
                None => cm.excerpt.as_str(),
            };
            // A later section is headed by its title, as evidence merges adjacent sections.
            let prev = n.checked_sub(1).map(|p| &page_meta.chunks[chunks[p]]);
            append_section(&mut body, prev, cm, section);
        }
        let cm = &page_meta.chunks[first];
        let header = estimate(&piece_header(page_meta, cm, opts)) + 1;
        let avail = opts.tokens.saturating_sub(header + 1);
        let truncated = estimate(&body) > avail;
        if truncated {
            body = cut_to(&body, avail);
        }
        let first_chunk = self.page_first_chunk[page as usize];
        let mut piece = self.piece(page, page_meta, cm, opts);
        piece.chunks = chunks.iter().map(|&i| first_chunk + i as u32).collect();
        piece.score = 1.0;
        piece.text = body;
        piece.truncated = truncated;
        piece.tokens = estimate(&super::select::piece_markdown(1, &piece));
        if piece.tokens <= opts.tokens && !piece.text.is_empty() {
            evidence.tokens = piece.tokens;
            evidence.pieces.push(piece);
        }
        Ok((Some(page), evidence))
    }
}
