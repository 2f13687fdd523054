//! `aidocs-index eval`: nDCG@10, Recall@10/100 and MRR@10 against BEIR-style qrels, plus latency.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

use aidocs_core::{QueryVector, SearchOptions};

use crate::local_index::{LocalIndex, QueryError};

#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("{file}:{line}: {message}")]
    Input {
        file: String,
        line: usize,
        message: String,
    },
    #[error("{file}: {source}")]
    Read {
        file: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Query(#[from] QueryError),
}

/// One query line: `{"id", "text"}`, optionally with its `category` (reported apart by `eval`) and
/// `split` (`eval --split` keeps one).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct QueryLine {
    #[serde(alias = "_id")]
    pub id: serde_json::Value,
    #[serde(alias = "query")]
    pub text: String,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub split: Option<String>,
    /// The judged sections, `page#anchor` (CoNaLa's `gold_doc_anchors`): `eval --evidence` reports
    /// how often one of them is inside the evidence.
    #[serde(default, alias = "gold_doc_anchors")]
    pub anchors: Vec<String>,
}

/// A judged query as read: its id, text and labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelledQuery {
    pub id: String,
    pub text: String,
    /// e.g. `question`, `paraphrase`, `keyword`, `identifier` (issue 20).
    pub category: Option<String>,
    /// e.g. `train`, `dev`.
    pub split: Option<String>,
    /// Judged sections, `page#anchor` (each with one `#` and both sides non-empty).
    pub anchors: Vec<String>,
}

/// The longest category or split name: they are printed as report lines.
const MAX_LABEL: usize = 40;

pub fn id_string(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Reads a JSONL query file; a bad line is an error naming file and line.
pub fn read_queries(path: &Path) -> Result<Vec<(String, String)>, EvalError> {
    Ok(read_labelled_queries(path)?
        .into_iter()
        .map(|q| (q.id, q.text))
        .collect())
}

/// Reads a JSONL query file with each line's labels; a bad line (or a label that is empty, longer
/// than 40 bytes or not printable) is an error naming file and line.
pub fn read_labelled_queries(path: &Path) -> Result<Vec<LabelledQuery>, EvalError> {
    let file = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
        file: file.clone(),
        source,
    })?;
    let mut out = Vec::new();
    for (i, line) in src.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let q: QueryLine = serde_json::from_str(line).map_err(|e| EvalError::Input {
            file: file.clone(),
            line: i + 1,
            message: format!("expected {{\"id\",\"text\"}}: {e}"),
        })?;
        for (field, label) in [("category", &q.category), ("split", &q.split)] {
            if let Some(l) = label {
                if l.is_empty() || l.len() > MAX_LABEL || l.chars().any(|c| c.is_control()) {
                    return Err(EvalError::Input {
                        file: file.clone(),
                        line: i + 1,
                        message: format!(
                            "`{field}` must be 1-{MAX_LABEL} bytes without control characters"
                        ),
                    });
                }
            }
        }
        if let Some(bad) = q.anchors.iter().find(|a| {
            a.split_once('#')
                .is_none_or(|(page, anchor)| page.is_empty() || anchor.is_empty())
        }) {
            return Err(EvalError::Input {
                file: file.clone(),
                line: i + 1,
                message: format!(
                    "judged section `{}` is not `page#anchor`",
                    bad.chars().take(80).collect::<String>()
                ),
            });
        }
        out.push(LabelledQuery {
            id: id_string(&q.id),
            text: q.text,
            category: q.category,
            split: q.split,
            anchors: q.anchors,
        });
    }
    Ok(out)
}

