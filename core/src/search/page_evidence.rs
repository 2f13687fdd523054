//! Whole-page evidence (issue 20): a page's lexical score from all its sections, not only its best.
//!
//! A long reference page that answers a question often spreads the query's words over several
//! sections, where an overview page or a near-duplicate has them in one. Ranking a page by its best
//! chunk alone lets the second win. So each query term is also scored against the page as a whole,
//! BM25F over the page: the term's frequency summed over the page's chunks (the title field, which
//! every chunk of a page repeats, counts once), the page's length taken as its number of chunks
//! against the average (chunks are cut at sections of bounded size, and the index holds no page
//! lengths, so this costs no byte), and an idf over pages. The page's score times
//! [`SearchOptions::page_weight`](super::SearchOptions::page_weight) is added to each of its chunks
//! that has evidence of its own, before fusion and aggregation: the page order changes, the order
//! of a page's sections does not, and hybrid fusion sees the lexical side with it.

use super::{QueryPlan, SearchError, Searcher};
use crate::fieldnorm::id_to_fieldnorm;
use crate::format::{Bm25Params, Field, Posting, TermShard, SCORED_FIELDS};

/// BM25's `b` for a page's length (its chunks against the average page's). Lower than the
/// chunks' 0.75: a long reference page is long because it covers much, and the answer to a
/// question is often on one. Train-split CoNaLa nDCG@10 / Recall@10 by b (page weight 2): 0.75
/// 0.292 / 0.490, 0.5 0.314 / 0.517, 0.3 0.331 / 0.544, 0.2 0.342 / 0.555, 0.1 0.349 / 0.559, 0
/// 0.360 / 0.567; SciFact's lexical 0.693 at every b (its pages are one or two chunks). Not 0: with
/// no length normalization a release-notes page that mentions everything gets the most from it.
pub const PAGE_LENGTH_B: f32 = 0.2;

impl Searcher {
    /// Per page, the plan's terms scored against the whole page, times `weight`: a dense vector
    /// over the index's pages (empty when `weight` is 0 or the index has no pages).
    pub(super) fn page_evidence<'s>(
        &self,
        plan: &QueryPlan,
        get: &impl Fn(usize) -> Result<&'s TermShard, SearchError>,
        params: &Bm25Params,
        avg: &[f32; SCORED_FIELDS],
        weight: f32,
    ) -> Result<Vec<f32>, SearchError> {
        let pages = self.manifest.pages.len();
        if weight <= 0.0 || pages == 0 {
            return Ok(Vec::new());
        }
        let avg_chunks = self.manifest.num_chunks as f32 / pages as f32;
        let mut scores = vec![0f32; pages];
        let mut per_page: Vec<(u32, f32)> = Vec::new();
        for qt in &plan.terms {
            let Some(si) = qt.shard else { continue };
            let Some(tp) = get(si)?.get(&qt.text) else {
                continue;
            };
            per_page.clear();
            self.page_frequencies(&tp.postings, params, avg, avg_chunks, &mut per_page);
            if per_page.is_empty() {
                continue;
            }
            let df = per_page.len() as f32;
            let idf = libm::logf(1.0 + (pages as f32 - df + 0.5) / (df + 0.5));
            for &(page, tf) in &per_page {
                scores[page as usize] +=
                    weight * qt.weight * idf * (params.k1 + 1.0) * tf / (params.k1 + tf);
            }
        }
        Ok(scores)
    }

    /// A term's length-normalized, field-weighted frequency in each page where it scores:
    /// `(page, tf)` in page order (postings are in chunk order, so a page's chunks are adjacent).
    fn page_frequencies(
        &self,
        postings: &[Posting],
        params: &Bm25Params,
        avg: &[f32; SCORED_FIELDS],
        avg_chunks: f32,
        out: &mut Vec<(u32, f32)>,
    ) {
        let title = Field::Title as usize;
        // The page being summed: its ordinal, the title's best normalized frequency, and the other
        // fields' raw frequencies.
        let mut current: Option<(u32, f32, [u32; SCORED_FIELDS])> = None;
        let flush = |cur: Option<(u32, f32, [u32; SCORED_FIELDS])>, out: &mut Vec<(u32, f32)>| {
            let Some((page, title_tf, tf)) = cur else {
                return;
            };
            let chunks = self.manifest.pages[page as usize].chunk_count as f32;
            let norm = if avg_chunks > 0.0 {
                1.0 - PAGE_LENGTH_B + PAGE_LENGTH_B * chunks / avg_chunks
            } else {
                1.0
            };
            let mut x = params.weights[title] * title_tf;
            for (f, (&w, &n)) in params.weights.iter().zip(&tf).enumerate() {
                if f != title {
                    x += w * n as f32 / norm;
                }
            }
            if x > 0.0 {
                out.push((page, x));
            }
        };
        for p in postings {
            if p.chunk >= self.manifest.num_chunks {
                continue;
            }
            let page = self.page_of(p.chunk);
            if current.is_some_and(|c| c.0 != page) {
                flush(current.take(), out);
            }
            let cur = current.get_or_insert((page, 0.0, [0; SCORED_FIELDS]));
            if p.tf[title] > 0 && params.weights[title] > 0.0 {
                // The title is the same in every chunk of a page: its chunk-level frequency, once.
                let len = id_to_fieldnorm(p.norm[title]) as f32;
                let norm = if avg[title] > 0.0 {
                    1.0 - params.b + params.b * len / avg[title]
                } else {
                    1.0
                };
                cur.1 = cur.1.max(p.tf[title] as f32 / norm);
            }
            for (f, sum) in cur.2.iter_mut().enumerate() {
                if f != title {
                    *sum = sum.saturating_add(p.tf[f]);
                }
            }
        }
        flush(current, out);
    }
}

