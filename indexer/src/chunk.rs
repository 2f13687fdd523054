//! Markdown to chunks: a page-summary chunk (title, description, intro) and one chunk per H2/H3 section
//! with its heading path and the element id Mintlify renders for its heading ([`HeadingIds`]: `-2`,
//! `-3` for duplicates, `{#custom-id}`). Code blocks stay with their section; oversized sections are
//! split at paragraph boundaries under the size cap.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::document::Chunk;
use crate::heading_id::HeadingIds;

/// Chunking settings.
#[derive(Debug, Clone, Copy)]
pub struct ChunkConfig {
    /// Characters of body text above which a section is split at paragraph boundaries.
    pub max_chars: usize,
}

impl Default for ChunkConfig {
    fn default() -> Self {
        ChunkConfig { max_chars: 3000 }
    }
}

/// A name for a generated page (an operation without `operationId`): lower-case, spaces become
/// hyphens, letters, marks, numbers and `-&/@$_` stay, other punctuation goes (github-slugger's
/// rule). Heading ids are [`HeadingIds`]'.
pub fn slugify(text: &str) -> String {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    let mut out = String::with_capacity(text.len());
    for c in text.trim().chars().flat_map(char::to_lowercase) {
        let keep = matches!(c, '-' | '&' | '/' | '@' | '$')
            || matches!(
                get_general_category(c),
                G::UppercaseLetter
                    | G::LowercaseLetter
                    | G::TitlecaseLetter
                    | G::ModifierLetter
                    | G::OtherLetter
                    | G::NonspacingMark
                    | G::SpacingMark
                    | G::EnclosingMark
                    | G::DecimalNumber
                    | G::LetterNumber
                    | G::ConnectorPunctuation
                    | G::OtherSymbol
            );
        if c == ' ' {
            out.push('-');
        } else if keep {
            out.push(c);
        }
    }
    out
}

struct Section {
    heading: String,
    /// The heading's element id on the rendered page ([`HeadingIds`]).
    anchor: String,
    path: Vec<String>,
    paragraphs: Vec<String>,
    code: String,
    blocks: Vec<(String, String)>,
}

