//! One JSX or HTML tag of an MDX page: where it ends, its name and attributes, and whether readers
//! ever see what it wraps.

use super::js::skip_balanced;

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

pub(super) struct Tag {
    pub name: String,
    pub closing: bool,
    /// `<br />`: the element ends with its tag and wraps nothing.
    pub self_closing: bool,
    /// Attributes whose values are text: quoted, a string literal in braces, or none (`""`).
    pub attrs: Vec<(String, String)>,
    /// Attributes whose values are any other expression (`hidden={true}`), braces removed.
    pub exprs: Vec<(String, String)>,
}

pub(super) fn parse_tag(tag: &str) -> Tag {
    let inner = tag.trim_start_matches('<').trim_end_matches('>');
    let self_closing = inner.trim_end().ends_with('/');
    let inner = inner.trim_end_matches('/');
    let closing = inner.starts_with('/');
    let inner = inner.trim_start_matches('/');
    let name_end = inner
        .find(|c: char| c.is_whitespace())
        .unwrap_or(inner.len());
    let name = inner[..name_end].to_owned();
    let mut attrs = Vec::new();
    let mut exprs = Vec::new();
    let rest = &inner[name_end..];
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let key_start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'=' {
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
                attrs.push((key, rest[vs..j.min(b.len())].to_owned()));
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
                let expr = rest.get(i + 1..inner_end).unwrap_or("").trim();
                // A string literal in braces is still text: title={"Quick start"}. Any other
                // expression (`{'a' ? 'b' : 'c'}`) renders what only JavaScript knows: no text.
                match string_literal(expr) {
                    Some(lit) => attrs.push((key, lit.to_owned())),
                    None => exprs.push((key, expr.to_owned())),
                }
                i = end;
            } else {
                while i < b.len() && !b[i].is_ascii_whitespace() {
                    i += 1;
                }
            }
        } else if !key.is_empty() {
            attrs.push((key, String::new()));
        }
    }
    Tag {
        name,
        closing,
        self_closing,
        attrs,
        exprs,
    }
}

/// HTML elements that never have content (`<br>`, `<img>`): a `hidden` on one wraps nothing.
const VOID_ELEMENTS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// Tailwind's display utilities, which a responsive prefix (`md:block`) uses to show what a plain
/// `hidden` class hides on small screens.
const DISPLAY_CLASSES: &[&str] = &[
    "block",
    "inline",
    "inline-block",
    "flex",
    "inline-flex",
    "grid",
    "inline-grid",
    "table",
    "contents",
    "flow-root",
    "list-item",
];

impl Tag {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn expr(&self, key: &str) -> Option<&str> {
        self.exprs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Why the rendered page never shows what this opening tag wraps, or `None` when it does:
    /// - `<Visibility for="agents">` (Mintlify shows it only in the Markdown export); an audience
    ///   other than `"humans"`, or one only JavaScript knows, is not understood and withholds;
    /// - `<template>` and `<noscript>` (Mintlify's pages run scripts);
    /// - an HTML element with `hidden` (but `hidden="until-found"`, which the browser's find
    ///   reveals), `hidden={true}` or a `hidden` only JavaScript knows; with `display: none` or
    ///   `visibility: hidden` in its style; or with Tailwind's `hidden` class and no responsive
    ///   class that shows it again (`hidden md:block` shows on wide screens).
    ///
    /// A component's own props (`<Accordion hidden>`) are the component's business: its text is
    /// kept, as Mintlify's components show it.
    pub(super) fn hidden_content(&self) -> Option<&'static str> {
        if self.closing || self.self_closing {
            return None;
        }
        if self.name == "Visibility" {
            return match self.attr("for").map(str::trim) {
                Some("humans") => None,
                Some("agents") => Some("`<Visibility for=\"agents\">` is not shown on the page"),
                _ => Some("a `<Visibility>` audience other than \"humans\" or \"agents\" is not understood, so its content is withheld"),
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
        let hidden_attr = match (self.attr("hidden"), self.expr("hidden")) {
            (Some(value), _) => !value.trim().eq_ignore_ascii_case("until-found"),
            (None, Some(expr)) => expr.trim() != "false",
            (None, None) => false,
        };
        let style = self
            .attr("style")
            .or_else(|| self.expr("style"))
            .map(|s| {
                s.chars()
                    .filter(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | '`'))
                    .collect::<String>()
                    .to_ascii_lowercase()
            })
            .unwrap_or_default();
        let hidden_style = style.contains("display:none") || style.contains("visibility:hidden");
        let classes = self.attr("className").or_else(|| self.attr("class"));
        let hidden_class = classes.is_some_and(|c| {
            let mut tokens = c.split_whitespace();
            c.split_whitespace().any(|t| t == "hidden")
                && !tokens.any(|t| {
                    t.rsplit_once(':')
                        .is_some_and(|(_, display)| DISPLAY_CLASSES.contains(&display))
                })
        });
        (hidden_attr || hidden_style || hidden_class).then_some(
            "an HTML element hidden by `hidden`, its style or its class is not shown on the page",
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
