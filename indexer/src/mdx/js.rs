//! Just enough JavaScript for MDX: where an ESM block (`import`/`export`) or an expression
//! (`{…}`, a tag's attribute value) ends. Strings, template literals with `${}`, comments and
//! regular expression literals are read as JavaScript reads them, so a brace or quote inside
//! them never ends anything. Not a parser: where the code is complete, whether it parses is
//! `js_parse`'s to say (JSX text inside code, which this scanner misreads, included).

use super::js_parse;

/// The state of a JavaScript scanner fed an ESM block line by line: enough to tell whether the
/// block is complete (no open bracket, string, template literal or comment), which is where MDX
/// ends an `import`/`export` block at a blank line.
#[derive(Default)]
pub(super) struct EsmScan {
    depth: i64,
    /// Per open `${` of a template literal, the braces opened inside it.
    templates: Vec<i64>,
    state: JsState,
    /// The last byte of code that was not white space (0 at the start): tells a regular
    /// expression (`= /`/`) from a division (`a / b`).
    prev: u8,
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
pub(super) enum JsState {
    #[default]
    Code,
    Str(u8),
    Template,
    LineComment,
    BlockComment,
    /// A regular expression literal; `true` inside a `[...]` class.
    Regex(bool),
}

impl EsmScan {
    pub(super) fn feed(&mut self, line: &str) {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            i += self.step(b, i);
        }
        if self.state == JsState::LineComment {
            self.state = JsState::Code;
        }
    }

    /// Reads the byte at `b[i]` (and the next, for two-byte tokens); returns how many it took.
    pub(super) fn step(&mut self, b: &[u8], i: usize) -> usize {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if self.state == JsState::Code && !c.is_ascii_whitespace() {
            let prev = std::mem::replace(&mut self.prev, c);
            if c == b'/'
                && !matches!(next, Some(b'/' | b'*'))
                && (matches!(
                    prev,
                    0 | b'('
                        | b','
                        | b'='
                        | b':'
                        | b'['
                        | b'!'
                        | b'&'
                        | b'|'
                        | b'?'
                        | b'{'
                        | b'}'
                        | b';'
                        | b'+'
                        | b'-'
                        | b'*'
                        | b'%'
                        | b'~'
                        | b'^'
                ) || (prev == b'>' && arrow_before(&b[..i]))
                    || after_keyword(&b[..i]))
            {
                self.state = JsState::Regex(false);
                return 1;
            }
        }
        match self.state {
            JsState::Regex(in_class) => match c {
                b'\\' => return 2,
                b'[' => self.state = JsState::Regex(true),
                b']' => self.state = JsState::Regex(false),
                b'/' if !in_class => self.state = JsState::Code,
                b'\n' => self.state = JsState::Code,
                _ => {}
            },
            JsState::Code => match c {
                b'\'' | b'"' => self.state = JsState::Str(c),
                b'`' => self.state = JsState::Template,
                b'/' if next == Some(b'/') => self.state = JsState::LineComment,
                b'/' if next == Some(b'*') => {
                    self.state = JsState::BlockComment;
                    return 2;
                }
                b'(' | b'[' | b'{' => {
                    self.depth += 1;
                    if let Some(t) = self.templates.last_mut() {
                        *t += 1;
                    }
                }
                b'}' if self.templates.last() == Some(&0) => {
                    self.templates.pop();
                    self.state = JsState::Template;
                }
                b')' | b']' | b'}' => {
                    self.depth -= 1;
                    if let Some(t) = self.templates.last_mut() {
                        *t -= 1;
                    }
                }
                _ => {}
            },
            // A string cannot span lines: an apostrophe in JSX text (`don't`) ends at the line.
            JsState::Str(q) => {
                if c == b'\\' {
                    return 2;
                } else if c == q || c == b'\n' {
                    self.state = JsState::Code;
                }
            }
            JsState::Template => {
                if c == b'\\' {
                    return 2;
                } else if c == b'`' {
                    self.state = JsState::Code;
                } else if c == b'$' && next == Some(b'{') {
                    self.templates.push(0);
                    self.state = JsState::Code;
                    return 2;
                }
            }
            JsState::LineComment => {
                if c == b'\n' {
                    self.state = JsState::Code;
                }
            }
            JsState::BlockComment => {
                if c == b'*' && next == Some(b'/') {
                    self.state = JsState::Code;
                    return 2;
                }
            }
        }
        1
    }

    pub(super) fn complete(&self) -> bool {
        self.state == JsState::Code && self.depth <= 0 && self.templates.is_empty()
    }
}

