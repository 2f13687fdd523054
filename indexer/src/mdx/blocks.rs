//! Markdown's block and inline structure as far as the MDX pass needs it: fences (and list items
//! holding them), code spans by backtick runs, raw-text elements (`<script>`, `<style>`), all in
//! linear time.

/// Backtick runs of one line, by length, for inline code spans in linear time: a run opens a code
/// span when a later run of the same length closes it (CommonMark), else it is text.
pub(super) struct BacktickRuns {
    line_start: usize,
    line_end: usize,
    by_len: std::collections::HashMap<usize, Vec<usize>>,
}

impl BacktickRuns {
    /// The runs of `mark` in `text[line_start..line_end]`: `` ` `` for code spans, `$` for inline
    /// math (`remark-math`), which opens and closes as a code span does.
    pub(super) fn of_marks(text: &str, line_start: usize, line_end: usize, mark: u8) -> Self {
        let mut by_len: std::collections::HashMap<usize, Vec<usize>> = Default::default();
        let b = text.as_bytes();
        let mut i = line_start;
        while i < line_end {
            if b[i] == mark {
                let run = b[i..line_end].iter().take_while(|&&c| c == mark).count();
                by_len.entry(run).or_default().push(i);
                i += run;
            } else {
                i += 1;
            }
        }
        BacktickRuns {
            line_start,
            line_end,
            by_len,
        }
    }

    /// Whether `at` lies in the range these runs were found in.
    pub(super) fn covers(&self, at: usize) -> bool {
        (self.line_start..self.line_end).contains(&at)
    }

    /// Where the run that closes a run of `len` starting at `at` starts, if any.
    pub(super) fn closing(&self, at: usize, len: usize) -> Option<usize> {
        let runs = self.by_len.get(&len)?;
        runs.get(runs.partition_point(|&p| p <= at)).copied()
    }
}

/// Where the span that a run of `mark` (`` ` `` for code, `$` for math) at `at` opens ends: after
/// its closing run of the same length in the paragraph, else after the run itself (text). `runs`
/// keeps the runs of the paragraph last read, so a paragraph is read once.
pub(super) fn span_end(text: &str, at: usize, mark: u8, runs: &mut Option<BacktickRuns>) -> usize {
    let run = text[at..].bytes().take_while(|&b| b == mark).count();
    if runs.as_ref().is_none_or(|r| !r.covers(at)) {
        let line_start = text[..at].rfind('\n').map_or(0, |p| p + 1);
        let end = paragraph_end(text, at);
        *runs = Some(BacktickRuns::of_marks(text, line_start, end, mark));
    }
    (runs.as_ref())
        .and_then(|r| r.closing(at, run))
        .map_or(at + run, |p| p + run)
}

/// Where the paragraph holding `at` ends: at the next blank line or fence line, or a line that
/// starts a block of its own and so interrupts a paragraph (an ATX heading, a list item, a
/// thematic break, a block quote outside one, a math block, a table row, a line of tags), or the
/// end. A code span or math that a stray
/// backtick or `$` would pair across list items or a heading stays in its paragraph.
fn paragraph_end(text: &str, at: usize) -> usize {
    let line_start = text[..at].rfind('\n').map_or(0, |p| p + 1);
    let in_quote = text[line_start..]
        .trim_start_matches([' ', '\t'])
        .starts_with('>');
    let mut pos = text[at..].find('\n').map_or(text.len(), |p| at + p);
    while pos < text.len() {
        let next = pos + 1;
        let line_end = text[next..].find('\n').map_or(text.len(), |p| next + p);
        // Blank is spaces and tabs only (a line of no-break spaces is text); a fence line is one
        // that opens a fence, however indented (`` ```a` `` is text; an indented one may be a
        // fence in MDX, and a code span stops before it either way).
        let lead = text[next..line_end].trim_start_matches([' ', '\t']);
        let blank = lead.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r'));
        let fence = fence_open(lead).is_some_and(|(ch, _)| ch != b'$');
        let line = lead.trim_end();
        let hashes = line.bytes().take_while(|&b| b == b'#').count();
        let heading = (1..=6).contains(&hashes)
            && line[hashes..]
                .chars()
                .next()
                .is_none_or(|c| c == ' ' || c == '\t');
        // (A line of `=`, a setext underline, does not end it here.)
        let rule = is_thematic_break(line) && !line.starts_with('=');
        // A line of JSX or HTML tags (`<Note>`), a math block, a table row; in a block quote, a
        // line of `>` alone is blank.
        let b = line.as_bytes();
        let tags = b.first() == Some(&b'<')
            && b.get(1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'/')
            && line.ends_with('>');
        let quote_blank = in_quote && line.trim_start_matches(['>', ' ', '\t']).is_empty();
        if blank
            || fence
            || line.starts_with("$$")
            || line.starts_with('|')
            || tags
            || quote_blank
            || heading
            || rule
            || list_item(line).is_some_and(|(_, rest)| !rest.is_empty())
            || (!in_quote && line.starts_with('>'))
        {
            return pos;
        }
        pos = line_end;
    }
    text.len()
}