/// Splits Markdown into the summary chunk and section chunks.
pub fn chunk_markdown(
    title: &str,
    description: &str,
    markdown: &str,
    cfg: ChunkConfig,
) -> Vec<Chunk> {
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS,
    );
    let mut sections: Vec<Section> = vec![Section {
        heading: String::new(),
        anchor: String::new(),
        path: Vec::new(),
        paragraphs: Vec::new(),
        code: String::new(),
        blocks: Vec::new(),
    }];
    let mut current_path: Vec<(u8, String)> = Vec::new();
    let mut heading: Option<(u8, String)> = None;
    let mut ids = HeadingIds::default();
    let mut in_code = false;
    let mut para = String::new();

    let flush = |para: &mut String, sections: &mut Vec<Section>| {
        // A custom id's marker that is no heading's (a heading line inside raw HTML) is not text.
        let t = crate::heading_id::strip_marker(&collapse_whitespace(para));
        if !t.is_empty() {
            if let Some(s) = sections.last_mut() {
                s.paragraphs.push(t);
            }
        }
        para.clear();
    };

    for event in parser {
        if let Some((_, h)) = heading.as_mut() {
            if let Some(t) = heading_text_of(&event) {
                h.push_str(&t);
                continue;
            }
        }
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                flush(&mut para, &mut sections);
                heading = Some((heading_level(level), String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, text)) = heading.take() {
                    let rendered = ids.next(level, &collapse_whitespace(&text));
                    let (text, id) = (rendered.text, rendered.id);
                    if (level == 2 || level == 3) && rendered.section {
                        current_path.retain(|(l, _)| *l < level);
                        current_path.push((level, text.clone()));
                        sections.push(Section {
                            heading: text,
                            anchor: id.unwrap_or_default(),
                            path: current_path.iter().map(|(_, t)| t.clone()).collect(),
                            paragraphs: Vec::new(),
                            code: String::new(),
                            blocks: Vec::new(),
                        });
                    } else if !text.is_empty() {
                        // H1, H4+ and headings in collapsed content stay in the current chunk
                        // as text.
                        if let Some(s) = sections.last_mut() {
                            s.paragraphs.push(text);
                        }
                    }
                }
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                flush(&mut para, &mut sections);
                in_code = true;
                if let Some(s) = sections.last_mut() {
                    let lang = match kind {
                        CodeBlockKind::Fenced(info) => {
                            // The block's title, on its tab (```` ```bash Install script ````):
                            // words the page shows.
                            if let Some(title) = crate::code_title::code_block_title(&info) {
                                s.paragraphs.push(title);
                            }
                            info.split_whitespace().next().unwrap_or("").to_owned()
                        }
                        CodeBlockKind::Indented => String::new(),
                    };
                    if !lang.is_empty() {
                        s.code.push_str(&format!("[{lang}]\n"));
                    }
                    s.blocks.push((lang, String::new()));
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code = false;
                if let Some(s) = sections.last_mut() {
                    s.code.push('\n');
                }
            }
            Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                if in_code {
                    // A heading line the converter marked can land in code (a fence its output
                    // opened): no marker, and no hidden heading's text, is ever code.
                    let t = crate::heading_id::strip_marker(&t);
                    if let Some(s) = sections.last_mut() {
                        s.code.push_str(&t);
                        if let Some((_, b)) = s.blocks.last_mut() {
                            b.push_str(&t);
                        }
                    }
                } else {
                    para.push_str(&t);
                }
            }
            Event::Html(h) | Event::InlineHtml(h) => para.push_str(&strip_html(&h)),
            Event::SoftBreak | Event::HardBreak => para.push(' '),
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Item
                | TagEnd::TableCell
                | TagEnd::TableRow
                | TagEnd::BlockQuote(_),
            ) => {
                if matches!(event, Event::End(TagEnd::TableCell)) {
                    para.push_str(" | ");
                } else {
                    flush(&mut para, &mut sections);
                }
            }
            // An item's own text ends where its nested list begins (`begins` + `Parameters` are two
            // words, as the rendered list shows them).
            Event::Start(Tag::List(_)) if heading.is_none() => flush(&mut para, &mut sections),
            Event::Start(Tag::Image { title, .. }) => {
                para.push_str(&title);
                para.push(' ');
            }
            _ => {}
        }
    }
    flush(&mut para, &mut sections);

    let mut chunks = Vec::new();
    for (i, s) in sections.into_iter().enumerate() {
        if i == 0 {
            // Page summary: title, description and intro.
            let mut paras = Vec::new();
            if !description.trim().is_empty() {
                paras.push(description.trim().to_owned());
            }
            paras.extend(s.paragraphs);
            for (j, body) in split_paragraphs(&paras, cfg.max_chars)
                .into_iter()
                .enumerate()
            {
                chunks.push(Chunk {
                    anchor: String::new(),
                    title: title.to_owned(),
                    heading_path: Vec::new(),
                    headings: String::new(),
                    body,
                    code: if j == 0 {
                        s.code.clone()
                    } else {
                        String::new()
                    },
                    code_blocks: if j == 0 { s.blocks.clone() } else { Vec::new() },
                });
            }
            continue;
        }
        let anchor = s.anchor;
        let parts = split_paragraphs(&s.paragraphs, cfg.max_chars);
        for (j, body) in parts.into_iter().enumerate() {
            chunks.push(Chunk {
                anchor: anchor.clone(),
                title: s.heading.clone(),
                heading_path: s.path.clone(),
                headings: s.path.join(" "),
                body,
                code: if j == 0 {
                    s.code.clone()
                } else {
                    String::new()
                },
                code_blocks: if j == 0 { s.blocks.clone() } else { Vec::new() },
            });
        }
    }
    chunks
}

