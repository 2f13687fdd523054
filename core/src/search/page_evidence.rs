//! Whole-page evidence (issue 20): a page's lexical score counts what its other sections say of the
//! query, not only its best section.
//!
//! A long reference page that answers a question often spreads the query's words over several
//! sections, where an overview page or a near-duplicate has more of them in one. Ranking a page by its
//! best chunk alone lets the second win. So each query term is scored once more over the whole page:
//! its BM25F frequency in every chunk of the page (each normalized by its chunk's length) summed,
//! saturated with [`PageParams::k1`] (optionally discounted by the page's length in chunks,
//! [`PageParams::b`]), against the same saturation of its frequency in the best chunk alone; the
//! difference (never negative), times the term's query weight and idf and [`PageParams::weight`], is
//! the page's credit. With the defaults (weight 0.08, k1 50, b 0) each further occurrence elsewhere
//! on the page adds about 0.08 of what one occurrence scores, up to some tens of them: a page that
//! answers across its sections, or keeps returning to the query's subject, outranks one strong
//! section elsewhere. The credit is added to every chunk of the page that has term or prefix evidence
//! of its own (a chunk reached only by an exact-match key gets none), before boosts and before
//! fusion, so hybrid ranking sees it through the lexical side and it alone does not reorder those
//! chunks within the page (an exact-match boost, which multiplies, still may). A page of one section
//! gets none, so a corpus of short pages (SciFact) ranks exactly as before; nor does a query of one
//! term (a page that repeats a word must not outrank the page titled with it). The prefix term of a
//! query being typed earns no credit (its expansions are not whole words yet). It costs no index
//! byte: the postings the query reads already say where
//! each term occurs, and how often.
//!
//! [`PageParams::k1`]: super::PageParams::k1
//! [`PageParams::b`]: super::PageParams::b
//! [`PageParams::weight`]: super::PageParams::weight

use super::bm25::{bm25f_term, bm25f_tf};
use super::{PageParams, QueryPlan, SearchError, Searcher};
use crate::format::{Bm25Params, Posting, TermShard, SCORED_FIELDS};

