//! The ingested document model: what ingestion produces and the tantivy build consumes.

use aidocs_core::{ApiMeta, Kind};
use serde::{Deserialize, Serialize};

/// Who may see a page. Private content is never written; internal only into an internal build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    #[default]
    Public,
    Internal,
    Private,
}

impl Visibility {
    /// One visibility word, read without regard to case or surrounding spaces.
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "public" => Some(Visibility::Public),
            "internal" => Some(Visibility::Internal),
            "private" => Some(Visibility::Private),
            _ => None,
        }
    }
}

/// A page ready to index: metadata plus its chunks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page {
    /// Stable id: the site-relative path without extension, the record id for JSONL, or
    /// `api/<operationId>` for OpenAPI operations without a page.
    pub id: String,
    pub url: String,
    pub title: String,
    /// The frontmatter's `description` (empty when it has none): the page's line in `llms.txt`.
    #[serde(default)]
    pub description: String,
    #[serde(with = "kind_serde")]
    pub kind: Kind,
    pub breadcrumb: Vec<String>,
    /// Navigation group path (`Tab > Group`), the facet `--group` filters on.
    pub group: Option<String>,
    pub tags: Vec<String>,
    pub language: Option<String>,
    pub version: Option<String>,
    pub api: Option<ApiMeta>,
    /// Keys for exact-match boosts: (prefix, normalized text).
    pub exact_keys: Vec<String>,
    pub chunks: Vec<Chunk>,
    /// Source file, for messages.
    pub source: String,
    /// Files the page included (canonical site-relative path, blake3 of their bytes): a cached page
    /// is parsed again when one of them changes.
    #[serde(skip)]
    pub includes: Vec<(String, String)>,
}

/// One searchable unit: the page summary or one H2/H3 section (or a part of an oversized one).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Chunk {
    /// GitHub-style anchor of the section; empty for the page summary.
    pub anchor: String,
    pub title: String,
    pub heading_path: Vec<String>,
    pub headings: String,
    pub body: String,
    pub code: String,
    /// The code blocks in `code`, each with its fence's language (empty when it had none): what
    /// evidence shows ([`Chunk::text`]). Not indexed (`code` is).
    #[serde(default)]
    pub code_blocks: Vec<(String, String)>,
}

impl Chunk {
    /// The section's text as readers see it, for evidence (format v9 text files): its paragraphs,
    /// then its code blocks, fenced with their language.
    pub fn text(&self) -> String {
        let mut out = self.body.trim().to_owned();
        let unlabelled;
        let blocks: &[(String, String)] =
            if self.code_blocks.is_empty() && !self.code.trim().is_empty() {
                // Chunks made without the chunker's block list: the code as one block.
                unlabelled = [(String::new(), self.code.clone())];
                &unlabelled
            } else {
                &self.code_blocks
            };
        for (lang, code) in blocks {
            let code = code.trim_end();
            if code.trim().is_empty() {
                continue;
            }
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            // A fence longer than any backtick run inside the code.
            let fence = "`".repeat(longest_run(code, '`').max(2) + 1);
            out.push_str(&fence);
            out.push_str(lang);
            out.push('\n');
            out.push_str(code);
            out.push('\n');
            out.push_str(&fence);
        }
        out
    }
}

fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for x in s.chars() {
        run = if x == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

mod kind_serde {
    use aidocs_core::Kind;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(k: &Kind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(k.name())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        let s = String::deserialize(d)?;
        Kind::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown kind {s}")))
    }
}

/// A problem with one input, reported and skipped (or fatal under `--strict`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.file, l, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}