/// Reads qrels: `qid<TAB>docid<TAB>rel` (a header line is skipped; TREC 4-column lines accepted).
pub fn read_qrels(path: &Path) -> Result<HashMap<String, HashMap<String, u32>>, EvalError> {
    let file = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
        file: file.clone(),
        source,
    })?;
    let mut out: HashMap<String, HashMap<String, u32>> = HashMap::new();
    for (i, line) in src.lines().enumerate() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols.is_empty()
            || (i == 0 && cols[0].eq_ignore_ascii_case("query-id")
                || cols[0].eq_ignore_ascii_case("qid"))
        {
            continue;
        }
        let (q, d, r) = match cols.as_slice() {
            [q, d, r] => (*q, *d, *r),
            [q, _, d, r] => (*q, *d, *r),
            _ => {
                return Err(EvalError::Input {
                    file: file.clone(),
                    line: i + 1,
                    message: "expected `qid docid rel`".into(),
                })
            }
        };
        let rel: u32 = r.parse().map_err(|_| EvalError::Input {
            file: file.clone(),
            line: i + 1,
            message: format!("relevance `{r}` is not a number"),
        })?;
        out.entry(q.to_owned())
            .or_default()
            .insert(d.to_owned(), rel);
    }
    Ok(out)
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct EvalReport {
    pub queries: usize,
    pub ndcg_at_10: f64,
    pub recall_at_10: f64,
    pub recall_at_100: f64,
    pub mrr_at_10: f64,
    /// Share of queries with at least one relevant page in the top 10.
    pub found_at_10: f64,
    /// Queries with no result at all.
    pub empty: usize,
    /// Each query's first run: it reads and decodes the shards no earlier query read.
    pub latency_ms_p50: f64,
    pub latency_ms_p95: f64,
    /// The same query run again, every shard it needs decoded: the ranking's own time.
    pub warm_latency_ms_p50: f64,
    pub warm_latency_ms_p95: f64,
    pub bytes_read: u64,
    /// Bytes a cold browser client fetches per query (manifest + term shards + metadata of the top k).
    pub cold_bytes_p50: u64,
    pub cold_bytes_p95: u64,
    pub cold_requests_p50: usize,
    /// The mode the queries actually ran in (vector and hybrid fall back to lexical without vectors).
    pub mode: String,
    /// With `--nprobe N`: mean overlap of the vector side's top 10 pages with exact search's.
    pub vector_recall_vs_exact: Option<f64>,
    /// The same metrics by the length of the page that answers (its most relevant judged page, in
    /// sections), so that a regression on long pages shows (issue 20).
    pub by_page_length: Vec<BucketReport>,
    /// The same metrics by the queries' `category`, in name order (none when no query has one), so
    /// that a regression on questions or identifiers shows (issue 20).
    pub by_category: Vec<CategoryReport>,
}

/// Metrics of the queries whose answering page falls in one length bucket.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BucketReport {
    /// `1`, `2-4`, `5-15`, `16+` sections, or `absent` (the judged page is not in the index).
    pub sections: &'static str,
    #[serde(flatten)]
    pub metrics: GroupMetrics,
}

/// Metrics of the queries of one category (the query file's `category`: question, keyword...).
#[derive(Debug, Clone, serde::Serialize)]
pub struct CategoryReport {
    pub category: String,
    #[serde(flatten)]
    pub metrics: GroupMetrics,
}

/// The mean metrics of a group of queries.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct GroupMetrics {
    pub queries: usize,
    pub ndcg_at_10: f64,
    pub recall_at_10: f64,
    pub mrr_at_10: f64,
}

/// Running sums of a group's metrics.
#[derive(Debug, Clone, Copy, Default)]
struct GroupSums {
    queries: usize,
    ndcg: f64,
    recall: f64,
    mrr: f64,
}

impl GroupSums {
    fn add(&mut self, ndcg: f64, recall: f64, mrr: f64) {
        self.queries += 1;
        self.ndcg += ndcg;
        self.recall += recall;
        self.mrr += mrr;
    }

    fn means(self) -> GroupMetrics {
        let n = self.queries.max(1) as f64;
        GroupMetrics {
            queries: self.queries,
            ndcg_at_10: self.ndcg / n,
            recall_at_10: self.recall / n,
            mrr_at_10: self.mrr / n,
        }
    }
}

/// The length buckets of [`BucketReport`], by a page's number of sections.
fn length_bucket(sections: Option<usize>) -> usize {
    match sections {
        Some(0..=1) => 0,
        Some(2..=4) => 1,
        Some(5..=15) => 2,
        Some(_) => 3,
        None => 4,
    }
}
const BUCKETS: [&str; 5] = ["1", "2-4", "5-15", "16+", "absent"];

