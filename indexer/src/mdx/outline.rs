//! Here is the converter's stream of JSX tags, give me the page's outline as Mintlify renders it:
//! which headings sit in collapsed content (an `<Accordion>`'s headings keep their ids but leave
//! the table of contents), which components are entries of it (`<Update label>`, `<Step title>`
//! under `titleSize` h2 or h3), so that the chunker makes sections where the page has linkable
//! headings and gives them the ids Mintlify's `remarkComponentIds` and
//! `remarkExtractTableOfContents` give (`heading_id`). The facts travel in the markers of the
//! heading lines the converter writes (`heading_id::HeadingKind`).

use crate::heading_id::{component_heading, mark_heading_line, HeadingKind};

use super::tag::{AttrValue, Tag};

/// Components whose headings `remarkExtractTableOfContents` leaves out; all but `Update` collapse
/// (their content opens on a click).
const EXCLUDING: [&str; 5] = [
    "Accordion",
    "AccordionGroup",
    "Expandable",
    "Update",
    "Prompt",
];

/// What the converter has open, in the text it writes (`out`), and what it closed: the page's
/// headings are marked once, at the end, in one pass (marking at every closer would read nested
/// content once per level).
#[derive(Default)]
pub(super) struct Outline {
    /// Open excluding components: their names, whether each collapses, where its content starts.
    open: Vec<(String, bool, usize)>,
    /// Closed ones: the byte range of `out` each wrapped, and whether it collapses.
    closed: Vec<(usize, usize, bool)>,
    /// The `titleSize` of each open `<Steps>` (what its steps inherit).
    steps: Vec<Option<String>>,
    /// The byte ranges of `out` copied from code fences, in order: no heading lines in them.
    code: Vec<(usize, usize)>,
}

impl Outline {
    /// `out[start..end]` is a code fence's text.
    pub(super) fn code(&mut self, start: usize, end: usize) {
        self.code.push((start, end));
    }

    /// `out` was cut back to `len` (a withheld element's text removed).
    pub(super) fn truncated(&mut self, len: usize) {
        self.code.retain(|&(start, _)| start < len);
        self.closed.retain(|&(start, _, _)| start < len);
        for range in &mut self.closed {
            range.1 = range.1.min(len);
        }
        for (_, _, at) in &mut self.open {
            *at = (*at).min(len);
        }
    }

    /// The heading line the opening `tag` makes of its title, with the attribute it took it from:
    /// an update's label, a step's title under `titleSize` h2 or h3. `shown` gives the text a
    /// JSX expression renders (`label={<><Icon /> Quickstart</>}`).
    pub(super) fn component_heading(
        &self,
        tag: &Tag,
        shown: &mut dyn FnMut(&str) -> String,
    ) -> Option<(String, &'static str)> {
        if tag.closing {
            return None;
        }
        let id = match tag.value("id", false) {
            Some(AttrValue::Text(id)) => Some(id.as_str()),
            _ => None,
        };
        match tag.name.as_str() {
            "Update" => {
                // Any `label`, even one only JavaScript knows, makes the update an entry; its id
                // is made from the label's text only when the label is a string.
                let (label, kind) = match tag.value("label", false)? {
                    AttrValue::Text(t) => (t.clone(), HeadingKind::UpdateLabel),
                    AttrValue::Expr(e) => (shown(e), HeadingKind::ExpressionLabel),
                };
                let line = component_heading(2, &title_markdown(&label), kind, id);
                Some((line, "label"))
            }
            "Step" => {
                // `getStringAttribute(titleSize) ?? inherited`: a size only JavaScript knows is
                // the inherited one.
                let size = match tag.value("titleSize", false) {
                    Some(AttrValue::Text(size)) => size.as_str(),
                    _ => self.steps.last()?.as_deref()?,
                };
                let level = match size {
                    "h2" => 2,
                    "h3" => 3,
                    _ => return None,
                };
                let no_anchor = match tag.value("noAnchor", false) {
                    None => false,
                    Some(AttrValue::Text(t)) => t == "true",
                    Some(AttrValue::Expr(e)) => e == "true",
                };
                let Some(AttrValue::Text(title)) = tag.value("title", false) else {
                    return None;
                };
                if no_anchor || title.trim().is_empty() {
                    return None;
                }
                let line =
                    component_heading(level, &title_markdown(title), HeadingKind::StepTitle, id);
                Some((line, "title"))
            }
            _ => None,
        }
    }