/// Where the text from `at` runs to before its next blank line (of spaces and tabs only: a line of
/// no-break spaces is text), or the end. Farther than [`paragraph_end`] (which also stops at any
/// line of backticks, so that a code span never hides a comment after one): for a bound that may
/// only ever be too far, as where an element opened in running text must close.
pub(super) fn blank_line_end(text: &str, at: usize) -> usize {
    let mut pos = text[at..].find('\n').map_or(text.len(), |p| at + p);
    while pos < text.len() {
        let next = pos + 1;
        let line_end = text[next..].find('\n').map_or(text.len(), |p| next + p);
        if text[next..line_end]
            .bytes()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r'))
        {
            return pos;
        }
        pos = line_end;
    }
    text.len()
}

/// `"```"`/`"~~~~"` at the start of a trimmed line: the fence's character and length. A backtick
/// fence's info string may not contain a backtick (CommonMark), so `` ```a`b``` `` is inline code.
///
/// `$$` opens a math block (`remark-math`, which Mintlify parses with): its text is kept as a
/// fence's is, and no tag, comment or expression opens in it; its meta may not hold a `$` either
/// (`$$ x $$` is inline math).
pub(super) fn fence_open(trimmed: &str) -> Option<(u8, usize)> {
    let ch = *trimmed.as_bytes().first()?;
    let least = match ch {
        b'`' | b'~' => 3,
        b'$' => 2,
        _ => return None,
    };
    let len = trimmed.bytes().take_while(|&c| c == ch).count();
    if len < least || (ch != b'~' && trimmed[len..].contains(ch as char)) {
        return None;
    }
    Some((ch, len))
}

/// A list item's marker (`- `, `* `, `+ `, `1. `, `1) `, an empty `-`): its width with the space
/// (a tab or five spaces count as one, as CommonMark's content indent does), and the rest.
pub(super) fn list_item(trimmed: &str) -> Option<(usize, &str)> {
    let b = trimmed.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let width = match b.first()? {
        b'-' | b'*' | b'+' => 1,
        _ if (1..=9).contains(&digits) && matches!(b.get(digits), Some(b'.' | b')')) => digits + 1,
        _ => return None,
    };
    let rest = &trimmed[width..];
    if rest.trim().is_empty() {
        return Some((width + 1, "")); // an empty item: its content starts on the next line
    }
    let ws = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    if ws == 0 {
        return None;
    }
    let spaces = columns(&rest[..ws]);
    let used = if spaces > 4 || rest.starts_with('\t') {
        1
    } else {
        spaces
    };
    Some((width + used, &rest[ws..]))
}

/// The columns a line's leading white space takes (a tab to the next multiple of four).
pub(super) fn columns(line: &str) -> usize {
    let mut col = 0;
    for c in line.chars() {
        match c {
            ' ' => col += 1,
            '\t' => col += 4 - col % 4,
            _ => break,
        }
    }
    col
}

/// When `rest` opens a `<script>` or `<style>` element (any case), whose content readers never
/// see: its length up to the end of its closing tag (or of `rest`, unclosed).
pub(super) fn raw_text_len(rest: &str) -> Option<usize> {
    let name = raw_text_element(rest)?;
    let close = format!("</{name}");
    Some(match find_ascii_ci(rest, &close) {
        Some(p) => rest[p..].find('>').map_or(rest.len(), |q| p + q + 1),
        None => rest.len(),
    })
}

/// `script` or `style` when `rest` opens that element (any case), whose content readers never see.
fn raw_text_element(rest: &str) -> Option<&'static str> {
    let b = rest.as_bytes();
    ["script", "style"].into_iter().find(|name| {
        let n = name.len();
        b.len() > n + 1
            && b[0] == b'<'
            && b[1..=n].eq_ignore_ascii_case(name.as_bytes())
            && (b[n + 1].is_ascii_whitespace() || b[n + 1] == b'>' || b[n + 1] == b'/')
    })
}

