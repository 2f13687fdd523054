//! `aidocs-index embed`: print the full model's vector of each query as JSONL, for other engines'
//! vector search.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use aidocs_index::embed::{locate as locate_model, Embedder};
use aidocs_reader::eval::read_queries;
use clap::Args;

use super::common::fail;

#[derive(Args)]
pub struct EmbedArgs {
    #[arg(long)]
    queries: PathBuf,
    #[arg(long)]
    model: Option<PathBuf>,
}

pub fn run_embed(EmbedArgs { queries, model }: EmbedArgs) -> ExitCode {
    let qs = match read_queries(&queries) {
        Ok(q) => q,
        Err(e) => return fail(3, e),
    };
    let embedder = match locate_model(model.as_deref()).and_then(|d| Embedder::load(&d)) {
        Ok(e) => e,
        Err(e) => return fail(3, e),
    };
    let _heap = aidocs_index::retained_heap::RetainedHeap::new();
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
