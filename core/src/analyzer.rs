//! The text analyzer, used unchanged at build time (registered as tantivy's tokenizer) and at query time
//! (native and wasm). Changing what it emits changes the index: bump [`ANALYZER_VERSION`].
//!
//! What it does, in order:
//! 1. splits text into raw tokens: runs of letters/digits joined by identifier punctuation
//!    (`_ - . / + # : @ { }`), so `x-request-id`, `docs.json`, `/v1/users/{id}` and `C++` stay together;
//!    each CJK character is a token of its own (a placeholder until the CJK segmenter lands);
//! 2. a raw token with joiners or an inner case change (`getUserById`) is an *identifier*: it is emitted
//!    whole (folded, not stemmed, so exact identifier queries match exactly) and split into its parts;
//! 3. every word and part is Unicode-folded (NFKD, combining marks dropped, lowercased), stopwords are
//!    dropped (only as standalone words or parts; a whole identifier is never dropped) and the rest is
//!    stemmed with the Snowball English stemmer (`frostem`, the stemmer tantivy 0.27 itself uses).

use crate::fold_table;

/// Version of the token stream. Stored in the manifest: a reader refuses an index built by another one.
pub const ANALYZER_VERSION: u32 = 2;

/// Tokens longer than this (in bytes, after folding) are dropped: they are hashes, base64 or minified code.
pub const MAX_TOKEN_BYTES: usize = 64;

const JOINERS: &[char] = &['_', '-', '.', '/', '+', '#', ':', '@', '{', '}'];

/// Lucene's English stopword set, the one BEIR's BM25 baselines use.
const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
];

/// What a token stands for; scoring gives whole identifiers an extra boost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A plain word, stemmed.
    Word,
    /// A whole identifier as written (folded, not stemmed): `x-request-id`, `getuserbyid`.
    Identifier,
    /// One part of an identifier, stemmed like a word.
    IdentifierPart,
}

/// One analyzed token with its position and the byte range of the raw token it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub kind: TokenKind,
    pub position: u32,
    pub offset_from: usize,
    pub offset_to: usize,
}

/// The analyzer. Cheap to clone; holds only the stemmer handle.
#[derive(Clone, Copy)]
pub struct Analyzer {
    stemmer: frostem::Stemmer,
}

impl Default for Analyzer {
    fn default() -> Self {
        Self::english()
    }
}

impl core::fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Analyzer(english)")
    }
}

pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x20000..=0x2FFFF)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// Unicode folding: compatibility decomposition with combining marks removed (for the scripts in
/// [`fold_table`]; `café` → `cafe`, `ﬁ` → `fi`, fullwidth → ASCII), then lowercase.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut push = |c: char| {
        for l in c.to_lowercase() {
            out.push(l);
        }
    };
    for c in s.chars() {
        let v = c as u32;
        if fold_table::MARKS.iter().any(|&(a, b)| (a..=b).contains(&v)) {
            continue;
        }
        let folded = u16::try_from(v)
            .ok()
            .and_then(|k| fold_table::KEYS.binary_search(&k).ok());
        match folded {
            Some(i) => {
                let (a, b) = (
                    fold_table::OFFSETS[i] as usize,
                    fold_table::OFFSETS[i + 1] as usize,
                );
                fold_table::TEXT
                    .get(a..b)
                    .unwrap_or("")
                    .chars()
                    .for_each(&mut push);
            }
            None => push(c),
        }
    }
    out
}

/// Is this folded word a stopword?
pub fn is_stopword(word: &str) -> bool {
    STOPWORDS.binary_search(&word).is_ok()
}