/// A page some touched chunk is in: its chunks `first..end`, its best chunk, and where its chunks
/// are in the touched list.
struct TouchedPage {
    first: u32,
    end: u32,
    best: u32,
    touched: std::ops::Range<usize>,
}

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

    /// Adds its page's credit to each chunk of `touched` (sorted by chunk, scores before boosts in
    /// `scores`, dense by chunk); a page's best chunk is its highest score, the first on ties.
    ///
    /// Each term's postings are walked once along the touched pages ([`Self::page_credits`]):
    /// on a large site a query touches most pages.
    pub(super) fn add_page_credit(
        &self,
        terms: &[TermEvidence],
        touched: &[u32],
        scores: &mut [f32],
        page_params: &PageParams,
        params: &Bm25Params,
        avg: &[f32; SCORED_FIELDS],
    ) {
        if page_params.weight.is_nan() || page_params.weight <= 0.0 || terms.len() < 2 {
            return;
        }
        let pages = self.touched_pages(touched, scores);
        let credits = self.page_credits(terms, &pages, page_params, params, avg);
        for (page, credit) in pages.iter().zip(credits) {
            if credit > 0.0 {
                for &c in &touched[page.touched.clone()] {
                    scores[c as usize] += credit;
                }
            }
        }
    }

    /// What the page credit adds to each page of `pages`: per term, how much more it scores over
    /// the whole page than in the page's best chunk alone, times `page.weight`. The whole page's
    /// frequency is its chunks' BM25F frequencies summed (each normalized by its chunk's length, as
    /// [`bm25f_tf`] does); both it and the best chunk's are divided by `1 - page.b + page.b ·
    /// chunks / average chunks` and saturated with `page.k1`. A term scores no less in the page
    /// than in its best chunk, so a page of one chunk gets none; nor does a query of one term
    /// (the callers' check). Parameters out of range are clamped (k1 ≥ 0, b to 0..1) and a credit
    /// that is not finite is none, so a crafted index or option cannot turn scores into
    /// infinities. Each term's postings are walked once along the pages (in chunk order).
    fn page_credits(
        &self,
        terms: &[TermEvidence],
        pages: &[TouchedPage],
        page_params: &PageParams,
        params: &Bm25Params,
        avg: &[f32; SCORED_FIELDS],
    ) -> Vec<f32> {
        let average = self.manifest.num_chunks as f32 / self.manifest.pages.len().max(1) as f32;
        let b = page_params.b.clamp(0.0, 1.0);
        let k1 = page_params.k1.max(0.0);
        // (k1 + 1) · (tf / (k1 + tf)), the page's length discounted: no overflow for any finite tf.
        let saturate = |tf: f32, norm: f32| {
            let tf = tf / norm;
            if tf > 0.0 {
                (k1 + 1.0) * (tf / (k1 + tf))
            } else {
                0.0
            }
        };
        let norms: Vec<f32> = (pages.iter())
            .map(|p| 1.0 - b + b * (p.end - p.first) as f32 / average.max(1.0))
            .collect();
        let mut credit = vec![0f32; pages.len()];
        let mut whole = vec![0f32; pages.len()];
        let mut in_best = vec![0f32; pages.len()];
        let mut hit: Vec<usize> = Vec::new();
        for t in terms {
            let mut g = 0;
            for p in t.postings {
                while g < pages.len() && pages[g].end <= p.chunk {
                    g += 1;
                }
                let Some(page) = pages.get(g) else { break };
                if p.chunk < page.first {
                    continue;
                }
                if hit.last() != Some(&g) {
                    hit.push(g);
                }
                let tf = bm25f_tf(p, params, avg);
                whole[g] += tf;
                if p.chunk == page.best {
                    in_best[g] = tf;
                }
            }
            for g in hit.drain(..) {
                let gain = saturate(whole[g], norms[g]) - saturate(in_best[g], norms[g]);
                if gain > 0.0 {
                    credit[g] += t.weight * t.idf * gain;
                }
                whole[g] = 0.0;
                in_best[g] = 0.0;
            }
        }
        (pages.iter().zip(credit))
            .map(|(page, credit)| {
                let credit = page_params.weight * credit;
                // A page of one chunk gets none; a credit that is not finite is none.
                match page.end - page.first >= 2 && credit.is_finite() {
                    true => credit,
                    false => 0.0,
                }
            })
            .collect()
    }

    /// The pages of `touched` (sorted by chunk) in chunk order, each with its chunk range, its best
    /// chunk by `scores` and its chunks' range in `touched`.
    fn touched_pages(&self, touched: &[u32], scores: &[f32]) -> Vec<TouchedPage> {
        let mut pages = Vec::new();
        let (mut start, mut page) = (0, 0);
        while start < touched.len() {
            // Pages come in order: each looked up from the last (a query reaches most pages of a
            // large site, and a search from the start each time was most of the page credit's time).
            page = self.page_of_from(touched[start], page);
            let (Some(&first), Some(&end)) = (
                self.page_first_chunk.get(page as usize),
                self.page_first_chunk.get(page as usize + 1),
            ) else {
                break;
            };
            let mut stop = start + 1;
            while touched.get(stop).is_some_and(|&c| c < end) {
                stop += 1;
            }
            let group = &touched[start..stop];
            pages.push(TouchedPage {
                first,
                end,
                best: best_of(group.iter().map(|&c| (c, scores[c as usize]))),
                touched: start..stop,
            });
            start = stop.max(start + 1);
        }
        pages
    }

    /// The credit the ranking added to the chunks of `chunk`'s page (for explanations): its best
    /// chunk found as [`Self::add_page_credit`] finds it, from the same sums in the same order
    /// (each term's BM25F, then the prefix's score, `prefix` sorted by chunk).
    pub(super) fn page_credit_of(
        &self,
        terms: &[TermEvidence],
        prefix: &[(u32, f32, &str)],
        chunk: u32,
        page_params: &PageParams,
        params: &Bm25Params,
        avg: &[f32; SCORED_FIELDS],
    ) -> f32 {
        let page = self.page_of(chunk);
        let (Some(&first), Some(&end)) = (
            self.page_first_chunk.get(page as usize),
            self.page_first_chunk.get(page as usize + 1),
        ) else {
            return 0.0;
        };
        let scored = (first..end).filter_map(|c| {
            let mut s = 0f32;
            for t in terms {
                if let Ok(i) = t.postings.binary_search_by_key(&c, |p| p.chunk) {
                    let x = bm25f_term(&t.postings[i], t.idf, t.weight, params, avg);
                    if x > 0.0 {
                        s += x;
                    }
                }
            }
            if let Ok(i) = prefix.binary_search_by_key(&c, |e| e.0) {
                s += prefix[i].1;
            }
            (s > 0.0).then_some((c, s))
        });
        let best = best_of(scored);
        if page_params.weight.is_nan() || page_params.weight <= 0.0 || terms.len() < 2 {
            return 0.0;
        }
        let page = TouchedPage {
            first,
            end,
            best,
            touched: 0..0,
        };
        self.page_credits(terms, &[page], page_params, params, avg)[0]
    }
}

