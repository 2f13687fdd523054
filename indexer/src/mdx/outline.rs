//! Here is the converter's stream of JSX tags, give me the page's outline as Mintlify renders it:
//! which headings sit in collapsed content (an `<Accordion>`'s headings keep their ids but leave
//! the table of contents), which are no headings at all (a `<Prompt>` shows its body as written),
//! which components are entries of it (`<Update label>`, `<Step title>` under `titleSize` h2 or
//! h3), and which headings readers never see but Mintlify counts (`<Visibility for="agents">`),
//! so that the chunker makes sections where the page has linkable headings and gives them the ids
//! Mintlify's `remarkComponentIds` and `remarkExtractTableOfContents` give (`heading_id`). The
//! facts travel in the markers of the heading lines the converter writes
//! (`heading_id::HeadingKind`).

use std::collections::HashMap;
use std::ops::Range;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag as MdTag, TagEnd};

use crate::heading_id::{
    component_heading, hidden_heading, mark_heading_line, Container, HeadingKind,
};

use super::tag::{AttrValue, Tag};

/// The container a component is, for the headings inside it.
fn container(name: &str) -> Option<Container> {
    match name {
        "Accordion" | "AccordionGroup" | "Expandable" => Some(Container::Collapses),
        "Update" => Some(Container::Update),
        "Prompt" => Some(Container::Raw),
        _ => None,
    }
}

/// An open JSX element.
struct Element {
    name: String,
    /// What it is for the headings inside it, and where its content starts in `out`.
    container: Option<(Container, usize)>,
    /// A `<Steps>`'s `titleSize`, which its own steps inherit.
    title_size: Option<String>,
}

/// What the converter has open, in the text it writes (`out`), and which components it closed:
/// the page's headings are marked once, at the end, in one pass over the page (marking at every
/// closer would read nested content once per level).
#[derive(Default)]
pub(super) struct Outline {
    /// The open elements, outermost first.
    open: Vec<Element>,
    /// Where in `open` the named ones are (fragments, `<>`, are transparent to `<Steps>`).
    named: Vec<usize>,
    /// How many elements of each name are open: a closer with no opener closes nothing, at once.
    open_names: HashMap<String, usize>,
    /// The byte ranges of `out` containers wrapped.
    closed: Vec<(Range<usize>, Container)>,
}

impl Outline {
    /// The heading line the opening `tag` makes of its title, with the attribute it took it from:
    /// an update's label, a step's title under `titleSize` h2 or h3 (a flow element's: one alone
    /// on its line; inline ones are no entries). `shown` gives the text a JSX expression renders
    /// (`label={<><Icon /> Quickstart</>}`); a step's title is read with [`title_text`].
    pub(super) fn component_heading(
        &self,
        tag: &Tag,
        shown: &mut dyn FnMut(&str) -> String,
    ) -> Option<(String, &'static str)> {
        if tag.closing {
            return None;
        }
        let id = tag.literal("id");
        match tag.name.as_str() {
            "Update" => {
                // Any `label`, even one only JavaScript knows, makes the update an entry; its id
                // is made from the label's text only when the label is a string literal.
                let (label, kind) = match (tag.literal("label"), tag.value("label", false)?) {
                    (Some(label), _) => (label.to_owned(), HeadingKind::UpdateLabel),
                    (None, AttrValue::Text(t)) => (t.clone(), HeadingKind::ExpressionLabel),
                    (None, AttrValue::Expr(e)) => (shown(e), HeadingKind::ExpressionLabel),
                };
                let line = component_heading(2, &plain_markdown(&label), kind, id);
                Some((line, "label"))
            }
            "Step" => {
                // `getStringAttribute(titleSize) ?? inherited` (what `<Steps>` gives its own
                // steps): a size only JavaScript knows is the inherited one.
                let size = match tag.literal("titleSize") {
                    Some(size) => size,
                    None => (self.named.last().map(|&i| &self.open[i]))
                        .filter(|e| e.name == "Steps")?
                        .title_size
                        .as_deref()?,
                };
                let level = match size {
                    "h2" => 2,
                    "h3" => 3,
                    _ => return None,
                };
                let no_anchor = tag.raw_flag("noAnchor");
                // The title Mintlify reads (`getStringAttribute`, then its Markdown's text).
                let title = title_text(tag.literal("title")?);
                if no_anchor || title.trim().is_empty() {
                    return None;
                }
                let line =
                    component_heading(level, &plain_markdown(&title), HeadingKind::StepTitle, id);
                Some((line, "title"))
            }
            _ => None,
        }
    }

