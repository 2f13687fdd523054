//! One JSX or HTML tag of an MDX page: where it ends, its name and attributes, and whether readers
//! ever see what it wraps.

use std::collections::BTreeSet;

use super::js::skip_balanced;
use crate::heading_id::js_space;

/// The index after the `>` that closes the tag starting at `start` (quotes and `{}` respected), or
/// `None` when it never closes.
pub(super) fn tag_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    let mut quote: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' | b'\'' => quote = Some(c),
            b'{' => {
                i = skip_balanced(b, i)?;
                continue;
            }
            b'>' => return Some(i + 1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// An attribute's value as JSX gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum AttrValue {
    /// Quoted, or one string literal in braces.
    Text(String),
    /// Any other expression, braces removed (`hidden={true}`); a bare key (`hidden`) is `true`.
    Expr(String),
}

/// The longest HTML tag a Markdown page's text is searched for (a longer one is text): each `<`
/// costs at most this much, however the page is written.
const MAX_HTML_TAG: usize = 8 << 10;

/// The length of the HTML open or closing tag at the start of `rest`, as CommonMark recognises
/// raw HTML in a Markdown page: `<name` (a letter, then letters, digits and `-`), attributes
/// (`name`, `name=value`, `name='v'`, `name="v"`), optional `/`, then `>`; or `</name>`.
pub(super) fn html_tag_len(rest: &str) -> Option<usize> {
    let b = &rest.as_bytes()[..rest.len().min(MAX_HTML_TAG)];
    let mut i = 1;
    let closing = b.get(i) == Some(&b'/');
    i += usize::from(closing);
    if !b.get(i)?.is_ascii_alphabetic() {
        return None;
    }
    while b
        .get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'-')
    {
        i += 1;
    }
    let skip_ws = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    if closing {
        i = skip_ws(i);
        return (b.get(i) == Some(&b'>')).then_some(i + 1);
    }
    loop {
        let j = skip_ws(i);
        match b.get(j)? {
            b'>' => return Some(j + 1),
            b'/' => return (b.get(j + 1) == Some(&b'>')).then_some(j + 2),
            c if j > i && (c.is_ascii_alphabetic() || *c == b'_' || *c == b':') => {
                i = j;
                while b
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || b"_.:-".contains(c))
                {
                    i += 1;
                }
                let k = skip_ws(i);
                if b.get(k) != Some(&b'=') {
                    continue;
                }
                i = skip_ws(k + 1);
                match *b.get(i)? {
                    q @ (b'"' | b'\'') => {
                        i += 1 + b[i + 1..].iter().position(|&c| c == q)? + 1;
                    }
                    _ => {
                        let start = i;
                        while b
                            .get(i)
                            .is_some_and(|c| !c.is_ascii_whitespace() && !b"\"'=<>`".contains(c))
                        {
                            i += 1;
                        }
                        if i == start {
                            return None;
                        }
                    }
                }
            }
            _ => return None,
        }
    }
}

pub(super) struct Tag {
    pub name: String,
    pub closing: bool,
    /// `<br />`: the element ends with its tag and wraps nothing.
    pub self_closing: bool,
    /// In the order written (JSX keeps the last of a key written twice).
    pub attrs: Vec<(String, AttrValue)>,
    /// For each of `attrs`, how its value is written: a quoted string (`title="x"`, not
    /// `title={"x"}`) is what Mintlify's own plugins read as a string (`getStringAttribute`).
    written: Vec<Written>,
}

/// How an attribute's value is written in the tag.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Written {
    Quoted,
    /// `{…}`: the source between the braces, as written (untrimmed).
    Braced(String),
    /// A key alone (`noAnchor`).
    Bare,
}

/// The byte length of the whitespace character (JavaScript's: a no-break space too) at `i`, or 0.
fn whitespace_at(s: &str, i: usize) -> usize {
    s.get(i..)
        .and_then(|r| r.chars().next())
        .filter(|c| c.is_whitespace())
        .map_or(0, char::len_utf8)
}

