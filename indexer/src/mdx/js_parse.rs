//! Whether MDX's JavaScript parses: an ESM block (`import`/`export`) or an expression (`{…}`).
//! MDX hands both to acorn (`micromark-util-events-to-acorn`, JSX on, a module) and Mintlify's
//! parser refuses a page whose JavaScript acorn refuses; oxc's parser reads it here. What acorn
//! does with an error at the very end of an ESM block (an open bracket, string or comment) is to
//! read on to the next blank line ([`Esm::Incomplete`]); anywhere else, an error refuses the page.

use oxc_allocator::Allocator;
use oxc_ast::ast::{Expression, ObjectPropertyKind, Statement};
use oxc_diagnostics::OxcDiagnostic;
use oxc_parser::Parser;
use oxc_span::{GetSpan, SourceType};

/// What acorn makes of an ESM block's text so far.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Esm {
    /// It parses, and holds only `import` and `export` declarations.
    Complete,
    /// It stops at its end: the lines up to the next blank one may complete it.
    Incomplete,
    /// It does not parse, or holds another statement: MDX refuses the page (why).
    Refused(String),
}

fn source_type() -> SourceType {
    SourceType::mjs().with_jsx(true)
}

/// Whether `error` is at the end of `source` (white space aside): acorn's "raised at the end",
/// which MDX reads as "not complete yet".
fn at_end(error: &OxcDiagnostic, source: &str) -> bool {
    let end = source.trim_end().len();
    (error.labels.iter().flatten()).any(|label| label.offset() + label.len() >= end)
}

/// Reads `source`, an ESM block's lines so far.
pub(super) fn esm(source: &str) -> Esm {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, source, source_type()).parse();
    if let Some(error) = parsed.errors.first() {
        return match at_end(error, source) {
            true => Esm::Incomplete,
            false => Esm::Refused(format!("its JavaScript does not parse: {}", error.message)),
        };
    }
    if !parsed.program.directives.is_empty() {
        return Esm::Refused(
            "an ESM block holds a directive: only import/exports are supported".into(),
        );
    }
    let other = parsed
        .program
        .body
        .iter()
        .find(|s| !s.is_module_declaration());
    match other {
        None => Esm::Complete,
        Some(statement) => Esm::Refused(format!(
            "an ESM block holds {}: only import/exports are supported",
            statement_kind(statement)
        )),
    }
}

fn statement_kind(statement: &Statement) -> &'static str {
    match statement {
        Statement::ExpressionStatement(_) => "an expression statement",
        Statement::EmptyStatement(_) => "an empty statement",
        Statement::VariableDeclaration(_) => "a declaration",
        Statement::FunctionDeclaration(_) | Statement::ClassDeclaration(_) => "a declaration",
        _ => "a statement",
    }
}

/// Why acorn refuses `source`, the inside of an expression `{…}` in text or a tag's attribute
/// value, when it does: it must be one expression, then only white space and comments. (An empty
/// one, or one of comments alone, is the caller's to judge: text allows it, an attribute not.)
pub(super) fn expression_refused(source: &str) -> Option<String> {
    let allocator = Allocator::default();
    match Parser::new(&allocator, source, source_type()).parse_expression() {
        Err(errors) => Some(format!(
            "an expression does not parse: {}",
            errors.first().map_or("", |e| &e.message)
        )),
        Ok(expression) => {
            let rest = &source[(expression.span().end as usize).min(source.len())..];
            (!only_comments(rest)).then(|| "an expression has content after it".to_string())
        }
    }
}

/// Why acorn refuses `source`, the inside of a spread in place of a tag's attribute (`{...props}`),
/// when it does: MDX reads it as an object's inside (`({` … `})`), which must be one spread and
/// nothing else.
pub(super) fn spread_refused(source: &str) -> Option<String> {
    let wrapped = format!("({{{source}\n}})");
    let allocator = Allocator::default();
    let expression = match Parser::new(&allocator, &wrapped, source_type()).parse_expression() {
        Err(errors) => {
            let why = errors.first().map_or("", |e| &e.message);
            return Some(format!("a spread does not parse: {why}"));
        }
        Ok(expression) => expression,
    };
    if (expression.span().end as usize) < wrapped.len() {
        return Some("a spread has content after it".into());
    }
    let object = match expression.without_parentheses() {
        Expression::ObjectExpression(object) => object,
        _ => return Some("a spread does not parse".into()),
    };
    match object.properties.as_slice() {
        [ObjectPropertyKind::SpreadProperty(_)] => None,
        [] => Some("a spread holds nothing".into()),
        [_] => Some("only spread elements are supported".into()),
        _ => Some("only a single spread is supported".into()),
    }
}

/// Whether `s` is white space and JavaScript comments only (a `/*` left open is not).
pub(super) fn only_comments(s: &str) -> bool {
    let mut rest = s.trim_start();
    loop {
        if rest.is_empty() {
            return true;
        }
        if let Some(after) = rest.strip_prefix("//") {
            rest = after
                .find(['\n', '\r'])
                .map_or("", |n| &after[n..])
                .trim_start();
        } else if let Some(after) = rest.strip_prefix("/*") {
            let Some(end) = after.find("*/") else {
                return false;
            };
            rest = after[end + 2..].trim_start();
        } else {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_33_esm_as_acorn_reads_it() {
        for src in [
            "import A from '/snippets/a.mdx'",
            "export const A = () => <Foo.Bar />",
            "export const a = <div>\n\n</div>",
            "import a from 'b' with { type: 'json' }",
        ] {
            assert_eq!(esm(src), Esm::Complete, "{src:?}");
        }
        // Open at its end: MDX reads on.
        for src in [
            "export const C = {\n  a: 1,",
            "export const s = `abc\n",
            "export const s = /* abc",
            "export const A = <div>\n  x",
            "export const A = () => (<div>\n  <p>don't</p>",
            "import {a, b",
        ] {
            assert_eq!(esm(src), Esm::Incomplete, "{src:?}");
        }
        for src in [
            "export const a = {b c}",
            "export const a = 1; a <= b",
            "import a from 'b';;",
            "export const x = 1\nexport const x = 2",
            "export const A = () => (\n  <button\n   <Foo.Bar /> aria-label=\"x\"\n  >+</button>\n)",
        ] {
            assert!(matches!(esm(src), Esm::Refused(_)), "{src:?}");
        }
    }

    #[test]
    fn session_33_expressions_as_acorn_reads_them() {
        for src in [
            "a",
            "x && <Note>hi</Note>",
            "{a: 1}",
            "a /* c */",
            "a // c\n",
            " f(`${b}`) ",
        ] {
            assert_eq!(expression_refused(src), None, "{src:?}");
        }
        for src in ["a b", "a), (b", "<a>{</a>", "a <", "1 +", "a /* open"] {
            assert!(expression_refused(src).is_some(), "{src:?}");
        }
        assert_eq!(spread_refused("...props"), None);
        assert_eq!(spread_refused(" ...{a: 1} /* c */"), None);
        for src in ["a<b", "a", "...a, ...b", "a: 1", "...a}), (b", ""] {
            assert!(spread_refused(src).is_some(), "{src:?}");
        }
        assert!(only_comments(" /* a */ // b\n  "));
        assert!(!only_comments("/* a"));
    }
}
