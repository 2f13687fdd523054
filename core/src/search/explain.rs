//! Explanations (`--explain`): why a chunk scored what it did, term by term, with its boosts.

use super::bm25::bm25f_term;
use super::prefix::PREFIX_DAMPING;
use super::{QueryPlan, SearchError, Searcher};
use crate::fieldnorm::id_to_fieldnorm;
use crate::format::{Field, TermShard, SCORED_FIELDS};

/// Why a chunk scored what it did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Explanation {
    pub chunk: u32,
    pub bm25: f32,
    pub terms: Vec<TermExplanation>,
    /// Boosts applied, with their multiplier minus one.
    pub boosts: Vec<(&'static str, f32)>,
    /// What the page's whole text added to the lexical score of this section
    /// (`search/page_evidence.rs`), before the boosts multiply it; 0 in vector mode. In hybrid mode it
    /// acts through the lexical side's normalized score, not additively.
    pub page: f32,
    /// Vector and hybrid modes: the chunk's 1-based rank on each side (None = not a candidate there)
    /// and its cosine similarity to the query.
    pub lexical_rank: Option<u32>,
    pub vector_rank: Option<u32>,
    pub similarity: Option<f32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TermExplanation {
    pub term: String,
    pub idf: f32,
    pub weight: f32,
    /// (field, term frequency, field length) for each field the term occurs in.
    pub fields: Vec<(&'static str, u32, u32)>,
    pub contribution: f32,
}

impl Searcher {
    /// The terms, prefix expansion and exact-match boosts that scored `chunk`, recomputed from the
    /// same postings as the ranking (only for the pages returned, so it costs nothing otherwise).
    pub(super) fn explain<'s>(
        &self,
        plan: &QueryPlan,
        get: &impl Fn(usize) -> Result<&'s TermShard, SearchError>,
        chunk: u32,
        params: &crate::format::Bm25Params,
        avg: &[f32; SCORED_FIELDS],
        page: &super::PageParams,
    ) -> Result<Explanation, SearchError> {
        let mut ex = Explanation {
            chunk,
            ..Default::default()
        };
        // The same terms, idfs and weights the ranking scored with (`term_evidence`).
        let terms = self.term_evidence(plan, get, params)?;
        for t in &terms {
            let Ok(pi) = t.postings.binary_search_by_key(&chunk, |p| p.chunk) else {
                continue;
            };
            let p = &t.postings[pi];
            let contribution = bm25f_term(p, t.idf, t.weight, params, avg);
            let fields = (0..SCORED_FIELDS)
                .filter(|&f| p.tf[f] > 0)
                .map(|f| (Field::ALL[f].name(), p.tf[f], id_to_fieldnorm(p.norm[f])))
                .collect();
            ex.bm25 += contribution;
            ex.terms.push(TermExplanation {
                term: t.text.to_owned(),
                idf: t.idf,
                weight: t.weight,
                fields,
                contribution,
            });
        }
        let mut prefix_scores = Vec::new();
        if let Some(p) = &plan.prefix {
            prefix_scores = self.prefix_scores(p, get, params, avg)?;
            let scores = &prefix_scores;
            if let Ok(i) = scores.binary_search_by_key(&chunk, |e| e.0) {
                let (_, x, term) = scores[i];
                ex.bm25 += x;
                ex.terms.push(TermExplanation {
                    term: crate::text::concat(&[&p.text, "* → ", term]),
                    idf: 0.0,
                    weight: p.weight * PREFIX_DAMPING,
                    fields: Vec::new(),
                    contribution: x,
                });
            }
        }
        if ex.bm25 > 0.0 {
            ex.page = self.page_credit_of(&terms, &prefix_scores, chunk, page, params, avg);
        }
        for ek in &plan.exact {
            let Some(si) = ek.shard else { continue };
            let Some(tp) = get(si)?.get(&ek.key) else {
                continue;
            };
            if tp
                .postings
                .binary_search_by_key(&chunk, |p| p.chunk)
                .is_ok()
            {
                ex.boosts.push((ek.label, ek.boost));
            }
        }
        Ok(ex)
    }
}