pub(super) fn parse_tag(tag: &str) -> Tag {
    let inner = tag.trim_start_matches('<').trim_end_matches('>');
    let self_closing = inner.trim_end().ends_with('/');
    let inner = inner.trim_end_matches('/');
    let closing = inner.starts_with('/');
    // `</ div>`: JSX allows whitespace after the slash.
    let inner = inner.trim_start_matches('/').trim_start();
    let name_end = inner
        .find(|c: char| c.is_whitespace())
        .unwrap_or(inner.len());
    let name = inner[..name_end].to_owned();
    let mut attrs = Vec::new();
    let mut written = Vec::new();
    let rest = &inner[name_end..];
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        loop {
            match whitespace_at(rest, i) {
                0 => break,
                w => i += w,
            }
        }
        let key_start = i;
        while i < b.len() && whitespace_at(rest, i) == 0 && b[i] != b'=' {
            if b[i] == b'{' {
                i = skip_balanced(b, i).unwrap_or(b.len());
            } else {
                i += 1;
            }
        }
        let key = rest[key_start..i].to_owned();
        if i < b.len() && b[i] == b'=' {
            i += 1;
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                let q = b[i];
                let vs = i + 1;
                let mut j = vs;
                while j < b.len() && b[j] != q {
                    j += 1;
                }
                written.push(Written::Quoted);
                attrs.push((key, AttrValue::Text(rest[vs..j.min(b.len())].to_owned())));
                i = j + 1;
            } else if i < b.len() && b[i] == b'{' {
                let end = skip_balanced(b, i).unwrap_or(b.len());
                // `{…}` without its closing brace (the tag runs to the end) ends at `end`, which
                // may follow a multi-byte character: never slice inside one.
                let inner_end = if b.get(end.wrapping_sub(1)) == Some(&b'}') && end > i + 1 {
                    end - 1
                } else {
                    end
                };
                let raw = rest.get(i + 1..inner_end).unwrap_or("");
                let expr = raw.trim();
                // A string literal in braces is still text: title={"Quick start"}. Any other
                // expression (`{'a' ? 'b' : 'c'}`) renders what only JavaScript knows: no text.
                let value = match string_literal(expr) {
                    Some(lit) => AttrValue::Text(lit.to_owned()),
                    None => AttrValue::Expr(expr.to_owned()),
                };
                written.push(Written::Braced(raw.to_owned()));
                attrs.push((key, value));
                i = end;
            } else {
                while i < b.len() && whitespace_at(rest, i) == 0 {
                    i += 1;
                }
            }
        } else if !key.is_empty() {
            written.push(Written::Bare);
            attrs.push((key, AttrValue::Expr("true".into())));
        }
    }
    Tag {
        name,
        closing,
        self_closing,
        attrs,
        written,
    }
}

/// The components Mintlify renders (`allowedComponents` in `@mintlify/common`'s `mdx/utils.js`,
/// its capitalized names), and `Snippet`, which its build replaces with the snippet's content
/// first. A block of any other capitalized name that the page neither imports nor exports is
/// removed with its content (`remarkMdxRemoveUnknownJsx`).
pub const MINTLIFY_COMPONENTS: &[&str] = &[
    "ApiPlayground",
    "Accordion",
    "AccordionGroup",
    "Badge",
    "Callout",
    "CodeGroup",
    "CodeBlock",
    "Color",
    "Color.Row",
    "Color.Item",
    "CustomCode",
    "CustomComponent",
    "DynamicCustomComponent",
    "Danger",
    "Tile",
    "Tree",
    "Tree.Folder",
    "Tree.File",
    "FileTree",
    "SnippetGroup",
    "Panel",
    "RequestExample",
    "ResponseExample",
    "Param",
    "ParamField",
    "Prompt",
    "Card",
    "CardGroup",
    "Columns",
    "Column",
    "Expandable",
    "Frame",
    "GitHub",
    "GitHub.Repo",
    "Github",
    "Github.Repo",
    "Heading",
    "Info",
    "Icon",
    "MDX",
    "Link",
    "MDXContentController",
    "ResponseField",
    "Warning",
    "Note",
    "Tip",
    "Check",
    "Tabs",
    "Tab",
    "Tooltip",
    "Latex",
    "Step",
    "Steps",
    "Update",
    "ZoomImage",
    "OptimizedVideo",
    "Mermaid",
    "Variation",
    "Visibility",
    "View",
    "Snippet",
];

/// HTML elements that never have content (`<br>`, `<img>`): a `hidden` on one wraps nothing. MDX
/// has no void elements: `<br>` without its `/` opens an element that never closes.
pub(super) const VOID_ELEMENTS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// Tailwind's display utilities, which a variant (`md:block`, `dark:flex`) uses to show what a
/// plain `hidden` class hides.
const DISPLAY_CLASSES: &[&str] = &[
    "block",
    "inline-block",
    "inline",
    "flex",
    "inline-flex",
    "table",
    "inline-table",
    "table-caption",
    "table-cell",
    "table-column",
    "table-column-group",
    "table-footer-group",
    "table-header-group",
    "table-row-group",
    "table-row",
    "flow-root",
    "grid",
    "inline-grid",
    "contents",
    "list-item",
];

/// JavaScript's falsy literals: `hidden={false}` (or `null`, `0`, …) renders no `hidden`.
fn falsy(expr: &str) -> bool {
    matches!(
        expr.trim(),
        "false" | "null" | "undefined" | "0" | "-0" | "NaN" | "\"\"" | "''" | "``"
    )
}