/// The deepest nesting of brackets (and template literals' `${`) in `source`, read as JavaScript
/// (a bracket in a string or comment is none).
pub(super) fn max_depth(source: &str) -> usize {
    let mut scan = EsmScan::default();
    let (b, mut i, mut deepest) = (source.as_bytes(), 0, 0);
    while i < b.len() {
        i += scan.step(b, i);
        let depth = scan.depth.max(0) as usize + scan.templates.len();
        deepest = deepest.max(depth);
    }
    deepest
}

/// Where the ESM block (`import`/`export`) that starts at `lines[start]` ends, as MDX reads it: at
/// a blank line where its code so far parses (acorn there, [`js_parse::esm`] here); an error at the
/// very end of the code so far reads on to the next blank line, an error anywhere else refuses the
/// page ([`EsmEnd::refused`], the block ending there). Code still open at the end of the page is
/// refused too; it ends at its first blank line (`Err` with that index), so that a broken `export`
/// costs only itself. A block is parsed at each blank line up to [`MAX_PARSES`] times; past that
/// the scanner decides where it ends (and the page's end whether it parses).
pub(super) fn esm_block_end(
    lines: &[&str],
    start: usize,
    budget: &mut js_parse::ParseBudget,
) -> Result<EsmEnd, usize> {
    let mut scan = EsmScan::default();
    let mut first_blank = None;
    let mut parses = 0;
    let mut parsed_to = start;
    let mut source = String::new();
    for (j, line) in lines.iter().enumerate().skip(start) {
        scan.feed(line);
        // A blank line ends the block only after code (each run of blank lines is looked past
        // once, not once per line of it).
        let next_blank = lines.get(j + 1).is_none_or(|l| l.trim().is_empty());
        if !next_blank || line.trim().is_empty() {
            continue;
        }
        first_blank.get_or_insert(j + 1);
        let page_end = lines[j + 1..].iter().all(|l| l.trim().is_empty());
        // Parsed at every blank line (the scanner misreads JSX text such as `<p>Don't</p>`), up to
        // a budget, then where the scanner finds the code complete; always at the page's end.
        if parses < MAX_PARSES || page_end {
            parses += 1;
            source.extend(lines[parsed_to..=j].iter().copied());
            parsed_to = j + 1;
            let refused = match js_parse::esm(&source, budget) {
                js_parse::Esm::Complete => None,
                // Too long to parse: the scanner decides, as below.
                js_parse::Esm::Unchecked if !scan.complete() || continues_code(&lines[j + 1..]) => {
                    continue
                }
                js_parse::Esm::Unchecked => None,
                js_parse::Esm::Incomplete if !page_end => continue,
                js_parse::Esm::Incomplete => {
                    return Err(first_blank.unwrap_or(lines.len()));
                }
                js_parse::Esm::Refused(why) => Some(why),
            };
            // A refused block costs only itself: to its first blank line.
            let end = match refused {
                Some(_) => first_blank.unwrap_or(j + 1),
                None => j + 1,
            };
            return Ok(EsmEnd { end, refused });
        }
        if scan.complete() && !continues_code(&lines[j + 1..]) {
            return Ok(EsmEnd {
                end: j + 1,
                refused: None,
            });
        }
    }
    Err(first_blank.unwrap_or(lines.len()))
}

/// The most times one ESM block is parsed while looking for its end (each parse reads the block
/// so far: a block of many blank lines would otherwise cost their square).
const MAX_PARSES: usize = 64;

/// Where an ESM block ends, and why MDX refuses it, if it does.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct EsmEnd {
    pub end: usize,
    pub refused: Option<String>,
}

/// The index after the line before the first blank line from `start` (or the end).
pub(super) fn esm_first_blank(lines: &[&str], start: usize) -> usize {
    (start + 1..lines.len())
        .find(|&j| lines[j].trim().is_empty())
        .unwrap_or(lines.len())
}

/// Whether the first non-blank line of `rest` continues code rather than starting Markdown: it is
/// indented, or opens with a closing bracket, an operator or a string. (JSX text such as `don't`
/// can make the scanner think a block complete too early.)
pub(super) fn continues_code(rest: &[&str]) -> bool {
    let Some(line) = rest.iter().find(|l| !l.trim().is_empty()) else {
        return false;
    };
    let t = line.trim_start();
    line.starts_with([' ', '\t'])
        || t.starts_with("</")
        || t.starts_with(['}', ')', ']', '.', ',', '?', ':', '+', '&', '|', '"', '\''])
}

/// `import` statements of an ESM block: (local names, specifier) of each.
pub(super) fn block_imports(block: &str) -> Vec<(Vec<String>, String)> {
    let flat = block.split_whitespace().collect::<Vec<_>>().join(" ");
    flat.split(';')
        .flat_map(|stmt| stmt.split(" import "))
        .filter_map(|stmt| {
            let stmt = stmt.trim();
            let stmt = if stmt.starts_with("import ") {
                stmt.to_owned()
            } else {
                format!("import {stmt}")
            };
            parse_import(&stmt)
        })
        .collect()
}

