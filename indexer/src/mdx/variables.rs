//! Here is a page's or snippet's text and the site's `variables` (docs.json), give me the text
//! Mintlify parses: each `{{name}}` replaced by its value (`replaceVariables` in
//! `@mintlify/common`, run on the raw text before MDX parses it, code blocks included).
//!
//! - A name is letters, digits, `_`, `.` and `-`, with optional spaces inside the braces
//!   (`{{ api-url }}`); a name the site does not define stays as written.
//! - A value is sanitized as Mintlify's `xss` filter does it: tags and comments are removed (a
//!   tag's text kept),
//!   the content of executable elements (`script`, `style`, `iframe`, `object`, `embed`, `form`,
//!   `link`, `meta`, `base`) with them, and any other `<` or `>` becomes `&lt;`/`&gt;`, so a value
//!   cannot open an element (a `<Visibility>` or a comment) that the page did not write.
//! - Nothing else about the value is special: it is MDX like the text around it, as on the site.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::{Captures, Regex};

/// The site's variables: name → value as written in `docs.json`.
pub type Variables = BTreeMap<String, String>;

/// `/\{\{\s*([\w.\-]+)\s*\}\}/g` (JavaScript's `\w`: ASCII letters, digits and `_`).
static VARIABLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\{\{\s*([A-Za-z0-9_.\-]+)\s*\}\}").expect("a valid pattern"));

/// The elements whose content the sanitizer removes with them.
const EXECUTABLE: &[&str] = &[
    "script", "style", "iframe", "object", "embed", "form", "link", "meta", "base",
];

/// `text` with the variables it names replaced by their sanitized values.
pub fn replace<'t>(text: &'t str, variables: &Variables) -> Cow<'t, str> {
    if variables.is_empty() || !text.contains("{{") {
        return Cow::Borrowed(text);
    }
    VARIABLE.replace_all(text, |c: &Captures<'_>| match variables.get(&c[1]) {
        Some(value) => sanitize(value),
        None => c[0].to_owned(),
    })
}

/// A value as `filterXSS(value, {whiteList: {}, stripIgnoreTag: true, stripIgnoreTagBody:
/// EXECUTABLE})` returns it.
fn sanitize(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(lt) = rest.find('<') {
        out.push_str(&escape(&rest[..lt]));
        let after = &rest[lt..];
        // Comments go whole (`allowCommentTag` is false).
        if let Some(end) = after.strip_prefix("<!--").and_then(|c| c.find("-->")) {
            rest = &after[4 + end + 3..];
            continue;
        }
        match tag_at(after) {
            Some((len, name, closing)) => {
                rest = &after[len..];
                if !closing && EXECUTABLE.contains(&name.as_str()) {
                    // The element's content goes with it, to its closing tag when there is one.
                    let close = format!("</{name}");
                    if let Some(end) = rest.to_ascii_lowercase().find(&close) {
                        let tail = &rest[end..];
                        rest = &tail[tail.find('>').map_or(tail.len(), |p| p + 1)..];
                    }
                }
            }
            None => {
                out.push_str("&lt;");
                rest = &after[1..];
            }
        }
    }
    out.push_str(&escape(rest));
    out
}

/// A tag at the start of `s` (`<name …>` or `</name …>`): its length, its lower-cased name and
/// whether it closes.
fn tag_at(s: &str) -> Option<(usize, String, bool)> {
    let body = &s[1..];
    let closing = body.starts_with('/');
    let name_start = usize::from(closing);
    let name: String = body[name_start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == ':')
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let end = body.find('>')?;
    Some((end + 2, name.to_ascii_lowercase(), closing))
}

fn escape(text: &str) -> Cow<'_, str> {
    if text.contains(['<', '>']) {
        Cow::Owned(text.replace('<', "&lt;").replace('>', "&gt;"))
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Variables {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn names_as_mintlify_matches_them() {
        let v = vars(&[
            ("version", "2.0.0"),
            ("api-url", "https://api.example.com"),
            ("a.b", "dotted"),
        ]);
        assert_eq!(
            replace(
                "v{{version}} at {{ api-url }}, {{a.b}}, {{missing}}, {{ light: 1 }}",
                &v
            ),
            "v2.0.0 at https://api.example.com, dotted, {{missing}}, {{ light: 1 }}"
        );
        assert_eq!(replace("```\n{{version}}\n```", &v), "```\n2.0.0\n```");
        assert!(matches!(
            replace("{{version}}", &Variables::new()),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn values_open_no_element() {
        let v = vars(&[
            (
                "a",
                "<b>bold</b> & <Visibility for=\"agents\">x</Visibility>",
            ),
            (
                "s",
                "before<script>alert(1)</script>after<style>p{}</style>",
            ),
            ("c", "<!-- hidden --> 1 < 2 > 0"),
        ]);
        assert_eq!(replace("{{a}}", &v), "bold & x");
        assert_eq!(replace("{{s}}", &v), "beforeafter");
        assert_eq!(replace("{{c}}", &v), " 1 &lt; 2 &gt; 0");
    }
}