/// Whether a class list hides the element on a screen: Tailwind's `hidden`, `invisible` or
/// `collapse`, or an arbitrary property that does (`[display:none]`, `[visibility:hidden]`), with
/// no variant that shows it again (`hidden md:block`; a `print:` variant shows it on paper only).
/// Mintlify builds each page's Tailwind classes into its CSS.
fn hiding_classes(classes: &str) -> bool {
    let tokens = || {
        classes
            .split_whitespace()
            .map(|t| t.trim_start_matches('!'))
    };
    let shown_again = |shows: &dyn Fn(&str) -> bool| {
        tokens().any(|t| {
            variant_and_utility(t)
                .is_some_and(|(variant, util)| !variant.starts_with("print") && shows(util))
        })
    };
    // `[display:none]` as `display:none`: brackets, `_` (Tailwind's space) and `!` dropped.
    let arbitrary = |u: &str| -> Option<String> {
        let inner = u
            .trim_start_matches('!')
            .strip_prefix('[')?
            .strip_suffix(']')?;
        Some(
            inner
                .chars()
                .filter(|c| !matches!(c, '_' | ' ' | '!'))
                .collect::<String>()
                .to_ascii_lowercase()
                .replace("important", ""),
        )
    };
    let display = |u: &str| {
        DISPLAY_CLASSES.contains(&u.trim_start_matches('!'))
            || arbitrary(u).is_some_and(|d| d.starts_with("display:") && d != "display:none")
    };
    let visible = |u: &str| {
        u.trim_start_matches('!') == "visible"
            || arbitrary(u).is_some_and(|d| d == "visibility:visible")
    };
    let no_display = |t: &str| t == "hidden" || arbitrary(t).is_some_and(|d| d == "display:none");
    let no_visibility = |t: &str| {
        matches!(t, "invisible" | "collapse")
            || arbitrary(t).is_some_and(|d| d == "visibility:hidden" || d == "visibility:collapse")
    };
    (tokens().any(no_display) && !shown_again(&display))
        || (tokens().any(no_visibility) && !shown_again(&visible))
}

/// A Tailwind class's variants and utility (`md:block` is `md` and `block`, `md:[display:block]`
/// is `md` and `[display:block]`): split at the last `:` outside brackets; `None` without a variant.
fn variant_and_utility(class: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    let mut split = None;
    for (i, c) in class.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ':' if depth == 0 => split = Some(i),
            _ => {}
        }
    }
    split.map(|i| (&class[..i], &class[i + 1..]))
}

/// A style's declarations in order, as (property, value): comments dropped; `;` (and, in a JSX
/// object, `,`) separate them only outside quotes, parentheses and brackets. A property is named
/// by its letters and digits, lower-cased (`content-visibility` and `contentVisibility` are one).
fn style_declarations(style: &str) -> Vec<(String, String)> {
    let mut pieces = Vec::new();
    let mut piece = String::new();
    let mut quote: Option<char> = None;
    let mut depth = 0i32;
    let mut chars = style.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            piece.push(c);
            if c == '\\' {
                piece.extend(chars.next());
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut star = false;
                for d in chars.by_ref() {
                    if star && d == '/' {
                        break;
                    }
                    star = d == '*';
                }
                piece.push(' ');
            }
            '"' | '\'' | '`' => {
                quote = Some(c);
                piece.push(c);
            }
            '(' | '[' => {
                depth += 1;
                piece.push(c);
            }
            ')' | ']' => {
                depth -= 1;
                piece.push(c);
            }
            ';' | ',' if depth <= 0 => pieces.push(std::mem::take(&mut piece)),
            _ => piece.push(c),
        }
    }
    pieces.push(piece);
    (pieces.iter())
        .filter_map(|d| d.split_once(':'))
        .map(|(p, v)| {
            let property = (p.chars())
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_ascii_lowercase();
            let value = (v.chars())
                .filter(|c| !matches!(c, '"' | '\'' | '`' | '{' | '}'))
                .collect::<String>()
                .to_ascii_lowercase();
            (
                property,
                value.split_whitespace().collect::<Vec<_>>().join(" "),
            )
        })
        .collect()
}

/// CSS's keywords every property takes.
const CSS_GLOBAL: &[&str] = &["inherit", "initial", "revert", "revert-layer", "unset"];
/// The words of a `display` value that shows (one or two of them: `block`, `inline flex`).
const DISPLAY_WORDS: &[&str] = &[
    "block",
    "inline",
    "run-in",
    "flow",
    "flow-root",
    "table",
    "flex",
    "grid",
    "ruby",
    "math",
    "list-item",
    "contents",
    "inline-block",
    "inline-flex",
    "inline-grid",
    "inline-table",
    "table-row",
    "table-cell",
    "table-row-group",
    "table-header-group",
    "table-footer-group",
    "table-column",
    "table-column-group",
    "table-caption",
    "ruby-text",
    "ruby-base",
];

