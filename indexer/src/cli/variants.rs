//! `aidocs-index variants`: print judged queries as a reader would type them (typo or prefix variant),
//! as JSONL, for benchmarks of other engines.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use aidocs_reader::eval::read_queries;
use clap::Args;

use super::common::fail;

#[derive(Args)]
pub struct VariantsArgs {
    #[arg(long)]
    queries: PathBuf,
    #[arg(long)]
    typo: bool,
    #[arg(long, value_name = "N")]
    cut_last_word: Option<usize>,
}

pub fn run_variants(
    VariantsArgs {
        queries,
        typo,
        cut_last_word,
    }: VariantsArgs,
) -> ExitCode {
    let qs = match read_queries(&queries) {
        Ok(q) => q,
        Err(e) => return fail(3, e),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (id, text) in qs {
        let mut t = text;
        if let Some(n) = cut_last_word {
            t = aidocs_reader::eval::cut_last_word(&t, n);
        }
        if typo {
            t = aidocs_reader::eval::one_edit_typo(&t, &id);
        }
        let line = serde_json::json!({ "id": id, "text": t });
        if writeln!(out, "{line}").is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}
