//! The `aidocs-index` command line. Exit codes: 0 success; 1 failure while running (I/O, corrupt
//! index); 2 usage error; 3 invalid input (unreadable site config, input or query file); 4 `--strict`
//! found problems in the input.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use cli::{build, context, demo, embed, eval, inspect, pages, query, serve, variants};

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
    Build(build::BuildArgs),
    /// Search an index.
    Query(query::QueryArgs),
    /// The evidence to read for a question within a token budget, with citations (Markdown, or
    /// --json): the top pages' best sections, adjacent ones merged, copies dropped.
    Context(context::ContextArgs),
    /// Score an index against judged queries (BEIR qrels).
    Eval(eval::EvalArgs),
    /// List an index's shards and verify every checksum.
    Inspect(inspect::InspectArgs),
    /// Render a site to static HTML with the search box, its public index in `_search/` and the box's
    /// assets in `_search/ui/` (a preview of the integration; then `serve` it).
    Demo(demo::DemoArgs),
    /// Print judged queries as a reader would type them, as JSONL (`{"id","text"}`): the typo variant
    /// (one deterministic one-edit typo per query, as `eval --typo-queries`) or the prefix variant (the
    /// last word cut to N letters, as `eval --cut-last-word N`). For benchmarks of other engines.
    Variants(variants::VariantsArgs),
    /// Print the pages a build would index as JSONL (`{"id","url","title","kind","language","text"}`),
    /// visibility applied as in `build`: the same text for another engine, or to see what ingestion
    /// made of a page. `--vectors` adds each page's vector (the mean of its chunks' full-model
    /// vectors, from the build cache where it has them).
    Pages(pages::PagesArgs),
    /// Print the full model's vector of each query (`{"id","text"}` JSONL in, `{"id","vector"}` out):
    /// the exact query vectors `--encoder full` ranks with, for other engines' vector search.
    Embed(embed::EmbedArgs),
    /// Serve a directory on 127.0.0.1 (shards immutable, manifest and pages revalidated).
    Serve(serve::ServeArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Build(a) => build::run_build(a),
        Command::Query(a) => query::run_query(a),
        Command::Context(a) => context::run_context(a),
        Command::Eval(a) => eval::run_eval(a),
        Command::Inspect(a) => inspect::run_inspect(a),
        Command::Demo(a) => demo::run_demo(a),
        Command::Variants(a) => variants::run_variants(a),
        Command::Pages(a) => pages::run_pages(a),
        Command::Embed(a) => embed::run_embed(a),
        Command::Serve(a) => serve::run_serve(a),
    }
}