/// Whether a style hides the element: the `display: none` (or `visibility: hidden`/`collapse`,
/// `content-visibility: hidden`) declaration that wins the cascade: the last valid one, or the
/// last valid `!important` one (in a JSX object, the last key). A value that may hide (a
/// JavaScript condition that can give `none`) counts as hiding; one a browser drops (empty, not a
/// keyword of the property) does not take part.
fn hiding_style(style: &str) -> bool {
    let declarations = style_declarations(style);
    let hides = |property: &str, hiding: &[&str], showing: &dyn Fn(&str) -> bool| {
        let valid: Vec<(bool, bool)> = (declarations.iter())
            .filter(|(p, _)| p == property)
            .filter_map(|(_, v)| {
                let (v, important) = match v.strip_suffix("!important") {
                    Some(v) => (v.trim_end(), true),
                    None => (v.as_str(), false),
                };
                let hides = hiding.iter().any(|h| v.contains(h));
                let shows = CSS_GLOBAL.contains(&v) || showing(v);
                (hides || shows).then_some((hides, important))
            })
            .collect();
        let winner =
            (valid.iter().rev().find(|(_, important)| *important)).or_else(|| valid.last());
        winner.is_some_and(|(hides, _)| *hides)
    };
    let display = |v: &str| {
        let words: Vec<&str> = v.split(' ').collect();
        words.len() <= 2 && words.iter().all(|w| DISPLAY_WORDS.contains(w))
    };
    hides("display", &["none"], &display)
        || hides("visibility", &["hidden", "collapse"], &|v| v == "visible")
        || hides("contentvisibility", &["hidden"], &|v| {
            matches!(v, "visible" | "auto")
        })
}

impl Tag {
    /// The value JSX gives `key`: the last one written.
    /// The value of `key` when it is a quoted string (the last `key` written, as JSX keeps):
    /// what Mintlify's plugins read as a string attribute.
    pub(super) fn literal(&self, key: &str) -> Option<&str> {
        let i = self.attrs.iter().rposition(|(k, _)| k == key)?;
        match &self.attrs[i].1 {
            AttrValue::Text(t) if self.written.get(i) == Some(&Written::Quoted) => Some(t),
            _ => None,
        }
    }

    /// Whether some `key` is written as Mintlify's plugins test a flag, comparing its raw value
    /// with `true`: alone (`noAnchor`), `"true"`, or `{true}` exactly (`{ true }` and
    /// `{"true"}` are not).
    pub(super) fn raw_flag(&self, key: &str) -> bool {
        (self.attrs.iter().zip(&self.written)).any(|((k, v), written)| {
            k == key
                && match written {
                    Written::Bare => true,
                    Written::Quoted => matches!(v, AttrValue::Text(t) if t == "true"),
                    Written::Braced(raw) => raw == "true",
                }
        })
    }

    pub(super) fn value(&self, key: &str, any_case: bool) -> Option<&AttrValue> {
        (self.attrs.iter().rev())
            .find(|(k, _)| k == key || (any_case && k.eq_ignore_ascii_case(key)))
            .map(|(_, v)| v)
    }

    /// Whether this opens (or, self-closing, is) a component Mintlify removes with its content and
    /// attributes where it stands as a block: a capitalized name that is none of
    /// [`MINTLIFY_COMPONENTS`] and that the page does not define (`defined`: the names its imports
    /// and exports bind; `Foo.Bar` is defined with `Foo`).
    pub(super) fn unknown_component(&self, defined: &BTreeSet<String>) -> bool {
        let name = self.name.as_str();
        !self.closing
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && !MINTLIFY_COMPONENTS.contains(&name)
            && !defined.contains(name)
            && !defined.contains(name.split('.').next().unwrap_or(name))
    }

    /// The tag as HTML reads it in a Markdown page: names without regard to case (`<Visibility>`
    /// kept as MDX reads it, the most restrictive reading), no expressions (`hidden={false}` is
    /// text, and hides) and no `className`.
    pub(super) fn read_as_html(mut self) -> Tag {
        self.name = match self.name.eq_ignore_ascii_case("visibility") {
            true => "Visibility".into(),
            false => self.name.to_ascii_lowercase(),
        };
        // HTML's class is `class` (in any case); a `className` is some other attribute.
        let kept: Vec<bool> = self.attrs.iter().map(|(k, _)| k != "className").collect();
        let mut keep = kept.iter();
        self.attrs.retain(|_| *keep.next().unwrap_or(&true));
        let mut keep = kept.iter();
        self.written.retain(|_| *keep.next().unwrap_or(&true));
        for (_, value) in &mut self.attrs {
            if let AttrValue::Expr(e) = value {
                *value = AttrValue::Text(std::mem::take(e));
            }
        }
        self
    }

    /// Attribute values that are text, in order (what `convert_tag` may show).
    pub(super) fn texts(&self) -> impl Iterator<Item = (&str, &str)> {
        self.attrs.iter().filter_map(|(k, v)| match v {
            AttrValue::Text(t) => Some((k.as_str(), t.as_str())),
            AttrValue::Expr(_) => None,
        })
    }

