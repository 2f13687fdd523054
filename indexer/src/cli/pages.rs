//! `aidocs-index pages`: print the pages a build would index as JSONL, visibility applied, optionally
//! with each page's vector.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use aidocs_index::build::BuildError;
use aidocs_index::chunk::ChunkConfig;
use aidocs_index::embed::{locate as locate_model, Embedder};
use aidocs_index::Visibility;
use clap::Args;

use super::common::{fail, Audience};

#[derive(Args)]
pub struct PagesArgs {
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
}

pub fn run_pages(
    PagesArgs {
        input,
        visibility,
        openapi,
        include_unlisted,
        max_chunk_chars,
        vectors,
        cache_dir,
        model,
    }: PagesArgs,
) -> ExitCode {
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
