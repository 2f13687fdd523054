//! `aidocs-index eval`: score an index against judged queries (BEIR qrels): nDCG, recall, MRR, latency
//! and cold payload, optionally on typo or prefix variants of the queries.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use aidocs_core::{QueryVector, SearchOptions};
use aidocs_reader::eval::{evaluate, read_labelled_queries, read_qrels, EvalError};
use aidocs_reader::eval_evidence::evaluate_evidence;
use aidocs_reader::local_index::LocalIndex;
use aidocs_reader::QueryEncoder;
use clap::Args;

use super::common::{fail, params, RankArgs, VectorArgs};

#[derive(Args)]
pub struct EvalArgs {
    #[arg(long)]
    index: PathBuf,
    #[arg(long)]
    queries: PathBuf,
    #[arg(long)]
    qrels: PathBuf,
    #[arg(long, default_value_t = 10)]
    k: usize,
    #[command(flatten)]
    vector: VectorArgs,
    /// Prefix search on the last word (see `query --prefix`).
    #[arg(long)]
    prefix: bool,
    /// Score each query as typed up to the first N letters of its last word, with --prefix: what a
    /// reader sees before finishing the word (e.g. 4).
    #[arg(long, value_name = "N")]
    cut_last_word: Option<usize>,
    /// No typo tolerance (see `query --no-typos`).
    #[arg(long)]
    no_typos: bool,
    /// Score each query with one deterministic one-edit typo (seeded by its id): the typo variant.
    #[arg(long)]
    typo_queries: bool,
    /// The readers' language (see `query --language`): pages in it, queries stemmed as they were.
    #[arg(long)]
    language: Option<String>,
    /// Also score the evidence an agent would read (`context`) at these token budgets (e.g.
    /// 1000,2000,4000): the share of queries whose judged page is in it, next to the top pages'
    /// excerpts within the same budget, tokens used, and what one cold evidence call fetches.
    #[arg(long, value_delimiter = ',', value_name = "TOKENS")]
    evidence: Vec<u32>,
    /// Only the queries whose `split` is this (e.g. `train` or `dev`): tune on one, report the other.
    #[arg(long, value_name = "NAME")]
    split: Option<String>,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rank: RankArgs,
}

pub fn run_eval(a: EvalArgs) -> ExitCode {
    let index = match LocalIndex::open_language(&a.index, a.language.as_deref()) {
        Ok(i) => i,
        Err(e) => return fail(1, e),
    };
    let mut labelled = match read_labelled_queries(&a.queries) {
        Ok(q) => q,
        Err(e) => return fail(3, e),
    };
    if let Some(split) = &a.split {
        labelled.retain(|q| q.split.as_deref() == Some(split));
        if labelled.is_empty() {
            let file = a.queries.display();
            return fail(3, format!("{file}: no query has \"split\": \"{split}\""));
        }
    }
    let sections: HashMap<String, Vec<String>> = labelled
        .iter()
        .filter(|q| !q.anchors.is_empty())
        .map(|q| (q.id.clone(), q.anchors.clone()))
        .collect();
    let categories: HashMap<String, String> = labelled
        .iter()
        .filter_map(|q| Some((q.id.clone(), q.category.clone()?)))
        .collect();
    let queries: Vec<(String, String)> = labelled.into_iter().map(|q| (q.id, q.text)).collect();
    let queries: Vec<(String, String)> = match a.cut_last_word {
        Some(n) => queries
            .into_iter()
            .map(|(id, text)| (id, aidocs_reader::eval::cut_last_word(&text, n)))
            .collect(),
        None => queries,
    };
    let queries: Vec<(String, String)> = if a.typo_queries {
        queries
            .into_iter()
            .map(|(id, text)| {
                let t = aidocs_reader::eval::one_edit_typo(&text, &id);
                (id, t)
            })
            .collect()
    } else {
        queries
    };
    let qrels = match read_qrels(&a.qrels) {
        Ok(q) => q,
        Err(e) => return fail(3, e),
    };
    let mut opts = match params(&index, &a.rank) {
        Ok(p) => SearchOptions {
            k: a.k,
            params: p,
            prefix: a.prefix || a.cut_last_word.is_some(),
            typos: !a.no_typos,
            language: a.language.clone(),
            page: a.rank.page(),
            ..Default::default()
        },
        Err(e) => return fail(2, e),
    };
    a.vector.apply(&mut opts);
    let encoder = match a.vector.encoder(&index) {
        Ok(e) => e,
        Err(e) => return fail(3, e),
    };
    let mut encode_ms = None;
    let vecs: Option<HashMap<String, QueryVector>> = match &encoder {
        None => None,
        Some(enc) => {
            let t = std::time::Instant::now();
            let texts: Vec<&str> = queries.iter().map(|(_, t)| t.as_str()).collect();
            match enc.query_vectors(&texts) {
                Ok(v) => {
                    // The static encoder runs inside each query (its latency includes it).
                    encode_ms = matches!(enc, QueryEncoder::Full(_))
                        .then(|| t.elapsed().as_secs_f64() * 1000.0 / texts.len().max(1) as f64);
                    Some(queries.iter().map(|(id, _)| id.clone()).zip(v).collect())
                }
                Err(e) => return fail(1, e),
            }
        }
    };
    let report = match evaluate(&index, &queries, &qrels, &opts, vecs.as_ref(), &categories) {
        Ok(r) => r,
        Err(e @ EvalError::Query(_)) => return fail(1, e),
        Err(e) => return fail(3, e),
    };
    let mut out = std::io::stdout().lock();
    // A closed pipe (`eval | head -1`) ends the report quietly, as for `query` and `inspect`.
    let _ = print_eval(
        &mut out,
        &report,
        a.json,
        &opts,
        encoder.as_ref(),
        encode_ms,
    );
    if a.evidence.is_empty() {
        return ExitCode::SUCCESS;
    }
    let vector = |text: &str| -> Result<QueryVector, EvalError> {
        let id = queries.iter().find(|(_, t)| t == text).map(|(id, _)| id);
        Ok((vecs.as_ref().zip(id))
            .and_then(|(v, id)| v.get(id).cloned())
            .unwrap_or(QueryVector::Static))
    };
    match evaluate_evidence(
        &index,
        &queries,
        &qrels,
        &sections,
        &a.evidence,
        &opts,
        vector,
    ) {
        Ok(reports) => {
            for r in reports {
                let _ = if a.json {
                    writeln!(out, "{}", serde_json::to_string(&r).unwrap_or_default())
                } else {
                    writeln!(
                        out,
                        "evidence {:>5} tokens: judged page in it {:.4} (top pages' excerpts in the same budget {:.4}){}; {:.0} tokens, {:.1} pieces per query; cold call p50 {} B, p95 {} B, p50 {} requests",
                        r.tokens, r.judged_in_evidence, r.judged_in_excerpts,
                        match (r.judged_section_in_evidence, r.judged_section_in_excerpts) {
                            (Some(e), Some(x)) => format!(", judged section in it {e:.4} ({x:.4}) of {} queries", r.section_queries),
                            _ => String::new(),
                        },
                        r.mean_tokens, r.mean_pieces, r.cold_bytes_p50, r.cold_bytes_p95, r.cold_requests_p50
                    )
                };
            }
            ExitCode::SUCCESS
        }
        Err(e @ EvalError::Query(_)) => fail(1, e),
        Err(e) => fail(3, e),
    }
}

