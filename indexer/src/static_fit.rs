//! The static query encoder's fit: one row per indexed term, so that the mean of a text's term rows
//! approximates the full model's embedding of that text (format v3, `aidocs_core::term_rows`).
//!
//! Here is every chunk's analyzed terms and its full-model vector; give me term rows. The fit is ridge
//! least squares, `min ‖XW − Y‖² + λ‖W‖²`, with X the chunks' term frequencies (each row summing to 1)
//! and Y their unit vectors, solved by conjugate gradients on the normal equations: one independent CG
//! per output dimension, sharing the two sparse products per iteration. Fixed iteration counts and
//! fixed summation order keep it deterministic. The browser then encodes a query by fetching its
//! terms' rows (one small shard each) and adding them up: no model, no tokenizer vocabulary.
//!
//! Useful for short queries against document vectors; not a replacement for the model on long texts.

use std::collections::BTreeMap;

use aidocs_core::term_rows::{TermRowShard, TermRowsRef};
use aidocs_core::vectors::quantize;
use aidocs_core::SCORED_FIELDS;
use rayon::prelude::*;

use crate::vectors::{ShortExamples, PARTITION_TARGET};

/// Knobs of the fit (defaults chosen on the SciFact train split, see ARCHITECTURE.md "Relevance").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitOptions {
    /// Ridge penalty relative to the mean diagonal of XᵀX.
    pub lambda: f32,
    pub iterations: usize,
    /// Terms in fewer chunks than this get no row. 1 keeps every term: a rare term's row points at
    /// its few chunks, which is what a query naming it wants (SciFact train hybrid nDCG@10 0.723 with
    /// 1, 0.710 with 2, at twice the rows on disk).
    pub min_df: usize,
    /// Target bytes of one row shard (a query fetches one per term).
    pub shard_bytes: usize,
    /// Fit an intercept (the mean vector) that every query encoding starts from.
    pub intercept: bool,
    /// Stored vector dimensions: the chunk vectors are projected onto their top principal directions
    /// (0 = the model's own). Fewer dimensions cut every vector file a query fetches: on SciFact train,
    /// hybrid nDCG@10 with the static encoder is 0.723 at 384, 0.724 at 256, 0.724 at 128, 0.711 at 64.
    pub dims: usize,
    /// Target chunks per vector partition (a query fetches `nprobe` partitions).
    pub partition_size: usize,
    /// Leading dimensions of each centroid in the vector directory (0 = automatic: see
    /// [`crate::vectors::probe_dims`]).
    pub probe_dims: usize,
    /// Leading sentences of each section embedded as extra short examples (0 = titles and headings
    /// only; on SciFact train, 2 sentences cost 7,000 more embeddings and lowered nDCG@10 slightly).
    pub sentences: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            lambda: 0.05,
            iterations: 40,
            min_df: 1,
            // 768 B (about 5 rows): a query fetches one row shard per term, and on a 10,000-page site
            // this halves those bytes (15.3 → 8.8 KB) for 1.7× the row files (no manifest cost: they
            // are named by index). 512 B saves 2 KB more for 6,000 more files.
            shard_bytes: 768,
            intercept: true,
            sentences: 0,
            dims: 128,
            partition_size: PARTITION_TARGET,
            probe_dims: 0,
        }
    }
}

/// The fitted rows, before sharding.
pub struct TermRows {
    pub dims: usize,
    /// Sorted terms and their rows (`terms.len() × dims`).
    pub terms: Vec<String>,
    pub rows: Vec<f32>,
    /// The intercept: the mean target vector.
    pub mean: Vec<f32>,
    /// Relative residual ‖XW − Y‖ / ‖Y‖ on the chunks, for the build report.
    pub residual: f32,
}

/// Sparse chunk × term matrix, by rows and by columns.
struct Design {
    /// Per chunk: (term column, weight).
    rows: Vec<Vec<(u32, f32)>>,
    /// Per term: (chunk, weight).
    cols: Vec<Vec<(u32, f32)>>,
}