    /// Why the rendered page never shows what this opening tag wraps, or `None` when it does:
    /// - `<Visibility for="agents">` (Mintlify shows it only in the Markdown export); an audience
    ///   other than `"humans"`, or one only JavaScript knows, is not understood and withholds;
    /// - `<template>` and `<noscript>` (Mintlify's pages run scripts);
    /// - an HTML element with `hidden` (any text; React writes `hidden="until-found"` as a plain
    ///   `hidden`), or `hidden={…}` other than a falsy literal; with `display: none` or
    ///   `visibility: hidden` in its style (a condition that may give them included); or with
    ///   Tailwind's `hidden` or `invisible` class and no variant that shows it again.
    ///
    /// A component's own props (`<Accordion hidden>`) are the component's business: its text is
    /// kept, as Mintlify's components show it.
    pub(super) fn hidden_content(&self) -> Option<&'static str> {
        if self.closing || self.self_closing {
            return None;
        }
        if self.name == "Visibility" {
            // Mintlify's `resolveVisibilityFor` reads the first `for`, React renders the last:
            // shown only when every `for` is exactly `humans` (a space makes it not understood,
            // and hidden from humans).
            let fors: Vec<&AttrValue> = (self.attrs.iter())
                .filter(|(k, _)| k == "for")
                .map(|(_, v)| v)
                .collect();
            let all = |word: &str| {
                !fors.is_empty()
                    && fors
                        .iter()
                        .all(|v| matches!(v, AttrValue::Text(t) if t == word))
            };
            return if all("humans") {
                None
            } else if all("agents") {
                Some("`<Visibility for=\"agents\">` is not shown on the page")
            } else {
                Some("a `<Visibility>` audience other than \"humans\" or \"agents\" is not understood, so its content is withheld")
            };
        }
        if !self.name.starts_with(|c: char| c.is_ascii_lowercase())
            || VOID_ELEMENTS.contains(&self.name.as_str())
        {
            return None;
        }
        if matches!(self.name.as_str(), "template" | "noscript") {
            return Some("`<template>` and `<noscript>` content is not shown on the page");
        }
        // A dialog shows only while `open` (the browser's own style hides it; only a script opens
        // one that is written closed).
        let open = match self.value("open", true) {
            Some(AttrValue::Text(_)) => true,
            Some(AttrValue::Expr(e)) => !falsy(e),
            None => false,
        };
        if self.name == "dialog" && !open {
            return Some("a `<dialog>` without `open` is not shown on the page");
        }
        // HTML reads attribute names without regard to case.
        let hidden_attr = match self.value("hidden", true) {
            Some(AttrValue::Text(_)) => true,
            Some(AttrValue::Expr(e)) => !falsy(e),
            None => false,
        };
        // Literals joined are the string JavaScript makes (`{"hid" + "den"}` is `hidden`); any
        // other expression's string pieces are read as classes too: `{"hidden " + x}` may hide.
        let text = |v: &AttrValue| match v {
            AttrValue::Text(t) => t.clone(),
            AttrValue::Expr(e) => joined_string_literals(e).unwrap_or_else(|| {
                e.replace(
                    ['"', '\'', '`', '+', '(', ')', '{', '}', '$', '?', ','],
                    " ",
                )
            }),
        };
        let style = match self.value("style", true) {
            Some(AttrValue::Text(t) | AttrValue::Expr(t)) => t.as_str(),
            None => "",
        };
        let classes = (self.value("className", false))
            .or_else(|| self.value("class", true))
            .map(text)
            .unwrap_or_default();
        if hidden_attr || hiding_style(style) || hiding_classes(&classes) {
            return Some(
                "an HTML element hidden by `hidden`, its style or its class is not shown on the page",
            );
        }
        // A style or class only JavaScript knows (`style={hide}`, `{{...base}}`,
        // `className={cls}`) may hide: not understood, it withholds.
        let unknown_style = match self.value("style", true) {
            Some(AttrValue::Expr(e)) if e != "true" => {
                !(e.starts_with('{') && e.ends_with('}')) || outside_strings(e).contains("...")
            }
            _ => false,
        };
        let unknown_class = match self
            .value("className", false)
            .or_else(|| self.value("class", true))
        {
            Some(AttrValue::Expr(e)) if e != "true" => joined_string_literals(e).is_none(),
            _ => false,
        };
        (unknown_style || unknown_class).then_some(
            "an HTML element whose style or class only JavaScript knows is not understood, so its content is withheld",
        )
    }
}

pub(super) fn is_block_tag(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        || matches!(
            name,
            "div" | "p" | "br" | "table" | "tr" | "li" | "ul" | "ol" | "section"
        )
}

/// A JavaScript expression without its string literals' text (`{a: "x..."}` has no spread).
fn outside_strings(expr: &str) -> String {
    let mut out = String::with_capacity(expr.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in expr.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None => out.push(c),
        }
    }
    out
}

