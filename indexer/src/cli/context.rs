//! `aidocs-index context`: the evidence an assistant should read for a question, within a token
//! budget, with citations (issue 22): Markdown by default, `--json` for programs. The same session
//! and selection as the wasm engine's `context` (core's `search::evidence`). With `--read`, the text
//! of one page (or section) by its URL instead: what MCP's `read_page` and `read_section` give.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use aidocs_core::search::{evidence_markdown, EVIDENCE_TOKENS, MAX_EVIDENCE_PAGES};
use aidocs_core::{EvidenceOptions, SearchOptions};
use aidocs_reader::eval::read_queries;
use aidocs_reader::local_index::LocalIndex;
use clap::Args;

use super::common::{
    fail, open_for_queries, params, parse_kinds, query_vector, RankArgs, VectorArgs,
};

#[derive(Args)]
pub struct ContextArgs {
    #[arg(long)]
    index: PathBuf,
    /// The question (or use --queries); with --read, a page's URL.
    text: Option<String>,
    /// The text is a page's URL (site-relative or absolute; `#anchor` for one section): print
    /// that page's text, or that section's, in reading order within --tokens.
    #[arg(long, conflicts_with = "queries")]
    read: bool,
    /// JSONL file of `{"id","text"}` lines: one JSON evidence line per query.
    #[arg(long)]
    queries: Option<PathBuf>,
    /// The most tokens the evidence may take (estimated above what cl100k counts; 100 to 64000).
    #[arg(long, default_value_t = 2000)]
    tokens: u32,
    /// The top pages the evidence is drawn from (1 to 50).
    #[arg(long, default_value_t = 10)]
    pages: usize,
    /// The most tokens one page may give (default: half the budget).
    #[arg(long)]
    page_tokens: Option<u32>,
    /// The URL the site's root is at: citations become absolute under it.
    #[arg(long)]
    site_url: Option<String>,
    /// Only these kinds: docs, api, custom.
    #[arg(long)]
    kind: Vec<String>,
    /// The reader's language (see `query --language`).
    #[arg(long)]
    language: Option<String>,
    /// The docs version (see `query --doc-version`).
    #[arg(long)]
    doc_version: Option<String>,
    /// Do not correct words the index lacks.
    #[arg(long)]
    no_typos: bool,
    /// JSON: the pieces with their citations, text and token counts.
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Markdown with numbered citations (the default).
    #[arg(long)]
    markdown: bool,
    #[command(flatten)]
    vector: VectorArgs,
    #[command(flatten)]
    rank: RankArgs,
}

fn options(a: &ContextArgs, index: &LocalIndex) -> Result<SearchOptions, String> {
    let kinds = parse_kinds(&a.kind)?;
    let mut evidence = EvidenceOptions::new(a.tokens).ok_or_else(|| {
        format!(
            "--tokens {}: expected {} to {}",
            a.tokens,
            EVIDENCE_TOKENS.start(),
            EVIDENCE_TOKENS.end()
        )
    })?;
    if !(1..=MAX_EVIDENCE_PAGES).contains(&a.pages) {
        return Err(format!(
            "--pages {}: expected 1 to {MAX_EVIDENCE_PAGES}",
            a.pages
        ));
    }
    evidence.pages = a.pages;
    evidence.page_tokens = a.page_tokens;
    evidence.site_url = a.site_url.clone();
    evidence.read = a.read;
    Ok(SearchOptions {
        kinds,
        params: params(index, &a.rank)?,
        typos: !a.no_typos,
        language: a.language.clone(),
        version: a.doc_version.clone(),
        page: a.rank.page(),
        evidence: Some(evidence),
        ..Default::default()
    })
}

pub fn run_context(a: ContextArgs) -> ExitCode {
    let (index, opts, encoder) =
        match open_for_queries(&a.index, a.language.as_deref(), &a.vector, |i| {
            options(&a, i)
        }) {
            Ok(o) => o,
            Err(code) => return code,
        };
    let a_tokens = a.tokens;
    let evidence = |text: &str| -> Result<aidocs_core::Evidence, String> {
        let vector = query_vector(encoder.as_ref(), text)?;
        let outcome = index
            .query(text, vector, &opts)
            .map_err(|e| e.to_string())?;
        let evidence =
            (outcome.evidence).ok_or_else(|| "the session returned no evidence".to_owned())?;
        if a.read && evidence.pieces.is_empty() {
            return Err(match outcome.results.first() {
                None => format!("no page of this index is at {text}"),
                Some(r) => match text.split_once('#') {
                    Some((_, a)) if !a.trim().is_empty() => format!(
                        "the page at {} has no section #{a} with text that fits {} tokens",
                        r.url, a_tokens
                    ),
                    _ => format!(
                        "the page at {} has no text that fits {} tokens",
                        r.url, a_tokens
                    ),
                },
            });
        }
        Ok(evidence)
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let queries = match (&a.queries, &a.text) {
        (Some(file), None) => match read_queries(file) {
            Ok(q) => q,
            Err(e) => return fail(3, e),
        },
        (None, Some(text)) => vec![(String::new(), text.clone())],
        _ => return fail(2, "give a question or --queries FILE.jsonl (not both)"),
    };
    let batch = a.queries.is_some();
    for (id, text) in queries {
        let e = match evidence(&text) {
            Ok(e) => e,
            Err(e) => return fail(1, e),
        };
        let written = if a.json || batch {
            let mut line = String::new();
            if batch {
                line.push_str("{\"query_id\":");
                aidocs_core::json::push_str(&mut line, &id);
                line.push_str(",\"evidence\":");
            }
            line.push_str(&aidocs_core::json::evidence_json(&text, &e));
            if batch {
                line.push('}');
            }
            writeln!(out, "{line}")
        } else {
            if e.pieces.is_empty() {
                eprintln!("no evidence for {text:?}");
            }
            write!(out, "{}", evidence_markdown(&e))
        };
        if written.is_err() {
            return ExitCode::SUCCESS; // a closed pipe
        }
    }
    ExitCode::SUCCESS
}