fn print_eval(
    out: &mut impl std::io::Write,
    r: &aidocs_reader::eval::EvalReport,
    json: bool,
    opts: &SearchOptions,
    encoder: Option<&QueryEncoder>,
    encode_ms: Option<f64>,
) -> std::io::Result<()> {
    if json {
        return writeln!(out, "{}", serde_json::to_string(r).unwrap_or_default());
    }
    writeln!(
        out,
        "queries {}  nDCG@10 {:.4}  Recall@10 {:.4}  Recall@100 {:.4}  MRR@10 {:.4}  found@10 {:.4}  empty {}",
        r.queries, r.ndcg_at_10, r.recall_at_10, r.recall_at_100, r.mrr_at_10, r.found_at_10, r.empty
    )?;
    writeln!(
        out,
        "latency p50 {:.3} ms  p95 {:.3} ms, warm p50 {:.3} ms  p95 {:.3} ms  (native, in-process: each query's first run, which decodes the shards no earlier query read; then the query again)",
        r.latency_ms_p50, r.latency_ms_p95, r.warm_latency_ms_p50, r.warm_latency_ms_p95
    )?;
    // What the session names for a cold client: the vector side's files depend on the encoder (the
    // static one reads the query terms' row shards, the full model the projection).
    let vector_files = match (opts.mode, encoder) {
        (aidocs_core::Mode::Lexical, _) => "",
        (_, Some(QueryEncoder::Full(_))) => ", vector directory, projection and partitions",
        _ => ", vector directory, row shards and partitions",
    };
    writeln!(out, "cold query payload (manifest, typo files, term shards{vector_files}, metadata of top 10; no code): p50 {} B, p95 {} B, p50 {} requests", r.cold_bytes_p50, r.cold_bytes_p95, r.cold_requests_p50)?;
    if let (Some(enc), Some(ms)) = (encoder, encode_ms) {
        writeln!(
            out,
            "mode {}; query encoder {} {:.2} ms per query (batched)",
            r.mode,
            enc.name(),
            ms
        )?;
    }
    for b in &r.by_page_length {
        writeln!(
            out,
            "  answering page of {:>6} sections: {:>5} queries  nDCG@10 {:.4}  Recall@10 {:.4}  MRR@10 {:.4}",
            b.sections, b.metrics.queries, b.metrics.ndcg_at_10, b.metrics.recall_at_10, b.metrics.mrr_at_10
        )?;
    }
    for c in &r.by_category {
        let m = &c.metrics;
        writeln!(
            out,
            "  category {:>22}: {:>5} queries  nDCG@10 {:.4}  Recall@10 {:.4}  MRR@10 {:.4}",
            c.category, m.queries, m.ndcg_at_10, m.recall_at_10, m.mrr_at_10
        )?;
    }
    if let Some(rec) = r.vector_recall_vs_exact {
        writeln!(
            out,
            "vector search recall@10 vs exact (nprobe {}): {:.4}",
            opts.nprobe, rec
        )?;
    }
    Ok(())
}
