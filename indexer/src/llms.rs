//! `llms.txt` and `llms-full.txt` (<https://llmstxt.org>): here are the chunks a build indexed, give
//! me the site's list of pages for language models and the full text of those pages.
//!
//! - Input: the chunks the build's cache holds ([`StoredChunk`], the pages this build indexed, with
//!   visibility applied by `ingest` before anything was parsed) and the navigation order of
//!   `ingest`'s pending pages. Nothing else is read, so these files never carry text the index does
//!   not hold, and a warm build (where unchanged pages are not parsed again) writes the same bytes
//!   as a cold one.
//! - `llms.txt`: `# <docs.json name>` (else "Documentation"), `> <docs.json description>` (else the
//!   home page's description), a line pointing at `llms-full.txt`, then one `## <navigation group>`
//!   per group in navigation order (pages without a group under "Docs", API pages under
//!   "API reference"), each page as `- [Title](url): description`. The description is the
//!   frontmatter's, else the first sentence of the page's first paragraph of a few words, at most
//!   160 characters.
//! - `llms-full.txt`: every page in the same order: `# Title`, `Source: url`, then its sections
//!   (`##`/`###` headings as the page has them), paragraphs, and code in fences.
//! - URLs are the index's, site-relative (`/quickstart`): they resolve against the site that serves
//!   the files; a JSONL record's absolute URL stays absolute.
//! - A site in several languages or versions gets one pair for all its pages; a section is then one
//!   group of one language and version, its heading qualified (`## Guides (fr)`, `## Guides (v2)`).
//!
//! Not for: per-page `.md` mirrors, the spec's `## Optional` section.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::ingest::{Ingested, Pending, Source};
use crate::tantivy_cache::{StoredChunk, StoredPage};

pub const INDEX_FILE: &str = "llms.txt";
pub const FULL_FILE: &str = "llms-full.txt";
/// The title when the site configuration names none (a JSONL input, a site without `name`).
const DEFAULT_TITLE: &str = "Documentation";
/// A description derived from a page's text is cut to this many characters.
const DESCRIPTION_CHARS: usize = 160;
/// A description someone wrote (frontmatter, `docs.json`) is cut only past this many.
const WRITTEN_DESCRIPTION_CHARS: usize = 300;

/// The two files' text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlmsFiles {
    pub index: String,
    pub full: String,
}

/// The files for a build: its indexed chunks (every page, reused or parsed), in the navigation order
/// of what it ingested, titled by the site's configuration.
pub fn for_build(chunks: &[StoredChunk], ingested: &Ingested) -> LlmsFiles {
    let branding = ingested.site.as_ref().map(|s| &s.branding);
    render(
        chunks,
        &navigation_order(&ingested.pending),
        branding.and_then(|b| b.name.as_deref()),
        branding.and_then(|b| b.description.as_deref()),
    )
}

/// Page id → (position in the navigation, position in ingestion): pages the navigation does not
/// list (unlisted pages, JSONL records) come after it, in the order they were ingested.
fn navigation_order(pending: &[Pending]) -> HashMap<&str, (usize, usize)> {
    pending
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let nav = match &p.source {
                Source::Mdx { nav, .. } | Source::Operation { nav, .. } => {
                    nav.as_ref().map(|n| n.order)
                }
                Source::Record { .. } => None,
            };
            (p.id.as_str(), (nav.unwrap_or(usize::MAX), i))
        })
        .collect()
}

/// Renders both files from `chunks` (any order) with pages ordered by `order` (a page it does not
/// name comes last, by id).
pub fn render(
    chunks: &[StoredChunk],
    order: &HashMap<&str, (usize, usize)>,
    name: Option<&str>,
    description: Option<&str>,
) -> LlmsFiles {
    let mut by_id: BTreeMap<&str, Vec<&StoredChunk>> = BTreeMap::new();
    for c in chunks {
        by_id.entry(c.page.id.as_str()).or_default().push(c);
    }
    let mut pages: Vec<Vec<&StoredChunk>> = by_id.into_values().collect();
    for p in &mut pages {
        p.sort_by_key(|c| c.index);
    }
    // Stable: pages the order does not name stay sorted by id.
    pages.sort_by_key(|p| {
        order
            .get(p[0].page.id.as_str())
            .copied()
            .unwrap_or((usize::MAX, usize::MAX))
    });
    LlmsFiles {
        index: render_index(&pages, name, description),
        full: render_full(&pages),
    }
}

