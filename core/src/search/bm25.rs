//! Lexical scoring: BM25F per term and chunk, the prefix's expansions and exact-match boosts on top,
//! and the lexical ranking of pages.

use super::{PageHit, QueryPlan, SearchError, SearchOptions, Searcher};
use crate::fieldnorm::id_to_fieldnorm;
use crate::format::{TermShard, SCORED_FIELDS};

impl Searcher {
    /// Scores and ranks pages lexically. `shard` returns the decoded term shard for an index of
    /// the term shard table; every index in `plan.shards` must be available.
    pub fn rank<'s>(
        &self,
        plan: &QueryPlan,
        shard: impl Fn(usize) -> Option<&'s TermShard>,
        opts: &SearchOptions,
    ) -> Result<Vec<PageHit>, SearchError> {
        self.check_stemmer(plan, opts)?;
        let get = self.getter(&shard);
        let chunks = self.lexical_chunks(plan, &get, opts)?;
        Ok(self.aggregate(chunks, plan, &get, opts, None)?.0)
    }

    /// `shard` as a lookup that names the missing file when a shard the plan needs was not given.
    pub(super) fn getter<'s, 'f>(
        &'f self,
        shard: &'f impl Fn(usize) -> Option<&'s TermShard>,
    ) -> impl Fn(usize) -> Result<&'s TermShard, SearchError> + 'f {
        move |i: usize| shard(i).ok_or_else(|| SearchError::MissingTermShard(self.term_file(i)))
    }

    /// BM25F, the prefix's expansions, the page credit (`page_evidence`) and exact-match boosts per
    /// chunk: `(chunk, score)` sorted by chunk, scores > 0.
    pub(super) fn lexical_chunks<'s>(
        &self,
        plan: &QueryPlan,
        get: &impl Fn(usize) -> Result<&'s TermShard, SearchError>,
        opts: &SearchOptions,
    ) -> Result<Vec<(u32, f32)>, SearchError> {
        let params = opts.params.unwrap_or(self.manifest.params);
        let n = self.manifest.num_chunks as usize;
        let mut avg = [0f32; SCORED_FIELDS];
        for (f, a) in avg.iter_mut().enumerate() {
            *a = self.manifest.avg_field_len(f);
        }
        let mut scores = vec![0f32; n];
        let mut touched: Vec<u32> = Vec::new();
        let terms = self.term_evidence(plan, get, &params)?;
        for t in &terms {
            for p in t.postings {
                let c = bm25f_term(p, t.idf, t.weight, &params, &avg);
                if c > 0.0 {
                    let s = &mut scores[p.chunk as usize];
                    if *s == 0.0 {
                        touched.push(p.chunk);
                    }
                    *s += c;
                }
            }
        }
        if let Some(p) = &plan.prefix {
            for (c, x, _) in self.prefix_scores(p, get, &params, &avg)? {
                let s = &mut scores[c as usize];
                if *s == 0.0 {
                    touched.push(c);
                }
                *s += x;
            }
        }
        // The query words the rest of each page holds (see `page_evidence`). `touched` is every
        // chunk scoring above 0 (each contribution is positive), once: when it holds a good part
        // of the site, reading them off the scores in order is cheaper than sorting.
        if touched.len() > n / 8 {
            touched = (0..n as u32)
                .filter(|&c| scores[c as usize] > 0.0)
                .collect();
        } else {
            touched.sort_unstable();
        }
        self.add_page_credit(&terms, &touched, &mut scores, &opts.page, &params, &avg);
        // Exact-match boosts apply to chunks that carry the key.
        // Each chunk once, with its largest boost (and at least 0).
        let mut boosted: Vec<(u32, f32)> = Vec::new();
        for ek in &plan.exact {
            let Some(si) = ek.shard else { continue };
            let Some(tp) = get(si)?.get(&ek.key) else {
                continue;
            };
            boosted.extend(tp.postings.iter().map(|p| (p.chunk, 0f32.max(ek.boost))));
        }
        let credited = touched.len();
        crate::sort::sort_by(&mut boosted, |a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
        boosted.dedup_by_key(|e| e.0);
        for (c, b) in boosted {
            let s = &mut scores[c as usize];
            if *s == 0.0 {
                touched.push(c);
            }
            *s = *s * (1.0 + b) + b;
        }
        // Chunks only a boost reached follow the sorted rest.
        if touched.len() > credited {
            touched.sort_unstable();
            touched.dedup();
        }
        Ok(touched
            .into_iter()
            .map(|c| (c, scores[c as usize]))
            .filter(|&(_, s)| s > 0.0)
            .collect())
    }

    /// BM25's inverse document frequency over chunks, counting only chunks where the term occurs in
    /// a field that scores under `params`.
    pub(super) fn idf(
        &self,
        postings: &[crate::format::Posting],
        params: &crate::format::Bm25Params,
    ) -> f32 {
        let df = postings
            .iter()
            .filter(|p| (0..SCORED_FIELDS).any(|f| p.tf[f] > 0 && params.weights[f] > 0.0))
            .count() as f32;
        let n = self.manifest.num_chunks as f32;
        libm::logf(1.0 + (n - df + 0.5) / (df + 0.5))
    }
}

/// BM25F contribution of one term to one chunk: field frequencies are length-normalized per field,
/// weighted, summed, then saturated once (Robertson & Zaragoza's BM25F).
pub fn bm25f_term(
    p: &crate::format::Posting,
    idf: f32,
    weight: f32,
    params: &crate::format::Bm25Params,
    avg: &[f32; SCORED_FIELDS],
) -> f32 {
    let tf = bm25f_tf(p, params, avg);
    if tf == 0.0 {
        return 0.0;
    }
    weight * idf * (params.k1 + 1.0) * tf / (params.k1 + tf)
}

/// BM25F's pseudo term frequency of one posting: the field frequencies, each length-normalized in
/// its field and weighted, summed (before saturation).
#[allow(clippy::needless_range_loop)] // four parallel per-field arrays
pub(super) fn bm25f_tf(
    p: &crate::format::Posting,
    params: &crate::format::Bm25Params,
    avg: &[f32; SCORED_FIELDS],
) -> f32 {
    let mut tf = 0f32;
    for f in 0..SCORED_FIELDS {
        if p.tf[f] == 0 || params.weights[f] == 0.0 {
            continue;
        }
        let len = id_to_fieldnorm(p.norm[f]) as f32;
        let norm = if avg[f] > 0.0 {
            1.0 - params.b + params.b * len / avg[f]
        } else {
            1.0
        };
        tf += params.weights[f] * p.tf[f] as f32 / norm;
    }
    tf
}
