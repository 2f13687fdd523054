//! Here is a page's headings in order, give me the element id Mintlify renders for each: the
//! anchor a result links to must be one the page has.
//!
//! The reference is `@mintlify/common` (1.0.1211): `slugify` (`getUnicodeId`, then
//! `@sindresorhus/slugify` 2.2.0 over the percent-encoded text), `deduplicateSlug` in
//! `remarkExtractTableOfContents` (the second `Setup` is `setup-2`), `cleanHeadingId`, which the
//! `Heading` component applies at render (percent-decoded, `?,;:!'"()[]{}` and emoji dropped:
//! `Step 1: Install` is `step-1-install`, `VAD & turn` is `vad-&-turn`, `llms.txt` is `llms-txt`),
//! and `preprocessCustomHeadingIds` (`## Title {#custom-id}`). `fixtures/mintlify-heading-ids.json`
//! holds what that code gives for every such heading of the two real sites and for edge cases
//! (written by `scripts/mintlify-heading-ids.mjs`); the tests compare against it.
//!
//! Headings of levels 1 to 4 take ids (and so count for the `-2`s); 5 and 6 take none. A custom id
//! travels from the converter to the chunker as a marker at the end of the heading's text
//! ([`mark_custom_id`], [`HeadingIds::next`]), since the Markdown between them has no syntax for it
//! that a heading like `GET /users/{id}` could not also spell.

use std::collections::HashMap;
use std::sync::LazyLock;

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use regex::Regex;

/// What `encodeURIComponent` leaves as it is: ASCII letters, digits and `-_.!~*'()`.
const URI_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// Open and close a custom id's marker in a heading's text: Unicode noncharacters, which no page
/// shows; the converter drops any a page holds ([`MARKS`]), so every marker is one it wrote.
const MARK_OPEN: char = '\u{FDD0}';
const MARK_CLOSE: char = '\u{FDD1}';
/// Open and close the text of a hidden inline element inside a heading
/// (`## Setup <span className="hidden">x</span>`): readers never see it, but Mintlify's id spells
/// it (`getTableOfContentsTitle` reads every element's text but a `<Visibility>`'s not shown to
/// humans), so it rides, in hex, in the heading's line for the id alone.
const INLINE_OPEN: char = '\u{FDD2}';
const INLINE_CLOSE: char = '\u{FDD3}';
/// The marker characters, which the converter removes from a page's text before it reads it.
pub const MARKS: [char; 4] = [MARK_OPEN, MARK_CLOSE, INLINE_OPEN, INLINE_CLOSE];
/// A marker that carries nothing: what the converter puts before a line's first character to
/// keep the line a paragraph (no reading shows a marker).
pub const EMPTY_MARK: &str = "\u{FDD0}\u{FDD1}";

/// `cleanHeadingId`'s and `normalizeCustomId`'s emoji: `\p{Emoji_Modifier}`,
/// `\p{Emoji_Modifier_Base}`, `\p{Emoji_Presentation}`, `\p{Extended_Pictographic}`, ZWJ and the
/// variation selectors 15 and 16.
static EMOJI: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\p{Emoji_Modifier}|\p{Emoji_Modifier_Base}|\p{Emoji_Presentation}|\p{Extended_Pictographic}|[\u{200D}\u{FE0E}\u{FE0F}]")
        .expect("a valid pattern")
});

/// `preprocessCustomHeadingIds`' heading (outside an `<MDX>` block): at most three spaces, one to
/// six `#`, the text, then `{#id}` at the end of the line.
static CUSTOM_ID_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^( {0,3})(#{1,6})\s+(.+?)\s*\{\s*#([^}]+?)\s*\}\s*$").expect("a valid pattern")
});

