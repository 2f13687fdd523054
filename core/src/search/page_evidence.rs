//! Whole-page evidence (issue 20): a page's lexical score counts the query words its other sections
//! hold, not only its best section's.
//!
//! A long reference page that answers a question often spreads the query's words over several
//! sections, where an overview page or a near-duplicate has more of them in one. Ranking a page by its
//! best chunk alone lets the second win. So a page's best chunk (by its BM25F and prefix score, before
//! exact-match boosts) is credited with each query term that occurs elsewhere on the page but not in
//! it: the term's query weight times its idf (what one occurrence in a chunk of average length scores
//! with field weight 1), times [`SearchOptions::page_weight`]. The credit is added to every chunk of
//! the page that has term or prefix evidence of its own (a chunk reached only by an exact-match key
//! gets none), before boosts and before fusion, so hybrid ranking sees it through the lexical side
//! and the order of those chunks within the page does not change. A page of one section, or whose
//! best section holds every query word, gets none, so a corpus of short pages ranks as before. The
//! prefix term of a query being typed earns no credit (its expansions are not whole words yet). It
//! costs no index byte: the postings the query reads already say where each term occurs.
//!
//! [`SearchOptions::page_weight`]: super::SearchOptions::page_weight

use super::{QueryPlan, SearchError, Searcher};
use crate::format::{Bm25Params, Posting, TermShard};

/// A query term the index holds: where it occurs, its weight in the query and its idf.
pub(super) struct TermEvidence<'s> {
    pub(super) text: &'s str,
    pub(super) postings: &'s [Posting],
    pub(super) weight: f32,
    pub(super) idf: f32,
}

impl Searcher {
    /// Each of the plan's terms the index holds, with what scoring it needs.
    pub(super) fn term_evidence<'s>(
        &self,
        plan: &QueryPlan,
        get: &impl Fn(usize) -> Result<&'s TermShard, SearchError>,
        params: &Bm25Params,
    ) -> Result<Vec<TermEvidence<'s>>, SearchError> {
        let mut out = Vec::with_capacity(plan.terms.len());
        for qt in &plan.terms {
            let Some(si) = qt.shard else { continue };
            if let Some(tp) = get(si)?.get(&qt.text) {
                out.push(TermEvidence {
                    text: &tp.term,
                    postings: &tp.postings,
                    weight: qt.weight,
                    idf: self.idf(&tp.postings, params),
                });
            }
        }
        Ok(out)
    }

    /// What `weight` of the page credit adds to `page` whose best chunk is `best`: the weight
    /// times idf of each term that occurs in another of the page's chunks and not in `best`.
    /// Nothing for a one-term query (a page's best chunk holds its one term).
    pub(super) fn page_credit(
        &self,
        terms: &[TermEvidence],
        page: u32,
        best: u32,
        weight: f32,
    ) -> f32 {
        if weight <= 0.0 || terms.len() < 2 {
            return 0.0;
        }
        let (Some(&first), Some(&end)) = (
            self.page_first_chunk.get(page as usize),
            self.page_first_chunk.get(page as usize + 1),
        ) else {
            return 0.0;
        };
        let mut credit = 0.0;
        for t in terms {
            let here = &t.postings[t.postings.partition_point(|p| p.chunk < first)..];
            let here = &here[..here.partition_point(|p| p.chunk < end)];
            if !here.is_empty() && here.binary_search_by_key(&best, |p| p.chunk).is_err() {
                credit += t.weight * t.idf;
            }
        }
        weight * credit
    }

    /// Adds `weight` times its page's credit to each chunk of `touched` (sorted by chunk, scores
    /// in `scores`, dense by chunk).
    pub(super) fn add_page_credit(
        &self,
        terms: &[TermEvidence],
        touched: &[u32],
        scores: &mut [f32],
        weight: f32,
    ) {
        if weight <= 0.0 || terms.len() < 2 {
            return;
        }
        let mut start = 0;
        while start < touched.len() {
            let page = self.page_of(touched[start]);
            let end = start + touched[start..].partition_point(|&c| self.page_of(c) == page);
            let group = &touched[start..end];
            // The page's best chunk; the first on ties.
            let mut best = group[0];
            for &c in &group[1..] {
                if scores[c as usize] > scores[best as usize] {
                    best = c;
                }
            }
            let credit = self.page_credit(terms, page, best, weight);
            if credit > 0.0 {
                for &c in group {
                    scores[c as usize] += credit;
                }
            }
            start = end;
        }
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

    const QUERY: &str = "refresh tokens expire rotate credentials scopes";

    fn pages(s: &Searcher, shards: &[crate::format::TermShard], page_weight: f32) -> Vec<u32> {
        let opts = SearchOptions {
            page_weight,
            ..Default::default()
        };
        s.rank(&s.plan(QUERY), |i| shards.get(i), &opts)
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
        // With the words its other sections hold it wins.
        assert_eq!(pages(&s, &shards, DEFAULT_PAGE_WEIGHT), [0, 1, 2]);
    }

    #[test]
    fn issue_20_page_credit_keeps_the_order_of_a_pages_sections_and_is_explained() {
        let (s, shards) = long_and_short();
        let plan = s.plan(QUERY);
        let long_page = |page_weight: f32| {
            let opts = SearchOptions {
                page_weight,
                explain: true,
                ..Default::default()
            };
            let hits = s.rank(&plan, |i| shards.get(i), &opts).unwrap();
            hits.into_iter().find(|h| h.page == 0).unwrap()
        };
        let (without, with) = (long_page(0.0), long_page(DEFAULT_PAGE_WEIGHT));
        let chunks = |h: &PageHit| h.sections.iter().map(|c| c.chunk).collect::<Vec<_>>();
        assert_eq!(chunks(&without), chunks(&with));
        let (plain, explained) = (without.explanation.unwrap(), with.explanation.unwrap());
        assert_eq!(plain.page, 0.0);
        assert!(explained.page > 0.0);
        // The explanation adds up to the best section's score (no boost applies here).
        assert!((explained.bm25 + explained.page - with.sections[0].score).abs() < 1e-4);
    }

    /// Pages of one section (SciFact's abstracts) rank exactly as without page credit.
    #[test]
    fn issue_20_pages_of_one_section_get_no_credit() {
        let texts = ["refresh tokens", "tokens expire", "refresh expire tokens"];
        let (s, shards) = index(&texts, 8);
        let ranked = |page_weight: f32| {
            let opts = SearchOptions {
                page_weight,
                ..Default::default()
            };
            s.rank(&s.plan("refresh tokens expire"), |i| shards.get(i), &opts)
                .unwrap()
        };
        assert_eq!(ranked(0.0), ranked(DEFAULT_PAGE_WEIGHT));
    }
}