#[cfg(test)]
mod tests {
    use crate::format::PageEntry;
    use crate::search::test_index::index;
    use crate::search::*;

    /// Page 0 is one long page whose three sections each say part of the question; pages 1 and 2
    /// are short pages that each say more of it in one place.
    fn long_and_short() -> (Searcher, Vec<crate::format::TermShard>) {
        let texts = [
            "refresh tokens last an hour",
            "rotate credentials on a schedule",
            "scopes expire with the session",
            "refresh tokens expire scopes overview",
            "expire credentials overview",
        ];
        let (s, shards) = index(&texts, 8);
        let mut m = s.manifest().clone();
        let entry = m.pages[0].clone();
        m.pages = vec![
            PageEntry {
                chunk_count: 3,
                ..entry.clone()
            },
            entry.clone(),
            entry,
        ];
        (Searcher::new(m).unwrap(), shards)
    }

    fn pages(s: &Searcher, shards: &[crate::format::TermShard], page_weight: f32) -> Vec<u32> {
        let opts = SearchOptions {
            page_weight,
            ..Default::default()
        };
        let plan = s.plan("refresh tokens expire rotate credentials scopes");
        s.rank(&plan, |i| shards.get(i), &opts)
            .unwrap()
            .into_iter()
            .map(|h| h.page)
            .collect()
    }

    #[test]
    fn issue_20_a_page_that_answers_across_its_sections_outranks_one_strong_section() {
        let (s, shards) = long_and_short();
        // By its best section alone the long page loses to the short overview.
        assert_eq!(pages(&s, &shards, 0.0), [1, 0, 2]);
        // With the whole page's evidence it wins.
        assert_eq!(pages(&s, &shards, DEFAULT_PAGE_WEIGHT), [0, 1, 2]);
    }

    #[test]
    fn issue_20_page_evidence_keeps_the_order_of_a_pages_sections_and_is_explained() {
        let (s, shards) = long_and_short();
        let plan = s.plan("refresh tokens expire rotate credentials scopes");
        let sections = |page_weight: f32| {
            let opts = SearchOptions {
                page_weight,
                explain: true,
                ..Default::default()
            };
            let hits = s.rank(&plan, |i| shards.get(i), &opts).unwrap();
            let long = hits.into_iter().find(|h| h.page == 0).unwrap();
            let chunks: Vec<u32> = long.sections.iter().map(|c| c.chunk).collect();
            (chunks, long.explanation.unwrap())
        };
        let (without, plain) = sections(0.0);
        let (with, explained) = sections(DEFAULT_PAGE_WEIGHT);
        assert_eq!(without, with);
        assert_eq!(plain.page, 0.0);
        assert!(explained.page > 0.0);
        // The explanation adds up to the section's score (no boost applies here).
        let hits = s
            .rank(&plan, |i| shards.get(i), &SearchOptions::default())
            .unwrap();
        let top = &hits.iter().find(|h| h.page == 0).unwrap().sections[0];
        assert!((explained.bm25 + explained.page - top.score).abs() < 1e-4);
    }
}
