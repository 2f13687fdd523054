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

// JavaScript's whitespace (`trim`, `\s`): not U+0085, which Rust's is.
use crate::heading_id::js_space;

/// The site's variables: name → value as written in `docs.json`.
pub type Variables = BTreeMap<String, String>;

/// `/\{\{\s*([\w.\-]+)\s*\}\}/g` (JavaScript's `\w`: ASCII letters, digits and `_`).
/// (JavaScript's `\s`, not U+0085, which Rust's `\s` matches.)
static VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
    let space = r"[\t\n\x0B\x0C\r \u{A0}\u{1680}\u{2000}-\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}]*";
    Regex::new(&format!(r"\{{\{{{space}([A-Za-z0-9_.\-]+){space}\}}\}}")).expect("a valid pattern")
});

/// The elements whose content the sanitizer removes with them.
const EXECUTABLE: &[&str] = &[
    "script", "style", "iframe", "object", "embed", "form", "link", "meta", "base",
];

/// The most text one file's variables may add: past it, the rest stay as written (a 1 MB value
/// used a thousand times cannot take gigabytes).
pub const MAX_REPLACED_BYTES: usize = 4 << 20;

/// `text` with the variables it names replaced by their sanitized values (at most
/// [`MAX_REPLACED_BYTES`] of them).
pub fn replace<'t>(text: &'t str, variables: &Variables) -> Cow<'t, str> {
    if variables.is_empty() || !text.contains("{{") {
        return Cow::Borrowed(text);
    }
    Replacer::new(variables).replace(text)
}

/// [`replace`] for a page's text, whose import statements Mintlify resolves (and removes) before
/// it replaces variables: a `{{name}}` in an import's path stays as written, and imports no other
/// file. An import statement is a line outside code fences that starts with `import `, and the
/// lines after it up to the one that names its source (`} from '…'`); every other line, code
/// included, has its variables replaced, within one budget for the whole page.
pub fn replace_outside_imports<'t>(text: &'t str, variables: &Variables) -> Cow<'t, str> {
    if variables.is_empty() || !text.contains("{{") {
        return Cow::Borrowed(text);
    }
    let mut r = Replacer::new(variables);
    let mut out = String::with_capacity(text.len());
    let mut fences = super::LineFences::default();
    let mut in_import = false;
    for line in text.split_inclusive('\n') {
        let keep = if fences.is_code(line) {
            false
        } else if in_import || line.starts_with("import ") || line.starts_with("import\t") {
            // The statement ends at the line that names its source.
            in_import = !IMPORT_END.is_match(line);
            true
        } else {
            false
        };
        if keep {
            out.push_str(line);
        } else {
            out.push_str(&r.replace(line));
        }
    }
    Cow::Owned(out)
}

/// A line that ends an import statement: it names the source in quotes.
static IMPORT_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"['"][^'"]*['"]\s*;?\s*$"#).expect("a valid pattern"));

/// Replaces variables, each value sanitized once, within one budget.
struct Replacer<'v> {
    variables: &'v Variables,
    sanitized: BTreeMap<&'v str, String>,
    added: usize,
}

impl<'v> Replacer<'v> {
    fn new(variables: &'v Variables) -> Self {
        Replacer {
            variables,
            sanitized: BTreeMap::new(),
            added: 0,
        }
    }

    fn replace<'t>(&mut self, text: &'t str) -> Cow<'t, str> {
        if !text.contains("{{") {
            return Cow::Borrowed(text);
        }
        VARIABLE.replace_all(text, |c: &Captures<'_>| {
            let Some((name, value)) = self.variables.get_key_value(&c[1]) else {
                return c[0].to_owned();
            };
            let value = self
                .sanitized
                .entry(name.as_str())
                .or_insert_with(|| sanitize(value));
            self.added += value.len();
            if self.added > MAX_REPLACED_BYTES {
                return c[0].to_owned();
            }
            value.clone()
        })
    }
}

/// A value as `filterXSS(value, {whiteList: {}, stripIgnoreTag: true, stripIgnoreTagBody:
/// EXECUTABLE})` (npm `xss` 1.x) returns it: comments removed (an unclosed one takes the rest),
/// then every tag as `xss`'s `parseTag` finds them (from a `<` to the next `>` outside a quoted
/// attribute value, or to the end; a second `<` starts it again) removed, an executable element's
/// content with it (from its opening tag to the next closing tag of any executable element), and
/// the text between tags with `<` and `>` escaped. Linear in the value's length.
fn sanitize(value: &str) -> String {
    let html = strip_comments(value);
    let chars: Vec<char> = html.chars().collect();
    let len = chars.len();
    let mut out = String::with_capacity(html.len());
    let mut removals: Vec<(usize, usize)> = Vec::new();
    let mut body_start: Option<usize> = None;
    let (mut last, mut tag_start, mut quote) = (0usize, None::<usize>, None::<char>);
    // The text between tags, `<` and `>` escaped (`escapeHtml`).
    let text = |out: &mut String, from: usize, to: usize| {
        for &c in &chars[from..to] {
            match c {
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                c => out.push(c),
            }
        }
    };
    for p in 0..len {
        let c = chars[p];
        let Some(ts) = tag_start else {
            if c == '<' {
                tag_start = Some(p);
            }
            continue;
        };
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        if c == '<' {
            text(&mut out, last, p);
            tag_start = Some(p);
            last = p;
            continue;
        }
        if c == '>' || p == len - 1 {
            text(&mut out, last, ts);
            let tag: String = chars[ts..=p].iter().collect();
            let name = tag_name(&tag);
            if EXECUTABLE.contains(&name.as_str()) {
                let position = out.len();
                if tag.starts_with("</") {
                    let marker = "[/removed]";
                    removals.push((body_start.unwrap_or(position), position + marker.len()));
                    body_start = None;
                    out.push_str(marker);
                } else {
                    if body_start.is_none_or(|s| s == 0) {
                        body_start = Some(position);
                    }
                    out.push_str("[removed]");
                }
            }
            last = p + 1;
            tag_start = None;
            continue;
        }
        if c == '"' || c == '\'' {
            // A quote right after `=` (spaces between) opens an attribute value.
            let before = chars[..p].iter().rev().find(|&&b| b == '=' || !js_space(b));
            if before == Some(&'=') {
                quote = Some(c);
            }
        }
    }
    if last < len {
        text(&mut out, last, len);
    }
    let mut kept = String::with_capacity(out.len());
    let mut at = 0usize;
    for (from, to) in removals {
        if from > at {
            kept.push_str(&out[at.min(out.len())..from.min(out.len())]);
        }
        at = to;
    }
    if at < out.len() {
        kept.push_str(&out[at..]);
    }
    kept
}