    /// Follows `tag`, written to `out` already (`out_len` long now); `flow` when the element is a
    /// flow element (alone on its lines), the only kind whose headings leave the outline.
    pub(super) fn tag(&mut self, tag: &Tag, out_len: usize, flow: bool) {
        if tag.self_closing {
            return;
        }
        if !tag.closing {
            *self.open_names.entry(tag.name.clone()).or_insert(0) += 1;
            if !tag.name.is_empty() {
                self.named.push(self.open.len());
            }
            self.open.push(Element {
                name: tag.name.clone(),
                container: container(&tag.name).filter(|_| flow).map(|c| (c, out_len)),
                title_size: (tag.name == "Steps")
                    .then(|| tag.literal("titleSize").map(str::to_owned))
                    .flatten(),
            });
            return;
        }
        // MDX nests elements properly; a closer without its opener closes nothing.
        if self.open_names.get(&tag.name).is_none_or(|&n| n == 0) {
            return;
        }
        while let Some(element) = self.open.pop() {
            if let Some(n) = self.open_names.get_mut(&element.name) {
                *n -= 1;
            }
            if self.named.last() == Some(&self.open.len()) {
                self.named.pop();
            }
            if let Some((container, start)) = element.container {
                self.closed.push((start..out_len, container));
            }
            if element.name == tag.name {
                break;
            }
        }
    }

    /// The end of the page (what never closed wraps the rest: not valid MDX): every heading of
    /// `out` marked with where it sits, in one pass.
    pub(super) fn finish(mut self, out: &mut String) {
        for element in std::mem::take(&mut self.open) {
            if let Some((container, start)) = element.container {
                self.closed.push((start..out.len(), container));
            }
        }
        if self.closed.is_empty() {
            return;
        }
        // Where each container's text starts (+1) and ends (-1), by kind.
        let mut edges: Vec<(usize, i32, usize)> = (self.closed.iter())
            .flat_map(|(range, container)| {
                let kind = *container as usize;
                [(range.start, 1, kind), (range.end, -1, kind)]
            })
            .collect();
        edges.sort_unstable();
        let mut inside = [0i32; 3];
        let mut edge = 0;
        *out = remark_headings(out, |start, kind| {
            while let Some(&(pos, delta, container)) = edges.get(edge) {
                if pos > start {
                    break;
                }
                inside[container] += delta;
                edge += 1;
            }
            // The most hidden placement wins: a prompt's, then collapsed content's, then an
            // update's.
            [Container::Raw, Container::Collapses, Container::Update]
                .into_iter()
                .find(|&c| inside[c as usize] > 0)
                .map_or(kind, |c| kind.within(c))
        });
    }
}

/// One heading of a Markdown text, as pulldown-cmark (the chunker's parser) reads it.
struct HeadingLine {
    /// Where the heading starts.
    start: usize,
    /// The line its marker goes at the end of: an ATX heading's line, a setext heading's last
    /// line of text.
    line: Range<usize>,
    atx: bool,
}

/// The headings of `markdown` in order.
fn heading_lines(markdown: &str) -> Vec<HeadingLine> {
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS,
    );
    let mut out = Vec::new();
    for (event, range) in parser.into_offset_iter() {
        let Event::Start(MdTag::Heading { .. }) = event else {
            continue;
        };
        let text = markdown[range.clone()].trim_end_matches(['\n', '\r']);
        let atx = text.trim_start_matches(' ').starts_with('#');
        let line = if atx {
            let end = text.find(['\n', '\r']).unwrap_or(text.len());
            range.start..range.start + end
        } else {
            // A setext heading: its text's last line is the one before the underline.
            let underline = text.rfind('\n').unwrap_or(0);
            let last = text[..underline].trim_end_matches('\r');
            let line_start = last.rfind('\n').map_or(0, |p| p + 1);
            range.start + line_start..range.start + last.len()
        };
        out.push(HeadingLine {
            start: range.start,
            line,
            atx,
        });
    }
    out
}

/// `markdown` with each heading's line marked as `kind` says (given where the heading starts and
/// its kind so far), in one pass.
fn remark_headings(
    markdown: &str,
    mut kind: impl FnMut(usize, HeadingKind) -> HeadingKind,
) -> String {
    let mut out = String::with_capacity(markdown.len() + 64);
    let mut at = 0;
    for h in heading_lines(markdown) {
        if h.line.start < at {
            continue;
        }
        out.push_str(&markdown[at..h.line.start]);
        let line = &markdown[h.line.clone()];
        out.push_str(&mark_heading_line(line, h.atx, |was| kind(h.start, was)));
        at = h.line.end;
    }
    out.push_str(&markdown[at..]);
    out
}

/// The lines that stand for the headings of `cut`, text a hidden element wrapped: each hidden
/// heading's text rides in its marker (`listed`: the table of contents counts it too, as for an
/// element hidden by its class; not for `<Visibility for="agents">`, which it leaves out).
pub(super) fn hidden_headings(cut: &str, listed: bool) -> String {
    let parser = Parser::new_ext(
        cut,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS,
    );
    let kind = if listed {
        HeadingKind::HiddenListed
    } else {
        HeadingKind::Hidden
    };
    let mut out = String::new();
    let mut heading: Option<(HeadingLevel, String)> = None;
    for event in parser {
        if let Some((_, text)) = heading.as_mut() {
            if let Some(t) = crate::chunk::heading_text_of(&event) {
                text.push_str(&t);
                continue;
            }
        }
        match event {
            Event::Start(MdTag::Heading { level, .. }) => heading = Some((level, String::new())),
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, text)) = heading.take() {
                    let text = crate::chunk::collapse_whitespace(&text);
                    // Hidden already (read twice, as a `.md` page is): its own text.
                    let text = crate::heading_id::hidden_text(&text).unwrap_or(text);
                    let level = crate::chunk::heading_level(level) as usize;
                    out.push_str("\n\n");
                    out.push_str(&hidden_heading(level, &text, kind));
                    out.push_str("\n\n");
                }
            }
            _ => {}
        }
    }
    out
}

