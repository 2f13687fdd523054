//! `aidocs-index eval --evidence`: is the judged page inside the evidence an agent would read (issue
//! 22)? For each token budget, the share of queries whose judged page (any page judged relevant)
//! gives a piece of the evidence, next to the baseline an agent gets from a search API: the top
//! pages' titles, URLs and best sections' excerpts, in rank order, as many as the same budget holds
//! (counted by the same estimate). Also the tokens used and what one cold evidence call fetches.

use std::collections::HashMap;

use aidocs_core::tokens::estimate;
use aidocs_core::{EvidenceOptions, QueryVector, SearchOptions};

use crate::eval::EvalError;
use crate::local_index::LocalIndex;

/// One budget's figures.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EvidenceReport {
    pub tokens: u32,
    pub queries: usize,
    /// Share of queries with a judged page among the evidence's pieces.
    pub judged_in_evidence: f64,
    /// Share of queries with a judged page among the top pages' excerpts that fit the budget.
    pub judged_in_excerpts: f64,
    /// Mean estimated tokens the evidence took, and pieces per query.
    pub mean_tokens: f64,
    pub mean_pieces: f64,
    /// Bytes and requests one cold evidence call fetches (manifest, ranking files, metadata, text).
    pub cold_bytes_p50: u64,
    pub cold_bytes_p95: u64,
    pub cold_requests_p50: usize,
}

/// The figures of `queries` judged by `qrels` at each budget; `vector(text)` gives the query
/// vector (`QueryVector::Static` for lexical ranking).
pub fn evaluate_evidence(
    index: &LocalIndex,
    queries: &[(String, String)],
    qrels: &HashMap<String, HashMap<String, u32>>,
    budgets: &[u32],
    base: &SearchOptions,
    mut vector: impl FnMut(&str) -> Result<QueryVector, EvalError>,
) -> Result<Vec<EvidenceReport>, EvalError> {
    let judged: Vec<(&str, &str, &HashMap<String, u32>)> = queries
        .iter()
        .filter_map(|(id, text)| qrels.get(id).map(|r| (id.as_str(), text.as_str(), r)))
        .collect();
    let mut out = Vec::new();
    for &tokens in budgets {
        let evidence = EvidenceOptions::new(tokens).ok_or_else(|| EvalError::Input {
            file: "--evidence".into(),
            line: 0,
            message: format!("{tokens}: budgets are 64 to 64000 tokens"),
        })?;
        let opts = SearchOptions {
            evidence: Some(evidence),
            ..base.clone()
        };
        let (mut hit_e, mut hit_x, mut used, mut pieces) = (0usize, 0usize, 0u64, 0usize);
        let (mut bytes, mut requests) = (Vec::new(), Vec::new());
        for (_, text, rels) in &judged {
            let relevant = |id: &str| rels.get(id).is_some_and(|&r| r > 0);
            let v = vector(text)?;
            let outcome = index
                .query(text, v.clone(), &opts)
                .map_err(EvalError::from)?;
            let e = outcome.evidence.expect("evidence was asked for");
            hit_e += usize::from(e.pieces.iter().any(|p| relevant(&p.page_id)));
            used += u64::from(e.tokens);
            pieces += e.pieces.len();
            // The baseline: results' titles, URLs and best excerpts while they fit.
            let mut spent = 0u32;
            let mut found = false;
            for (n, r) in outcome.results.iter().enumerate() {
                let excerpt = r.sections.first().map_or("", |s| s.excerpt.as_str());
                let url = r
                    .sections
                    .first()
                    .map_or(r.url.as_str(), |s| s.url.as_str());
                let block = format!("### [{}] {}\n{}\n\n{}\n\n", n + 1, r.title, url, excerpt);
                spent += estimate(&block);
                if spent > tokens {
                    break;
                }
                found |= relevant(&r.id);
            }
            hit_x += usize::from(found);
            let (b, n) = index.cold_cost(text, v, &opts).map_err(EvalError::from)?;
            bytes.push(b);
            requests.push(n);
        }
        let q = judged.len().max(1) as f64;
        bytes.sort_unstable();
        requests.sort_unstable();
        let at = |v: &[u64], p: f64| {
            v.get(((v.len() as f64 - 1.0) * p).round() as usize)
                .copied()
        };
        out.push(EvidenceReport {
            tokens,
            queries: judged.len(),
            judged_in_evidence: hit_e as f64 / q,
            judged_in_excerpts: hit_x as f64 / q,
            mean_tokens: used as f64 / q,
            mean_pieces: pieces as f64 / q,
            cold_bytes_p50: at(&bytes, 0.5).unwrap_or(0),
            cold_bytes_p95: at(&bytes, 0.95).unwrap_or(0),
            cold_requests_p50: requests.get(requests.len() / 2).copied().unwrap_or(0),
        });
    }
    Ok(out)
}