/// JavaScript's `\s`: what `trim` removes and `/\s+/` matches (not U+0085, which Rust's is).
pub(crate) fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{B}' | '\u{C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// JavaScript's `String.prototype.trim`: [`js_space`] off both ends.
pub(crate) fn js_trim(s: &str) -> &str {
    s.trim_matches(js_space)
}

/// Mintlify's `slugify(title)`: lower-cased, trimmed, whitespace runs to `-`, percent-encoded as
/// `encodeURIComponent` does; then `@sindresorhus/slugify` (keeping `_`, and `%` and case when
/// something was encoded).
pub fn slug(title: &str) -> String {
    let lower = title.to_lowercase();
    let mut dashed = String::with_capacity(lower.len());
    let mut space = false;
    for c in lower.trim_matches(js_space).chars() {
        if js_space(c) {
            space = true;
            continue;
        }
        if std::mem::take(&mut space) {
            dashed.push('-');
        }
        dashed.push(c);
    }
    let encoded = utf8_percent_encode(&dashed, URI_COMPONENT).to_string();
    let percent = encoded.contains('%');
    sindresorhus_slugify(&encoded, percent)
}

/// `@sindresorhus/slugify` 2.2.0 on ASCII text (what `encodeURIComponent` leaves), with
/// `decamelize: false`, preserving `_` (and `%`, case kept, when `percent`): runs of anything else
/// become one `-`, a word's `-s`/`-t` before a `-` or the end joins it (`what-s` is `whats`), and
/// no `-` is left at either end.
fn sindresorhus_slugify(ascii: &str, percent: bool) -> String {
    let kept = |c: char| {
        c.is_ascii_lowercase()
            || c.is_ascii_digit()
            || c == '_'
            || (percent && (c == '%' || c.is_ascii_uppercase()))
    };
    let mut s = String::with_capacity(ascii.len());
    let mut run = false;
    for c in ascii.chars() {
        let c = if percent { c } else { c.to_ascii_lowercase() };
        if kept(c) {
            s.push(c);
            run = false;
        } else if !run {
            s.push('-');
            run = true;
        }
    }
    let s = join_contractions(&s);
    s.trim_matches('-').to_owned()
}

/// `string.replace(/([a-zA-Z\d]+)-([ts])(-|$)/g, '$1$2$3')`, scanning as the regular expression
/// does: a word, then `-t` or `-s` that ends at a `-` (taken with the match) or at the end.
fn join_contractions(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_alphanumeric() {
            out.push(b[i] as char);
            i += 1;
            continue;
        }
        let end = i + b[i..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        out.push_str(&s[i..end]);
        i = end;
        let joins = b.get(end) == Some(&b'-')
            && matches!(b.get(end + 1), Some(b't' | b's'))
            && matches!(b.get(end + 2), None | Some(b'-'));
        if joins {
            out.push(b[end + 1] as char);
            if end + 2 < b.len() {
                out.push('-');
            }
            i = (end + 3).min(b.len());
        }
    }
    out
}

/// `safeCleanHeadingId`: percent-decoded (a `%` that starts no escape is text; undecodable bytes
/// leave the id as it was), then `?,;:!'"()[]{}` and emoji dropped.
pub fn clean(id: &str) -> String {
    let escaped = {
        let b = id.as_bytes();
        let mut out = String::with_capacity(id.len());
        for (i, c) in id.char_indices() {
            let escape = c == '%'
                && b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
            if c == '%' && !escape {
                out.push_str("%25");
            } else {
                out.push(c);
            }
        }
        out
    };
    let Ok(decoded) = percent_encoding::percent_decode_str(&escaped).decode_utf8() else {
        return id.to_owned();
    };
    let kept: String = decoded
        .chars()
        .filter(|c| !"?,;:!'\"()[]{}".contains(*c))
        .collect();
    EMOJI.replace_all(&kept, "").into_owned()
}

/// `normalizeCustomId`: the id written in `{#…}`, trimmed, without `<>"&?,;:!'()[]{}` and emoji,
/// whitespace runs as `-`.
fn normalize_custom(raw: &str) -> String {
    let kept: String = raw
        .trim_matches(js_space)
        .chars()
        .filter(|c| !"<>\"&?,;:!'()[]{}".contains(*c))
        .collect();
    let kept = EMOJI.replace_all(&kept, "");
    let mut out = String::with_capacity(kept.len());
    let mut space = false;
    for c in kept.chars() {
        if js_space(c) {
            if !space {
                out.push('-');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
    out
}

/// `bytes` as lower-case hex: how a marker carries text (no character of it can end the marker).
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The text `hex` carries: `None` unless it is whole pairs of hex digits spelling UTF-8.
fn unhex(hex: &str) -> Option<String> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect();
    String::from_utf8(bytes?).ok()
}

/// A heading line with a custom id (`## Title {#custom-id}`, indented at most three spaces;
/// `line` without its line ending), as the line the converter passes on: the heading with the
/// id in a marker at its end. `None` for any other line.
pub fn mark_custom_id(line: &str) -> Option<String> {
    let caps = CUSTOM_ID_HEADING.captures(line)?;
    Some(format!(
        "{}{} {}{MARK_OPEN}{}{MARK_CLOSE}",
        &caps[1],
        &caps[2],
        &caps[3],
        hex(caps[4].as_bytes())
    ))
}

/// What a heading line's marker says: where the heading sits, or that the converter wrote it for
/// a component, and the custom id written for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadingKind {
    /// A Markdown heading in the page's flow: Mintlify's `Heading` element.
    Plain,
    /// A heading inside a component whose content is collapsed (`Accordion`, `AccordionGroup`,
    /// `Expandable`): it keeps the id `remarkComponentIds` gives it (and so counts for later
    /// `-2`s), outside the table of contents; a link to it may land in closed content: no section
    /// of its own.
    Collapsed,
    /// A heading inside an `<Update>`: shown, with the id `remarkComponentIds` gives it, outside
    /// the table of contents' deduplication.
    InUpdate,
    /// An `<Update label>`: an entry of the table of contents, deduplicated with the headings but
    /// never counted by `remarkComponentIds` (it is no Markdown heading).
    UpdateLabel,
    /// An `<Update label={…}>` (JSX, or any expression): shown, but its id is made from no title
    /// (`''`, then `-2`, …), as Mintlify reads only a string label.
    ExpressionLabel,
    /// A `<Step title>` under `titleSize` h2 or h3: as an update's label.
    StepTitle,
    /// A section title the page shows with no element id: one the indexer writes for a
    /// generated API page's fields, a heading on a page in `mode: custom` (Mintlify gives those
    /// no ids), an update's label or a step's title inside an update.
    NoId,
    /// Text that is no heading on the page: a heading inside a `<Prompt>` (which shows its body as
    /// written), a component's title inside collapsed content. Neither a section nor an id.
    Text,
    /// A heading readers are never shown (inside `<Visibility for="agents">`): no text, no section,
    /// but `remarkComponentIds` counts it, so later ids take `-2`s for it. Its text rides in the
    /// marker, never in the line.
    Hidden,
    /// A heading inside an element hidden by its class or attribute: as [`Hidden`](Self::Hidden),
    /// and the table of contents deduplicates it too.
    HiddenListed,
    /// A hidden heading nothing counts (inside a `<Prompt>`, on a page in `mode: custom`).
    HiddenUncounted,
}

/// The components whose content `remarkExtractTableOfContents` leaves out, as a heading inside
/// them is placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// `Accordion`, `AccordionGroup`, `Expandable`: collapsed content.
    Collapses,
    /// `Update`: shown.
    Update,
    /// `Prompt`: its body is shown as written (`remarkPrompt`), no element of it is rendered.
    Raw,
}

/// The letter each kind's marker carries before its hex (none is a hex digit; a plain heading's
/// marker has none).
const LETTERS: [(HeadingKind, char); 10] = [
    (HeadingKind::Collapsed, 'z'),
    (HeadingKind::InUpdate, 'u'),
    (HeadingKind::UpdateLabel, 'U'),
    (HeadingKind::ExpressionLabel, 'V'),
    (HeadingKind::StepTitle, 'S'),
    (HeadingKind::NoId, '-'),
    (HeadingKind::Text, 'x'),
    (HeadingKind::Hidden, 'g'),
    (HeadingKind::HiddenListed, 'G'),
    (HeadingKind::HiddenUncounted, 'n'),
];

impl HeadingKind {
    fn letter(self) -> Option<char> {
        LETTERS.iter().find(|(k, _)| *k == self).map(|&(_, c)| c)
    }

    fn of_letter(c: char) -> Option<HeadingKind> {
        LETTERS.iter().find(|&&(_, l)| l == c).map(|&(k, _)| k)
    }

    /// Whether the heading's text is withheld (it rides in the marker).
    pub fn is_hidden(self) -> bool {
        matches!(
            self,
            HeadingKind::Hidden | HeadingKind::HiddenListed | HeadingKind::HiddenUncounted
        )
    }

    /// The kind a heading of this kind takes inside `container`: the most hidden placement wins.
    pub fn within(self, container: Container) -> HeadingKind {
        use HeadingKind::*;
        match (self, container) {
            (Hidden | HiddenListed | HiddenUncounted, Container::Raw) => HiddenUncounted,
            (HiddenListed, _) => Hidden,
            (Hidden | HiddenUncounted, _) => self,
            (_, Container::Raw) => Text,
            (Plain | InUpdate | Collapsed, Container::Collapses) => Collapsed,
            (Plain | InUpdate, Container::Update) => InUpdate,
            (UpdateLabel | ExpressionLabel | StepTitle | NoId | Text, Container::Collapses) => Text,
            (UpdateLabel | ExpressionLabel | StepTitle | NoId, Container::Update) => NoId,
            (Collapsed | Text, Container::Update) => self,
        }
    }

    /// The kind on a page in `mode: custom` or `frame`, where Mintlify gives headings no ids and
    /// counts none (updates and steps keep theirs).
    pub fn without_heading_ids(self) -> HeadingKind {
        match self {
            HeadingKind::Plain | HeadingKind::InUpdate => HeadingKind::NoId,
            HeadingKind::Collapsed => HeadingKind::Text,
            HeadingKind::Hidden | HeadingKind::HiddenListed => HeadingKind::HiddenUncounted,
            k => k,
        }
    }
}

/// A heading's text as the marker leaves it, its kind, and what the marker carries: the custom
/// id written for it or, for a hidden heading, its own text (marker included).
fn split_marker(text: &str) -> (String, HeadingKind, Option<String>) {
    let unmarked = || (text.to_owned(), HeadingKind::Plain, None);
    let Some(open) = text.rfind(MARK_OPEN) else {
        return unmarked();
    };
    let rest = &text[open + MARK_OPEN.len_utf8()..];
    let Some(payload) = rest.strip_suffix(MARK_CLOSE).map(str::trim_end) else {
        return unmarked();
    };
    let mut chars = payload.chars();
    let (kind, hex) = match chars.next().and_then(HeadingKind::of_letter) {
        Some(kind) => (kind, chars.as_str()),
        None => (HeadingKind::Plain, payload),
    };
    match unhex(hex) {
        Some(carried) => {
            let carried = (!hex.is_empty()).then_some(carried);
            (text[..open].trim_end().to_owned(), kind, carried)
        }
        _ => unmarked(),
    }
}

/// An ATX heading's content without its closing sequence (`## Changes ##` reads `Changes`): the
/// marker goes after the text, where a closing sequence could no longer close.
fn without_closing_sequence(line: &str) -> &str {
    let trimmed = line.trim_end_matches([' ', '\t']);
    let before_run = trimmed.trim_end_matches('#');
    let indented = line.trim_start_matches(' ');
    let opening_end =
        line.len() - indented.len() + indented.bytes().take_while(|&b| b == b'#').count();
    // A run of `#` closes when spaces or tabs come before it (and it is not the opening one).
    if before_run.len() == trimmed.len()
        || before_run.len() <= opening_end
        || !before_run.ends_with([' ', '\t'])
    {
        return line;
    }
    before_run.trim_end_matches([' ', '\t'])
}

/// `line` (a heading's line without its line ending, possibly marked already; `atx` when it
/// opens with `#`s, whose closing sequence goes) marked with the kind `kind` makes of its kind,
/// what its marker carries kept.
pub fn mark_heading_line(
    line: &str,
    atx: bool,
    kind: impl FnOnce(HeadingKind) -> HeadingKind,
) -> String {
    let (text, was, carried) = split_marker(line);
    let text = if atx && carried.is_none() && was == HeadingKind::Plain {
        without_closing_sequence(&text)
    } else {
        &text
    };
    with_marker(text, kind(was), carried.as_deref())
}

/// `text` followed by the marker of `kind` carrying `carried`.
fn with_marker(text: &str, kind: HeadingKind, carried: Option<&str>) -> String {
    let hex = hex(carried.unwrap_or_default().as_bytes());
    // A heading of no text (`##`, a hidden heading's) keeps the space that makes it one.
    let bare = text.trim_start_matches(' ');
    let space = if !bare.is_empty() && bare.bytes().all(|b| b == b'#') {
        " "
    } else {
        ""
    };
    match kind.letter() {
        None if hex.is_empty() => text.to_owned(),
        letter => format!(
            "{text}{space}{MARK_OPEN}{}{hex}{MARK_CLOSE}",
            letter.map(String::from).unwrap_or_default()
        ),
    }
}

/// The heading line a component's title makes (`## v1.2` for `<Update label="v1.2">`), with its
/// kind and the `id` the component was given, if any. `title` is Markdown already.
pub fn component_heading(level: usize, title: &str, kind: HeadingKind, id: Option<&str>) -> String {
    let line = format!("{} {title}", "#".repeat(level.clamp(1, 6)));
    with_marker(&line, kind, id)
}

/// The line that stands for a heading readers are never shown: `## ` and a marker carrying its
/// text (`heading`, its own marker included), so the ids after it count it as Mintlify does and
/// nothing of it is read.
pub fn hidden_heading(level: usize, heading: &str, kind: HeadingKind) -> String {
    component_heading(level, "", kind, Some(heading))
}

/// The text a hidden heading's marker carries (its own marker included), when `heading` is one.
pub fn hidden_text(heading: &str) -> Option<String> {
    let (_, kind, carried) = split_marker(heading);
    kind.is_hidden().then(|| carried.unwrap_or_default())
}

/// A heading the indexer writes itself, for a section the rendered page shows under a title of
/// its own making (a generated API page's fields): the section is a chunk of the page, and its
/// result links to the page, not to an anchor the page does not have.
pub fn mark_no_id(title: &str) -> String {
    with_marker(title, HeadingKind::NoId, None)
}

/// The marker of a hidden inline element's text inside a heading (`text`, as the element's
/// content reads): counted in the heading's id, never shown.
pub fn mark_hidden_inline(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    format!("{INLINE_OPEN}{}{INLINE_CLOSE}", hex(text.as_bytes()))
}

/// `text` without markers (what a heading shows; a hidden heading's text, and a hidden inline
/// element's, go with their markers).
pub fn strip_marker(text: &str) -> String {
    unmark(text, false)
}

/// What Mintlify makes a heading's id from: its text with the hidden inline elements' text
/// (which the page does not show) in place, other markers dropped.
fn id_source(text: &str) -> String {
    unmark(text, true)
}

/// `text` without markers; with `inline`, a hidden inline element's marker is replaced by the
/// text it carries. A marker that never closes stays as written.
fn unmark(text: &str, inline: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find([MARK_OPEN, INLINE_OPEN]) {
        out.push_str(&rest[..open]);
        let opener = rest[open..].chars().next().unwrap_or(MARK_OPEN);
        let closer = if opener == MARK_OPEN {
            MARK_CLOSE
        } else {
            INLINE_CLOSE
        };
        let after = &rest[open + opener.len_utf8()..];
        match after.find(closer) {
            Some(close) => {
                if inline && opener == INLINE_OPEN {
                    out.push_str(&unhex(&after[..close]).unwrap_or_default());
                }
                rest = &after[close + closer.len_utf8()..];
            }
            None => {
                out.push(opener);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// One heading as the page renders it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedHeading {
    /// Its text as it reads (no marker; empty for a hidden heading).
    pub text: String,
    /// Its element id: `None` where it has none (levels 5 and 6, the kinds that render none:
    /// [`HeadingKind::NoId`], [`HeadingKind::Text`], hidden ones), `Some("")` for an empty one (an
    /// emoji alone): no anchor to link to either way.
    pub id: Option<String>,
    /// Whether it starts a section of its own (at levels 2 and 3): shown, not in collapsed content.
    pub section: bool,
    /// Whether readers see it: a hidden heading is counted, never shown.
    pub shown: bool,
}

/// The ids of one page's headings, in document order, as Mintlify's two passes give them:
/// `remarkComponentIds` names every Markdown heading with `@sindresorhus/slugify`'s counter
/// (`slugifyWithCounter`), hidden ones included, then `remarkExtractTableOfContents`
/// deduplicates those, custom ids, updates' labels and steps' titles together
/// (`deduplicateSlug`), leaving out what sits inside accordions, expandables, prompts, updates
/// and `<Visibility for="agents">`.
#[derive(Default)]
pub struct HeadingIds {
    /// `slugifyWithCounter`'s occurrences, by lower-cased slug.
    occurrences: HashMap<String, usize>,
    /// `deduplicateSlug`'s seen slugs.
    seen: HashMap<String, usize>,
    /// The last suffix given to each slug: every suffix from its repeat count up to it is taken,
    /// so the next search starts past it (the same ids, in linear time: `a-2` … `a-30000` written
    /// first cost thirty thousand probes for each later `a` otherwise).
    last_suffix: HashMap<String, usize>,
}

impl HeadingIds {
    /// The next heading, of `level` with `text` (its marker included).
    pub fn next(&mut self, level: u8, text: &str) -> RenderedHeading {
        let (text, kind, carried) = split_marker(text);
        // An empty marker the converter put before a line's text (a setext heading's) is none of
        // its words; a hidden inline element's text is in the id only.
        let source = id_source(&text);
        let text = match text.contains(INLINE_OPEN) {
            // The space before or after the hidden element's text is the shown text's.
            true => crate::chunk::collapse_whitespace(&strip_marker(&text)),
            false => strip_marker(&text),
        };
        if kind.is_hidden() {
            if (1..=4).contains(&level) && kind != HeadingKind::HiddenUncounted {
                let (own, _, custom) = split_marker(carried.as_deref().unwrap_or_default());
                let own = id_source(&own);
                // A custom id's heading is an `<h2 id>`: the counter never sees it.
                let counted = custom.is_none().then(|| self.count(slug(&own)));
                if kind == HeadingKind::HiddenListed {
                    self.listed(&own, custom, counted);
                }
            }
            return RenderedHeading {
                text: String::new(),
                id: None,
                section: false,
                shown: false,
            };
        }
        let section = !matches!(kind, HeadingKind::Collapsed | HeadingKind::Text);
        let rendered = |id: Option<String>| RenderedHeading {
            text: text.clone(),
            id,
            section,
            shown: true,
        };
        let labelled = matches!(
            kind,
            HeadingKind::UpdateLabel | HeadingKind::ExpressionLabel | HeadingKind::StepTitle
        );
        if !labelled && !(1..=4).contains(&level) {
            return rendered(None);
        }
        let id = match kind {
            HeadingKind::NoId | HeadingKind::Text => None,
            // `<h2 id>` (a custom id) is no Markdown heading: the counter never sees it.
            HeadingKind::Plain => {
                let counted = carried.is_none().then(|| self.count(slug(&source)));
                Some(self.listed(&source, carried, counted))
            }
            // A component's `id` is only cleaned (`safeCleanHeadingId`); its title is the id's
            // source when it has none, and a label only JavaScript knows is none.
            HeadingKind::UpdateLabel | HeadingKind::ExpressionLabel | HeadingKind::StepTitle => {
                let explicit = carried.map(|c| clean(&c)).unwrap_or_default();
                let base = match (explicit.is_empty(), kind) {
                    (false, _) => explicit,
                    (true, HeadingKind::ExpressionLabel) => String::new(),
                    (true, _) => slug(&source),
                };
                Some(clean(&self.dedupe(base)))
            }
            HeadingKind::Collapsed | HeadingKind::InUpdate => Some(match carried {
                None => clean(&self.count(slug(&source))),
                // A custom id inside an accordion or update: its element keeps the id as written.
                Some(custom) => normalize_custom(&custom),
            }),
            HeadingKind::Hidden | HeadingKind::HiddenListed | HeadingKind::HiddenUncounted => None,
        };
        rendered(id)
    }

    /// The table of contents' id of a heading: its custom id (`{#id}`) or what the counter gave
    /// it, cleaned, deduplicated, cleaned as the `Heading` element renders it.
    fn listed(&mut self, text: &str, custom: Option<String>, counted: Option<String>) -> String {
        let explicit = match (custom, counted) {
            (Some(custom), _) => clean(&normalize_custom(&custom)),
            (None, Some(counted)) => clean(&counted),
            (None, None) => String::new(),
        };
        let base = if explicit.is_empty() {
            slug(text)
        } else {
            explicit
        };
        clean(&self.dedupe(base))
    }

    /// `slugifyWithCounter` (`@sindresorhus/slugify` 2.2.0) on a slug: the second `x` is `x-2`,
    /// and a slug whose number-less form was seen more than twice takes its own count
    /// (`x-3` after three `x` is `x-3-1`).
    fn count(&mut self, slug: String) -> String {
        if slug.is_empty() {
            return slug;
        }
        let lower = slug.to_lowercase();
        let numberless = self
            .occurrences
            .get(without_number_suffix(&lower))
            .copied()
            .unwrap_or(0);
        let counter = self.occurrences.entry(lower).or_insert(0);
        *counter += 1;
        if *counter >= 2 || numberless > 2 {
            format!("{slug}-{counter}")
        } else {
            slug
        }
    }

    /// `deduplicateSlug`: a slug seen before takes the first free `-2`, `-3`, ….
    fn dedupe(&mut self, slug: String) -> String {
        let count = self.seen.entry(slug.clone()).or_insert(0);
        *count += 1;
        if *count == 1 {
            return slug;
        }
        let mut suffix = (*count).max(self.last_suffix.get(&slug).map_or(0, |s| s + 1));
        let mut candidate = format!("{slug}-{suffix}");
        while self.seen.contains_key(&candidate) {
            suffix += 1;
            candidate = format!("{slug}-{suffix}");
        }
        self.seen.insert(candidate.clone(), 1);
        self.last_suffix.insert(slug, suffix);
        candidate
    }
}

/// `s.replace(/(?:-\d+?)+?$/, '')`: without the run of `-<digits>` groups that ends it.
fn without_number_suffix(s: &str) -> &str {
    let mut end = s.len();
    loop {
        let head = &s[..end];
        let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 || !head[..end - digits].ends_with('-') {
            return head;
        }
        end -= digits + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> serde_json::Value {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/mintlify-heading-ids.json"
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn heading_ids_are_mintlifys() {
        let f = fixture();
        let titles = f["titles"].as_array().unwrap();
        assert!(
            titles.len() > 1000,
            "the fixture holds the real sites' headings"
        );
        let mut wrong = Vec::new();
        for t in titles {
            let (title, want) = (t[0].as_str().unwrap(), t[1].as_str().unwrap());
            let got = HeadingIds::default().next(2, title).id.unwrap();
            if got != want {
                wrong.push(format!("{title:?}: {got:?}, Mintlify {want:?}"));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {}:\n{}",
            wrong.len(),
            titles.len(),
            wrong.join("\n")
        );
    }

    /// Pages of Markdown headings (repeats, custom ids, emoji, levels), read line by line as the
    /// converter passes them on, against the ids Mintlify's remark pipeline gives them
    /// (`fixtures/mintlify-heading-anchors.json`, `scripts/mintlify-heading-anchors.mjs`).
    #[test]
    fn page_ids_are_mintlifys() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/");
        let anchors: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{root}mintlify-heading-anchors.json")).unwrap(),
        )
        .unwrap();
        let pages = ["repeats", "levels", "custom-ids"]
            .into_iter()
            .map(String::from)
            .chain((1..=8).map(|i| format!("customs/case-{i}")));
        for page in pages {
            let file = format!("{root}heading-anchor-cases/{page}.mdx");
            let mut ids = HeadingIds::default();
            let mut got = Vec::new();
            for line in std::fs::read_to_string(&file).unwrap().lines() {
                let line = mark_custom_id(line).unwrap_or_else(|| line.to_owned());
                let level = line.bytes().take_while(|&b| b == b'#').count();
                if level == 0 || level > 6 || !line[level..].starts_with(' ') {
                    continue;
                }
                if let Some(id) = ids.next(level as u8, line[level..].trim()).id {
                    got.push(id);
                }
            }
            let want: Vec<String> = (anchors["heading-anchor-cases"][format!("/{page}.mdx")]
                .as_array())
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
            assert_eq!(got, want, "{page}");
        }
    }

    /// The remembered suffix gives the slugs the plain search gives (`deduplicateSlug`), on pages
    /// that write suffixed slugs before, between and after their repeats.
    #[test]
    fn remembered_suffixes_give_mintlifys_ids() {
        fn plain(titles: &[&str]) -> Vec<String> {
            let mut seen: HashMap<String, usize> = HashMap::new();
            titles
                .iter()
                .map(|t| {
                    let slug = slug(t);
                    let count = seen.get(&slug).copied().unwrap_or(0);
                    seen.insert(slug.clone(), count + 1);
                    if count == 0 {
                        return slug;
                    }
                    let mut n = count + 1;
                    while seen.contains_key(&format!("{slug}-{n}")) {
                        n += 1;
                    }
                    let c = format!("{slug}-{n}");
                    seen.insert(c.clone(), 1);
                    c
                })
                .collect()
        }
        let pages: [&[&str]; 3] = [
            &["a-2", "a-3", "a", "a", "a", "a-5", "a", "a", "a-2", "a"],
            &[
                "a", "a-3", "a", "a", "a-4", "a", "b", "a-2", "a", "a-7", "a",
            ],
            &["x", "x", "x-2", "x-2", "x", "x-3", "x", "x-2-2", "x-2", "x"],
        ];
        for titles in pages {
            let mut ids = HeadingIds::default();
            let got: Vec<String> = titles.iter().map(|t| ids.dedupe(slug(t))).collect();
            assert_eq!(got, plain(titles), "{titles:?}");
        }
    }

    #[test]
    fn custom_id_lines_as_mintlify_reads_them() {
        assert!(mark_custom_id("## Install {#setup}").is_some());
        assert!(mark_custom_id("    ## Indented {#code}").is_none());
        assert!(mark_custom_id("## GET /users/{id}").is_none());
        assert!(mark_custom_id("####### Seven {#x}").is_none());
        assert!(mark_custom_id("## {#only-an-id}").is_none());
        // The last `{#…}` that ends the line is the id; the text keeps the rest.
        let line = mark_custom_id("## A {#b} and {#c}").unwrap();
        let h = HeadingIds::default().next(2, line.trim_start_matches("## "));
        assert_eq!(
            (h.text.as_str(), h.id.as_deref()),
            ("A {#b} and", Some("c"))
        );
        // Levels 5 and 6 take no id, and count for no `-2`.
        let mut ids = HeadingIds::default();
        assert_eq!(ids.next(5, "Setup").id, None);
        assert_eq!(ids.next(2, "Setup").id.as_deref(), Some("setup"));
        assert_eq!(ids.next(4, "Setup").id.as_deref(), Some("setup-2"));
        // A marker that does not decode is no text either (no marker character is ever shown).
        assert_eq!(ids.next(2, "x\u{FDD0}zz\u{FDD1}").text, "x");
        // A custom id whose hex starts with a letter that names a kind is still a custom id.
        let line = mark_custom_id("## E {#émoji}").unwrap();
        let h = HeadingIds::default().next(2, line.trim_start_matches("## "));
        assert_eq!(
            (h.text.as_str(), h.id.as_deref(), h.section),
            ("E", Some("émoji"), true)
        );
    }

    #[test]
    fn kinds_nest_most_hidden_first() {
        use HeadingKind::*;
        let marked = mark_heading_line("Title", false, |k| k.within(Container::Update));
        let marked = mark_heading_line(&marked, false, |k| k.within(Container::Collapses));
        let h = HeadingIds::default().next(2, &marked);
        assert_eq!((h.text.as_str(), h.section), ("Title", false));
        assert_eq!(Collapsed.within(Container::Update), Collapsed);
        assert_eq!(UpdateLabel.within(Container::Update), NoId);
        assert_eq!(StepTitle.within(Container::Collapses), Text);
        assert_eq!(Plain.within(Container::Raw), Text);
        assert_eq!(Hidden.within(Container::Raw), HiddenUncounted);
        assert_eq!(HiddenListed.within(Container::Collapses), Hidden);
        assert_eq!(Plain.without_heading_ids(), NoId);
        assert_eq!(UpdateLabel.without_heading_ids(), UpdateLabel);
        // A custom id survives a kind.
        let line = mark_custom_id("## In {#kept}").unwrap();
        let marked = mark_heading_line(line.trim_start_matches("## "), false, |k| {
            k.within(Container::Update)
        });
        let h = HeadingIds::default().next(2, &marked);
        assert_eq!(
            (h.text.as_str(), h.id.as_deref(), h.section),
            ("In", Some("kept"), true)
        );
        // The indexer's own headings link nowhere and count for nothing.
        let mut ids = HeadingIds::default();
        assert_eq!(ids.next(2, &mark_no_id("Response")).id, None);
        assert_eq!(ids.next(2, "Response").id.as_deref(), Some("response"));
        // A hidden heading shows nothing and counts: the visible `Setup` after it is `setup-2`.
        let hidden = hidden_heading(2, "Setup", Hidden);
        let h = ids.next(2, hidden.trim_start_matches("## "));
        assert_eq!(
            (h.text.as_str(), h.id, h.shown, h.section),
            ("", None, false, false)
        );
        assert!(strip_marker(&hidden)
            .trim_start_matches('#')
            .trim()
            .is_empty());
        assert_eq!(ids.next(2, "Setup").id.as_deref(), Some("setup-2"));
        // Marked again (inside a component), it stays a heading line.
        let again = mark_heading_line(&hidden, true, |k| k);
        assert!(again.starts_with("## \u{FDD0}g"), "{again:?}");
        // A closing sequence goes before the marker.
        let line = mark_heading_line("## Changes ##", true, |k| k.within(Container::Update));
        assert!(line.starts_with("## Changes\u{FDD0}"), "{line}");
        assert_eq!(without_closing_sequence("## C#"), "## C#");
        assert_eq!(without_closing_sequence("##"), "##");
        assert_eq!(without_closing_sequence("## a \\#"), "## a \\#");
    }
}