/// The term columns of the design, gathered one term at a time in term order (the exporter walks
/// the index's terms once, and never holds them all): term frequencies per chunk over the scored
/// fields, terms kept by `min_df` over the chunks.
pub struct TermColumns {
    chunks: usize,
    min_df: usize,
    kept: Vec<String>,
    cols: Vec<Vec<(u32, f32)>>,
}

impl TermColumns {
    /// Columns over `chunks` chunks, keeping terms in at least `min_df` of them.
    pub fn new(chunks: usize, min_df: usize) -> Self {
        TermColumns {
            chunks,
            min_df,
            kept: Vec::new(),
            cols: Vec::new(),
        }
    }

    /// Adds a term and its postings (chunk, field, tf, norm); terms come in sorted order.
    pub fn push(&mut self, term: &str, postings: &[(u32, u8, u32, u8)]) {
        if aidocs_core::search::is_exact_key(term) {
            return; // exact-match keys are not words
        }
        let mut tf: BTreeMap<u32, u32> = BTreeMap::new();
        for &(chunk, field, f, _) in postings {
            if (field as usize) < SCORED_FIELDS && (chunk as usize) < self.chunks {
                *tf.entry(chunk).or_insert(0) += f;
            }
        }
        if tf.len() < self.min_df.max(1) {
            return;
        }
        self.kept.push(term.to_owned());
        self.cols
            .push(tf.into_iter().map(|(c, f)| (c, f as f32)).collect());
    }
}

/// The design of `columns`, then one row per extra example (its analyzed terms), each row
/// normalized to sum 1.
fn design(columns: TermColumns, extra: &[Vec<String>]) -> (Vec<String>, Design) {
    let TermColumns {
        chunks,
        kept,
        mut cols,
        ..
    } = columns;
    for (j, words) in extra.iter().enumerate() {
        let mut tf: BTreeMap<usize, u32> = BTreeMap::new();
        for w in words {
            if let Ok(t) = kept.binary_search(w) {
                *tf.entry(t).or_insert(0) += 1;
            }
        }
        for (t, f) in tf {
            cols[t].push(((chunks + j) as u32, f as f32));
        }
    }
    let mut rows: Vec<Vec<(u32, f32)>> = vec![Vec::new(); chunks + extra.len()];
    for (t, col) in cols.iter().enumerate() {
        for &(c, f) in col {
            rows[c as usize].push((t as u32, f));
        }
    }
    let totals: Vec<f32> = rows
        .iter()
        .map(|r| r.iter().map(|&(_, f)| f).sum::<f32>())
        .collect();
    for (r, &total) in rows.iter_mut().zip(&totals) {
        r.iter_mut().for_each(|(_, f)| *f /= total);
    }
    for col in cols.iter_mut() {
        for (c, f) in col.iter_mut() {
            *f /= totals[*c as usize];
        }
    }
    (kept, Design { rows, cols })
}

fn axpy(out: &mut [f32], a: f32, x: &[f32]) {
    for (o, v) in out.iter_mut().zip(x) {
        *o += a * v;
    }
}

impl Design {
    /// `(XᵀX + λI) P`, P being `terms × d` row-major.
    fn normal_product(&self, p: &[f32], d: usize, lambda: f32) -> Vec<f32> {
        let xp: Vec<Vec<f32>> = self
            .rows
            .par_iter()
            .map(|row| {
                let mut acc = vec![0f32; d];
                for &(t, x) in row {
                    axpy(&mut acc, x, &p[t as usize * d..(t as usize + 1) * d]);
                }
                acc
            })
            .collect();
        let mut out = vec![0f32; p.len()];
        out.par_chunks_mut(d).enumerate().for_each(|(t, o)| {
            for &(c, x) in &self.cols[t] {
                axpy(o, x, &xp[c as usize]);
            }
            axpy(o, lambda, &p[t * d..(t + 1) * d]);
        });
        out
    }
}

/// Per-column dot products of two `n × d` matrices.
fn column_dots(a: &[f32], b: &[f32], d: usize) -> Vec<f64> {
    let mut out = vec![0f64; d];
    for (ra, rb) in a.chunks_exact(d).zip(b.chunks_exact(d)) {
        for j in 0..d {
            out[j] += (ra[j] * rb[j]) as f64;
        }
    }
    out
}