/// Joins paragraphs into bodies no longer than `max` characters, breaking only between paragraphs
/// (a single paragraph over twice the cap is cut at sentence ends). Always returns at least one body.
pub fn split_paragraphs(paras: &[String], max: usize) -> Vec<String> {
    let mut pieces: Vec<String> = Vec::new();
    for p in paras {
        if p.chars().count() > 2 * max {
            let mut cur = String::new();
            for sentence in p.split_inclusive(". ") {
                if !cur.is_empty() && cur.chars().count() + sentence.chars().count() > max {
                    pieces.push(std::mem::take(&mut cur).trim().to_owned());
                }
                cur.push_str(sentence);
            }
            if !cur.trim().is_empty() {
                pieces.push(cur.trim().to_owned());
            }
        } else {
            pieces.push(p.clone());
        }
    }
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for p in pieces {
        if !cur.is_empty() && cur.chars().count() + p.chars().count() + 1 > max {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push('\n');
        }
        cur.push_str(&p);
    }
    out.push(cur);
    out
}

pub(crate) fn heading_level(l: HeadingLevel) -> u8 {
    match l {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// The text `event` adds to a heading, if any. The chunker and the demo read headings through this
/// one function, so the ids the demo writes are the anchors the index links to.
pub(crate) fn heading_text_of<'e>(event: &'e Event<'_>) -> Option<std::borrow::Cow<'e, str>> {
    use std::borrow::Cow;
    match event {
        Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
            Some(Cow::Borrowed(t))
        }
        Event::Html(h) | Event::InlineHtml(h) => Some(Cow::Owned(strip_html(h))),
        Event::SoftBreak | Event::HardBreak => Some(Cow::Borrowed(" ")),
        _ => None,
    }
}

/// Runs of whitespace as one space, none at either end.
pub(crate) fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(crate) fn strip_html(h: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in h.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 24: an item's text and its nested list are separate words.
    #[test]
    fn issue_24_nested_list_items_do_not_glue_words() {
        let md = "- **on_turn_started**: When a new turn begins\n  - Parameters: turn_number\n";
        let chunks = chunk_markdown("T", "", md, ChunkConfig::default());
        let body = &chunks[0].body;
        assert!(
            body.contains("begins") && !body.contains("beginsParameters"),
            "{body}"
        );
    }

    #[test]
    fn sections_headings_and_code() {
        let md = "Intro text.\n\n## Install\n\nRun it.\n\n```bash\nnpm i x\n```\n\n### On Linux\n\nApt.\n\n#### Deep\n\nStill linux.\n\n## Install\n\nAgain.\n";
        let chunks = chunk_markdown("Title", "Desc", md, ChunkConfig::default());
        let anchors: Vec<_> = chunks.iter().map(|c| c.anchor.as_str()).collect();
        assert_eq!(anchors, ["", "install", "on-linux", "install-2"]);
        assert_eq!(chunks[0].body, "Desc\nIntro text.");
        assert!(chunks[1].code.contains("[bash]\nnpm i x"));
        assert_eq!(chunks[2].heading_path, ["Install", "On Linux"]);
        assert!(chunks[2].body.contains("Deep") && chunks[2].body.contains("Still linux."));
    }

    /// Every heading of levels 1 to 4 takes an id, so an H1 or H4 counts for the `-2` of a section
    /// after it; a custom id (`{#id}`, as the converter marks it) is the section's anchor, deduplicated
    /// with the others (Mintlify's `deduplicateSlug` keeps one state for both).
    #[test]
    fn section_anchors_are_the_rendered_ids() {
        let custom = crate::heading_id::mark_custom_id("## Install it {#setup}").unwrap();
        let md = format!("# Setup\n\n#### Setup\n\n## Setup\n\nA.\n\n{custom}\n\nB.\n\n### Step 1: the .env file\n\nC.\n");
        let chunks = chunk_markdown("T", "", &md, ChunkConfig::default());
        let got: Vec<_> = (chunks.iter())
            .map(|c| (c.anchor.as_str(), c.title.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("", "T"),
                ("setup-3", "Setup"),
                ("setup-4", "Install it"),
                ("step-1-the-env-file", "Step 1: the .env file")
            ]
        );
    }

    #[test]
    fn oversized_sections_split_at_paragraphs() {
        let paras: Vec<String> = (0..10)
            .map(|i| format!("paragraph {i} {}", "x".repeat(90)))
            .collect();
        let parts = split_paragraphs(&paras, 250);
        assert!(parts.len() >= 4);
        assert!(parts.iter().all(|p| p.chars().count() <= 250));
        assert_eq!(parts.join("\n"), paras.join("\n"));
    }
}