fn render_index(
    pages: &[Vec<&StoredChunk>],
    name: Option<&str>,
    description: Option<&str>,
) -> String {
    let title = name
        .map(one_line)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| DEFAULT_TITLE.to_owned());
    let summary = description
        .map(one_line)
        .filter(|s| !s.is_empty())
        .map(|s| shorten(&s, WRITTEN_DESCRIPTION_CHARS))
        .or_else(|| {
            let home = pages.iter().find(|p| p[0].page.url == "/")?;
            page_description(home)
        });
    let mut out = format!("# {title}\n");
    if let Some(s) = summary {
        out.push_str(&format!("\n> {s}\n"));
    }
    if pages.is_empty() {
        return out;
    }
    out.push_str(&format!(
        "\nThe full text of every page listed here is in [{FULL_FILE}]({FULL_FILE}).\n"
    ));
    for (heading, members) in sections(pages) {
        out.push_str(&format!("\n## {heading}\n\n"));
        for p in members {
            let page = &p[0].page;
            out.push_str(&format!(
                "- [{}]({})",
                link_text(&page.title),
                link_url(&page.url)
            ));
            if let Some(d) = page_description(p) {
                out.push_str(": ");
                out.push_str(&d);
            }
            out.push('\n');
        }
    }
    out
}

/// Pages grouped by section heading, sections in the order of their first page.
fn sections<'p>(pages: &'p [Vec<&'p StoredChunk>]) -> Vec<(String, Vec<&'p [&'p StoredChunk]>)> {
    let several = |f: fn(&StoredPage) -> Option<&String>| {
        pages
            .iter()
            .filter_map(|p| f(&p[0].page))
            .collect::<BTreeSet<_>>()
            .len()
            > 1
    };
    let (languages, versions) = (
        several(|p| p.language.as_ref()),
        several(|p| p.version.as_ref()),
    );
    let mut out: Vec<(String, Vec<&[&StoredChunk]>)> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for p in pages {
        let heading = section_heading(&p[0].page, languages, versions);
        let i = *at.entry(heading.clone()).or_insert_with(|| {
            out.push((heading, Vec::new()));
            out.len() - 1
        });
        out[i].1.push(p);
    }
    out
}

/// The page's navigation group (`Tab > Group`), qualified by its language and version when the site
/// has several.
fn section_heading(page: &StoredPage, languages: bool, versions: bool) -> String {
    let group = page
        .group
        .as_deref()
        .map(one_line)
        .filter(|g| !g.is_empty())
        .unwrap_or_else(|| {
            if page.kind == aidocs_core::Kind::Api.name() {
                "API reference".to_owned()
            } else {
                "Docs".to_owned()
            }
        });
    let mut qualifiers = Vec::new();
    if languages {
        qualifiers.extend(page.language.as_deref().map(one_line));
    }
    if versions {
        qualifiers.extend(page.version.as_deref().map(one_line));
    }
    qualifiers.retain(|q| !q.is_empty());
    if qualifiers.is_empty() {
        group
    } else {
        format!("{group} ({})", qualifiers.join(", "))
    }
}

/// The frontmatter's description; else the first sentence of the page's first paragraph of four
/// words or more ([`words`]) (a short first line is a title, an H1 kept as text or a sidebar title), which for
/// an API page must be in its summary chunk; else, for an API page, `METHOD /path`.
fn page_description(chunks: &[&StoredChunk]) -> Option<String> {
    let page = &chunks[0].page;
    let written = one_line(&page.description);
    if !written.is_empty() {
        return Some(shorten(&written, WRITTEN_DESCRIPTION_CHARS));
    }
    let searched = if page.api.is_some() {
        &chunks[..1]
    } else {
        chunks
    };
    let title = one_line(&page.title);
    let first = searched
        .iter()
        .flat_map(|c| body_lines(&c.text))
        .map(one_line)
        .find(|p| words(p) >= 4 && *p != title);
    match (first, &page.api) {
        (Some(p), _) => Some(shorten(first_sentence(&p), DESCRIPTION_CHARS)),
        (None, Some(api)) => Some(format!("{} {}", api.method, api.path)),
        (None, None) => None,
    }
}

/// Words of `p`, each character of a script written without spaces (Chinese, Japanese) one word.
fn words(p: &str) -> usize {
    p.split_whitespace()
        .map(|w| {
            w.chars()
                .filter(|c| aidocs_core::analyzer::is_cjk(*c))
                .count()
                .max(1)
        })
        .sum()
}

fn render_full(pages: &[Vec<&StoredChunk>]) -> String {
    let mut blocks: Vec<String> = Vec::new();
    for chunks in pages {
        let page = &chunks[0].page;
        blocks.push(format!("# {}", one_line(&page.title)));
        blocks.push(format!("Source: {}", page.url));
        if let Some(api) = &page.api {
            let mut line = format!(
                "Endpoint: `{} {}`",
                one_line(&api.method),
                one_line(&api.path)
            );
            if !api.operation_id.is_empty() {
                line.push_str(&format!(" (operationId `{}`)", one_line(&api.operation_id)));
            }
            blocks.push(line);
        }
        // A section split at paragraphs is several chunks with one anchor: one heading, its
        // paragraphs, then its code.
        let mut i = 0;
        while i < chunks.len() {
            let first = chunks[i];
            let mut end = i + 1;
            while end < chunks.len()
                && chunks[end].anchor == first.anchor
                && chunks[end].heading_path == first.heading_path
            {
                end += 1;
            }
            let part = &chunks[i..end];
            if let Some(h) = first.heading_path.last() {
                let depth = (first.heading_path.len() + 1).min(6);
                blocks.push(format!("{} {}", "#".repeat(depth), one_line(h)));
            }
            // Each part's text: its paragraphs (escaped where one would read as a heading), then
            // its code fenced (`Chunk::text`, the section text files' too).
            for c in part {
                let text = c.text.trim();
                if !text.is_empty() {
                    blocks.push(text.to_owned());
                }
            }
            i = end;
        }
    }
    if blocks.is_empty() {
        return String::new();
    }
    let mut out = blocks.join("\n\n");
    out.push('\n');
    out
}

/// The lines of a section's text before its first code fence: its paragraphs.
fn body_lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .take_while(|l| !l.starts_with("```"))
        // Unescaped (`Chunk::text` escapes a paragraph that would read as a heading or a fence).
        .map(|l| match l.strip_prefix('\\') {
            Some(r) if r.starts_with('#') || r.starts_with("```") || r.starts_with("~~~") => r,
            _ => l,
        })
}

