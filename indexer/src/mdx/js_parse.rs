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

use crate::heading_id::js_space;

/// The most bytes of JavaScript parsed at once: longer code (an ESM block of a component past
/// 64 KB) is left to the scanner, which finds where it ends but not whether it parses.
const MAX_PARSED: usize = 64 * 1024;

/// Brackets nested deeper than this are refused unparsed: acorn overflows its stack from about
/// 700 levels on Node's default stack ("Maximum call stack size exceeded"), and oxc's parser
/// recurses per level too.
const MAX_DEPTH: usize = 1_000;

/// What one page may spend on parsing: each parse charges the bytes it reads, and once the budget
/// is spent the rest of the page's JavaScript is left unchecked (never refused): a hostile page
/// cannot make the parser read it again and again (each expression MDX reads on from, each blank
/// line of an ESM block).
/// Also how many more expressions whose end the scanner does not find (its scan ran to the end of
/// the page) may be read again as MDX reads them.
#[derive(Debug)]
pub(super) struct ParseBudget {
    bytes: usize,
    rereads: usize,
}

impl ParseBudget {
    /// Eight times the page, and 1 MB more; 32 rereads.
    pub(super) fn for_page(len: usize) -> Self {
        ParseBudget {
            bytes: len.saturating_mul(8).saturating_add(1 << 20),
            rereads: 32,
        }
    }

    /// Takes a reread; `false` when none is left (the caller stops reading such expressions).
    pub(super) fn reread(&mut self) -> bool {
        let ok = self.rereads > 0;
        self.rereads = self.rereads.saturating_sub(1);
        ok
    }

    /// Takes `n` bytes from the budget; `false` (and nothing taken) when it has not that many.
    fn charge(&mut self, n: usize) -> bool {
        let ok = self.bytes >= n;
        if ok {
            self.bytes -= n;
        }
        ok
    }
}

/// Runs the parse `f` of `source` on a stack deep enough for it whatever its nesting (each byte
/// opens at most one level; oxc takes about 1.1 KB of stack per level): the current one when it
/// has room, else a new one (`stacker`). A stack overflow would abort the whole build.
fn with_stack<R>(source: &str, f: impl FnOnce() -> R) -> R {
    let need = 256 * 1024 + source.len() * 2048;
    stacker::maybe_grow(need, need, f)
}

/// Why `source` is not handed to the parser, when it is not: too deeply nested (refused, as acorn
/// refuses it), or too long (not checked).
fn unparsed(source: &str) -> Option<Option<String>> {
    if super::js::max_depth(source) > MAX_DEPTH {
        return Some(Some(format!(
            "its JavaScript nests brackets deeper than {MAX_DEPTH} levels, past what MDX's parser reads"
        )));
    }
    (source.len() > MAX_PARSED).then_some(None)
}

/// What acorn makes of an ESM block's text so far.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Esm {
    /// It parses, and holds only `import` and `export` declarations.
    Complete,
    /// It stops at its end: the lines up to the next blank one may complete it.
    Incomplete,
    /// It does not parse, or holds another statement: MDX refuses the page (why).
    Refused(String),
    /// Too long to parse here ([`MAX_PARSED`]), or the page's [`ParseBudget`] is spent.
    Unchecked,
}

fn source_type() -> SourceType {
    SourceType::mjs().with_jsx(true)
}

/// Whether `error` reaches `end`, the end of the code read (white space aside): acorn's "raised at
/// the end", which MDX reads as "not complete yet".
fn at_end(error: &OxcDiagnostic, end: usize) -> bool {
    (error.labels.iter().flatten()).any(|label| label.offset() + label.len() >= end)
}

/// oxc's refusal of a hyphen in a JSX member name (`<a.b-c />`), which acorn-jsx, MDX's parser,
/// reads as part of the name (its JSX identifiers may hold hyphens, after a dot too).
const JSX_HYPHEN: &str = "Identifiers in JSX cannot contain hyphens";

