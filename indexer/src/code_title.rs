//! Here is a code fence's info string, give me the title Mintlify shows on the block's tab: the
//! words after the language (```` ```bash Install script ````), or its `title` option.
//!
//! The reference is `@mintlify/common` (1.0.1211), `rehypeCodeBlocks/parseMetaString.js` and
//! `metaOptions.js`: the meta (the info string after its first word) is read as options. Values in
//! quotes, slashes or braces (`title="A b"`, `/re/`, `{1,3}`), each after a space or the start
//! and before a space or the end, with an optional `key=` before them, are options; so is each
//! remaining word (`key` or `key=value`). The title is the last `title` option's text, else the
//! meta with every delimited value and every word whose key Mintlify reserves (`icon`, `lines`,
//! `highlight`, …) removed.

/// The longest meta (the info string after the language) read for a title.
const MAX_META_BYTES: usize = 1024;

/// Option keys Mintlify reads itself: never part of a title.
const RESERVED: &[&str] = &[
    "title",
    "icon",
    "lang",
    "lines",
    "wrap",
    "expandable",
    "[expandable]",
    "highlight",
    "focus",
    "theme",
    "twoslash",
    "nocopy",
];

/// The title of a fenced block whose info string is `info`, if it shows one.
pub fn code_block_title(info: &str) -> Option<String> {
    let meta = info.trim().split_once(char::is_whitespace)?.1.trim();
    // A title is a few words: an info string past 1 KB (written to make the delimited-value
    // search quadratic) shows none here.
    if meta.is_empty() || meta.len() > MAX_META_BYTES {
        return None;
    }
    let chars: Vec<char> = meta.chars().collect();
    let mut blanked = chars.clone();
    // (key, value, is text) of the options, in order.
    let mut titles: Vec<(usize, String)> = Vec::new();
    let mut p = 0;
    while p < chars.len() {
        let starts = if p == 0 { vec![0, 1] } else { vec![p + 1] };
        let at_space = chars[p].is_whitespace();
        let found = starts
            .into_iter()
            .filter(|&s| s == 0 || at_space)
            .filter(|&s| s <= chars.len())
            .find_map(|s| delimited_at(&chars, s).map(|m| (s, m)));
        match found {
            Some((_, (end, key, value, text))) => {
                for c in &mut blanked[p..end] {
                    *c = ' ';
                }
                if text
                    && key
                        .as_deref()
                        .is_some_and(|k| k.eq_ignore_ascii_case("title"))
                {
                    titles.push((p, value));
                }
                p = end;
            }
            None => p += 1,
        }
    }
    // The remaining words: `key` or `key=value`; reserved keys are blanked.
    let rest: String = blanked.iter().collect();
    let mut remaining = rest.clone();
    for (start, word, key, value) in simple_options(&rest) {
        if key.eq_ignore_ascii_case("title")
            && value
                .as_deref()
                .is_some_and(|v| v != "true" && v != "false")
        {
            titles.push((start, value.clone().unwrap_or_default()));
        }
        if RESERVED.contains(&key.as_str()) {
            remaining.replace_range(start..start + word.len(), &" ".repeat(word.len()));
        }
    }
    titles.sort_by_key(|(at, _)| *at);
    let title = match titles.pop() {
        Some((_, t)) if !t.is_empty() => t,
        _ => remaining.split_whitespace().collect::<Vec<_>>().join(" "),
    };
    (!title.is_empty()).then_some(title)
}