/// A component's title as a heading's Markdown that reads exactly as the title: whitespace
/// collapsed, punctuation escaped but `&` and `;` (entities stay live, as JSX decodes them).
fn plain_markdown(title: &str) -> String {
    let collapsed = title.split_whitespace().collect::<Vec<_>>().join(" ");
    super::escape_markdown(&collapsed, &['&', ';'])
}

/// The text a component's title shows, read as Mintlify's `parseTitleMarkdown` reads it (for the
/// titles of `Accordion`, `Card`, `Step`, `Tab`, `Tile`): one paragraph (after `title: `, so
/// nothing is a block), whose text, code, emphasis and links (those with a destination that looks
/// like one) show their text, and anything else its source: `[Install](/x) the **CLI**` shows
/// `Install the CLI`, `1. Step` shows `1. Step`.
pub(super) fn title_text(title: &str) -> String {
    const PREFIX: &str = "title: ";
    let source = format!("{PREFIX}{}", title.replace('\n', " "));
    let parser = Parser::new_ext(&source, Options::ENABLE_STRIKETHROUGH);
    let mut text = String::new();
    // Inside an element shown as its source: the end event it waits for.
    let mut skip: Option<TagEnd> = None;
    for (event, range) in parser.into_offset_iter() {
        if let Some(end) = &skip {
            if matches!(&event, Event::End(e) if e == end) {
                skip = None;
            }
            continue;
        }
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            Event::Start(MdTag::Link { dest_url, .. })
                if !(source[range.clone()].starts_with('[') && looks_like_a_link(&dest_url)) =>
            {
                text.push_str(&source[range]);
                skip = Some(TagEnd::Link);
            }
            Event::Start(MdTag::Image { .. }) => {
                text.push_str(&source[range]);
                skip = Some(TagEnd::Image);
            }
            Event::Html(h) | Event::InlineHtml(h) => text.push_str(&h),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            _ => {}
        }
    }
    match text.strip_prefix(PREFIX) {
        Some(shown) => shown.to_owned(),
        // Not one paragraph that starts with the prefix: the title as written.
        None => title.to_owned(),
    }
}

/// `isSupportedLink`'s destinations: a URL, a path, an anchor, or a domain-like word.
fn looks_like_a_link(dest: &str) -> bool {
    let d = dest.trim();
    let lower = d.to_ascii_lowercase();
    !d.is_empty()
        && ([
            "http://", "https://", "mailto:", "tel:", "/", "#", "./", "../",
        ]
        .iter()
        .any(|p| lower.starts_with(p))
            || d.contains('/')
            || d.split_once('.').is_some_and(|(a, b)| {
                !a.is_empty()
                    && !b.is_empty()
                    && !d.contains(char::is_whitespace)
                    && !a.contains('@')
            }))
}

/// `markdown` (the converter's) for a page in `mode: custom` or `frame`: Mintlify gives its
/// headings no ids and counts none, so none of them is a section's anchor (updates and steps keep
/// theirs).
pub fn without_heading_ids(markdown: &str) -> String {
    remark_headings(markdown, |_, kind| kind.without_heading_ids())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_are_marked_where_the_chunker_reads_them() {
        let md = "## Changes ##\n\nSetext\nover two\n---\n\n> ## Quoted\n\n```\n## code\n```\n";
        let marked = without_heading_ids(md);
        let ids = crate::chunk::chunk_markdown("T", "", &marked, Default::default());
        let titles: Vec<(&str, &str)> = (ids.iter().skip(1))
            .map(|c| (c.title.as_str(), c.anchor.as_str()))
            .collect();
        assert_eq!(
            titles,
            [("Changes", ""), ("Setext over two", ""), ("Quoted", "")],
            "{marked}"
        );
        assert!(marked.contains("## code\n"), "{marked}");
        assert!(!crate::heading_id::strip_marker(&marked).contains('\u{FDD0}'));
    }

    #[test]
    fn titles_read_as_markdown() {
        assert_eq!(
            title_text("[Install](https://x.example) the `cli`"),
            "Install the cli"
        );
        assert_eq!(title_text("**Bold** and _em_"), "Bold and em");
        assert_eq!(
            title_text("1. Platform IP ownership"),
            "1. Platform IP ownership"
        );
        assert_eq!(title_text("# Not a heading"), "# Not a heading");
        assert_eq!(title_text("[c](notalink) x"), "[c](notalink) x");
        assert_eq!(title_text("<b>x</b>"), "<b>x</b>");
    }
}