/// Sections per page id, from every metadata shard of the index.
fn sections_by_page(index: &LocalIndex) -> Result<HashMap<String, usize>, EvalError> {
    let mut out = HashMap::new();
    for i in 0..index.searcher.meta_shard_count() {
        for p in &index.meta_shard(i)?.pages {
            out.insert(p.id.clone(), p.chunks.len());
        }
    }
    Ok(out)
}

/// `text` as typed up to the first `n` characters of its last word (trailing punctuation dropped): the
/// prefix variant of a judged query.
pub fn cut_last_word(text: &str, n: usize) -> String {
    let trimmed = text.trim_end_matches(|c: char| !c.is_alphanumeric());
    let start = trimmed
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric())
        .last()
        .map_or(trimmed.len(), |(i, _)| i);
    let word: String = trimmed[start..].chars().take(n.max(1)).collect();
    format!("{}{word}", &trimmed[..start])
}

/// `text` with one deterministic one-edit typo, seeded by `seed` (the query id): in one of its words of
/// 4+ letters, a letter deleted, inserted, substituted or swapped with the next one (which word, which
/// edit, where and which letter all follow from the seed's hash). Text without such a word is returned
/// unchanged. The typo variant of a judged query.
pub fn one_edit_typo(text: &str, seed: &str) -> String {
    let h = blake3::hash(seed.as_bytes());
    let b = h.as_bytes();
    let mut words: Vec<(usize, usize)> = Vec::new(); // byte ranges of alphabetic runs of 4+ letters
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_alphabetic(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if text[s..i].chars().count() >= 4 {
                    words.push((s, i));
                }
                start = None;
            }
            _ => {}
        }
    }
    if words.is_empty() {
        return text.to_owned();
    }
    let (s, e) = words[b[0] as usize % words.len()];
    let mut w: Vec<char> = text[s..e].chars().collect();
    let n = w.len();
    let letter = |x: u8, not: char| {
        let c = (b'a' + x % 26) as char;
        if c == not.to_ascii_lowercase() {
            (b'a' + (x + 1) % 26) as char
        } else {
            c
        }
    };
    match b[1] % 4 {
        0 => {
            w.remove(b[2] as usize % n);
        }
        1 => {
            let at = b[2] as usize % (n + 1);
            let near = w[at.min(n - 1)];
            w.insert(at, letter(b[3], near));
        }
        2 => {
            let at = b[2] as usize % n;
            w[at] = letter(b[3], w[at]);
        }
        _ => {
            // Swap two different neighbours (a swap of equal letters is no typo).
            let at = (0..n - 1)
                .map(|k| (b[2] as usize + k) % (n - 1))
                .find(|&i| w[i] != w[i + 1]);
            match at {
                Some(i) => w.swap(i, i + 1),
                None => {
                    w.remove(b[2] as usize % n);
                }
            }
        }
    }
    format!(
        "{}{}{}",
        &text[..s],
        w.into_iter().collect::<String>(),
        &text[e..]
    )
}

/// nDCG@k with linear gains (trec_eval's definition, as BEIR reports).
pub fn ndcg(ranked: &[String], rels: &HashMap<String, u32>, k: usize) -> f64 {
    let dcg: f64 = ranked
        .iter()
        .take(k)
        .enumerate()
        .map(|(i, d)| rels.get(d).copied().unwrap_or(0) as f64 / ((i + 2) as f64).log2())
        .sum();
    let mut ideal: Vec<u32> = rels.values().copied().filter(|&r| r > 0).collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    let idcg: f64 = ideal
        .iter()
        .take(k)
        .enumerate()
        .map(|(i, &r)| r as f64 / ((i + 2) as f64).log2())
        .sum();
    if idcg == 0.0 {
        0.0
    } else {
        dcg / idcg
    }
}

pub fn recall(ranked: &[String], rels: &HashMap<String, u32>, k: usize) -> f64 {
    let relevant = rels.values().filter(|&&r| r > 0).count();
    if relevant == 0 {
        return 0.0;
    }
    ranked
        .iter()
        .take(k)
        .filter(|d| rels.get(*d).is_some_and(|&r| r > 0))
        .count() as f64
        / relevant as f64
}