/// `stripCommentTag`: each `<!--` to its `-->` removed; one that never closes takes the rest.
fn strip_comments(html: &str) -> Cow<'_, str> {
    if !html.contains("<!--") {
        return Cow::Borrowed(html);
    }
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find("<!--") {
        out.push_str(&rest[..i]);
        match rest[i..].find("-->") {
            Some(j) => rest = &rest[i + j + 3..],
            None => return Cow::Owned(out),
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// `getTagName`: from after `<` to the first whitespace (or to the end but the last character),
/// trimmed, lower-cased, one `/` dropped from each end.
fn tag_name(tag: &str) -> String {
    let inner: String = match tag.char_indices().find(|(_, c)| js_space(*c)) {
        Some((i, _)) => tag[1..i].to_owned(),
        None => {
            let mut chars = tag.chars();
            chars.next();
            chars.next_back();
            chars.as_str().to_owned()
        }
    };
    let name = inner.trim_matches(js_space).to_lowercase();
    let name = name.strip_prefix('/').unwrap_or(&name);
    name.strip_suffix('/').unwrap_or(name).to_owned()
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

    /// What npm `xss` 1.x returns for these values with Mintlify's options (run with node): a
    /// value opens no element and closes none the page wrote (`*<x <y>/}` cannot end a comment).
    #[test]
    fn values_sanitized_as_npm_xss_does() {
        for (value, want) in [
            ("*<x <y>/}", "*&lt;x /}"),
            ("a < S > b", "a  b"),
            ("x <S tail", "x "),
            ("vis <!-- S", "vis "),
            ("<script>S</style>vis", "vis"),
            ("<a title=\"x>S<b\">", ""),
            (
                "<b>bold</b> & <Visibility for=\"agents\">x</Visibility>",
                "bold & x",
            ),
            (
                "before<script>alert(1)</script>after<style>p{}</style>",
                "beforeafter",
            ),
            ("<!-- hidden --> 1 < 2 > 0", " 1  0"),
            ("a<script>b", "a[removed]b"),
            ("<script>a</script><script>b", "[removed]b"),
            ("x<p title='a>b' y='c'>z", "xz"),
            ("q<a href = \"x>y\">t</a>", "qt"),
            ("plain {text}", "plain {text}"),
            ("1 > 0", "1 &gt; 0"),
            ("<<a>>", "&lt;&gt;"),
            ("<a\nb>c", "c"),
        ] {
            assert_eq!(sanitize(value), want, "{value:?}");
        }
        // JavaScript's `\s` has no U+0085: `{{\u{85}v}}` names no variable there.
        let v2 = vars(&[("name", "N")]);
        assert_eq!(
            replace("{{\u{85}name}} {{ name }}", &v2),
            "{{\u{85}name}} N"
        );
        // A page's import statements keep their `{{name}}`; other lines, code too, do not.
        let page = "import O from '/snippets/{{name}}.mdx'\nimport {\n  A,\n} from '/{{name}}.mdx'\nIntro {{name}} from \"vault\"\n```js\nimport { C } from '{{name}}'\n```\n";
        assert_eq!(
            replace_outside_imports(page, &v2),
            "import O from '/snippets/{{name}}.mdx'\nimport {\n  A,\n} from '/{{name}}.mdx'\nIntro N from \"vault\"\n```js\nimport { C } from 'N'\n```\n"
        );
        // One budget for the whole page, however many lines use the value.
        let big = vars(&[("big", &"x".repeat(1 << 20))]);
        let lines = "{{big}}\n".repeat(200);
        assert!(replace_outside_imports(&lines, &big).len() < MAX_REPLACED_BYTES + lines.len());
        // A 1 MB value used a thousand times adds at most `MAX_REPLACED_BYTES`.
        let v = vars(&[("big", &"x".repeat(1 << 20))]);
        let page = "{{big}} ".repeat(1000);
        assert!(replace(&page, &v).len() < MAX_REPLACED_BYTES + page.len());
    }
}