/// The text of a JavaScript expression that is string literals joined by `+` (`"p-4 " + 'hidden'`
/// is `p-4 hidden`, `"hid" + "den"` is `hidden`), with no escape and no template substitution:
/// text this reads in full. `None` for any other expression.
fn joined_string_literals(expr: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = expr.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() || c == '+' => {}
            '"' | '\'' | '`' => {
                let mut closed = false;
                let mut prev = ' ';
                for d in chars.by_ref() {
                    if d == '\\' || (c == '`' && prev == '$' && d == '{') {
                        return None;
                    }
                    if d == c {
                        closed = true;
                        break;
                    }
                    out.push(d);
                    prev = d;
                }
                if !closed {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The text of a JavaScript expression that is one string literal (`"a"`, `'a'`, a template
/// without `${`), its quote never inside and no escape in it; `None` for anything else.
fn string_literal(expr: &str) -> Option<&str> {
    let q = expr
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inner = expr.get(1..)?.strip_suffix(q)?;
    let template = q == '`' && inner.contains("${");
    let plain = !(inner.contains(q) || inner.contains('\\') || template);
    plain.then_some(inner)
}

/// An array of plain string literals (`{["New releases", "Bug fixes"]}`), its strings in order:
/// what a component showing a list of labels shows. `None` for any other expression.
pub(super) fn string_array(expr: &str) -> Option<Vec<&str>> {
    let mut rest = expr.trim().strip_prefix('[')?.trim_start();
    let mut items = Vec::new();
    loop {
        if let Some(after) = rest.strip_prefix(']') {
            return after.trim().is_empty().then_some(items);
        }
        let q = rest
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\'' | '`'))?;
        let end = 1 + rest[1..].find(q)?;
        items.push(string_literal(&rest[..=end])?);
        rest = rest[end + 1..].trim_start();
        match rest.strip_prefix(',') {
            Some(after) => rest = after.trim_start(),
            None if rest.starts_with(']') => {}
            None => return None,
        }
    }
}

/// Where MDX's JSX tokenizer is in a tag (`factory-tag.js` of `micromark-extension-mdx-jsx`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TagState {
    NameBefore,
    ClosingNameBefore,
    PrimaryName,
    PrimaryNameAfter,
    MemberNameBefore,
    MemberName,
    MemberNameAfter,
    LocalNameBefore,
    LocalName,
    LocalNameAfter,
    AttributeBefore,
    AttributeName,
    AttributeNameAfter,
    AttributeLocalNameBefore,
    AttributeLocalName,
    AttributeLocalNameAfter,
    AttributeValueBefore,
    SelfClosing,
}

/// JavaScript's `ID_Start` with `$` and `_`.
fn id_start(c: char) -> bool {
    c == '$' || c == '_' || unicode_ident::is_xid_start(c)
}

/// JavaScript's `ID_Continue` with `$`, `_` and, in JSX, `-`.
fn id_continue(c: char) -> bool {
    c == '$' || c == '-' || c == '\u{200c}' || c == '\u{200d}' || unicode_ident::is_xid_continue(c)
}

/// What MDX's JSX tokenizer makes of the tag `rest` starts (with `<`).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum TagCheck {
    /// `<` then a space or line ending: text, never a tag.
    Text,
    /// Well formed: its name (`a.b`, `x:y`; empty for a fragment), whether it opens an element
    /// (neither a closing nor a self-closing tag), and where it ends.
    Fine {
        name: String,
        opens: bool,
        end: usize,
    },
    /// This reading cannot be sure (an attribute expression acorn reads; a blank line inside a
    /// tag of its own line).
    Unsure,
    /// It throws, for this reason.
    Throws(String),
    /// It throws at an attribute's or a spread's expression, empty or not JavaScript acorn
    /// parses, for this reason (told apart: the caller does not trust it inside a block quote,
    /// whose fences are not found).
    BadExpression(String),
    /// An attribute expression the scanner finds no end of, past the page's rereads: this reading
    /// stops checking tags rather than decide (and reads each tag once).
    OpenExpression,
}

/// Every closing tag of `text` by the name it closes, written as the opening tag writes it
/// (`</ b>` and `</A .B>` close `b` and `A.B`: JSX allows white space around a name's parts; `</>`
/// closes a fragment, the name ""), with
/// where each starts. One pass: each `</` is read once, however many names are asked about.
pub(super) fn closing_tags(text: &str) -> std::collections::HashMap<String, Vec<usize>> {
    let spaces = |s: &str| s.len() - s.trim_start_matches(js_space).len();
    let mut found: std::collections::HashMap<String, Vec<usize>> = Default::default();
    for (p, _) in text.match_indices("</") {
        let mut rest = &text[p + 2..];
        let mut written = String::new();
        loop {
            rest = &rest[spaces(rest)..];
            let part = rest
                .char_indices()
                .find(|&(k, c)| !(if k == 0 { id_start(c) } else { id_continue(c) }))
                .map_or(rest.len(), |(k, _)| k);
            if part == 0 {
                break;
            }
            written.push_str(&rest[..part]);
            rest = &rest[part..];
            let after = spaces(rest);
            match rest[after..].chars().next() {
                Some(sep @ ('.' | ':')) => {
                    written.push(sep);
                    rest = &rest[after + 1..];
                }
                _ => break,
            }
        }
        // A fragment's closer (`</>`, `</ >`) closes the name "".
        if !written.is_empty() || rest.starts_with('>') {
            found.entry(written).or_default().push(p);
        }
    }
    found
}

