//! From scored chunks to ranked pages: a page scores its best chunk; filters, order, top k, sections
//! per page, and explanations of the top section.

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

/// A page some chunk reached, before it is known to be shown: its score and where its chunks are
/// in the aggregated list (`matched_chunks` of them count; the others scored 0 or lack a phrase).
struct PageCandidate {
    page: u32,
    score: f32,
    matched_chunks: u32,
    chunks: std::ops::Range<usize>,
}

/// Per-chunk ranks of each side, for explanations.
pub(super) struct RankInfo {
    pub(super) lexical: ChunkMap<u32>,
    pub(super) vector: ChunkMap<u32>,
    pub(super) similarity: ChunkMap<f32>,
}

/// Values by chunk, sorted by chunk and looked up by binary search: what the query path needs of a
/// map, without the hash map's code in every reader's wasm module.
#[derive(Default)]
pub(super) struct ChunkMap<V>(pub(super) Vec<(u32, V)>);

impl<V: Copy> ChunkMap<V> {
    /// From (chunk, value) pairs; of a chunk's values, the first under `first` (the least).
    pub(super) fn new(
        mut pairs: Vec<(u32, V)>,
        first: impl Fn(&V, &V) -> core::cmp::Ordering,
    ) -> Self {
        crate::sort::sort_by(&mut pairs, |a, b| a.0.cmp(&b.0).then(first(&a.1, &b.1)));
        pairs.dedup_by_key(|e| e.0);
        ChunkMap(pairs)
    }

    pub(super) fn get(&self, chunk: u32) -> Option<V> {
        (self.0.binary_search_by_key(&chunk, |e| e.0).ok()).map(|i| self.0[i].1)
    }
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
        // Aggregate chunks into pages (chunks are sorted, so a page's chunks are adjacent). A query
        // on a large site reaches most of its pages and shows `k`: each candidate page is its score
        // and where its chunks are in `chunks`, and only the pages shown get their sections.
        let mut candidates: Vec<PageCandidate> = Vec::new();
        let mut last_page: Option<(u32, bool)> = None;
        // With facets: every page seen, the filters it passes and its best score.
        let mut seen: Vec<(u32, [bool; FACETS], f32)> = Vec::new();
        // The page of the last chunk, and where the next page starts: chunks come in order, so a
        // page is looked up once.
        let (mut page, mut next_page) = (0u32, 0u32);
        // A chunk counts unless it scored 0 or less (a NaN score, which a hostile vector shard can
        // give, counts: its page scores 0, as before) or lacks a quoted phrase.
        let counts = |&(c, score): &(u32, f32)| {
            let scored = score > 0.0 || score.is_nan();
            scored && plan.phrases_allow(c)
        };
        for (i, &(c, score)) in chunks.iter().enumerate() {
            if !counts(&(c, score)) {
                continue;
            }
            if c >= next_page {
                page = self.page_of_from(c, page);
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
                        candidates.push(PageCandidate {
                            page,
                            score: 0.0,
                            matched_chunks: 0,
                            chunks: i..i,
                        });
                    }
                    last_page = Some((page, allowed));
                    allowed
                }
            };
            if let (true, Some(hit)) = (allowed, candidates.last_mut()) {
                hit.matched_chunks += 1;
                hit.score = hit.score.max(score);
                hit.chunks.end = i + 1;
            }
        }
        // Only the top `k` pages are read: sorted that far, the rest cut, as are pages under the
        // minimum score (they sort after every page that has it).
        crate::sort::sort_least(&mut candidates, opts.k, &mut |a, b| {
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
        candidates.truncate(opts.k);
        let mut pages: Vec<PageHit> = Vec::with_capacity(candidates.len());
        for p in candidates {
            // Sorted by score: the first page under the minimum ends the shown pages.
            let shown = p.score >= opts.min_score;
            if !shown {
                break;
            }
            let mut sections = Vec::with_capacity(p.matched_chunks as usize);
            for e in &chunks[p.chunks] {
                if counts(e) {
                    sections.push(ChunkHit {
                        chunk: e.0,
                        score: e.1,
                    });
                }
            }
            pages.push(PageHit {
                page: p.page,
                score: p.score,
                matched_chunks: p.matched_chunks,
                sections,
                explanation: None,
            });
        }
        for p in &mut pages {
            let shown = opts.max_sections.max(1);
            crate::sort::sort_least(&mut p.sections, shown, &mut |a, b| {
                b.score
                    .total_cmp(&a.score)
                    .then(a.chunk.cmp(&b.chunk))
                    .is_lt()
            });
            p.sections.truncate(shown);
            if opts.explains() {
                let chunk = p.sections[0].chunk;
                let mut ex = self.explain(plan, get, chunk, &params, &avg, &opts.page)?;
                if let Some(info) = info {
                    ex.lexical_rank = info.lexical.get(chunk);
                    ex.vector_rank = info.vector.get(chunk);
                    ex.similarity = info.similarity.get(chunk);
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

#[cfg(test)]
mod tests {
    use crate::search::{test_index, SearchOptions};

    /// Review of issue 21's aggregation: a chunk of a NaN score (hostile vector shards, or fusion
    /// options of NaN) still counts for its page, which scores 0 and is shown under the default
    /// minimum, as before candidates were kept as ranges.
    #[test]
    fn issue_21_nan_chunk_scores_count_as_before() {
        let (s, shards) = test_index::index(&["alpha beta", "gamma delta", "epsilon"], 4);
        let plan = s.plan("alpha");
        let shard = |i: usize| shards.get(i);
        let get = s.getter(&shard);
        let opts = SearchOptions::default();
        let chunks = vec![(0, f32::NAN), (1, 2.0), (2, 0.0)];
        let (pages, _) = s.aggregate(chunks, &plan, &get, &opts, None).unwrap();
        let got: Vec<(u32, f32, usize)> = (pages.iter())
            .map(|p| (p.page, p.score, p.sections.len()))
            .collect();
        assert_eq!(got, vec![(1, 2.0, 1), (0, 0.0, 1)]);
        assert!(pages[1].sections[0].score.is_nan());
    }
}
