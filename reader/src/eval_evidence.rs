//! `aidocs-index eval --evidence`: is the judged page inside the evidence an agent would read (issue
//! 22)? For each token budget, the share of queries whose judged page (any page judged relevant)
//! gives a piece of the evidence, next to the baseline an agent gets from a search API: the top
//! pages' titles, URLs and best sections' excerpts, in rank order, as many as the same budget holds
//! (counted by the same estimate). Also the tokens used and what one cold evidence call fetches.
//!
//! Where queries judge sections (`page#anchor`, CoNaLa's `gold_doc_anchors`), also the share whose
//! judged section is inside the evidence: a piece of the judged page whose URL carries the anchor, or
//! whose text defines it. Definitions are what a page of reStructuredText source shows of its Sphinx
//! anchors (CoNaLa indexes the Python docs' `.rst` sources, whose sections are not headings): an
//! object directive (`.. method:: keys()` defines `dict.keys`, `.. function:: float(x)` defines
//! `float`), `.. module:: os.path` (`module-os.path`) or an explicit target `.. _label:`. A cut
//! piece holds only what was kept.

use std::collections::HashMap;

use aidocs_core::tokens::estimate;
use aidocs_core::{EvidenceOptions, QueryVector, SearchOptions};

use crate::eval::EvalError;
use crate::local_index::LocalIndex;

/// One budget's figures.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EvidenceReport {
    pub tokens: u32,
    pub queries: usize,
    /// Share of queries with a judged page among the evidence's pieces.
    pub judged_in_evidence: f64,
    /// Share of queries with a judged page among the top pages' excerpts that fit the budget.
    pub judged_in_excerpts: f64,
    /// Queries that judge sections, and the share of them with a judged section inside the
    /// evidence and inside the excerpts (`None` when no query judges a section).
    pub section_queries: usize,
    pub judged_section_in_evidence: Option<f64>,
    pub judged_section_in_excerpts: Option<f64>,
    /// Mean estimated tokens the evidence took, and pieces per query.
    pub mean_tokens: f64,
    pub mean_pieces: f64,
    /// Bytes and requests one cold evidence call fetches (manifest, ranking files, metadata, text).
    pub cold_bytes_p50: u64,
    pub cold_bytes_p95: u64,
    pub cold_requests_p50: usize,
}

/// The figures of `queries` judged by `qrels` (and by `sections`, query id → `page#anchor`s) at
/// each budget; `vector(text)` gives the query vector (`QueryVector::Static` for lexical ranking).
pub fn evaluate_evidence(
    index: &LocalIndex,
    queries: &[(String, String)],
    qrels: &HashMap<String, HashMap<String, u32>>,
    sections: &HashMap<String, Vec<String>>,
    budgets: &[u32],
    base: &SearchOptions,
    mut vector: impl FnMut(&str) -> Result<QueryVector, EvalError>,
) -> Result<Vec<EvidenceReport>, EvalError> {
    let judged: Vec<(&str, &str, &HashMap<String, u32>)> = queries
        .iter()
        .filter_map(|(id, text)| qrels.get(id).map(|r| (id.as_str(), text.as_str(), r)))
        .collect();
    let no_sections = Vec::new();
    let mut out = Vec::new();
    for &tokens in budgets {
        let evidence = EvidenceOptions::new(tokens).ok_or_else(|| EvalError::Input {
            file: "--evidence".into(),
            line: 0,
            message: format!("{tokens}: budgets are 64 to 64000 tokens"),
        })?;
        let opts = SearchOptions {
            evidence: Some(evidence),
            ..base.clone()
        };
        let (mut hit_e, mut hit_x, mut used, mut pieces) = (0usize, 0usize, 0u64, 0usize);
        let (mut section_queries, mut section_e, mut section_x) = (0usize, 0usize, 0usize);
        let (mut bytes, mut requests) = (Vec::new(), Vec::new());
        for (id, text, rels) in &judged {
            let relevant = |id: &str| rels.get(id).is_some_and(|&r| r > 0);
            let anchors = sections.get(*id).unwrap_or(&no_sections);
            // Of a judged page (the doc's suffix rule alone would take `stdtypes` for `library/stdtypes`).
            let holds_section = |page: &str, url: &str, text: &str| {
                relevant(page)
                    && anchors
                        .iter()
                        .any(|a| holds_judged_section(a, page, url, text))
            };
            let v = vector(text)?;
            let outcome = index
                .query(text, v.clone(), &opts)
                .map_err(EvalError::from)?;
            let e = outcome.evidence.expect("evidence was asked for");
            hit_e += usize::from(e.pieces.iter().any(|p| relevant(&p.page_id)));
            if !anchors.is_empty() {
                section_queries += 1;
                section_e += usize::from(
                    e.pieces
                        .iter()
                        .any(|p| holds_section(&p.page_id, &p.url, &p.text)),
                );
            }
            used += u64::from(e.tokens);
            pieces += e.pieces.len();
            // The baseline: results' titles, URLs and best excerpts while they fit.
            let mut spent = 0u32;
            let (mut found, mut found_section) = (false, false);
            for (n, r) in outcome.results.iter().enumerate() {
                let excerpt = r.sections.first().map_or("", |s| s.excerpt.as_str());
                let url = r
                    .sections
                    .first()
                    .map_or(r.url.as_str(), |s| s.url.as_str());
                let block = format!("### [{}] {}\n{}\n\n{}\n\n", n + 1, r.title, url, excerpt);
                spent += estimate(&block);
                if spent > tokens {
                    break;
                }
                found |= relevant(&r.id);
                found_section |= r
                    .sections
                    .first()
                    .is_some_and(|s| holds_section(&r.id, url, &s.excerpt));
            }
            hit_x += usize::from(found);
            section_x += usize::from(found_section);
            let (b, n) = index.cold_cost(text, v, &opts).map_err(EvalError::from)?;
            bytes.push(b);
            requests.push(n);
        }
        let q = judged.len().max(1) as f64;
        bytes.sort_unstable();
        requests.sort_unstable();
        let at = |v: &[u64], p: f64| {
            v.get(((v.len() as f64 - 1.0) * p).round() as usize)
                .copied()
        };
        out.push(EvidenceReport {
            tokens,
            queries: judged.len(),
            judged_in_evidence: hit_e as f64 / q,
            judged_in_excerpts: hit_x as f64 / q,
            section_queries,
            judged_section_in_evidence: (section_queries > 0)
                .then(|| section_e as f64 / section_queries as f64),
            judged_section_in_excerpts: (section_queries > 0)
                .then(|| section_x as f64 / section_queries as f64),
            mean_tokens: used as f64 / q,
            mean_pieces: pieces as f64 / q,
            cold_bytes_p50: at(&bytes, 0.5).unwrap_or(0),
            cold_bytes_p95: at(&bytes, 0.95).unwrap_or(0),
            cold_requests_p50: requests.get(requests.len() / 2).copied().unwrap_or(0),
        });
    }
    Ok(out)
}