/// `s` on one line, whitespace collapsed.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Link text with `\`, `[` and `]` escaped.
fn link_text(s: &str) -> String {
    let mut out = String::new();
    for c in one_line(s).chars() {
        if matches!(c, '\\' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A link destination with the characters that would end it (spaces, parentheses, angle brackets,
/// controls) percent-encoded.
fn link_url(url: &str) -> String {
    let mut out = String::new();
    for c in url.chars() {
        if c.is_whitespace() || c.is_control() || matches!(c, '(' | ')' | '<' | '>') {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The first sentence of `p`: up to a `.`, `?` or `!` before a space that ends a word of more than
/// one letter and no abbreviation (`e.g.`, `vs.`), at least 10 characters in; or up to `。！？`.
/// All of `p` when it has no such end.
fn first_sentence(p: &str) -> &str {
    const ABBREVIATIONS: &[&str] = &["vs", "cf", "approx", "incl", "no", "fig", "eg", "ie", "etc"];
    for (i, c) in p.char_indices() {
        let end = i + c.len_utf8();
        let ends = match c {
            '.' | '?' | '!' => {
                let word = p[..i].rsplit(char::is_whitespace).next().unwrap_or("");
                p[end..].starts_with(char::is_whitespace)
                    && p[..end].chars().count() >= 10
                    && word.chars().count() > 1
                    && !word.contains('.')
                    && !ABBREVIATIONS.iter().any(|a| a.eq_ignore_ascii_case(word))
            }
            '。' | '！' | '？' => true,
            _ => false,
        };
        if ends {
            return &p[..end];
        }
    }
    p
}

/// `s` cut to at most `max` characters (counted as chars, cut on a char boundary), at a space when
/// one is in the second half, with `…`.
fn shorten(s: &str, max: usize) -> String {
    let Some((cut, _)) = s.char_indices().nth(max) else {
        return s.to_owned();
    };
    let head = &s[..cut];
    let head = match head.rfind(' ') {
        Some(sp) if head[..sp].chars().count() >= max / 2 => &head[..sp],
        _ => &s[..s.char_indices().nth(max - 1).map_or(cut, |(i, _)| i)],
    };
    format!("{}…", head.trim_end_matches([' ', ',', ';', ':']))
}

/// Writes the files into `out`, each atomically (a temporary file renamed), leaving a file that
/// already has the bytes untouched. `None` (`--no-llms-txt`) removes the ones an earlier build
/// left: they would list pages this build may no longer publish.
pub fn write(out: &Path, files: Option<&LlmsFiles>) -> std::io::Result<()> {
    for (name, text) in [
        (INDEX_FILE, files.map(|f| f.index.as_str())),
        (FULL_FILE, files.map(|f| f.full.as_str())),
    ] {
        let path = out.join(name);
        match text {
            Some(text) => {
                if std::fs::read(&path).is_ok_and(|b| b == text.as_bytes()) {
                    continue;
                }
                let tmp = out.join(format!(".{name}.tmp"));
                std::fs::write(&tmp, text)?;
                std::fs::rename(&tmp, &path)?;
            }
            None => {
                if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir()) {
                    std::fs::remove_file(&path)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use aidocs_core::ApiMeta;

    fn page(id: &str, title: &str, group: Option<&str>) -> StoredPage {
        StoredPage {
            id: id.into(),
            url: format!("/{id}"),
            title: title.into(),
            kind: "docs".into(),
            breadcrumb: Vec::new(),
            group: group.map(Into::into),
            tags: Vec::new(),
            api: None,
            language: None,
            version: None,
            description: String::new(),
        }
    }

    fn chunk(
        p: &StoredPage,
        index: u32,
        heading_path: &[&str],
        body: &str,
        code: &[(&str, &str)],
    ) -> StoredChunk {
        let parsed = crate::document::Chunk {
            body: body.into(),
            code_blocks: (code.iter())
                .map(|(l, c)| (l.to_string(), c.to_string()))
                .collect(),
            ..Default::default()
        };
        StoredChunk {
            page: p.clone(),
            index,
            chunk_count: 0,
            anchor: heading_path
                .last()
                .map(|h| crate::chunk::slugify(h))
                .unwrap_or_default(),
            title: heading_path
                .last()
                .map_or(p.title.clone(), |h| h.to_string()),
            heading_path: heading_path.iter().map(|s| s.to_string()).collect(),
            excerpt: String::new(),
            lens: [0; aidocs_core::SCORED_FIELDS],
            text_hash: String::new(),
            words: Vec::new(),
            text: parsed.text(),
        }
    }

    fn order<'a>(ids: &[&'a str]) -> HashMap<&'a str, (usize, usize)> {
        ids.iter()
            .enumerate()
            .map(|(i, id)| (*id, (i, i)))
            .collect()
    }

    fn site() -> Vec<StoredChunk> {
        let mut home = page("index", "Welcome", Some("Guides > Get started"));
        home.url = "/".into();
        home.description = "Build on the Acme platform.".into();
        let quick = page("quickstart", "Quickstart", Some("Guides > Get started"));
        let auth = page("guides/auth", "Authentication", Some("Guides > Security"));
        let loose = page("changelog", "Changelog", None);
        let mut api = page("api/getUser", "Get a user", None);
        api.kind = "api".into();
        api.api = Some(ApiMeta {
            method: "GET".into(),
            path: "/v1/users/{id}".into(),
            operation_id: "getUser".into(),
        });
        vec![
            chunk(&api, 0, &[], "", &[]),
            chunk(
                &api,
                1,
                &["Parameters"],
                "id (path, string): The user id",
                &[],
            ),
            chunk(
                &auth,
                0,
                &[],
                "Authentication\nEvery request carries an API key. Keys are per project.",
                &[],
            ),
            chunk(
                &auth,
                1,
                &["API keys"],
                "Create one in the dashboard.",
                &[("bash", "curl -H 'Authorization: Bearer KEY'\n")],
            ),
            chunk(
                &auth,
                2,
                &["API keys", "Rotation"],
                "Rotate keys yearly.",
                &[],
            ),
            chunk(
                &loose,
                0,
                &[],
                "All notable changes to the platform, newest first.",
                &[],
            ),
            chunk(
                &home,
                0,
                &[],
                "Build on the Acme platform.\nWelcome to the docs.",
                &[],
            ),
            chunk(
                &quick,
                0,
                &[],
                "Install the SDK and make your first call in five minutes. Then explore.",
                &[],
            ),
        ]
    }

    fn render_site() -> LlmsFiles {
        let chunks = site();
        render(
            &chunks,
            &order(&["index", "quickstart", "guides/auth", "api/getUser"]),
            Some("Acme  API"),
            None,
        )
    }

    /// Issue 22: the llmstxt.org layout: title, summary, a pointer to the full text, one section per
    /// navigation group in navigation order, one link line per page with its description.
    #[test]
    fn issue_22_llms_txt_has_the_llmstxt_layout() {
        let f = render_site();
        assert_eq!(
            f.index,
            "# Acme API\n\
             \n> Build on the Acme platform.\n\
             \nThe full text of every page listed here is in [llms-full.txt](llms-full.txt).\n\
             \n## Guides > Get started\n\n\
             - [Welcome](/): Build on the Acme platform.\n\
             - [Quickstart](/quickstart): Install the SDK and make your first call in five minutes.\n\
             \n## Guides > Security\n\n\
             - [Authentication](/guides/auth): Every request carries an API key.\n\
             \n## API reference\n\n\
             - [Get a user](/api/getUser): GET /v1/users/{id}\n\
             \n## Docs\n\n\
             - [Changelog](/changelog): All notable changes to the platform, newest first.\n"
        );
    }

    /// Issue 22: the full text: each page's title, source, sections at their depth, paragraphs and
    /// code in fences, an API page's endpoint once.
    #[test]
    fn issue_22_llms_full_txt_holds_every_section_in_order() {
        let f = render_site();
        let auth = "# Authentication\n\nSource: /guides/auth\n\nAuthentication\n\n\
                    Every request carries an API key. Keys are per project.\n\n## API keys\n\n\
                    Create one in the dashboard.\n\n```bash\ncurl -H 'Authorization: Bearer KEY'\n```\n\n\
                    ### Rotation\n\nRotate keys yearly.\n\n";
        assert!(f.full.contains(auth), "{}", f.full);
        let api = "# Get a user\n\nSource: /api/getUser\n\nEndpoint: `GET /v1/users/{id}` (operationId `getUser`)\n\n\
                   ## Parameters\n\nid (path, string): The user id\n\n# Changelog";
        assert!(f.full.contains(api), "{}", f.full);
        assert!(f.full.starts_with("# Welcome\n\nSource: /\n\n"));
        assert!(f.full.ends_with("newest first.\n"));
        let at = |s: &str| f.full.find(s).unwrap();
        assert!(
            at("# Welcome") < at("# Quickstart") && at("# Quickstart") < at("# Authentication")
        );
    }

    /// Issue 22: the same chunks in any order give the same bytes; a page the order does not name
    /// comes last.
    #[test]
    fn issue_22_output_does_not_depend_on_chunk_order() {
        let mut chunks = site();
        let a = render(&chunks, &order(&["index"]), None, None);
        chunks.reverse();
        let b = render(&chunks, &order(&["index"]), None, None);
        assert_eq!(a, b);
        assert!(a
            .index
            .starts_with("# Documentation\n\n> Build on the Acme platform.\n"));
    }

    /// Issue 22: descriptions: the frontmatter's first, else the first sentence of a paragraph of a
    /// few words (an H1 kept as text, a sidebar title are not one), cut at 160 characters on a char
    /// boundary.
    #[test]
    fn issue_22_descriptions() {
        let p = page("p", "Setup", None);
        let desc = |chunks: &[StoredChunk]| page_description(&chunks.iter().collect::<Vec<_>>());
        assert_eq!(
            desc(&[chunk(
                &p,
                0,
                &[],
                "Setup\nGet started fast.\nInstall it first, e.g. with npm. Then run it.",
                &[]
            )]),
            Some("Install it first, e.g. with npm.".into())
        );
        let mut written = p.clone();
        written.description = "  Written\n by hand.  ".into();
        assert_eq!(
            desc(&[chunk(&written, 0, &[], "Other words here and more.", &[])]),
            Some("Written by hand.".into())
        );
        // Found in a later section when the intro has none.
        assert_eq!(
            desc(&[
                chunk(&p, 0, &[], "", &[]),
                chunk(&p, 1, &["A"], "This section explains the setup", &[])
            ]),
            Some("This section explains the setup".into())
        );
        assert_eq!(desc(&[chunk(&p, 0, &[], "", &[("bash", "ls\n")])]), None);
        // Chinese has no spaces between words: a sentence of it is a description, a two-character
        // heading kept as text is not.
        assert_eq!(
            desc(&[chunk(
                &p,
                0,
                &[],
                "入门\n通过您自己的域名提供文档。然后配置。",
                &[]
            )]),
            Some("通过您自己的域名提供文档。".into())
        );
        let long = "é".repeat(50) + " " + &"ü".repeat(200);
        let cut = desc(&[chunk(&p, 0, &[], &format!("{long} a b c"), &[])]).unwrap();
        assert_eq!(cut.chars().count(), 160);
        assert!(cut.ends_with('…'));
        let spaced = "word ".repeat(60);
        let cut = shorten(spaced.trim(), 160);
        assert!(
            cut.chars().count() <= 160 && cut.ends_with("word…"),
            "{cut}"
        );
        assert_eq!(first_sentence("设置很简单。然后运行它。"), "设置很简单。");
        assert_eq!(
            first_sentence("Use i.e. this, vs. that. Done."),
            "Use i.e. this, vs. that."
        );
        assert_eq!(first_sentence("No end here"), "No end here");
    }

    /// Issue 22: several languages or versions: a section per group and language/version, its
    /// heading qualified; link text and destinations escaped; page text never reads as a heading.
    #[test]
    fn issue_22_sections_per_language_and_escaping() {
        let mut en = page("guide", "Guide [beta]", Some("Guides"));
        en.language = Some("en".into());
        en.url = "/guide (new)".into();
        let mut fr = page("fr/guide", "Guide", Some("Guides"));
        fr.language = Some("fr".into());
        let chunks = vec![
            chunk(&en, 0, &[], "# not a heading in the page text", &[]),
            chunk(&fr, 0, &[], "", &[]),
        ];
        let f = render(
            &chunks,
            &order(&["guide", "fr/guide"]),
            Some("S"),
            Some("D"),
        );
        assert!(
            f.index.contains(
                "\n## Guides (en)\n\n- [Guide \\[beta\\]](/guide%20%28new%29): # not a heading"
            ),
            "{}",
            f.index
        );
        assert!(
            f.index
                .contains("\n## Guides (fr)\n\n- [Guide](/fr/guide)\n"),
            "{}",
            f.index
        );
        assert!(f.full.contains("\n\\# not a heading"), "{}", f.full);
    }

    /// Issue 22: written atomically; unchanged bytes are left alone; `None` removes stale files.
    #[test]
    fn issue_22_write_and_remove() {
        let tmp = tempfile::tempdir().unwrap();
        let files = LlmsFiles {
            index: "# A\n".into(),
            full: "# P\n".into(),
        };
        write(tmp.path(), Some(&files)).unwrap();
        assert_eq!(
            std::fs::read_to_string(tmp.path().join(INDEX_FILE)).unwrap(),
            "# A\n"
        );
        assert_eq!(
            std::fs::read_to_string(tmp.path().join(FULL_FILE)).unwrap(),
            "# P\n"
        );
        write(tmp.path(), Some(&files)).unwrap();
        let names: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        write(tmp.path(), None).unwrap();
        assert!(!tmp.path().join(INDEX_FILE).exists() && !tmp.path().join(FULL_FILE).exists());
        write(tmp.path(), None).unwrap();
    }
}