    /// Follows `tag`, written to `out` already (`out_len` long now).
    pub(super) fn tag(&mut self, tag: &Tag, out_len: usize) {
        if tag.name == "Steps" {
            match (tag.closing, tag.self_closing) {
                (false, false) => self.steps.push(match tag.value("titleSize", false) {
                    Some(AttrValue::Text(size)) => Some(size.clone()),
                    _ => None,
                }),
                (true, _) => {
                    self.steps.pop();
                }
                _ => {}
            }
            return;
        }
        if !EXCLUDING.contains(&tag.name.as_str()) || tag.self_closing {
            return;
        }
        if !tag.closing {
            self.open
                .push((tag.name.clone(), tag.name != "Update", out_len));
            return;
        }
        // MDX nests elements properly; a closer without its opener closes nothing.
        let Some(depth) = self.open.iter().rposition(|(name, _, _)| *name == tag.name) else {
            return;
        };
        for (_, collapses, at) in self.open.drain(depth..) {
            self.closed.push((at, out_len, collapses));
        }
    }

    /// The end of the page (what never closed wraps the rest: not valid MDX): every heading line
    /// of `out` outside code marked with where it sits, in one pass.
    pub(super) fn finish(mut self, out: &mut String) {
        for (_, collapses, at) in std::mem::take(&mut self.open) {
            self.closed.push((at, out.len(), collapses));
        }
        if self.closed.is_empty() {
            return;
        }
        // Where each component's wrapped text starts and ends: +1 / -1 on its kind's count.
        let mut edges: Vec<(usize, i32, bool)> = (self.closed.iter())
            .flat_map(|&(start, end, collapses)| [(start, 1, collapses), (end, -1, collapses)])
            .collect();
        edges.sort_unstable();
        let (mut edge, mut code) = (0, 0);
        let (mut collapsing, mut updates) = (0i32, 0i32);
        let mut marked = String::with_capacity(out.len() + 64);
        let mut at = 0;
        for line in out.split_inclusive('\n') {
            let start = at;
            at += line.len();
            // The components whose text started at or before this line's start, and had not
            // ended: a line a component opened in the middle of is outside it.
            while let Some(&(pos, delta, collapses)) = edges.get(edge) {
                if pos > start {
                    break;
                }
                *(if collapses {
                    &mut collapsing
                } else {
                    &mut updates
                }) += delta;
                edge += 1;
            }
            while self.code.get(code).is_some_and(|&(_, end)| end <= start) {
                code += 1;
            }
            let in_code = self.code.get(code).is_some_and(|&(s, _)| s <= start);
            let body = line.trim_end_matches(['\n', '\r']);
            if in_code || (collapsing == 0 && updates == 0) || !is_atx_heading(body) {
                marked.push_str(line);
                continue;
            }
            let collapses = collapsing > 0;
            marked.push_str(&mark_heading_line(body, |kind| kind.within(collapses)));
            marked.push_str(&line[body.len()..]);
        }
        *out = marked;
    }
}

/// Whether `line` is an ATX heading's (up to three spaces, one to six `#`, then a space, a tab or
/// the end).
pub(super) fn is_atx_heading(line: &str) -> bool {
    let rest = line.trim_start_matches(' ');
    if line.len() - rest.len() > 3 {
        return false;
    }
    let hashes = rest.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes) && (rest.len() == hashes || rest[hashes..].starts_with([' ', '\t']))
}

/// A component's title as a heading's Markdown that reads exactly as the title: whitespace
/// collapsed, punctuation escaped but `&` and `;` (entities stay live, as JSX decodes them).
fn title_markdown(title: &str) -> String {
    let collapsed = title.split_whitespace().collect::<Vec<_>>().join(" ");
    super::escape_markdown(&collapsed, &['&', ';'])
}

/// `markdown` (the converter's) for a page in `mode: custom` or `frame`: Mintlify gives its
/// headings no ids, so none of them is a section's anchor (updates and steps keep theirs).
pub fn without_heading_ids(markdown: &str) -> String {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS,
    );
    // The end of each heading's first line (where its marker goes), in order.
    let mut ends: Vec<usize> = parser
        .into_offset_iter()
        .filter(|(e, _)| matches!(e, Event::Start(Tag::Heading { .. })))
        .map(|(_, r)| {
            let line = &markdown[r.start..];
            r.start + line.find(['\n', '\r']).unwrap_or(line.len())
        })
        .collect();
    ends.dedup();
    let mut out = String::with_capacity(markdown.len() + ends.len() * 8);
    let mut at = 0;
    for end in ends {
        let start = markdown[..end].rfind('\n').map_or(0, |p| p + 1).max(at);
        out.push_str(&markdown[at..start]);
        out.push_str(&mark_heading_line(
            &markdown[start..end],
            HeadingKind::without_heading_ids,
        ));
        at = end;
    }
    out.push_str(&markdown[at..]);
    out
}