/// A delimited value whose `key=` (if any) starts at `s`: its end (past the closing delimiter),
/// key, unescaped value and whether it is text (not a regular expression, `true` or `false`).
fn delimited_at(chars: &[char], s: usize) -> Option<(usize, Option<String>, String, bool)> {
    let with_key = || -> Option<(usize, String)> {
        let mut i = s;
        while i < chars.len() && !chars[i].is_whitespace() && !"'\"/{=".contains(chars[i]) {
            i += 1;
        }
        if i == s {
            return None;
        }
        let key: String = chars[s..i].iter().collect();
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if chars.get(i) != Some(&'=') {
            return None;
        }
        i += 1;
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        Some((i, key))
    };
    let candidates = with_key()
        .map(|(i, k)| (i, Some(k)))
        .into_iter()
        .chain([(s, None)]);
    for (open, key) in candidates {
        let Some(&d) = chars.get(open) else { continue };
        let close = match d {
            '\'' | '"' | '/' => d,
            '{' => '}',
            _ => continue,
        };
        // The shortest value, backslash escapes skipped, whose closer is followed by a space or
        // the end.
        let mut j = open + 1;
        while j < chars.len() {
            if chars[j] == '\\' {
                j += 2;
                continue;
            }
            if chars[j] == close && chars.get(j + 1).is_none_or(|c| c.is_whitespace()) {
                let raw: String = chars[open + 1..j].iter().collect();
                let value = unescape(&raw, close);
                let text = d != '/'
                    && !value.eq_ignore_ascii_case("true")
                    && !value.eq_ignore_ascii_case("false");
                return Some((j + 1, key, value, text));
            }
            j += 1;
        }
    }
    None
}

/// `\\` and `\<closer>` as the characters they escape.
fn unescape(raw: &str, close: char) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut it = raw.chars().peekable();
    while let Some(c) = it.next() {
        match (c, it.peek()) {
            ('\\', Some(&n)) if n == '\\' || n == close => {
                out.push(n);
                it.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// `([^\s=]+)(?:\s*=\s*(\S+))?` over `text`: (byte start, whole match, key, value).
fn simple_options(text: &str) -> Vec<(usize, String, String, Option<String>)> {
    let mut out = Vec::new();
    let b: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i].1.is_whitespace() || b[i].1 == '=' {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !b[i].1.is_whitespace() && b[i].1 != '=' {
            i += 1;
        }
        let key_end = i;
        let mut j = i;
        while j < b.len() && b[j].1.is_whitespace() {
            j += 1;
        }
        let mut value = None;
        if j < b.len() && b[j].1 == '=' {
            let mut k = j + 1;
            while k < b.len() && b[k].1.is_whitespace() {
                k += 1;
            }
            let v_start = k;
            while k < b.len() && !b[k].1.is_whitespace() {
                k += 1;
            }
            if k > v_start {
                value = Some(slice(text, &b, v_start, k));
                i = k;
            }
        }
        let byte = |n: usize| b.get(n).map_or(text.len(), |(o, _)| *o);
        let whole = text[byte(start)..byte(i)].to_owned();
        out.push((byte(start), whole, slice(text, &b, start, key_end), value));
    }
    out
}

fn slice(text: &str, b: &[(usize, char)], from: usize, to: usize) -> String {
    let byte = |n: usize| b.get(n).map_or(text.len(), |(o, _)| *o);
    text[byte(from)..byte(to)].to_owned()
}

#[cfg(test)]
mod tests {
    use super::code_block_title;

    /// Every info string of the two real sites with words after the language, and edge cases,
    /// against what Mintlify's own `parseMetaString` gives (`fixtures/mintlify-code-titles.json`);
    /// whitespace inside a title is compared collapsed (it is one space to a reader and a search).
    #[test]
    fn code_titles_are_mintlifys() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/mintlify-code-titles.json"
        );
        let f: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let titles = f["titles"].as_array().unwrap();
        assert!(
            titles.len() > 400,
            "the fixture holds the real sites' code blocks"
        );
        let mut wrong = Vec::new();
        for t in titles {
            let (info, want) = (t[0].as_str().unwrap(), t[1].as_str().unwrap());
            let want = want.split_whitespace().collect::<Vec<_>>().join(" ");
            let got = code_block_title(info).unwrap_or_default();
            if got != want {
                wrong.push(format!("{info:?}: {got:?}, Mintlify {want:?}"));
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
}