/// Fits term rows to the chunks' `chunk_vectors` (one unit row per chunk, `dims` wide) and the
/// short examples.
pub fn fit(
    columns: TermColumns,
    chunk_vectors: &[Vec<f32>],
    short: &ShortExamples,
    dims: usize,
    opts: &FitOptions,
) -> TermRows {
    debug_assert_eq!(columns.chunks, chunk_vectors.len());
    let (kept, x) = design(columns, &short.terms);
    let vectors: Vec<&[f32]> = chunk_vectors
        .iter()
        .chain(&short.vectors)
        .map(Vec::as_slice)
        .collect();
    let vectors = &vectors[..];
    let v = kept.len();
    let d = dims;
    // The intercept: rows only model each text's difference from the mean vector.
    let mut mean = vec![0f32; d];
    if opts.intercept && !vectors.is_empty() {
        for y in vectors {
            axpy(&mut mean, 1.0, y);
        }
        mean.iter_mut().for_each(|m| *m /= vectors.len() as f32);
    }
    if v == 0 {
        return TermRows {
            dims,
            terms: kept,
            rows: Vec::new(),
            mean,
            residual: 1.0,
        };
    }
    // B = Xᵀ(Y − mean) (rows of X sum to 1, so the intercept passes through unchanged).
    let mut b = vec![0f32; v * d];
    b.par_chunks_mut(d).enumerate().for_each(|(t, o)| {
        for &(c, w) in &x.cols[t] {
            axpy(o, w, vectors[c as usize]);
            axpy(o, -w, &mean);
        }
    });
    let diag: f64 = x
        .cols
        .iter()
        .map(|col| col.iter().map(|&(_, w)| (w * w) as f64).sum::<f64>())
        .sum::<f64>()
        / v as f64;
    let lambda = (opts.lambda as f64 * diag) as f32;
    // CG from W = 0, one independent solve per column.
    let mut w = vec![0f32; v * d];
    let mut r = b.clone();
    let mut p = r.clone();
    let mut rr = column_dots(&r, &r, d);
    for _ in 0..opts.iterations {
        let ap = x.normal_product(&p, d, lambda);
        let pap = column_dots(&p, &ap, d);
        let alpha: Vec<f32> = (0..d)
            .map(|j| {
                if pap[j] > 0.0 {
                    (rr[j] / pap[j]) as f32
                } else {
                    0.0
                }
            })
            .collect();
        for ((wr, rrow), (prow, aprow)) in w
            .chunks_exact_mut(d)
            .zip(r.chunks_exact_mut(d))
            .zip(p.chunks_exact(d).zip(ap.chunks_exact(d)))
        {
            for j in 0..d {
                wr[j] += alpha[j] * prow[j];
                rrow[j] -= alpha[j] * aprow[j];
            }
        }
        let rr_new = column_dots(&r, &r, d);
        let beta: Vec<f32> = (0..d)
            .map(|j| {
                if rr[j] > 0.0 {
                    (rr_new[j] / rr[j]) as f32
                } else {
                    0.0
                }
            })
            .collect();
        for (prow, rrow) in p.chunks_exact_mut(d).zip(r.chunks_exact(d)) {
            for j in 0..d {
                prow[j] = rrow[j] + beta[j] * prow[j];
            }
        }
        rr = rr_new;
    }
    // Residual of the fit on the chunks themselves.
    let (mut err, mut total) = (0f64, 0f64);
    for (row, y) in x.rows.iter().zip(vectors) {
        let mut acc = mean.clone();
        for &(t, xw) in row {
            axpy(&mut acc, xw, &w[t as usize * d..(t as usize + 1) * d]);
        }
        for (a, yv) in acc.iter().zip(y.iter()) {
            err += ((a - yv) * (a - yv)) as f64;
            total += (yv * yv) as f64;
        }
    }
    TermRows {
        dims,
        terms: kept,
        rows: w,
        mean,
        residual: if total > 0.0 {
            (err / total).sqrt() as f32
        } else {
            1.0
        },
    }
}

