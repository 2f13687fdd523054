//! Whether Mintlify can parse a page or snippet at all. Its build parses each file with remark
//! (`remark-mdx`, `remark-gfm`, `remark-frontmatter`, `remark-math`: `getAST` in
//! `@mintlify/common`), `.md` files as MDX too, and serves "🚧 A parsing error occurred" in place of
//! a file that does not parse (`preparseMdxTree` in `@mintlify/prebuild`). Readers see none of
//! that file's text, so none of it is indexed.
//!
//! The parser here is markdown-rs, the Rust port of micromark by its authors, with the constructs
//! Mintlify turns on. Where it needs JavaScript (where an `import`/`export` block or an expression
//! ends) it asks the `mdx::js` scanner, which reads strings, templates, comments and regular
//! expressions but not JSX text; what that scanner cannot finish is not counted against the file.
//! Only markdown-rs's own verdicts are (an HTML comment, a tag that never closes, a `{` with no
//! `}`, an autolink `<https://…>`), and only when it runs to its end: a panic inside it (a known
//! one reads some attribute values) or a file past [`MAX_CHECKED_BYTES`] is read as we read it.

use markdown::{Constructs, MdxExpressionKind, MdxSignal, ParseOptions};

use super::js::EsmScan;

/// Files larger than this are not checked (markdown-rs's time grows with the file's size).
pub const MAX_CHECKED_BYTES: usize = 1 << 20;

/// Where and why Mintlify's parser stops on a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFailure {
    /// 1-based line and column in the file, when the parser gives one.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub reason: String,
}

impl ParseFailure {
    /// `line 3, column 2: Unexpected character ...`, for a diagnostic.
    pub fn describe(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("line {l}, column {c}: {}", self.reason),
            (Some(l), None) => format!("line {l}: {}", self.reason),
            _ => self.reason.clone(),
        }
    }
}

/// The rule id of what the scanner could not finish: not a verdict on the file.
const UNFINISHED: &str = "aidocs-unfinished-javascript";

/// Why Mintlify's parser rejects `src` (a whole `.md`/`.mdx` file, frontmatter included), or `None`
/// when it parses, or when that cannot be told.
pub fn mintlify_parse_failure(src: &str) -> Option<ParseFailure> {
    if src.len() > MAX_CHECKED_BYTES {
        return None;
    }
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    if unterminated_reference_before_quote(src) {
        return None;
    }
    let options = ParseOptions {
        constructs: Constructs {
            frontmatter: true,
            gfm_autolink_literal: true,
            gfm_footnote_definition: true,
            gfm_label_start_footnote: true,
            gfm_strikethrough: true,
            gfm_table: true,
            gfm_task_list_item: true,
            math_flow: true,
            math_text: true,
            ..Constructs::mdx()
        },
        mdx_esm_parse: Some(Box::new(|code: &str| javascript_signal(code))),
        mdx_expression_parse: Some(Box::new(|code: &str, _: &MdxExpressionKind| {
            javascript_signal(code)
        })),
        ..ParseOptions::default()
    };
    let parse = std::panic::AssertUnwindSafe(|| markdown::to_mdast(src, &options).err());
    let parsed = std::panic::catch_unwind(parse).ok()??;
    if *parsed.rule_id == UNFINISHED {
        return None;
    }
    let (line, column) = match parsed.place.as_deref() {
        Some(markdown::message::Place::Point(p)) => (Some(p.line), Some(p.column)),
        Some(markdown::message::Place::Position(p)) => (Some(p.start.line), Some(p.start.column)),
        None => (None, None),
    };
    Some(ParseFailure {
        line,
        column,
        reason: parsed.reason,
    })
}

/// Whether `src` has a character reference cut by a quote (`title="a&b"`): markdown-rs 1.0
/// indexes past the end of such an attribute value (`character_reference.rs`). Such a file is
/// not checked, rather than caught in a panic that prints to the build's output.
fn unterminated_reference_before_quote(src: &str) -> bool {
    let b = src.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        if c != b'&' {
            return false;
        }
        let mut j = i + 1;
        if b.get(j) == Some(&b'#') {
            j += 1;
            if matches!(b.get(j), Some(b'x' | b'X')) {
                j += 1;
            }
        }
        let start = j;
        while b.get(j).is_some_and(u8::is_ascii_alphanumeric) {
            j += 1;
        }
        j > start && matches!(b.get(j), Some(b'"' | b'\''))
    })
}

/// Whether JavaScript `code` (an ESM block so far, or an expression's text at a `}`) is complete:
/// no open bracket, string, template literal or comment. Never an error: what is not finished
/// asks for more text, and at the end of the file is not held against it.
fn javascript_signal(code: &str) -> MdxSignal {
    let mut scan = EsmScan::default();
    for line in code.split_inclusive('\n') {
        scan.feed(line);
    }
    if scan.complete() {
        MdxSignal::Ok
    } else {
        MdxSignal::Eof(
            "the JavaScript is not finished".into(),
            Box::new("aidocs".into()),
            Box::new(UNFINISHED.into()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each verdict as Mintlify's `getAST` (`@mintlify/common` 1.0.1211 under Node) gives it.
    #[test]
    fn files_parse_or_fail_as_mintlify_parses_them() {
        let fails = [
            "Text\n\n<!-- hidden -->\n\nMore\n",
            "Inline <!-- c --> here\n",
            "    <!-- indented: MDX has no indented code -->\n",
            "<div>\n<!-- inside -->\n</div>\n",
            "text {unclosed\n\nmore\n",
            "a <br> b\n",
            "</div>\n",
            "<!DOCTYPE html>\n",
            "Use <https://example.com> autolink.\n",
            "1 <2 and x<y\n",
            "> <!-- in quote -->\n",
            "| a | b |\n|---|---|\n| <!-- c --> | d |\n",
            "<a href=\"x\">link\n",
        ];
        for src in fails {
            assert!(mintlify_parse_failure(src).is_some(), "{src:?} parses");
        }
        let parses = [
            "Text with `<!-- code -->` span.\n",
            "Text {\"<!--\"} expr.\n",
            "<div title=\"<!--\">x</div>\n",
            "[x](/a<!--b)\n",
            "Escaped \\<!-- not a comment\n",
            "a < b and c > d\n",
            "```\n<!-- in fence -->\n```\n",
            "<br />\n\nok\n",
            "{/* <!-- */}\n",
            "$$\n<!-- math -->\n$$\n",
            "Inline $a <!-- b$ math\n",
            "<div>\n\n```\n<!-- fenced in div -->\n```\n\n</div>\n",
            "text } close\n",
            "## Title {#custom-id}\n\ntext\n",
            "text {a}b} c\n",
            "---\ntitle: <!-- in yaml -->\n---\n\nBody\n",
            // JavaScript that is not finished where the scanner stops is not held against a file.
            "export const A = () => <p>don't</p>;\n\n# Title\n",
            "Text {\"{\"} brace in a string.\n",
            // Mintlify fails this one (a tag open at the end of the file); markdown-rs does not.
            "text <div never closes\n",
            // Not checked: markdown-rs 1.0 panics on such a value.
            "<Step title=\"Go\" id=\"a&b\">\n\n<!-- x -->\n\n</Step>\n",
        ];
        for src in parses {
            assert_eq!(mintlify_parse_failure(src), None, "{src:?}");
        }
        let failure = mintlify_parse_failure("# T\n\nx <br> y\n").unwrap();
        assert_eq!(failure.line, Some(3), "{failure:?}");
    }
}