/// Whether a piece of page `page` (its `url` and `text`) holds the judged section `judged`
/// (`doc#anchor`): the same page (the doc names it with `/` or `.` between path segments, after any
/// prefix: `python.library.stdtypes` is page `library/stdtypes`), and the anchor in the URL or
/// defined in the text (see the module's doc).
pub fn holds_judged_section(judged: &str, page: &str, url: &str, text: &str) -> bool {
    let Some((doc, anchor)) = judged.split_once('#') else {
        return false;
    };
    let dotted = page.replace('/', ".");
    let doc = doc.replace('/', ".");
    let same_page = doc == dotted
        || doc
            .strip_suffix(dotted.as_str())
            .is_some_and(|head| head.ends_with('.'));
    if !same_page || page.is_empty() {
        return false;
    }
    if url.split_once('#').is_some_and(|(_, a)| a == anchor) {
        return true;
    }
    defines_anchor(text, anchor)
}

/// Python objects' directives, whose anchors are their full names (`.. audit-event:: os.system`
/// or `.. productionlist:: float` define no object).
const OBJECT_KINDS: &[&str] = &[
    "function",
    "method",
    "classmethod",
    "staticmethod",
    "class",
    "exception",
    "attribute",
    "property",
    "data",
    "decorator",
    "decoratormethod",
];
/// Of those, the kinds that live in a class: named by it (`keys` after `.. class:: dict` is
/// `dict.keys`).
const MEMBER_KINDS: &[&str] = &[
    "method",
    "classmethod",
    "staticmethod",
    "attribute",
    "property",
    "decoratormethod",
];