/// Normalizes a whole title, operationId or `METHOD /path` for exact-match lookups: folded,
/// whitespace collapsed, surrounding punctuation removed.
pub fn normalize_exact(text: &str) -> String {
    let folded = fold(text);
    let trimmed = folded.trim_matches(|c: char| {
        c.is_whitespace() || matches!(c, '?' | '!' | '.' | ',' | ';' | '"' | '\'' | '`')
    });
    let mut out = String::with_capacity(trimmed.len());
    for (i, w) in trimmed.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

impl Analyzer {
    pub fn english() -> Self {
        Analyzer {
            stemmer: frostem::Stemmer::new(frostem::Algorithm::English),
        }
    }

    /// Analyzes `text` into tokens.
    pub fn analyze(&self, text: &str) -> Vec<Token> {
        let mut out = Vec::new();
        self.for_each_token(text, |t| out.push(t));
        out
    }

    /// Stems one folded word the way indexed words are stemmed.
    pub fn stem_word(&self, folded: &str) -> String {
        self.stemmer.stem(folded).into_owned()
    }

    /// Streams tokens to `emit`; the allocation-light form tantivy's tokenizer uses.
    pub fn for_each_token(&self, text: &str, mut emit: impl FnMut(Token)) {
        let mut position: u32 = 0;
        let mut run_start: Option<usize> = None;
        for (i, c) in text.char_indices() {
            if is_word_char(c) || JOINERS.contains(&c) {
                if run_start.is_none() {
                    run_start = Some(i);
                }
                continue;
            }
            if let Some(start) = run_start.take() {
                self.raw_token(text, start, i, &mut position, &mut emit);
            }
            if is_cjk(c) {
                let end = i + c.len_utf8();
                emit(Token {
                    text: c.to_string(),
                    kind: TokenKind::Word,
                    position,
                    offset_from: i,
                    offset_to: end,
                });
                position += 1;
            }
        }
        if let Some(start) = run_start {
            self.raw_token(text, start, text.len(), &mut position, &mut emit);
        }
    }

    fn raw_token(
        &self,
        text: &str,
        start: usize,
        end: usize,
        position: &mut u32,
        emit: &mut impl FnMut(Token),
    ) {
        let run = &text[start..end];
        // Trim joiners at the edges, keeping a leading `/` or `.` (paths, dotfiles), a `{` that opens a
        // path parameter, trailing `+`/`#` (C++, C#) and a `}` that closes a `{`.
        let chars: Vec<(usize, char)> = run.char_indices().collect();
        let Some(first_alnum) = chars.iter().position(|&(_, c)| is_word_char(c)) else {
            return;
        };
        let last_alnum = chars
            .iter()
            .rposition(|&(_, c)| is_word_char(c))
            .unwrap_or(first_alnum);
        let mut s = first_alnum;
        if s > 0 && matches!(chars[s - 1].1, '{') {
            s -= 1;
        }
        if s > 0 && matches!(chars[s - 1].1, '/' | '.') {
            s -= 1;
        }
        let mut e = last_alnum + 1;
        let mut extra = 0;
        while e < chars.len() && extra < 2 && matches!(chars[e].1, '+' | '#') {
            e += 1;
            extra += 1;
        }
        if e < chars.len() && chars[e].1 == '}' && chars[s..e].iter().any(|&(_, c)| c == '{') {
            e += 1;
        }
        let from = start + chars[s].0;
        let to = if e < chars.len() {
            start + chars[e].0
        } else {
            end
        };
        let token = &text[from..to];

        let parts = split_identifier(token);
        let has_joiner = token.chars().any(|c| JOINERS.contains(&c));
        if parts.len() == 1 && !has_joiner {
            let word = fold(token);
            if word.len() <= MAX_TOKEN_BYTES && !is_stopword(&word) {
                emit(Token {
                    text: self.stem_word(&word),
                    kind: TokenKind::Word,
                    position: *position,
                    offset_from: from,
                    offset_to: to,
                });
            }
            *position += 1;
            return;
        }
        let whole = fold(token);
        if whole.len() <= MAX_TOKEN_BYTES {
            emit(Token {
                text: whole,
                kind: TokenKind::Identifier,
                position: *position,
                offset_from: from,
                offset_to: to,
            });
        }
        for part in parts {
            let word = fold(part);
            if word.len() <= MAX_TOKEN_BYTES && !is_stopword(&word) {
                emit(Token {
                    text: self.stem_word(&word),
                    kind: TokenKind::IdentifierPart,
                    position: *position,
                    offset_from: from,
                    offset_to: to,
                });
            }
            *position += 1;
        }
    }
}

/// Splits an identifier into its parts: at joiners, at lower→upper (`getUser`) and at the last capital of
/// an acronym before a lowercase letter (`HTTPServer` → `HTTP`, `Server`). Digits stay with their letters.
pub fn split_identifier(token: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    for segment in token.split(|c: char| JOINERS.contains(&c)) {
        if segment.is_empty() {
            continue;
        }
        let chars: Vec<(usize, char)> = segment.char_indices().collect();
        let mut begin = 0;
        for k in 1..chars.len() {
            let prev = chars[k - 1].1;
            let cur = chars[k].1;
            let next = chars.get(k + 1).map(|&(_, c)| c);
            let boundary = (cur.is_uppercase() && (prev.is_lowercase() || prev.is_numeric()))
                || (cur.is_uppercase()
                    && prev.is_uppercase()
                    && next.is_some_and(|n| n.is_lowercase()));
            if boundary {
                parts.push(&segment[begin..chars[k].0]);
                begin = chars[k].0;
            }
        }
        parts.push(&segment[begin..]);
    }
    parts
}

#[cfg(test)]
mod tests {
    #[test]
    fn fold_strips_accents_and_compatibility_forms() {
        assert_eq!(fold("Café NAÏVE"), "cafe naive");
        assert_eq!(fold("ﬁle Ｆｕｌｌ"), "file full");
        assert_eq!(fold("e\u{301}te\u{0308}"), "ete");
        assert_eq!(fold("Ελληνικά Ёлка"), "ελληνικα елка");
        assert_eq!(fold("½ ²"), "1\u{2044}2 2");
        assert_eq!(fold("中文 한국어"), "中文 한국어");
    }

    use super::*;

    fn texts(q: &str) -> Vec<String> {
        Analyzer::english()
            .analyze(q)
            .into_iter()
            .map(|t| t.text)
            .collect()
    }

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        let mut sorted = STOPWORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, STOPWORDS);
    }

    #[test]
    fn words_are_folded_stemmed_and_stopwords_dropped() {
        assert_eq!(
            texts("The Connections of Café résumés"),
            ["connect", "cafe", "resum"]
        );
    }

    #[test]
    fn identifiers_are_kept_whole_and_split() {
        assert_eq!(texts("getUserById"), ["getuserbyid", "get", "user", "id"]);
        assert_eq!(
            texts("snake_case_name"),
            ["snake_case_name", "snake", "case", "name"]
        );
        assert_eq!(
            texts("send x-request-id."),
            ["send", "x-request-id", "x", "request", "id"]
        );
        assert_eq!(
            texts("edit docs.json"),
            ["edit", "docs.json", "doc", "json"]
        );
        assert_eq!(
            texts("GET /v1/users/{id}"),
            ["get", "/v1/users/{id}", "v1", "user", "id"]
        );
        assert_eq!(texts("C++ and C#"), ["c++", "c", "c#", "c"]);
        assert_eq!(texts("HTTPServer"), ["httpserver", "http", "server"]);
        assert_eq!(texts("(see .env)"), ["see", ".env", "env"]);
    }

    #[test]
    fn query_and_document_agree_on_identifiers() {
        let doc = texts("Pass the `x-request-id` header.");
        for t in texts("x-request-id") {
            assert!(doc.contains(&t), "{t} missing from {doc:?}");
        }
    }

    #[test]
    fn cjk_characters_are_single_tokens() {
        assert_eq!(texts("搜索文档"), ["搜", "索", "文", "档"]);
    }

    #[test]
    fn positions_and_offsets_are_consistent() {
        let text = "use getUserById now";
        let toks = Analyzer::english().analyze(text);
        assert_eq!(&text[toks[1].offset_from..toks[1].offset_to], "getUserById");
        assert!(toks.windows(2).all(|w| w[0].position <= w[1].position));
    }

    #[test]
    fn exact_normalization() {
        assert_eq!(normalize_exact("  Refresh   Tokens? "), "refresh tokens");
        assert_eq!(normalize_exact("POST /v1/Users"), "post /v1/users");
    }

    #[test]
    fn punctuation_only_and_long_tokens_produce_nothing() {
        assert!(texts("--- ... // ++").is_empty());
        assert!(texts(&"a1".repeat(40)).is_empty());
    }
}