/// The bytes a JSX name's hyphen may be written as for oxc: name characters; the first the source
/// lacks is taken.
const HYPHEN_MARKS: &[u8] = b"_$ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// The verdict of `read` on `source`, where a hyphen in a JSX member name is read as acorn-jsx
/// reads it. `read` parses the code it is given (with an allocator of its own) and gives its
/// verdict and, when oxc's first error is [`JSX_HYPHEN`], that error: the name's hyphens are then
/// written as a name byte `source` lacks, so names differ after that as they did before
/// (`<a.b-c></a.b_c>` stays refused, as acorn refuses it), and the code is read again. oxc stops
/// at the first such name, so each round mends one; each round is charged to the page's
/// [`ParseBudget`] (spent: `unchecked`, as everywhere past the budget), so mending stays linear.
fn read_as_acorn<R>(
    source: &str,
    budget: &mut ParseBudget,
    unchecked: R,
    mut read: impl FnMut(&str) -> (R, Option<OxcDiagnostic>),
) -> R {
    let mut code = std::borrow::Cow::Borrowed(source);
    loop {
        let (verdict, hyphen) = read(&code);
        // Looked for only once there is a name to mend: every parse of a page comes here.
        let mark = || (HYPHEN_MARKS.iter().copied()).find(|m| !source.as_bytes().contains(m));
        let next = hyphen.and_then(|error| mend_jsx_hyphens(&code, &error, mark()?));
        match next {
            None => return verdict,
            Some(next) if budget.charge(next.len()) => code = std::borrow::Cow::Owned(next),
            Some(_) => return unchecked,
        }
    }
}

/// `error`, when it is [`JSX_HYPHEN`] (cloned only then).
fn jsx_hyphen(error: Option<&OxcDiagnostic>) -> Option<OxcDiagnostic> {
    error.filter(|e| e.message == JSX_HYPHEN).cloned()
}

/// `code` with the hyphens of the name `error` labels written as `mark`: only a name of
/// identifier characters below U+10000 and hyphens (acorn-jsx refuses astral ones), and not one an
/// escape (`\u0041`) follows, which oxc would then read into the name where acorn refuses it.
/// The same length, so offsets hold.
fn mend_jsx_hyphens(code: &str, error: &OxcDiagnostic, mark: u8) -> Option<String> {
    let label = error.labels.as_ref()?.first()?;
    let span = label.offset()..label.offset().checked_add(label.len())?;
    let name = code.get(span.clone())?;
    let name_char = |c: char| {
        (c.is_alphanumeric() || matches!(c, '_' | '$' | '-' | '\u{200c}' | '\u{200d}'))
            && c < '\u{10000}'
    };
    if !name.contains('-')
        || !name.chars().all(name_char)
        || code.as_bytes().get(span.end) == Some(&b'\\')
    {
        return None;
    }
    let mut out = code.as_bytes().to_vec();
    for b in &mut out[span] {
        if *b == b'-' {
            *b = mark;
        }
    }
    // ASCII bytes were swapped for ASCII bytes.
    String::from_utf8(out).ok()
}

/// Reads `source`, an ESM block's lines so far.
pub(super) fn esm(source: &str, budget: &mut ParseBudget) -> Esm {
    match unparsed(source) {
        Some(Some(why)) => return Esm::Refused(why),
        Some(None) => return Esm::Unchecked,
        None if !budget.charge(source.len()) => return Esm::Unchecked,
        None => {}
    }
    with_stack(source, || esm_parsed(source, budget))
}

fn esm_parsed(source: &str, budget: &mut ParseBudget) -> Esm {
    read_as_acorn(source, budget, Esm::Unchecked, |code| {
        let allocator = Allocator::default();
        let parsed = Parser::new(&allocator, code, source_type()).parse();
        (
            esm_verdict(&parsed, source),
            jsx_hyphen(parsed.errors.first()),
        )
    })
}