/// Where MDX's JSX tokenizer throws at the tag `rest` starts (with `<`) when it surely does: a
/// character no state of `factory-tag.js` accepts (`<2`, `<=`, `<-`, the `//` of an autolink
/// `<https://…>`, an `@` in a name, an unquoted attribute value), the end of the paragraph inside a
/// tag in running text (`text`, not a tag of its own line). Whether an element it opens closes is
/// for the caller to see.
///
/// `budget`: what the page may still spend on parsing its JavaScript.
pub(super) fn jsx_tag_check(
    rest: &str,
    text: bool,
    budget: &mut super::js_parse::ParseBudget,
) -> TagCheck {
    use TagState::*;
    let b = rest.as_bytes();
    if matches!(b.get(1), None | Some(b' ' | b'\t' | b'\n' | b'\r')) {
        return TagCheck::Text;
    }
    let mut state = NameBefore;
    let mut name = String::new();
    let (mut closing, mut self_closing) = (false, false);
    let mut i = 1;
    let crash = |c: Option<char>, at: &str| {
        let what = c.map_or("the end of the paragraph".to_owned(), |c| format!("`{c}`"));
        let shown: String = (rest.chars())
            .filter(|c| !crate::heading_id::MARKS.contains(c))
            .take(30)
            .collect();
        let shown = shown.lines().next().unwrap_or_default().to_owned();
        TagCheck::Throws(format!("{what} {at} the tag `{shown}`"))
    };
    let is_name_state = |s: TagState| {
        matches!(
            s,
            PrimaryName | MemberName | LocalName | AttributeName | AttributeLocalName
        )
    };
    loop {
        let c = rest[i..].chars().next();
        if let Some(w) = c.filter(|&c| js_space(c) && !is_name_state(state)) {
            if w == '\n' || w == '\r' {
                let eol = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                let after = &rest[i + eol..];
                let next = after.split(['\n', '\r']).next().unwrap_or_default();
                // The end of the paragraph (a blank line): a tag in running text throws there;
                // a tag of its own line goes on, and this reading stops.
                if next.trim_matches([' ', '\t']).is_empty() {
                    return if text || after.trim().is_empty() {
                        crash(None, "inside")
                    } else {
                        TagCheck::Unsure
                    };
                }
                i += eol;
            } else {
                i += w.len_utf8();
            }
            continue;
        }
        let Some(ch) = c else {
            return crash(None, "inside");
        };
        let space = js_space(ch);
        // The next state, and whether it consumes the character (a state that only decides, at
        // the end of a name, leaves it to the next).
        let (next, consume) = match state {
            NameBefore if ch == '/' => {
                closing = true;
                (ClosingNameBefore, true)
            }
            NameBefore | ClosingNameBefore | AttributeBefore | SelfClosing if ch == '>' => break,
            NameBefore | ClosingNameBefore if id_start(ch) => {
                name.push(ch);
                (PrimaryName, true)
            }
            NameBefore | ClosingNameBefore => return crash(Some(ch), "before a name in"),
            PrimaryName if id_continue(ch) => {
                name.push(ch);
                (PrimaryName, true)
            }
            PrimaryName if matches!(ch, '.' | '/' | ':' | '>' | '{') || space => {
                (PrimaryNameAfter, false)
            }
            PrimaryNameAfter | MemberNameAfter if ch == '.' => {
                name.push('.');
                (MemberNameBefore, true)
            }
            PrimaryNameAfter if ch == ':' => {
                name.push(':');
                (LocalNameBefore, true)
            }
            PrimaryNameAfter | MemberNameAfter | LocalNameAfter
                if matches!(ch, '/' | '>' | '{') || id_start(ch) =>
            {
                (AttributeBefore, false)
            }
            PrimaryNameAfter | MemberNameAfter | LocalNameAfter => {
                return crash(Some(ch), "after a name in")
            }
            MemberNameBefore | LocalNameBefore if id_start(ch) => {
                name.push(ch);
                let next = if state == MemberNameBefore {
                    MemberName
                } else {
                    LocalName
                };
                (next, true)
            }
            MemberNameBefore | LocalNameBefore => return crash(Some(ch), "before a name in"),
            MemberName | LocalName if id_continue(ch) => {
                name.push(ch);
                (state, true)
            }
            MemberName if matches!(ch, '.' | '/' | '>' | '{') || space => (MemberNameAfter, false),
            LocalName if matches!(ch, '/' | '>' | '{') || space => (LocalNameAfter, false),
            PrimaryName | MemberName | LocalName => return crash(Some(ch), "in a name in"),
            AttributeBefore if ch == '/' => {
                self_closing = true;
                (SelfClosing, true)
            }
            AttributeBefore | AttributeValueBefore if ch == '{' => {
                // An expression: acorn decides; only where it ends is read here, and whether
                // it is empty (white space and comments only), which an attribute's may not be.
                let kind = match state {
                    AttributeValueBefore => super::js_parse::ExpressionKind::Value,
                    _ => super::js_parse::ExpressionKind::Spread,
                };
                // Where the scanner finds no end (JSX text such as `<a>don't</a>` in the code),
                // MDX's (see below).
                // (`read`: that reading parsed it already.)
                let scanned = super::js::skip_balanced(b, i);
                let (end, read) = match scanned {
                    Some(end) => (end, false),
                    None if !budget.reread() => return TagCheck::OpenExpression,
                    None => {
                        match super::js_parse::expression_end(&rest[i + 1..], None, kind, budget) {
                            Ok(len) => (i + 1 + len + 1, true),
                            Err(why) => {
                                return TagCheck::BadExpression(format!(
                                    "an expression in `<{name}>`: {why}"
                                ))
                            }
                        }
                    }
                };
                let inner = &rest[i + 1..end.saturating_sub(1).max(i + 1)];
                let shown = || -> String {
                    let line = rest[i..end].lines().next().unwrap_or_default();
                    line.chars().take(40).collect()
                };
                if super::js_parse::only_comments(inner) {
                    return TagCheck::BadExpression(format!(
                        "an empty expression `{}` in an attribute of `<{name}>`",
                        shown()
                    ));
                }
                // A value's expression is one expression; one in place of an attribute, a spread.
                // MDX's end: acorn asked at each `}` (`b={x ? <p>Yes :)</p> : null}`: the
                // scanner ends at the `)`).
                let mdx_end = match read {
                    true => Ok(inner.len()),
                    false => {
                        let from = &rest[i + 1..];
                        super::js_parse::expression_end(from, Some(inner.len()), kind, budget)
                    }
                };
                let end = match mdx_end {
                    Ok(len) => i + 1 + len + 1,
                    Err(why) => {
                        return TagCheck::BadExpression(format!(
                            "`{}` in `<{name}>`: {why}",
                            shown()
                        ))
                    }
                };
                i = end;
                state = AttributeBefore;
                continue;
            }
            AttributeBefore if id_start(ch) => (AttributeName, true),
            AttributeBefore => return crash(Some(ch), "before an attribute name in"),
            AttributeName if id_continue(ch) => (AttributeName, true),
            AttributeName if matches!(ch, '/' | ':' | '=' | '>' | '{') || space => {
                (AttributeNameAfter, false)
            }
            AttributeNameAfter if ch == ':' => (AttributeLocalNameBefore, true),
            AttributeNameAfter | AttributeLocalNameAfter if ch == '=' => {
                (AttributeValueBefore, true)
            }
            AttributeNameAfter | AttributeLocalNameAfter
                if matches!(ch, '/' | '>' | '{') || id_start(ch) =>
            {
                (AttributeBefore, false)
            }
            AttributeNameAfter | AttributeLocalNameAfter => {
                return crash(Some(ch), "after an attribute name in")
            }
            AttributeLocalNameBefore if id_start(ch) => (AttributeLocalName, true),
            AttributeLocalNameBefore => return crash(Some(ch), "before an attribute name in"),
            AttributeLocalName if id_continue(ch) => (AttributeLocalName, true),
            AttributeLocalName if matches!(ch, '/' | '=' | '>' | '{') || space => {
                (AttributeLocalNameAfter, false)
            }
            AttributeName | AttributeLocalName => {
                return crash(Some(ch), "in an attribute name in")
            }
            AttributeValueBefore if ch == '"' || ch == '\'' => {
                // A quoted value runs to its quote, over lines.
                match rest[i + 1..].find(ch) {
                    Some(p) => i += 1 + p + 1,
                    None => return crash(None, "in an attribute value in"),
                }
                state = AttributeBefore;
                continue;
            }
            AttributeValueBefore => return crash(Some(ch), "before an attribute value in"),
            SelfClosing => return crash(Some(ch), "after a self-closing slash in"),
        };
        state = next;
        if consume {
            i += ch.len_utf8();
        }
    }
    // At `>`: the tag is well formed.
    TagCheck::Fine {
        opens: !closing && !self_closing,
        name,
        end: i + 1,
    }
}