/// The chunk of the highest score, the first on ties (`u32::MAX` for none).
fn best_of(scored: impl Iterator<Item = (u32, f32)>) -> u32 {
    let mut best: Option<(u32, f32)> = None;
    for (c, s) in scored {
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((c, s));
        }
    }
    best.map_or(u32::MAX, |(c, _)| c)
}

#[cfg(test)]
mod tests {
    use crate::format::PageEntry;
    use crate::search::test_index::index;
    use crate::search::*;

    /// Page 0 is one long page whose eight sections keep returning to the question, none of them
    /// saying all of it as tersely as page 1, a short page of one section; page 2 is a short page
    /// that says a little of it.
    fn long_and_short() -> (Searcher, Vec<crate::format::TermShard>) {
        let texts = [
            "refresh tokens expire after an hour",
            "refresh tokens rotate on every use",
            "revoke refresh tokens that leak",
            "refresh tokens expire when revoked",
            "store refresh tokens safely",
            "refresh tokens expire on logout",
            "refresh tokens and their scopes",
            "refresh tokens expire in tests",
            "refresh tokens expire: refresh tokens",
            "tokens overview",
        ];
        let (s, shards) = index(&texts, 8);
        let mut m = s.manifest().clone();
        let entry = m.pages[0].clone();
        m.pages = vec![
            PageEntry {
                chunk_count: 8,
                ..entry.clone()
            },
            entry.clone(),
            entry,
        ];
        (Searcher::new(m).unwrap(), shards)
    }

    const QUERY: &str = "refresh tokens expire";

    /// Options with the page credit at `page_weight` (the other parameters at their defaults).
    fn with_weight(page_weight: f32) -> SearchOptions {
        SearchOptions {
            page: PageParams {
                weight: page_weight,
                ..Default::default()
            },
            ..Default::default()
        }
    }

    /// The pages `query` ranks, with the page credit at `page_weight`.
    fn ranked(
        s: &Searcher,
        shards: &[crate::format::TermShard],
        query: &str,
        page_weight: f32,
    ) -> Vec<PageHit> {
        s.rank(&s.plan(query), |i| shards.get(i), &with_weight(page_weight))
            .unwrap()
    }

    fn pages(s: &Searcher, shards: &[crate::format::TermShard], page_weight: f32) -> Vec<u32> {
        ranked(s, shards, QUERY, page_weight)
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

    #[cfg(feature = "explain")]
    #[test]
    fn issue_20_page_credit_keeps_the_order_of_a_pages_sections_and_is_explained() {
        let (s, shards) = long_and_short();
        let plan = s.plan(QUERY);
        let long_page = |page_weight: f32| {
            let opts = SearchOptions {
                explain: true,
                ..with_weight(page_weight)
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

    /// A query of one word ranks as without page credit: the page titled with it must not lose to
    /// one that repeats it.
    #[test]
    fn issue_20_a_query_of_one_term_gets_no_credit() {
        let (s, shards) = long_and_short();
        let ranked = |page_weight: f32| ranked(&s, &shards, "refresh", page_weight);
        assert_eq!(ranked(0.0), ranked(DEFAULT_PAGE_WEIGHT));
    }

    /// Pages of one section (SciFact's abstracts) rank exactly as without page credit.
    #[test]
    fn issue_20_pages_of_one_section_get_no_credit() {
        let texts = ["refresh tokens", "tokens expire", "refresh expire tokens"];
        let (s, shards) = index(&texts, 8);
        let ranked = |page_weight: f32| ranked(&s, &shards, "refresh tokens expire", page_weight);
        assert_eq!(ranked(0.0), ranked(DEFAULT_PAGE_WEIGHT));
    }
}