fn esm_verdict(parsed: &oxc_parser::ParserReturn, source: &str) -> Esm {
    if let Some(error) = parsed.errors.first() {
        return match at_end(error, source.trim_end().len()) {
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

/// What an expression `{…}` is, for what acorn must read in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ExpressionKind {
    /// In text, or an attribute's value: one expression, then only white space and comments.
    Value,
    /// In place of an attribute: an object's inside (`({` … `})`), one spread and nothing else.
    Spread,
}

/// What acorn makes of an expression's inside.
enum Verdict {
    Parses,
    /// An error at its very end: MDX reads on, past the `}` it took for the end.
    AtEnd,
    Refused(String),
}

/// The most `}`s MDX's way of finding an expression's end is tried at, past the scanner's.
const MAX_BRACE_TRIES: usize = 256;

/// Where MDX ends the expression whose inside starts `from` (the text after its `{`): the length of
/// its inside, up to the `}` that closes it; or why MDX refuses it. MDX (its expression factory,
/// with acorn) asks acorn at every `}` in turn, whatever the braces, quotes or brackets before it
/// (a `{` in a string, a `)` in JSX text are nothing to it), reads on past any `}` where acorn
/// fails, and refuses only at the end of the page. `scanned`, the inside the scanner found
/// (`js::skip_balanced`), is tried first: where it parses, so did every reading acorn accepted
/// (`{x && <p>Step 1) go</p>}`, which the scanner ends at the `)`, parses at MDX's end). Past
/// [`MAX_BRACE_TRIES`] `}`s, or once the page's budget is spent, the expression is taken as
/// parsing, at the scanner's end (or the last `}` tried). (An empty one, or one of comments
/// alone, is the caller's to judge: text allows it, an attribute not.)
pub(super) fn expression_end(
    from: &str,
    scanned: Option<usize>,
    kind: ExpressionKind,
    budget: &mut ParseBudget,
) -> Result<usize, String> {
    if let Some(n) = scanned.filter(|&n| n <= from.len()) {
        if let Verdict::Parses = verdict(&from[..n], kind, budget) {
            return Ok(n);
        }
    }
    let mut last = None;
    for (tries, (k, _)) in from.match_indices('}').enumerate() {
        if tries >= MAX_BRACE_TRIES {
            return Ok(scanned.unwrap_or(k));
        }
        match verdict(&from[..k], kind, budget) {
            Verdict::Parses => return Ok(k),
            Verdict::AtEnd => {}
            Verdict::Refused(why) => last = Some(why),
        }
    }
    Err(last.unwrap_or_else(|| "an expression never closes".into()))
}

fn verdict(source: &str, kind: ExpressionKind, budget: &mut ParseBudget) -> Verdict {
    if let Some(refused) = unparsed(source) {
        return refused.map_or(Verdict::Parses, Verdict::Refused);
    }
    if !budget.charge(source.len()) {
        return Verdict::Parses;
    }
    with_stack(source, || match kind {
        ExpressionKind::Value => value_verdict(source, budget),
        ExpressionKind::Spread => spread_verdict(source, budget),
    })
}

/// `verdict` on the parse of expression `code` (see [`read_as_acorn`]; past the budget, parsing).
fn expression_as_acorn(
    code: &str,
    budget: &mut ParseBudget,
    verdict: impl Fn(Result<Expression, Vec<OxcDiagnostic>>) -> Verdict,
) -> Verdict {
    read_as_acorn(code, budget, Verdict::Parses, |code| {
        let allocator = Allocator::default();
        let parsed = Parser::new(&allocator, code, source_type()).parse_expression();
        let hyphen = jsx_hyphen(parsed.as_ref().err().and_then(|e| e.first()));
        (verdict(parsed), hyphen)
    })
}

fn value_verdict(source: &str, budget: &mut ParseBudget) -> Verdict {
    expression_as_acorn(source, budget, |parsed| value_of(parsed, source))
}

fn value_of(parsed: Result<Expression, Vec<OxcDiagnostic>>, source: &str) -> Verdict {
    match parsed {
        Err(errors) => match errors.first() {
            Some(error) if at_end(error, source.trim_end().len()) => Verdict::AtEnd,
            error => Verdict::Refused(format!(
                "an expression does not parse: {}",
                error.map_or("", |e| &e.message)
            )),
        },
        Ok(expression) => {
            let rest = &source[(expression.span().end as usize).min(source.len())..];
            match only_comments(rest) {
                true => Verdict::Parses,
                // A comment left open runs to the end: acorn reads on.
                false if rest.trim_start().starts_with("/*") && !rest.contains("*/") => {
                    Verdict::AtEnd
                }
                false => Verdict::Refused("an expression has content after it".into()),
            }
        }
    }
}

fn spread_verdict(source: &str, budget: &mut ParseBudget) -> Verdict {
    // No line ending before the `})`: a `//` comment that runs to the closing brace takes it
    // (acorn refuses `{...b // c}`).
    let wrapped = format!("({{{source}}})");
    expression_as_acorn(&wrapped, budget, |parsed| {
        spread_of(parsed, source, wrapped.len())
    })
}

/// The verdict on a spread's inside `source` from the parse of `({source})`, `wrapped` bytes long.
fn spread_of(
    parsed: Result<Expression, Vec<OxcDiagnostic>>,
    source: &str,
    wrapped: usize,
) -> Verdict {
    let expression = match parsed {
        // At the end of the inside (after `({`), as acorn would raise it reading the inside alone.
        Err(errors) => {
            return match errors.first() {
                Some(e) if at_end(e, 2 + source.trim_end().len()) => Verdict::AtEnd,
                e => Verdict::Refused(format!(
                    "a spread does not parse: {}",
                    e.map_or("", |e| &e.message)
                )),
            };
        }
        Ok(expression) => expression,
    };
    if (expression.span().end as usize) < wrapped {
        return Verdict::Refused("a spread has content after it".into());
    }
    let object = match expression.without_parentheses() {
        Expression::ObjectExpression(object) => object,
        _ => return Verdict::Refused("a spread does not parse".into()),
    };
    match object.properties.as_slice() {
        [ObjectPropertyKind::SpreadProperty(_)] => Verdict::Parses,
        [] => Verdict::Refused("a spread holds nothing".into()),
        [_] => Verdict::Refused("only spread elements are supported".into()),
        _ => Verdict::Refused("only a single spread is supported".into()),
    }
}

/// Whether an expression's text is empty: white space and comments only (`{}`, `{/* c */}`,
/// `{// c` then a line ending). MDX refuses an attribute's or a spread's ("Unexpected empty
/// expression"); text allows it. A comment that never ends is not read as empty, nor a `//` one
/// that runs to the closing brace, which takes it (acorn refuses `{// c}`).
pub(super) fn only_comments(inner: &str) -> bool {
    let mut rest = inner.trim_start_matches(js_space);
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            let Some(close) = after.find("*/") else {
                return false;
            };
            rest = &after[close + 2..];
        } else if let Some(after) = rest.strip_prefix("//") {
            let Some(eol) = after.find(['\n', '\r', '\u{2028}', '\u{2029}']) else {
                return false;
            };
            rest = &after[eol..];
        } else {
            return false;
        }
        rest = rest.trim_start_matches(js_space);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An expression's inside as the page holds it: the scanner's reading, then its `}`.
    fn esm1(src: &str) -> Esm {
        esm(src, &mut ParseBudget::for_page(src.len()))
    }

    fn refused(from: &str, scanned: usize, kind: ExpressionKind) -> Option<String> {
        let mut budget = ParseBudget::for_page(from.len());
        expression_end(from, Some(scanned), kind, &mut budget).err()
    }

    fn value(src: &str) -> Option<String> {
        refused(&format!("{src}}} after"), src.len(), ExpressionKind::Value)
    }

    fn spread(src: &str) -> Option<String> {
        refused(&format!("{src}}} after"), src.len(), ExpressionKind::Spread)
    }

    #[test]
    fn session_33_esm_as_acorn_reads_it() {
        for src in [
            "import A from '/snippets/a.mdx'",
            "export const A = () => <Foo.Bar />",
            "export const a = <div>\n\n</div>",
            "import a from 'b' with { type: 'json' }",
        ] {
            assert_eq!(esm1(src), Esm::Complete, "{src:?}");
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
            assert_eq!(esm1(src), Esm::Incomplete, "{src:?}");
        }
        for src in [
            "export const a = {b c}",
            "export const a = 1; a <= b",
            "import a from 'b';;",
            "export const x = 1\nexport const x = 2",
            "export const A = () => (\n  <button\n   <Foo.Bar /> aria-label=\"x\"\n  >+</button>\n)",
        ] {
            assert!(matches!(esm1(src), Esm::Refused(_)), "{src:?}");
        }
    }

    #[test]
    fn session_35_a_hyphen_in_a_jsx_member_name_parses_as_acorn_jsx_reads_it() {
        for src in [
            "export const a = <a.b-c />",
            "export const a = <a.b-c></a.b-c>",
            "export const a = <a.b-c-d.e-f g-h=\"1\" />",
        ] {
            assert_eq!(esm1(src), Esm::Complete, "{src:?}");
        }
        // Each parse that mends is charged to the page's budget: many such names in one block
        // stay linear (oxc reports one at a time), and past the budget the code is unchecked.
        let many = format!("export const a = <>{}</>", "<a.b-c />".repeat(20_000));
        assert_eq!(esm1(&many), Esm::Unchecked);
        assert_eq!(value("<a.b-c>x</a.b-c>"), None);
        assert_eq!(spread("...{a: <x.y-z />}"), None);
        // acorn-jsx reads names with non-ASCII letters too.
        assert_eq!(esm1("export const a = <a.é-b></a.é-b>"), Esm::Complete);
        // Names that differ as written still differ (the mend writes a byte the code lacks), and
        // an escape after a name is not read into it: acorn refuses both.
        for src in [
            "export const a = <a.b-c></a.b_c>",
            "export const a = <a.b_c></a.b-c>",
            "export const a = <a.b-c.d_e></a.b_c.d-e>",
            "export const a = <a.b$c-d></a.b-c$d>",
            "export const a = <a.b-c\\u0041 />",
        ] {
            assert!(matches!(esm1(src), Esm::Refused(_)), "{src:?}");
        }
        assert!(value("<a.b-c></a.b_c>").is_some());
        assert!(spread("...<a.b-c></a.b_c>").is_some());
        // What acorn refuses after the mended name is still refused, and the rest is unchanged.
        assert!(matches!(
            esm1("export const a = <a.b-c />; a <= b"),
            Esm::Refused(_)
        ));
        assert!(value("<a.b-c> + </a.b-d>").is_some());
        assert_eq!(esm1("export const a = <a.b-c"), Esm::Incomplete);
    }

    /// The review's crash: oxc's parser recursing per level overflowed a build thread's stack at
    /// 2,000 levels, and aborted the build. Deep brackets are refused unparsed (acorn refuses them
    /// too); other nesting (prefix operators, `**`, `=>`) parses on a stack sized to the input.
    #[test]
    fn session_33_deep_javascript_never_overflows_the_stack() {
        let deep = |open: &str, close: &str, n: usize| open.repeat(n) + "a" + &close.repeat(n);
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                for (src, refused) in [
                    (format!("export const a = {}", deep("[", "]", 2_000)), true),
                    (
                        format!("export const a = {}", deep("(", ")", 100_000)),
                        true,
                    ),
                    (format!("export const a = {}", deep("!", "", 50_000)), false),
                    (
                        format!("export const a = {}", deep("x => ", "", 10_000)),
                        false,
                    ),
                    (
                        format!("export const a = {}", deep("a ** ", "", 10_000)),
                        false,
                    ),
                ] {
                    let got = esm(&src, &mut ParseBudget::for_page(src.len()));
                    assert_eq!(matches!(got, Esm::Refused(_)), refused, "{:?}", &src[..40]);
                }
                assert!(value(&deep("[", "]", 5_000)).is_some());
                assert!(value(&deep("- ", "", 30_000)).is_none());
                assert!(spread(&format!("...{}", deep("(", ")", 3_000))).is_some());
            })
            .unwrap()
            .join()
            .unwrap();
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
            assert_eq!(value(src), None, "{src:?}");
        }
        for src in ["a b", "a), (b", "<a>{</a>", "a <", "1 +", "a /* open"] {
            assert!(value(src).is_some(), "{src:?}");
        }
        assert_eq!(spread("...props"), None);
        assert_eq!(spread(" ...{a: 1} /* c */"), None);
        for src in ["a<b", "a", "...a, ...b", "a: 1", ""] {
            assert!(spread(src).is_some(), "{src:?}");
        }
        // The scanner ends these at a `)` or `]` in JSX text, or a `}` in a string; MDX asks
        // acorn at each `}`, whatever comes before it (a `{` in a string too).
        for (from, scanned) in [
            ("x && <p>Step 1) go</p>} after", "x && <p>Step 1"),
            ("x && <p>a] b</p>} after", "x && <p>a"),
            ("\"}\"} after", "\""),
            ("<a>don't</a> && \"{\"} end", "<a>don't</a> && \"{\"} end"),
        ] {
            assert_eq!(refused(from, scanned.len(), ExpressionKind::Value), None);
        }
        assert!(only_comments(" /* a */ // b\n  "));
        assert!(!only_comments("/* a"));
        assert!(!only_comments("// b"));
        for src in ["a // c", "// c", "f(x) // c"] {
            assert!(value(src).is_some(), "{src:?}");
        }
        assert!(spread("...b // c").is_some());
        assert_eq!(value("a // c\n"), None);
    }
}
