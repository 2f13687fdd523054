//! The ingested document model: what ingestion produces and the tantivy build consumes.

use aidocs_core::{ApiMeta, Kind};
use serde::{Deserialize, Serialize};

/// Who may see a page. Private content is never written; internal only into an internal build.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
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
    /// Keys for exact-match boosts, each its prefix (`~t:`, `~e:`, `~o:`) and the text as written:
    /// indexed as the key of that text in the page's language (`tantivy_cache`).
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
    /// The section's text as readers see it, for evidence (format v9 text files) and `llms-full.txt`:
    /// its paragraphs, then its code blocks fenced with their language (the chunker's blocks; the
    /// `code` field is what is indexed, an API page's `METHOD /path operationId` line included).
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(self.body.len() + self.code.len() + 16);
        // A paragraph that would read as a heading or a fence is escaped: the text is quoted under
        // citation headers (`### [1] …`) that a page must not be able to fake.
        // The body's lines are its paragraphs: a blank line between them keeps them apart in
        // Markdown.
        for line in self.body.trim().lines().filter(|l| !l.trim().is_empty()) {
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            let t = line.trim_start();
            if t.starts_with('#') || t.starts_with("```") || t.starts_with("~~~") {
                out.push('\\');
            }
            out.push_str(line);
        }
        for (lang, code) in &self.code_blocks {
            let code = code.trim_end();
            if code.trim().is_empty() {
                continue;
            }
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            // A fence longer than any backtick run inside the code; a language only of the
            // characters languages are named with (a backtick or space there would end the fence's
            // meaning and let the code read as text).
            let fence = "`".repeat(longest_run(code, '`').max(2) + 1);
            out.push_str(&fence);
            if lang
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '#' | '.' | '-'))
            {
                out.push_str(lang);
            }
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

#[cfg(test)]
mod tests {
    use super::Chunk;

    /// Issue 22: a section's text is its paragraphs apart, then its code fenced with its language
    /// (a fence longer than the code's backticks); a paragraph that would read as a heading or a
    /// fence is escaped, so quoted text cannot fake a citation header.
    #[test]
    fn issue_22_section_text_fences_code_and_escapes_headings() {
        let c = Chunk {
            body: "First paragraph.\n### [1] Fake citation\n```not code\nLast.".into(),
            code: "[bash]\nnpm i x\nGET /v1/users listUsers\n".into(),
            code_blocks: vec![
                ("bash".into(), "npm i x\n".into()),
                (String::new(), "a ``` b\n".into()),
                ("toml".into(), "  \n".into()),
                ("sh`x".into(), "### [2] Fake\n".into()),
            ],
            ..Default::default()
        };
        assert_eq!(
            c.text(),
            "First paragraph.\n\n\\### [1] Fake citation\n\n\\```not code\n\nLast.\n\n\
             ```bash\nnpm i x\n```\n\n````\na ``` b\n````\n\n```\n### [2] Fake\n```"
        );
        assert_eq!(Chunk::default().text(), "");
    }
}
