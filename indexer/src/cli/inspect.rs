//! `aidocs-index inspect`: list an index's shards and verify every checksum (exit 1 when one fails).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::common::fail;

#[derive(Args)]
pub struct InspectArgs {
    /// Index directory.
    dir: PathBuf,
    #[arg(long)]
    json: bool,
}

pub fn run_inspect(InspectArgs { dir, json }: InspectArgs) -> ExitCode {
    match aidocs_reader::inspect::inspect(&dir) {
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
    }
}

fn print_inspect(
    out: &mut impl Write,
    dir: &std::path::Path,
    r: &aidocs_reader::inspect::InspectReport,
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
    let texts: Vec<u64> = (r.shards.iter().filter(|s| s.kind == "text"))
        .map(|s| s.bytes)
        .collect();
    if !texts.is_empty() {
        writeln!(
            out,
            "section text (read for evidence only): {} files, {} B",
            texts.len(),
            texts.iter().sum::<u64>()
        )?;
    }
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