/// The names an ESM block's `export` statements bind: `export const A = …, B = …`, `export
/// [default] [async] function C`, `export class D`, `export { E, f as F }` (what a page may use as
/// a component; a name only JavaScript could tell is a component or not counts).
pub(super) fn block_exports(block: &str) -> Vec<String> {
    let flat = block.split_whitespace().collect::<Vec<_>>().join(" ");
    let is_name = |n: &str| !n.is_empty() && n.chars().all(is_name_char);
    let mut names = Vec::new();
    for stmt in flat.split("export ").skip(1) {
        let stmt = stmt.trim_start();
        if let Some(list) = stmt.strip_prefix('{') {
            let list = list.split('}').next().unwrap_or_default();
            for item in list.split(',') {
                let alias = item.rsplit(" as ").next().unwrap_or(item).trim();
                if is_name(alias) {
                    names.push(alias.to_owned());
                }
            }
            continue;
        }
        let mut rest = stmt;
        for keyword in ["default ", "async "] {
            rest = rest.strip_prefix(keyword).unwrap_or(rest).trim_start();
        }
        let (declares, after) = match rest.split_once(' ') {
            Some((w, after)) => (w, after),
            None => continue,
        };
        let first = |text: &str| -> Option<String> {
            let name: String = text
                .trim_start_matches(['*', ' '])
                .chars()
                .take_while(|&c| is_name_char(c))
                .collect();
            is_name(&name).then_some(name)
        };
        match declares {
            "function" | "function*" | "class" => names.extend(first(after)),
            // Every declarator: the first, and each after a comma outside brackets and strings.
            "const" | "let" | "var" => {
                names.extend(first(after));
                let (mut depth, mut quote) = (0i32, None::<char>);
                for (i, c) in after.char_indices() {
                    match (quote, c) {
                        (Some(q), c) if c == q => quote = None,
                        (Some(_), _) => {}
                        (None, '"' | '\'' | '`') => quote = Some(c),
                        (None, '(' | '[' | '{') => depth += 1,
                        (None, ')' | ']' | '}') => depth -= 1,
                        (None, ';') if depth <= 0 => break,
                        (None, ',') if depth == 0 => names.extend(first(&after[i + 1..])),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    names
}

/// A character of a JavaScript name as the import and export readers take one.
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// `import A, { B as C } from "/snippets/x.mdx"` → (["A", "C"], "/snippets/x.mdx").
pub(super) fn parse_import(line: &str) -> Option<(Vec<String>, String)> {
    let rest = line.strip_prefix("import ")?;
    let from = rest.rfind(" from ")?;
    let names_part = &rest[..from];
    let spec = rest[from + 6..]
        .trim()
        .trim_end_matches(';')
        .trim()
        .trim_matches(|c| c == '"' || c == '\'')
        .to_owned();
    let mut names = Vec::new();
    for raw in names_part.split([',', '{', '}']) {
        let n = raw.trim();
        if n.is_empty() {
            continue;
        }
        let alias = n.rsplit(" as ").next().unwrap_or(n).trim();
        if alias.chars().all(is_name_char) {
            names.push(alias.to_owned());
        }
    }
    Some((names, spec))
}

/// Skips a `{ ... }` expression as JavaScript reads it (strings, template literals, `//` and
/// `/* */` comments: `{/* don't } */}` is one comment). Returns the index after its closing brace,
/// or `None` when it never closes.
pub(super) fn skip_balanced(b: &[u8], start: usize) -> Option<usize> {
    let mut scan = EsmScan::default();
    let mut i = start;
    while i < b.len() {
        i += scan.step(b, i);
        if scan.depth <= 0 && scan.state == JsState::Code && scan.templates.is_empty() {
            return Some(i.min(b.len()));
        }
    }
    None
}

/// Whether `code` ends with `=>` (a `/` after an arrow starts a regular expression; after the `>`
/// of a JSX tag, `</x>`, it does not).
pub(super) fn arrow_before(code: &[u8]) -> bool {
    code.trim_ascii_end().ends_with(b"=>")
}

/// Whether `code` ends with a keyword after which a `/` starts a regular expression.
pub(super) fn after_keyword(code: &[u8]) -> bool {
    let code = code.trim_ascii_end();
    let word_len = code
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'$')
        .count();
    let word = &code[code.len() - word_len..];
    [
        &b"return"[..],
        b"typeof",
        b"case",
        b"in",
        b"of",
        b"new",
        b"delete",
        b"void",
        b"throw",
        b"else",
        b"do",
        b"yield",
        b"await",
        b"instanceof",
    ]
    .contains(&word)
}
