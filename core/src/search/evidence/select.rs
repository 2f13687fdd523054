//! The selection itself (the `evidence` feature; see the parent module's docs).

use crate::analyzer::Analyzer;
use crate::format::{ApiMeta, ChunkMeta, MetaShard, PageMeta, PageText};
use crate::tokens::estimate;

use super::super::{Mode, PageHit, QueryPlan, SearchError, Searcher};
use super::{Evidence, EvidenceOptions, EvidencePiece};

/// A piece smaller than this is not worth its citation.
pub const MIN_PIECE_TOKENS: u32 = 48;
/// Shingle overlap above which a section repeats one already taken (a page copied into another).
const DUPLICATE_OVERLAP: f32 = 0.8;

impl EvidenceOptions {
    fn page_cap(&self) -> u32 {
        self.page_tokens
            .unwrap_or((self.tokens / 2).max(96))
            .max(MIN_PIECE_TOKENS)
            .min(self.tokens)
    }

    /// `url` (a page URL of the index, root-relative) under the site's URL, when one is given.
    pub(super) fn cite(&self, url: String) -> String {
        match self.site_url.as_deref().map(|s| s.trim_end_matches('/')) {
            Some(site) if !site.is_empty() && url.starts_with('/') => {
                let mut out = String::with_capacity(site.len() + url.len());
                out.push_str(site);
                out.push_str(&url);
                out
            }
            _ => url,
        }
    }
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
    /// `text(page)`: the page's section text, `None` where it has none; `plan`: what was ranked (a
    /// section cut to its share starts where its share holds most of the query's terms).
    #[allow(clippy::too_many_arguments)]
    pub fn evidence<'s>(
        &self,
        hits: &[PageHit],
        plan: &QueryPlan,
        meta: impl Fn(usize) -> Option<&'s MetaShard>,
        text: impl Fn(u32) -> Option<&'s PageText>,
        opts: &EvidenceOptions,
        mode: Mode,
        corrected: bool,
    ) -> Result<Evidence, SearchError> {
        // Breadth, then depth: each top page's best usable section first (an empty one or a copy
        // gives way to the page's next), in rank order, at most `breadth_cap` tokens of it (an
        // agent learns which pages answer), then the other sections by score (scores are
        // comparable across pages: a page scores its best section).
        let mut breadth: Vec<(u32, u32, f32)> = Vec::new();
        let mut candidates: Vec<(u32, u32, f32)> = Vec::new();
        for (rank, hit) in hits.iter().take(opts.pages).enumerate() {
            for s in &hit.sections {
                breadth.push((rank as u32, s.chunk, s.score));
            }
        }
        candidates.extend_from_slice(&breadth);
        insertion_sort(&mut candidates, |a, b| {
            (b.2, a.0, a.1).partial_cmp(&(a.2, b.0, b.1)) == Some(core::cmp::Ordering::Less)
        });
        let breadth_cap = (opts.tokens / (opts.pages as u32 + 2)).max(2 * MIN_PIECE_TOKENS);
        let firsts = breadth.len();
        breadth.extend(candidates);
        let candidates = breadth;

        let page_cap = opts.page_cap();
        let terms = focus_terms(plan);
        let mut used_by_page: Vec<(u32, u32)> = Vec::new();
        let mut used: u32 = 0;
        let mut chosen: Vec<Chosen> = Vec::new();
        let mut shingles: Vec<Signature> = Vec::new();
        let mut excerpts_only = false;
        for (n, (rank, chunk, score)) in candidates.into_iter().enumerate() {
            let hit = &hits[rank as usize];
            // A page gives one section to the breadth pass; a section is taken once.
            let taken = |c: &Chosen| c.chunk == chunk || (n < firsts && c.page == hit.page);
            if chosen.iter().any(taken) {
                continue;
            }
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
            let marks = Signature::of(body);
            if shingles
                .iter()
                .any(|s| s.overlap(&marks) >= DUPLICATE_OVERLAP)
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
                estimate(&piece_header(page_meta, cm, opts)) + 1
            };
            let mut avail = (opts.tokens - used)
                .min(page_cap.saturating_sub(page_used))
                .saturating_sub(header);
            if n < firsts {
                avail = avail.min(breadth_cap);
            }
            let (body, truncated) = if estimate(body) < avail {
                (body.to_owned(), false)
            } else if avail >= MIN_PIECE_TOKENS {
                (focused_cut(body, avail - 1, &terms, &plan.analyzer), true)
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
        insertion_sort(&mut chosen, |a, b| (a.page, a.chunk) < (b.page, b.chunk));
        let mut pieces: Vec<EvidencePiece> = Vec::new();
        for c in chosen {
            let page_meta = self.page_meta(c.page, &meta)?;
            let first = self.page_first_chunk[c.page as usize];
            let cm = &page_meta.chunks[(c.chunk - first) as usize];
            match pieces.last_mut() {
                Some(p) if p.page == c.page && p.chunks.last() == Some(&(c.chunk - 1)) => {
                    let prev = &page_meta.chunks[(c.chunk - 1 - first) as usize];
                    append_section(&mut p.text, Some(prev), cm, &c.text);
                    p.chunks.push(c.chunk);
                    p.score = p.score.max(c.score);
                    p.truncated |= c.truncated;
                }
                _ => {
                    let mut piece = self.piece(c.page, page_meta, cm, opts);
                    piece.page_rank = c.page_rank;
                    piece.chunks = vec![c.chunk];
                    piece.score = c.score;
                    piece.text = c.text;
                    piece.truncated = c.truncated;
                    pieces.push(piece);
                }
            }
        }
        insertion_sort(&mut pieces, |a, b| {
            (b.score, a.page_rank, a.chunks[0]).partial_cmp(&(a.score, b.page_rank, b.chunks[0]))
                == Some(core::cmp::Ordering::Less)
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

    /// A piece of `page` headed by its section `cm`: its citation, no chunk or text yet.
    pub(super) fn piece(
        &self,
        page: u32,
        page_meta: &PageMeta,
        cm: &crate::format::ChunkMeta,
        opts: &EvidenceOptions,
    ) -> EvidencePiece {
        EvidencePiece {
            page,
            page_rank: 0,
            page_id: page_meta.id.clone(),
            page_title: page_meta.title.clone(),
            // The page's summary has no heading; a section may have one and no anchor (a
            // generated API page's fields).
            section: if cm.heading_path.is_empty() {
                String::new()
            } else {
                cm.title.clone()
            },
            heading_path: cm.heading_path.clone(),
            url: opts.cite(section_url(page_meta, cm)),
            breadcrumb: page_meta.breadcrumb.clone(),
            kind: self.manifest.pages[page as usize].kind,
            api: page_meta.api.clone(),
            chunks: Vec::new(),
            score: 0.0,
            text: String::new(),
            truncated: false,
            tokens: 0,
        }
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
pub(super) fn piece_markdown(n: usize, p: &EvidencePiece) -> String {
    let mut out = header_of(n, &p.page_title, &p.section, &p.url, p.api.as_ref());
    out.push_str(&p.text);
    out.push_str("\n\n");
    out
}

/// The header a chunk would head its piece with, numbered as the widest number a budget of up to
/// 48 million tokens can reach (pieces are numbered only once chosen).
pub(super) fn piece_header(
    page: &PageMeta,
    c: &crate::format::ChunkMeta,
    opts: &EvidenceOptions,
) -> String {
    let section = if c.heading_path.is_empty() {
        ""
    } else {
        &c.title
    };
    let url = opts.cite(section_url(page, c));
    header_of(999_999, &page.title, section, &url, page.api.as_ref())
}

fn header_of(n: usize, title: &str, section: &str, url: &str, api: Option<&ApiMeta>) -> String {
    let mut out = String::from("### [");
    crate::text::push_uint(&mut out, n as u64);
    out.push_str("] ");
    out.push_str(&one_line(title));
    if !section.is_empty() && section != title {
        out.push_str(" › ");
        out.push_str(&one_line(section));
    }
    out.push('\n');
    out.push_str(&one_line(url));
    out.push('\n');
    // Every field on one line: a spec's operationId or path cannot start a line of its own.
    if let Some(a) = api {
        out.push_str(&one_line(&a.method));
        out.push(' ');
        out.push_str(&one_line(&a.path));
        if !a.operation_id.is_empty() {
            out.push_str(" (");
            out.push_str(&one_line(&a.operation_id));
            out.push(')');
        }
        out.push('\n');
    }
    out.push('\n');
    out
}

/// Appends `section`, the text of chunk `cm` (after `prev` in reading order), to a piece's `text`:
/// under its own sub-heading when it starts another section than `prev` (a long section's parts
/// share one), after a blank line; an empty section adds its heading only. How evidence merges
/// adjacent sections and how a page or section read by URL is joined.
pub(super) fn append_section(
    text: &mut String,
    prev: Option<&ChunkMeta>,
    cm: &ChunkMeta,
    section: &str,
) {
    if prev.is_some_and(|p| p.title != cm.title || p.anchor != cm.anchor) {
        text.push_str("\n\n");
        text.push_str(&sub_heading(&cm.title));
    }
    let section = section.trim();
    if !section.is_empty() {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(section);
    }
}

pub(super) fn sub_heading(title: &str) -> String {
    let mut out = String::from("#### ");
    out.push_str(&one_line(title));
    out
}

/// `s` with every run of whitespace one space, trimmed: a header stays one line.
fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The page URL with the section's anchor (the page's own for its summary).
pub(super) fn section_url(page: &PageMeta, c: &crate::format::ChunkMeta) -> String {
    let mut url = page.url.clone();
    if !c.anchor.is_empty() {
        url.push('#');
        url.push_str(&c.anchor);
    }
    url
}

/// Sorts by `less`, stable: evidence sorts at most a few hundred items, and one small loop per
/// type costs the wasm module far less than the standard library's sorts would.
fn insertion_sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && less(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// The longest prefix of `text` whose estimate stays within `tokens`, ending at a line break when
/// one fits, else at a space; a code block it cuts is closed, and "…" marks the cut. Estimates of
/// parts add up to at least the estimate of their concatenation, so the sum bounds the result.
pub(super) fn cut_to(text: &str, tokens: u32) -> String {
    // What ends a cut: the open fence's closing line, then the ellipsis.
    let ending = |fence: Option<&str>| match fence {
        Some(f) => 2 * estimate("\n") + estimate(f) + estimate(ELLIPSIS),
        None => estimate(ELLIPSIS),
    };
    let mut out = String::new();
    let mut used = 0;
    let mut fence: Option<&str> = None;
    let mut cut = false;
    for line in text.split_inclusive('\n') {
        let after = fence_after(fence, line);
        let cost = estimate(line);
        if used + cost + ending(after) <= tokens {
            out.push_str(line);
            used += cost;
            fence = after;
            continue;
        }
        cut = true;
        // A fence line is never split; any other line may end at a word.
        if after == fence {
            for word in line.split_inclusive(' ') {
                let cost = estimate(word);
                if used + cost + ending(fence) > tokens {
                    break;
                }
                out.push_str(word);
                used += cost;
            }
        }
        break;
    }
    if !cut {
        return out;
    }
    let mut out = out.trim_end().to_owned();
    if out.is_empty() {
        return out;
    }
    if let Some(f) = fence {
        out.push('\n');
        out.push_str(f);
        out.push('\n');
    }
    out.push_str(ELLIPSIS);
    out
}

/// The query's terms a cut looks for: each distinct term (its stem) and its weight, at most 64.
fn focus_terms(plan: &QueryPlan) -> Vec<(&str, f32)> {
    let mut terms: Vec<(&str, f32)> = Vec::new();
    let whole = plan
        .prefix
        .as_ref()
        .and_then(|p| Some((p.whole.as_deref()?, p.weight)));
    for (text, weight) in (plan.terms.iter().map(|t| (t.text.as_str(), t.weight))).chain(whole) {
        if terms.len() < 64 && !terms.iter().any(|(t, _)| *t == text) {
            terms.push((text, weight.max(0.0)));
        }
    }
    terms
}

/// `body` cut to `tokens` (as [`cut_to`]), from the paragraph where that many tokens hold the most
/// of the query's `terms` (each distinct term once, by its weight; the earliest such paragraph):
/// a long reference section's answer is often far from its start. A cut that skips the start
/// begins with an ellipsis.
fn focused_cut(body: &str, tokens: u32, terms: &[(&str, f32)], analyzer: &Analyzer) -> String {
    const LEAD: &str = "…\n\n";
    let lead = estimate(LEAD);
    // The window must leave room for the ellipsis a cut ends with, or its last paragraph (the one
    // it reached for) is what the cut drops.
    let start = match tokens.checked_sub(lead + estimate(ELLIPSIS)) {
        Some(room) if room > 0 && !terms.is_empty() => focus(body, room, terms, analyzer),
        _ => 0,
    };
    if start == 0 {
        return cut_to(body, tokens);
    }
    let rest = cut_to(&body[start..], tokens - lead);
    if rest.is_empty() {
        return cut_to(body, tokens);
    }
    let mut out = String::with_capacity(LEAD.len() + rest.len());
    out.push_str(LEAD);
    out.push_str(&rest);
    out
}

/// The byte offset of the paragraph (a block after a blank line, never inside a code fence) from
/// which `tokens` of `body` hold the most weight of `terms` (see [`focused_cut`]); 0 for the start.
fn focus(body: &str, tokens: u32, terms: &[(&str, f32)], analyzer: &Analyzer) -> usize {
    // The paragraphs: start offset, estimated tokens, which terms they hold (a bit each).
    let mut blocks: Vec<(usize, u32, u64)> = Vec::new();
    let mut fence: Option<&str> = None;
    let (mut start, mut blank_before) = (0usize, false);
    let mut at = 0usize;
    for line in body.split_inclusive('\n') {
        if fence.is_none() && blank_before && !line.trim().is_empty() && at > start {
            blocks.push((start, 0, 0));
            start = at;
        }
        blank_before = fence.is_none() && line.trim().is_empty();
        fence = fence_after(fence, line);
        at += line.len();
    }
    blocks.push((start, 0, 0));
    let ends: Vec<usize> = (blocks.iter().skip(1).map(|b| b.0))
        .chain([body.len()])
        .collect();
    for (b, end) in blocks.iter_mut().zip(ends) {
        let text = &body[b.0..end];
        // Priced as `cut_to` prices what it keeps: line by line.
        b.1 = (text.split_inclusive('\n').map(estimate)).fold(0u32, u32::saturating_add);
        for t in analyzer.analyze(text) {
            if let Some(i) = terms.iter().position(|(term, _)| *term == t.text) {
                b.2 |= 1 << i;
            }
        }
    }
    // A window of whole paragraphs from each start (at least its first), widest that fits.
    let mut counts = [0u32; 64];
    let weight = |counts: &[u32; 64]| -> f32 {
        (terms.iter().enumerate())
            .filter(|&(i, _)| counts[i] > 0)
            .map(|(_, t)| t.1)
            .sum()
    };
    let add = |counts: &mut [u32; 64], mask: u64, by: i32| {
        for (i, c) in counts.iter_mut().enumerate().take(terms.len()) {
            if mask & (1 << i) != 0 {
                *c = c.wrapping_add_signed(by);
            }
        }
    };
    let (mut best, mut best_weight) = (0usize, -1.0f32);
    let (mut end, mut used) = (0usize, 0u32);
    for i in 0..blocks.len() {
        if end < i {
            end = i;
            used = 0;
        }
        while end < blocks.len() && (end == i || used.saturating_add(blocks[end].1) <= tokens) {
            used = used.saturating_add(blocks[end].1);
            add(&mut counts, blocks[end].2, 1);
            end += 1;
        }
        let w = weight(&counts);
        if w > best_weight {
            (best, best_weight) = (blocks[i].0, w);
        }
        used = used.saturating_sub(blocks[i].1);
        add(&mut counts, blocks[i].2, -1);
    }
    best
}

/// The code fence open after `line`, given the one open before it (`Chunk::text` fences with three
/// or more backticks and closes with the same run).
fn fence_after<'t>(open: Option<&'t str>, line: &'t str) -> Option<&'t str> {
    let t = line.trim();
    let ticks = t.len() - t.trim_start_matches('`').len();
    if ticks < 3 {
        return open;
    }
    match open {
        None => Some(&t[..ticks]),
        Some(f) if ticks >= f.len() && ticks == t.len() => None,
        Some(f) => Some(f),
    }
}

const ELLIPSIS: &str = "…";

/// The word trigrams of a text's first [`SIGNATURE_WORDS`] words, as bits of a 4,096-bit set: a
/// copied page shares its start, and a fixed-size set needs no sort (whose code every reader would
/// download).
struct Signature {
    bits: [u64; 64],
    count: u32,
}

const SIGNATURE_WORDS: usize = 256;

impl Signature {
    fn of(text: &str) -> Signature {
        let mut sig = Signature {
            bits: [0; 64],
            count: 0,
        };
        let mut window = [0u64; 3];
        let mut n = 0;
        let words = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .take(SIGNATURE_WORDS);
        for word in words {
            // FNV-1a of the word, ASCII folded.
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in word.bytes() {
                h = (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x100_0000_01b3);
            }
            window = [window[1], window[2], h];
            n += 1;
            if n >= 3 {
                sig.set(&window);
            }
        }
        // A text of one or two words is its one "trigram".
        if (1..3).contains(&n) {
            sig.set(&window);
        }
        sig
    }

    fn set(&mut self, window: &[u64; 3]) {
        let t = (window[0].wrapping_mul(31).wrapping_add(window[1]))
            .wrapping_mul(31)
            .wrapping_add(window[2]);
        let bit = (t ^ (t >> 29)) % 4096;
        let (word, mask) = ((bit / 64) as usize, 1u64 << (bit % 64));
        if self.bits[word] & mask == 0 {
            self.bits[word] |= mask;
            self.count += 1;
        }
    }

    /// The share of the smaller set's bits the other one has.
    fn overlap(&self, other: &Signature) -> f32 {
        let small = self.count.min(other.count);
        if small == 0 {
            return 0.0;
        }
        let common: u32 = (self.bits.iter().zip(&other.bits))
            .map(|(a, b)| (a & b).count_ones())
            .sum();
        common as f32 / small as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_22_a_focused_cut_keeps_the_paragraph_it_reached_for() {
        // Many one-line paragraphs (what `Chunk::text` makes of a section's lines): the window is
        // priced as the cut keeps lines, so its last paragraph survives the cut.
        let analyzer = Analyzer::english();
        let mut lines: Vec<String> = (0..60)
            .map(|i| format!("Filler sentence number {i} says nothing at all."))
            .collect();
        lines[40] = "The token method.".into();
        let body = lines.join("\n\n");
        for tokens in 52..500 {
            let cut = focused_cut(&body, tokens, &[("token", 1.0)], &analyzer);
            assert!(estimate(&cut) <= tokens, "{tokens}");
            assert!(cut.contains("token method"), "{tokens}: {cut:?}");
        }
    }

    #[test]
    fn issue_22_a_cut_section_keeps_the_paragraphs_with_the_query() {
        let analyzer = Analyzer::english();
        let filler =
            "Unrelated prose about something else entirely, repeated to fill room. ".repeat(6);
        let body = format!(
            "{filler}\n\n```python\nx = 1\n\nlowercase = 2\n```\n\n{filler}\n\n.. method:: str.lower()\n\n   Return a copy of the string converted to lowercase.\n\n{filler}"
        );
        let terms = [("lowercas", 1.0), ("string", 1.0)];
        for tokens in [60, 80, 120, 200] {
            let cut = focused_cut(&body, tokens, &terms, &analyzer);
            assert!(estimate(&cut) <= tokens, "{tokens}: {cut:?}");
            assert!(cut.starts_with("…\n\n"), "{tokens}: {cut:?}");
            assert!(cut.contains("converted to lowercase"), "{tokens}: {cut:?}");
            // Never from inside the code block (its blank line is not a paragraph break).
            assert!(!cut.starts_with("…\n\nlowercase = 2"), "{tokens}: {cut:?}");
        }
        // A section whose start holds the query is cut from its start; no terms, no focus.
        let early = format!("The string in lowercase.\n\n{filler}\n\n{filler}");
        assert_eq!(
            focused_cut(&early, 60, &terms, &analyzer),
            cut_to(&early, 60)
        );
        assert_eq!(focused_cut(&body, 60, &[], &analyzer), cut_to(&body, 60));
        // Hostile shapes: one huge paragraph, only blank lines, an unclosed fence.
        for hostile in [
            "x ".repeat(50_000),
            "\n".repeat(10_000),
            format!("```\n{filler}\n\nlowercase string"),
        ] {
            let cut = focused_cut(&hostile, 60, &terms, &analyzer);
            assert!(estimate(&cut) <= 60);
        }
    }

    #[test]
    fn issue_22_cut_stays_within_its_tokens() {
        let text = "First line of words.\nSecond line is here with more words.\nThird.";
        for t in 1..40 {
            let cut = cut_to(text, t);
            assert!(estimate(&cut) <= t, "{t}: {cut:?}");
        }
        assert_eq!(cut_to(text, 200), text);
        assert_eq!(cut_to(text, 12), "First line of words.…");
        // A cut inside a code block closes it.
        let code =
            "Intro.\n\n```bash\nnpm install one\nnpm install two\nnpm install three\n```\n\nAfter.";
        for t in 5..60 {
            let cut = cut_to(code, t);
            assert!(estimate(&cut) <= t, "{t}: {cut:?}");
            let fences = cut.lines().filter(|l| l.starts_with("```")).count();
            assert!(fences % 2 == 0, "{t}: {cut:?}");
        }
        assert_eq!(cut_to(code, 22), "Intro.\n\n```bash\nnpm\n```\n…");
        assert!(cut_to(&"x".repeat(100_000), 10).is_empty());
    }

    #[test]
    fn issue_22_overlap_finds_copies_not_neighbours() {
        let a = Signature::of("Set the API key in the dashboard before the first request.");
        let b = Signature::of("set the api key in the dashboard before the first request");
        let c = Signature::of("Rotate keys every ninety days from the settings page.");
        assert!(a.overlap(&b) > 0.99);
        assert!(a.overlap(&c) < 0.1);
        assert_eq!(a.overlap(&Signature::of("")), 0.0);
        assert!(Signature::of("Two words").overlap(&Signature::of("two words")) > 0.99);
        // Two long sections that share only their vocabulary are not copies.
        let long_a: String = (0..3000).map(|i| format!("alpha{} ", i % 97)).collect();
        let long_b: String = (0..3000)
            .map(|i| format!("alpha{} ", (i * 7) % 89))
            .collect();
        assert!(Signature::of(&long_a).overlap(&Signature::of(&long_b)) < 0.5);
    }

    #[test]
    fn issue_22_insertion_sort_is_stable() {
        let mut v = [(2, 'a'), (1, 'b'), (2, 'c'), (0, 'd'), (1, 'e')];
        insertion_sort(&mut v, |x, y| x.0 < y.0);
        assert_eq!(v, [(0, 'd'), (1, 'b'), (1, 'e'), (2, 'a'), (2, 'c')]);
    }
}