/// The index of the first `needle` (ASCII, lower case) in `hay` without regard to ASCII case.
fn find_ascii_ci(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    (0..h.len().saturating_sub(n.len() - 1)).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

pub(super) fn strip_indent(line: &str, n: usize) -> &str {
    let ws = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[ws.min(n)..]
}

/// The length of a Markdown link's resource (`(/url "title")`, starting at its `(`) when `rest`
/// opens one on this line, as CommonMark reads it: a `<…>` or raw destination (parentheses
/// balanced, backslash escapes), then an optional quoted or parenthesized title. Its text is the
/// link's, never a tag or comment (`[docs](/q?a<b)`). `None` when it is not one (or runs over a
/// line, which is left to the rest of the pass).
pub(super) fn link_resource_len(rest: &str) -> Option<usize> {
    let b = rest.as_bytes();
    if b.first() != Some(&b'(') {
        return None;
    }
    let skip_spaces = |mut i: usize| {
        while i < b.len() && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        i
    };
    let mut i = skip_spaces(1);
    if b.get(i) == Some(&b'<') {
        i += 1;
        loop {
            match b.get(i)? {
                b'>' => break,
                b'\n' | b'\r' | b'<' => return None,
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
        i += 1;
    } else {
        let mut depth = 0usize;
        while let Some(&c) = b.get(i) {
            match c {
                b'\\' if b.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i += 2,
                b'(' => {
                    depth += 1;
                    i += 1;
                }
                b')' if depth == 0 => break,
                b')' => {
                    depth -= 1;
                    i += 1;
                }
                c if c <= b' ' || c == 0x7f => break,
                _ => i += 1,
            }
        }
    }
    // Spaces and tabs with at most one line ending among them, as CommonMark allows around a
    // title; a blank line ends the paragraph, and the link with it.
    let skip_white = |i: usize| {
        let i = skip_spaces(i);
        let eol = match b.get(i) {
            Some(b'\r') if b.get(i + 1) == Some(&b'\n') => 2,
            Some(b'\n' | b'\r') => 1,
            _ => return i,
        };
        let next = skip_spaces(i + eol);
        match b.get(next) {
            None | Some(b'\n' | b'\r') => i,
            Some(_) => next,
        }
    };
    let after_destination = i;
    i = skip_white(i);
    if i > after_destination {
        let close = match b.get(i) {
            Some(b'"') => Some(b'"'),
            Some(b'\'') => Some(b'\''),
            Some(b'(') => Some(b')'),
            _ => None,
        };
        if let Some(close) = close {
            i += 1;
            loop {
                match *b.get(i)? {
                    // A title runs over lines, never over a blank one.
                    b'\n' | b'\r' => {
                        let next = skip_white(i);
                        if next == i {
                            return None;
                        }
                        i = next;
                    }
                    b'\\' => i += 2,
                    c if c == close => break,
                    _ => i += 1,
                }
            }
            i = skip_white(i + 1);
        }
    }
    (b.get(i) == Some(&b')')).then_some(i + 1)
}

/// Code fences as Mintlify's line scans see them (`categorizeFilePaths`,
/// `preprocessCustomHeadingIds`): a line whose trimmed start is three or more backticks or tildes
/// opens one, and a run of the same character at least as long closes it. Simpler than
/// `fence_open` on purpose: it is their rule, not CommonMark's.
#[derive(Default)]
pub struct LineFences {
    open: Option<(char, usize)>,
}

impl LineFences {
    /// Whether `line` (the next line) is code: inside a fence, or a fence's own line.
    pub fn is_code(&mut self, line: &str) -> bool {
        let trimmed = line.trim_start();
        let run = ['`', '~'].iter().find_map(|&c| {
            let n = trimmed.chars().take_while(|&x| x == c).count();
            (n >= 3).then_some((c, n))
        });
        match self.open {
            Some((c, n)) => {
                if run.is_some_and(|(rc, rn)| rc == c && rn >= n) {
                    self.open = None;
                }
                true
            }
            None => {
                self.open = run;
                run.is_some()
            }
        }
    }
}

/// A thematic break (or setext underline): three or more of one of `-`, `*`, `_` (`=` for an
/// underline), spaces and tabs between, indented less than four columns.
pub(super) fn is_thematic_break(line: &str) -> bool {
    let t = line.trim_end_matches(['\n', '\r']);
    if columns(t) - columns(t.trim_start_matches([' ', '\t'])) >= 4 {
        return false;
    }
    let marks: Vec<char> = t.chars().filter(|c| !matches!(c, ' ' | '\t')).collect();
    marks.len() >= 3
        && matches!(marks[0], '-' | '*' | '_' | '=')
        && marks.iter().all(|&c| c == marks[0])
}