/// The row shards and the manifest's reference. Rows are int8 with one scale each; a term goes to shard
/// `term_hash % shards`; the file prefix hashes every shard, so names stay content-addressed.
pub fn export_rows(rows: &TermRows, shard_bytes: usize) -> (TermRowsRef, Vec<(String, Vec<u8>)>) {
    let d = rows.dims;
    let per_row = d + 4 + 8;
    let shards = (rows.terms.len() * per_row)
        .div_ceil(shard_bytes.max(per_row))
        .max(1) as u32;
    let (mean_scale, mean) = quantize(&rows.mean);
    let mut probe = TermRowsRef {
        dims: d as u32,
        shards,
        prefix: String::new(),
        terms: rows.terms.len() as u32,
        mean_scale,
        mean,
    };
    let mut parts: Vec<TermRowShard> = (0..shards)
        .map(|_| TermRowShard {
            dims: d as u32,
            terms: Vec::new(),
            scales: Vec::new(),
            values: Vec::new(),
        })
        .collect();
    // Terms arrive sorted, so every shard's terms are sorted too.
    for (i, term) in rows.terms.iter().enumerate() {
        let s = &mut parts[probe.shard_of(term) as usize];
        let (scale, q) = quantize(&rows.rows[i * d..(i + 1) * d]);
        s.terms.push(term.clone());
        s.scales.push(scale);
        s.values.extend(q);
    }
    let encoded: Vec<Vec<u8>> = parts.iter().map(TermRowShard::encode).collect();
    let mut h = blake3::Hasher::new();
    for e in &encoded {
        h.update(blake3::hash(e).as_bytes());
    }
    probe.prefix = format!("q/{}-", &h.finalize().to_hex()[..16]);
    let files = encoded
        .into_iter()
        .enumerate()
        .map(|(i, bytes)| (probe.file(i as u32), bytes))
        .collect();
    (probe, files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aidocs_core::term_rows::encode_terms;

    /// Three topics, each chunk mixing a topic word with shared filler: the fitted rows must send a
    /// one-word query to its topic's vector.
    #[test]
    fn fitted_rows_map_words_to_their_chunks_vectors() {
        let topics = [[1.0f32, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let words = ["alpha", "beta", "gamma"];
        let mut terms: BTreeMap<String, Vec<(u32, u8, u32, u8)>> = BTreeMap::new();
        let mut vectors = Vec::new();
        for c in 0..30u32 {
            let topic = (c % 3) as usize;
            terms
                .entry(words[topic].to_owned())
                .or_default()
                .push((c, 2, 2, 0));
            terms.entry("the".into()).or_default().push((c, 2, 1, 0));
            terms.entry("~t:x".into()).or_default().push((c, 4, 1, 0));
            vectors.push(topics[topic].to_vec());
        }
        terms.entry("once".into()).or_default().push((0, 2, 1, 0));
        let none = ShortExamples {
            terms: Vec::new(),
            vectors: Vec::new(),
        };
        let opts = FitOptions {
            min_df: 2,
            ..Default::default()
        };
        let columns = || {
            let mut c = TermColumns::new(vectors.len(), opts.min_df);
            terms.iter().for_each(|(t, p)| c.push(t, p));
            c
        };
        let rows = fit(columns(), &vectors, &none, 3, &opts);
        assert_eq!(rows.terms, vec!["alpha", "beta", "gamma", "the"]);
        assert!(rows.residual < 0.2, "residual {}", rows.residual);
        let (r, files) = export_rows(&rows, 32);
        assert!(r.shards > 1);
        let shards: Vec<TermRowShard> = files
            .iter()
            .map(|(_, b)| TermRowShard::decode(b).unwrap())
            .collect();
        let row = |t: &str| shards[r.shard_of(t) as usize].row(t);
        for (word, topic) in words.iter().zip(topics) {
            let q = encode_terms(&r, [*word], row).unwrap();
            let best = (0..3).max_by(|&a, &b| q[a].total_cmp(&q[b])).unwrap();
            assert_eq!(topic[best], 1.0, "{word}: {q:?}");
        }
        // Deterministic: the same input gives the same files.
        let (r2, files2) = export_rows(&fit(columns(), &vectors, &none, 3, &opts), 32);
        assert_eq!((r, files), (r2, files2));
    }
}