/// Whether reStructuredText `text` defines the Sphinx anchor `anchor`: an explicit target
/// (`.. _label:`), `.. module:: name` (`module-name`), or a Python object directive, a member
/// qualified by the class directive before it (the section text has lost the indentation that
/// nests it), with the further signatures on the lines right after it (`.. method::
/// bytes.decode(...)` then `bytearray.decode(...)`). A name matches an anchor equal to it or ending
/// it after a dot (`os.path.join` is defined by `join` in `os.path`); a member whose class is not
/// in the text matches only an anchor equal to its name.
fn defines_anchor(text: &str, anchor: &str) -> bool {
    let matches = |name: &str, kind: &str, class: Option<&str>| -> bool {
        let member = MEMBER_KINDS.contains(&kind) && !name.contains('.');
        let qualified = match class {
            Some(c) if member => format!("{c}.{name}"),
            None if member => return anchor == name,
            _ => name.to_owned(),
        };
        anchor == qualified
            || anchor
                .strip_suffix(qualified.as_str())
                .is_some_and(|head| head.ends_with('.'))
    };
    // The name a signature starts with: `bytearray.decode` of `bytearray.decode(encoding)`.
    let signature_name = |s: &str| -> Option<String> {
        let name = s
            .trim()
            .split(|c: char| c == '(' || c.is_whitespace())
            .next()?;
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
        plain.then(|| name.to_owned())
    };
    let mut class: Option<String> = None;
    // The object directive whose further signatures may follow on the next lines.
    let mut open: Option<&str> = None;
    for line in text.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix(".. ") else {
            // A further signature: a name and its arguments on the line right after.
            let further = open.filter(|_| line.contains('(') && line.ends_with(')'));
            match further.zip(signature_name(line)) {
                Some((kind, name)) if matches(&name, kind, class.as_deref()) => return true,
                Some(_) => {}
                None => open = None,
            }
            continue;
        };
        open = None;
        if let Some(label) = rest.strip_prefix('_').and_then(|l| l.strip_suffix(':')) {
            if label.eq_ignore_ascii_case(anchor) {
                return true;
            }
            continue;
        }
        let Some((kind, arg)) = rest.split_once("::") else {
            continue;
        };
        let kind = kind.trim();
        let kind = kind.strip_prefix("py:").unwrap_or(kind);
        let Some(name) = signature_name(arg) else {
            continue;
        };
        if kind == "module" || kind == "currentmodule" {
            class = None;
            if kind == "module" && anchor.strip_prefix("module-") == Some(name.as_str()) {
                return true;
            }
            continue;
        }
        let Some(&kind) = OBJECT_KINDS.iter().find(|&&k| k == kind) else {
            continue;
        };
        let owner = if matches!(kind, "class" | "exception") {
            class = Some(name.clone());
            None
        } else {
            if !MEMBER_KINDS.contains(&kind) {
                class = None;
            }
            class.as_deref()
        };
        if matches(&name, kind, owner) {
            return true;
        }
        open = Some(kind);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::holds_judged_section;

    #[test]
    fn issue_22_judged_sections_are_found_by_anchor_or_sphinx_definition() {
        let page = "library/stdtypes";
        let url = "https://docs.python.org/3.11/library/stdtypes.html";
        let judged = "python.library.stdtypes#dict.keys";
        let holds =
            |judged: &str, page: &str, text: &str| holds_judged_section(judged, page, url, text);
        assert!(holds(
            judged,
            page,
            ".. class:: dict(**kwargs)\n\nx\n\n   .. method:: keys()\n"
        ));
        assert!(holds(judged, page, ".. method:: dict.keys()"));
        assert!(holds(
            judged,
            page,
            ".. py:class:: dict\n.. py:method:: keys"
        ));
        // Another page; other names; a member without its class (only its bare name matches);
        // another class's member; a member after a function ended the class; prose.
        assert!(!holds(
            judged,
            "library/functions",
            ".. method:: dict.keys()"
        ));
        assert!(!holds(
            judged,
            page,
            ".. class:: dict\n.. method:: values()"
        ));
        assert!(!holds(judged, page, ".. class:: dict\n.. method:: ys()"));
        assert!(!holds(judged, page, ".. method:: keys()"));
        assert!(holds(
            "python.library.stdtypes#keys",
            page,
            ".. method:: keys()"
        ));
        assert!(!holds(
            judged,
            page,
            ".. class:: frozenset\n.. method:: keys()"
        ));
        assert!(!holds(
            judged,
            page,
            ".. class:: dict\n.. function:: g()\n.. method:: keys()"
        ));
        assert!(!holds(judged, page, "call d.keys() to list them"));
        // Only Python objects' directives define anchors.
        let system = "python.library.os#os.system";
        assert!(!holds(
            system,
            "library/os",
            ".. audit-event:: os.system command os.system"
        ));
        assert!(holds(system, "library/os", ".. function:: system(command)"));
        let float = "python.library.functions#float";
        assert!(!holds(
            float,
            "library/functions",
            ".. productionlist:: float\n"
        ));
        // Further signatures on the lines right after a directive, not in its description.
        let decode = "python.library.stdtypes#bytearray.decode";
        assert!(holds(decode, page, ".. method:: bytes.decode(encoding=\"utf-8\")\n            bytearray.decode(encoding=\"utf-8\")\n\n   Return a string."));
        assert!(!holds(
            decode,
            page,
            ".. method:: bytes.decode()\n\nSee bytearray.decode() too."
        ));
        // Modules, explicit targets and anchors in the URL (Mintlify headings).
        assert!(holds(
            "python.library.os.path#module-os.path",
            "library/os.path",
            ".. module:: os.path"
        ));
        assert!(holds(
            "python.library.stdtypes#typesseq-list",
            page,
            ".. _typesseq-list:"
        ));
        assert!(holds_judged_section(
            "docs/quickstart#install",
            "docs/quickstart",
            "/docs/quickstart#install",
            ""
        ));
        assert!(!holds_judged_section(
            "docs/quickstart#install",
            "docs/quickstart",
            "/docs/quickstart#usage",
            ""
        ));
        assert!(!holds("no-anchor", page, ".. method:: dict.keys()"));
    }
}
