//! From scored chunks to ranked pages: a page scores its best chunk; filters, order, top k, sections
//! per page, and explanations of the top section.

use std::collections::HashMap;

use super::facets::FACETS;
use super::{Explanation, Facets, QueryPlan, SearchError, SearchOptions, Searcher};
use crate::format::{TermShard, SCORED_FIELDS};

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

/// Per-chunk ranks of each side, for explanations.
pub(super) struct RankInfo {
    pub(super) lexical: HashMap<u32, u32>,
    pub(super) vector: HashMap<u32, u32>,
    pub(super) similarity: HashMap<u32, f32>,
}

impl Searcher {
    /// Chunks (sorted by chunk) into pages: a page scores its best chunk; filters, order, top k.
    pub(super) fn aggregate<'s>(
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
        // The page of the last chunk, and where the next page starts: chunks come in order, so a
        // page is looked up once.
        let (mut page, mut next_page) = (0u32, 0u32);
        for (c, score) in chunks {
            if score <= 0.0 || !plan.phrases_allow(c) {
                continue;
            }
            if c >= next_page {
                page = self.page_of(c);
                next_page = (self.page_first_chunk.get(page as usize + 1))
                    .copied()
                    .unwrap_or(u32::MAX);
            }
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
        // Only the top `k` pages are read: sorted that far, the rest cut.
        crate::sort::sort_least(&mut pages, opts.k, &mut |a, b| {
            b.score
                .total_cmp(&a.score)
                .then(b.matched_chunks.cmp(&a.matched_chunks))
                .then(
                    self.manifest.pages[a.page as usize]
                        .kind
                        .cmp(&self.manifest.pages[b.page as usize].kind),
                )
                .then(a.page.cmp(&b.page))
                .is_lt()
        });
        pages.truncate(opts.k);
        for p in &mut pages {
            let shown = opts.max_sections.max(1);
            crate::sort::sort_least(&mut p.sections, shown, &mut |a, b| {
                b.score
                    .total_cmp(&a.score)
                    .then(a.chunk.cmp(&b.chunk))
                    .is_lt()
            });
            p.sections.truncate(shown);
            if opts.explain {
                let chunk = p.sections[0].chunk;
                let mut ex = self.explain(plan, get, chunk, &params, &avg, &opts.page)?;
                if let Some(info) = info {
                    ex.lexical_rank = info.lexical.get(&chunk).copied();
                    ex.vector_rank = info.vector.get(&chunk).copied();
                    ex.similarity = info.similarity.get(&chunk).copied();
                }
                if opts.mode == super::Mode::Vector {
                    ex.page = 0.0; // vector ranking adds no page credit
                }
                p.explanation = Some(ex);
            }
        }
        let facets = opts.facets.then(|| self.count_facets(&seen, opts));
        Ok((pages, facets))
    }
}
