//! What several commands share: the error exit (`fail`), the audience of `build` and `pages`, and the
//! vector and BM25 flags of `query` and `eval` with how they become search options.

use std::path::PathBuf;
use std::process::ExitCode;

use aidocs_core::{Bm25Params, Kind, QueryVector, SearchOptions};
use aidocs_index::embed::{locate as locate_model, Embedder};
use aidocs_reader::local_index::LocalIndex;
use aidocs_reader::QueryEncoder;
use clap::{Args, ValueEnum};

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Audience {
    Public,
    Internal,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Mode {
    /// BM25F over the term shards.
    Lexical,
    /// Cosine similarity of the query's vector to the chunk vectors.
    Vector,
    /// Both, fused (--fusion).
    Hybrid,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum EncoderArg {
    /// The full model (all-MiniLM-L6-v2 with candle), as at build time.
    Full,
    /// The index's fitted term rows: what the browser runs (no model needed).
    Static,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum FusionArg {
    /// Min-max normalized scores, weighted by --lexical-weight.
    Minmax,
    /// Reciprocal-rank fusion (k = --rrf-k).
    Rrf,
}

/// Vector and hybrid options of `query` and `eval`.
#[derive(Args, Clone)]
pub struct VectorArgs {
    /// lexical, vector or hybrid (vector and hybrid fall back to lexical on an index without vectors).
    #[arg(long, value_enum, default_value = "lexical")]
    mode: Mode,
    /// The query encoder for vector and hybrid modes.
    #[arg(long, value_enum, default_value = "full")]
    encoder: EncoderArg,
    #[arg(long, value_enum, default_value = "minmax")]
    fusion: FusionArg,
    /// BM25's weight in min-max fusion (the vector side gets 1 - w). Default: 0.65 with the full
    /// encoder, 0.75 with the static one (chosen on train splits; see `Fusion::default_for`).
    #[arg(long)]
    lexical_weight: Option<f32>,
    #[arg(long, default_value_t = 60.0)]
    rrf_k: f32,
    /// Vector partitions probed per query (0 = all = exact).
    #[arg(long, default_value_t = aidocs_core::search::DEFAULT_NPROBE)]
    nprobe: usize,
    /// Pages of each side whose chunks fusion considers (each side's top pages).
    #[arg(long, default_value_t = 100)]
    candidates: usize,
    /// The embedding model directory for --encoder full (see `build --model`).
    #[arg(long)]
    model: Option<PathBuf>,
}

impl VectorArgs {
    pub fn apply(&self, o: &mut SearchOptions) {
        o.mode = match self.mode {
            Mode::Lexical => aidocs_core::Mode::Lexical,
            Mode::Vector => aidocs_core::Mode::Vector,
            Mode::Hybrid => aidocs_core::Mode::Hybrid,
        };
        o.fusion = match self.fusion {
            FusionArg::Minmax => match self.lexical_weight {
                Some(lexical_weight) => aidocs_core::Fusion::MinMax { lexical_weight },
                None => aidocs_core::Fusion::default_for(self.encoder == EncoderArg::Static),
            },
            FusionArg::Rrf => aidocs_core::Fusion::Rrf { k: self.rrf_k },
        };
        o.nprobe = self.nprobe;
        o.candidates = self.candidates.max(1);
    }

    /// The query encoder, when the mode needs one and the index has vectors.
    pub fn encoder(&self, index: &LocalIndex) -> Result<Option<QueryEncoder>, String> {
        if self.mode == Mode::Lexical {
            return Ok(None);
        }
        let Some(v) = &index.searcher.manifest().vectors else {
            eprintln!("warning: this index has no vectors (built with --no-embeddings or without the model): ranking lexically");
            return Ok(None);
        };
        if self.encoder == EncoderArg::Static {
            if v.term_rows.is_none() {
                return Err("this index has no static query encoder (built before format v3): rebuild it, or use --encoder full".into());
            }
            return Ok(Some(QueryEncoder::Static));
        }
        let e = locate_model(self.model.as_deref())
            .and_then(|d| Embedder::load(&d))
            .map_err(|e| e.to_string())?;
        let model_dims = match &v.projection {
            Some(_) => index
                .projection()
                .map_err(|e| e.to_string())?
                .map_or(v.dims, |p| p.in_dims),
            None => v.dims,
        };
        if e.dims != model_dims as usize {
            return Err(format!(
                "the model has {} dimensions, the index's vectors {} ({}): pass the model the index was built with",
                e.dims, v.dims, v.model
            ));
        }
        Ok(Some(QueryEncoder::Full(Box::new(e.into_model()))))
    }
}

#[derive(Args, Clone)]
pub struct RankArgs {
    /// BM25 k1 (default: the index's).
    #[arg(long)]
    k1: Option<f32>,
    /// BM25 b (default: the index's).
    #[arg(long)]
    b: Option<f32>,
    /// Field weights `title,headings,body,code` (default: the index's).
    #[arg(long)]
    weights: Option<String>,
    /// How much more the query words score over a page's whole text than in its best section adds
    /// to its score; 0 ranks a page by its best section alone.
    #[arg(long, default_value_t = aidocs_core::search::DEFAULT_PAGE_WEIGHT, value_parser = non_negative)]
    pub page_weight: f32,
    /// BM25 k1 over a page's whole text (see --page-weight).
    #[arg(long, default_value_t = aidocs_core::search::DEFAULT_PAGE_K1, value_parser = non_negative)]
    pub page_k1: f32,
    /// How much a page longer than average (in sections) discounts its words, 0 to 1 (see
    /// --page-weight).
    #[arg(long, default_value_t = aidocs_core::search::DEFAULT_PAGE_B, value_parser = unit)]
    pub page_b: f32,
}

impl RankArgs {
    /// The page credit's parameters (see `--page-weight`).
    pub fn page(&self) -> aidocs_core::search::PageParams {
        aidocs_core::search::PageParams {
            weight: self.page_weight,
            k1: self.page_k1,
            b: self.page_b,
        }
    }
}

/// A number from 0 to 1.
fn unit(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(w),
        _ => Err(format!("`{s}`: expected a number from 0 to 1")),
    }
}

/// A finite weight of 0 or more.
fn non_negative(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(w) if w.is_finite() && w >= 0.0 => Ok(w),
        _ => Err(format!("`{s}`: expected a number of 0 or more")),
    }
}

pub fn fail(code: u8, msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(code)
}

pub fn params(index: &LocalIndex, r: &RankArgs) -> Result<Option<Bm25Params>, String> {
    if r.k1.is_none() && r.b.is_none() && r.weights.is_none() {
        return Ok(None);
    }
    let mut p = index.searcher.manifest().params;
    if let Some(k1) = r.k1 {
        p.k1 = k1;
    }
    if let Some(b) = r.b {
        p.b = b;
    }
    if let Some(w) = &r.weights {
        let parts: Vec<f32> = w
            .split(',')
            .map(|s| s.trim().parse::<f32>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--weights `{w}`: expected four numbers like 2,1.5,1,0.8"))?;
        if parts.len() != 4 {
            return Err(format!(
                "--weights `{w}`: expected four numbers (title,headings,body,code)"
            ));
        }
        p.weights.copy_from_slice(&parts);
    }
    Ok(Some(p))
}

/// What a querying command (`query`, `context`) runs with: the index a reader in `language` opens,
/// its search options (`options`, then the vector flags) and the query encoder. On failure, the
/// exit to take: 1 unreadable index, 2 bad options, 3 no usable encoder.
pub fn open_for_queries(
    dir: &std::path::Path,
    language: Option<&str>,
    vector: &VectorArgs,
    options: impl FnOnce(&LocalIndex) -> Result<SearchOptions, String>,
) -> Result<(LocalIndex, SearchOptions, Option<QueryEncoder>), ExitCode> {
    let index = LocalIndex::open_language(dir, language).map_err(|e| fail(1, e))?;
    let mut opts = options(&index).map_err(|e| fail(2, e))?;
    vector.apply(&mut opts);
    let encoder = vector.encoder(&index).map_err(|e| fail(3, e))?;
    Ok((index, opts, encoder))
}

/// The query vector of `text`: the encoder's, or the index's static encoder without one.
pub fn query_vector(encoder: Option<&QueryEncoder>, text: &str) -> Result<QueryVector, String> {
    match encoder {
        None => Ok(QueryVector::Static),
        Some(enc) => enc
            .query_vectors(&[text])
            .map(|mut v| v.pop().unwrap_or(QueryVector::Static))
            .map_err(|e| e.to_string()),
    }
}

/// The kinds of `--kind` flags (docs, api, custom).
pub fn parse_kinds(flags: &[String]) -> Result<Vec<Kind>, String> {
    (flags.iter())
        .map(|k| {
            Kind::parse(k).ok_or_else(|| format!("--kind `{k}`: expected docs, api or custom"))
        })
        .collect()
}