pub fn mrr(ranked: &[String], rels: &HashMap<String, u32>, k: usize) -> f64 {
    ranked
        .iter()
        .take(k)
        .position(|d| rels.get(d).is_some_and(|&r| r > 0))
        .map_or(0.0, |i| 1.0 / (i + 1) as f64)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

/// Runs every judged query and averages the metrics.
pub fn evaluate(
    index: &LocalIndex,
    queries: &[(String, String)],
    qrels: &HashMap<String, HashMap<String, u32>>,
    opts: &SearchOptions,
    query_vecs: Option<&HashMap<String, QueryVector>>,
    categories: &HashMap<String, String>,
) -> Result<EvalReport, EvalError> {
    let mut used_mode = aidocs_core::Mode::Lexical;
    let mut overlap = Vec::new();
    let mut sums = [0f64; 5];
    let mut n = 0usize;
    let mut empty = 0usize;
    let mut latencies = Vec::new();
    let mut warm_latencies = Vec::new();
    let mut cold: Vec<(u64, usize)> = Vec::new();
    let judged: BTreeMap<&str, &str> = queries
        .iter()
        .filter(|(id, _)| qrels.contains_key(id))
        .map(|(id, t)| (id.as_str(), t.as_str()))
        .collect();
    let mut opts = opts.clone();
    opts.k = opts.k.max(100);
    // Per query: its id, its answering page and its nDCG@10, Recall@10, MRR@10.
    let mut per_query: Vec<(&str, Option<&str>, f64, f64, f64)> = Vec::new();
    for (id, text) in judged {
        let qv = (query_vecs.and_then(|m| m.get(id)).cloned()).unwrap_or(QueryVector::Static);
        let t = Instant::now();
        let outcome = index.query(text, qv.clone(), &opts)?;
        let (results, used) = (outcome.results, outcome.mode);
        latencies.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        index.query(text, qv.clone(), &opts)?;
        warm_latencies.push(t.elapsed().as_secs_f64() * 1000.0);
        used_mode = used;
        if opts.nprobe != 0 && used != aidocs_core::Mode::Lexical {
            // Approximate vs exact vector search, on the vector side alone.
            let vopts = SearchOptions {
                k: 10,
                mode: aidocs_core::Mode::Vector,
                ..opts.clone()
            };
            let approx = index.query(text, qv.clone(), &vopts)?.results;
            let exact =
                (index.query(text, qv.clone(), &SearchOptions { nprobe: 0, ..vopts })?).results;
            if !exact.is_empty() {
                let hit = exact
                    .iter()
                    .filter(|e| approx.iter().any(|a| a.id == e.id))
                    .count();
                overlap.push(hit as f64 / exact.len() as f64);
            }
        }
        let ranked: Vec<String> = results.into_iter().map(|r| r.id).collect();
        cold.push(index.cold_cost(
            text,
            qv,
            &SearchOptions {
                k: 10,
                ..opts.clone()
            },
        )?);
        if ranked.is_empty() {
            empty += 1;
        }
        let rels = &qrels[id];
        sums[0] += ndcg(&ranked, rels, 10);
        sums[1] += recall(&ranked, rels, 10);
        sums[2] += recall(&ranked, rels, 100);
        sums[3] += mrr(&ranked, rels, 10);
        // The answering page: the most relevant judged one (the first id on ties).
        let gold = rels
            .iter()
            .filter(|(_, &g)| g > 0)
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(d, _)| d);
        per_query.push((
            id,
            gold.map(String::as_str),
            ndcg(&ranked, rels, 10),
            recall(&ranked, rels, 10),
            mrr(&ranked, rels, 10),
        ));
        sums[4] += f64::from(u8::from(
            ranked
                .iter()
                .take(10)
                .any(|id| rels.get(id).is_some_and(|&g| g > 0)),
        ));
        n += 1;
    }
    let bytes_read = *index.bytes_read.borrow();
    // After the queries, so that `bytes_read` counts what they read.
    let sections = sections_by_page(index)?;
    let mut buckets = [GroupSums::default(); BUCKETS.len()];
    let mut by_category: BTreeMap<&str, GroupSums> = BTreeMap::new();
    for &(id, gold, ndcg, recall, mrr) in &per_query {
        buckets[length_bucket(gold.and_then(|d| sections.get(d)).copied())].add(ndcg, recall, mrr);
        if let Some(c) = categories.get(id) {
            by_category.entry(c).or_default().add(ndcg, recall, mrr);
        }
    }
    latencies.sort_by(f64::total_cmp);
    warm_latencies.sort_by(f64::total_cmp);
    let mut cold_bytes: Vec<u64> = cold.iter().map(|c| c.0).collect();
    cold_bytes.sort_unstable();
    let mut cold_requests: Vec<usize> = cold.iter().map(|c| c.1).collect();
    cold_requests.sort_unstable();
    let pick = |v: &[u64], p: f64| {
        v.get(((v.len().max(1) - 1) as f64 * p).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    let avg = |x: f64| if n == 0 { 0.0 } else { x / n as f64 };
    Ok(EvalReport {
        queries: n,
        ndcg_at_10: avg(sums[0]),
        recall_at_10: avg(sums[1]),
        recall_at_100: avg(sums[2]),
        mrr_at_10: avg(sums[3]),
        found_at_10: avg(sums[4]),
        empty,
        latency_ms_p50: percentile(&latencies, 0.5),
        latency_ms_p95: percentile(&latencies, 0.95),
        warm_latency_ms_p50: percentile(&warm_latencies, 0.5),
        warm_latency_ms_p95: percentile(&warm_latencies, 0.95),
        bytes_read,
        cold_bytes_p50: pick(&cold_bytes, 0.5),
        cold_bytes_p95: pick(&cold_bytes, 0.95),
        cold_requests_p50: cold_requests
            .get(cold_requests.len() / 2)
            .copied()
            .unwrap_or(0),
        mode: used_mode.name().to_owned(),
        vector_recall_vs_exact: (!overlap.is_empty())
            .then(|| overlap.iter().sum::<f64>() / overlap.len() as f64),
        by_page_length: BUCKETS
            .iter()
            .zip(buckets)
            .filter(|(_, b)| b.queries > 0)
            .map(|(&sections, b)| BucketReport {
                sections,
                metrics: b.means(),
            })
            .collect(),
        by_category: by_category
            .into_iter()
            .map(|(c, b)| CategoryReport {
                category: c.to_owned(),
                metrics: b.means(),
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_6_typo_variants_carry_one_edit() {
        let q = "Vitamin D deficiency is linked to cancer.";
        let mut changed = 0;
        for id in 0..200 {
            let t = one_edit_typo(q, &id.to_string());
            assert_eq!(t, one_edit_typo(q, &id.to_string()), "deterministic");
            if t != q {
                changed += 1;
            }
            let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
            let (a, b) = (words(q), words(&t));
            assert_eq!(a.len(), b.len());
            let diffs: Vec<_> = a.iter().zip(&b).filter(|(x, y)| x != y).collect();
            assert_eq!(diffs.len(), 1, "{t}");
            let (x, y) = diffs[0];
            assert!(aidocs_core::typos::edit_distance(x, y) == 1, "{x} → {y}");
        }
        assert_eq!(changed, 200);
        assert_eq!(one_edit_typo("a b c", "1"), "a b c");
    }

    #[test]
    fn issue_6_prefix_variants_cut_the_last_word() {
        assert_eq!(
            cut_last_word("Vitamin D and cancer risk.", 4),
            "Vitamin D and cancer risk"
        );
        assert_eq!(cut_last_word("does authentication", 4), "does auth");
        assert_eq!(cut_last_word("does it work?", 2), "does it wo");
        assert_eq!(cut_last_word("ab", 4), "ab");
        assert_eq!(cut_last_word("", 4), "");
        assert_eq!(cut_last_word("naïveté", 3), "naï");
    }

    #[test]
    fn metrics_match_hand_computed_values() {
        let rels: HashMap<String, u32> = [("a".to_string(), 1), ("b".to_string(), 1)]
            .into_iter()
            .collect();
        let ranked: Vec<String> = ["x", "a", "b"].iter().map(|s| s.to_string()).collect();
        let expected = (1.0 / 3f64.log2() + 1.0 / 4f64.log2()) / (1.0 + 1.0 / 3f64.log2());
        assert!((ndcg(&ranked, &rels, 10) - expected).abs() < 1e-12);
        assert_eq!(recall(&ranked, &rels, 2), 0.5);
        assert_eq!(mrr(&ranked, &rels, 10), 0.5);
    }
}
