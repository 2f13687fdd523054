//! `aidocs-index query`: search an index with one query (results as text or JSON) or a JSONL file of
//! queries (one JSON result line each).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use aidocs_core::SearchOptions;
use aidocs_reader::eval::read_queries;
use aidocs_reader::local_index::{result_json, LocalIndex};
use clap::Args;

use super::common::{
    fail, open_for_queries, params, parse_kinds, query_vector, RankArgs, VectorArgs,
};

#[derive(Args)]
pub struct QueryArgs {
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
    /// corrections are printed to stderr, or as `corrections` with --json; so are quotes dropped when
    /// no page has a quoted phrase, `{"from":"\"","to":""}`).
    #[arg(long)]
    no_typos: bool,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rank: RankArgs,
}

fn search_options(a: &QueryArgs, index: &LocalIndex) -> Result<SearchOptions, String> {
    let kinds = parse_kinds(&a.kind)?;
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
        page: a.rank.page(),
        version: a.doc_version.clone(),
        ..Default::default()
    })
}

pub fn run_query(a: QueryArgs) -> ExitCode {
    let (index, opts, encoder) =
        match open_for_queries(&a.index, a.language.as_deref(), &a.vector, |i| {
            search_options(&a, i)
        }) {
            Ok(o) => o,
            Err(code) => return code,
        };
    let encode = |text: &str| query_vector(encoder.as_ref(), text);
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
            match index.query(&text, qv, &opts) {
                Ok(outcome) => {
                    let line = aidocs_core::json::batch_line(&id, &outcome.results, a.explain);
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
    match index.query(text, qv, &opts) {
        Ok(outcome) => {
            let (results, used, facets) = (outcome.results, outcome.mode, outcome.facets);
            let corrections = outcome.corrections;
            if !corrections.is_empty() {
                eprintln!(
                    "showing results for {:?}",
                    aidocs_core::typos::corrected_query(text, &corrections)
                );
            }
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
                        // The page's summary is the result's own line; other sections are listed,
                        // with an anchor or not (a generated API page's fields have none).
                        if !s.anchor.is_empty() || s.title != r.title {
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
