//! The text analyzer, used unchanged at build time (registered as tantivy's tokenizer) and at query time
//! (native and wasm). Changing what it emits changes the index: bump [`ANALYZER_VERSION`].
//!
//! What it does, in order:
//! 1. splits text into raw tokens: runs of letters/digits joined by identifier punctuation
//!    (`_ - . / + # : @ { }`), so `x-request-id`, `docs.json`, `/v1/users/{id}` and `C++` stay together;
//!    Chinese, Japanese and Korean characters are segmented into overlapping bigrams (see below);
//! 2. a raw token with joiners or an inner case change (`getUserById`) is an *identifier*: it is emitted
//!    whole (folded, not stemmed, so exact identifier queries match exactly) and split into its parts;
//! 3. every word and part is Unicode-folded (NFKD, combining marks dropped, lowercased), the language's
//!    stopwords are dropped (only as standalone words or parts; a whole identifier is never dropped) and
//!    the rest is stemmed with the language's Snowball stemmer (`frostem`, the stemmer tantivy 0.27
//!    itself uses).
//!
//! Languages (version 3): a page is analyzed in its language and a query in the reader's
//! ([`Analyzer::for_language`]): `fr` pages with the French stemmer and stopwords, and so on for the
//! Snowball languages; Chinese, Japanese and Korean pages stem their Latin words (API names, English
//! terms) as English; a language without a stemmer is folded only. CJK text has no spaces between
//! words, so a run of CJK characters is indexed as its characters *and* its overlapping bigrams
//! (`快速入门` → `快 速 入 门` + `快速 速入 入门`, Lucene's CJK bigram scheme with unigrams), and a query
//! ([`Analyzer::for_query`]) asks for the bigrams of a run of two or more characters (precise) and the
//! character of a run of one (a one-character word still matches).
//!
//! Version 2 (indexes built before languages) stemmed every page as English and indexed CJK characters
//! one by one; [`Analyzer::for_index`] still analyzes queries that way for such an index.

use crate::fold_table;

/// Version of the token stream the indexer writes. Stored in the manifest: a reader analyzes queries the
/// way the index was built, and refuses a version outside [`MIN_ANALYZER_VERSION`]..=this.
pub const ANALYZER_VERSION: u32 = 3;

/// The oldest analyzer version readers still analyze queries for (version 2: English everywhere, CJK
/// characters one by one).
pub const MIN_ANALYZER_VERSION: u32 = 2;

/// Tokens longer than this (in bytes, after folding) are dropped: they are hashes, base64 or minified code.
pub const MAX_TOKEN_BYTES: usize = 64;

const JOINERS: &[char] = &['_', '-', '.', '/', '+', '#', ':', '@', '{', '}'];

/// Lucene's English stopword set, the one BEIR's BM25 baselines use.
const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
];

// Short stopword sets for the other languages with a stemmer, folded and sorted (binary search):
// articles, prepositions, pronouns and conjunctions that occur in nearly every chunk, plus the elided
// forms the tokenizer leaves behind (`l'API` → `l`, `API`). Their postings are the longest of an
// index: dropping them spares readers the largest term shards for words that rank nothing.
#[cfg(feature = "stemmers")]
const STOPWORDS_FR: &[&str] = &[
    "a", "au", "aux", "avec", "c", "ce", "ces", "d", "dans", "de", "des", "du", "elle", "en",
    "est", "et", "il", "ils", "j", "l", "la", "le", "les", "leur", "lui", "m", "mais", "n", "ne",
    "nous", "on", "ou", "par", "pas", "pour", "qu", "que", "qui", "s", "sa", "se", "ses", "son",
    "sur", "t", "un", "une", "vous", "y",
];
#[cfg(feature = "stemmers")]
const STOPWORDS_ES: &[&str] = &[
    "a", "al", "como", "con", "de", "del", "el", "en", "es", "la", "las", "lo", "los", "o", "para",
    "pero", "por", "que", "se", "su", "sus", "un", "una", "y",
];
#[cfg(feature = "stemmers")]
const STOPWORDS_DE: &[&str] = &[
    "am", "an", "auf", "aus", "bei", "das", "dass", "dem", "den", "der", "des", "die", "ein",
    "eine", "einem", "einen", "einer", "eines", "es", "fur", "im", "in", "ist", "mit", "oder",
    "sie", "und", "von", "zu", "zum", "zur",
];
#[cfg(feature = "stemmers")]
const STOPWORDS_PT: &[&str] = &[
    "a", "ao", "aos", "as", "com", "da", "das", "de", "do", "dos", "e", "em", "na", "nas", "no",
    "nos", "o", "os", "ou", "para", "pela", "pelo", "por", "que", "se", "um", "uma",
];
#[cfg(feature = "stemmers")]
const STOPWORDS_IT: &[&str] = &[
    "a", "al", "alla", "c", "che", "con", "d", "da", "dal", "dei", "del", "dell", "della", "delle",
    "di", "e", "gli", "i", "il", "in", "l", "la", "le", "lo", "nel", "nell", "per", "su", "un",
    "una", "uno",
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

/// The analyzer of one language and analyzer version. `Copy`: a stemmer choice, a stopword set and
/// two switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analyzer {
    stemming: Stemming,
    stopwords: &'static [&'static str],
    /// Version 3: CJK runs as characters and bigrams; version 2: characters only.
    cjk_bigrams: bool,
    /// Query side: a CJK run of two or more characters asks for its bigrams only.
    query: bool,
}

impl Default for Analyzer {
    fn default() -> Self {
        Self::english()
    }
}

/// A language's stopwords, in a build with its stemmer (without it, its queries are refused anyway).
macro_rules! stopwords {
    ($list:ident) => {{
        #[cfg(feature = "stemmers")]
        let list: &'static [&'static str] = $list;
        #[cfg(not(feature = "stemmers"))]
        let list: &'static [&'static str] = &[];
        list
    }};
}

/// How a language's words are stemmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stemming {
    Snowball(frostem::Algorithm),
    /// Snowball has no stemmer for the language: words are folded only.
    None,
    /// The language has a Snowball stemmer that this build leaves out (the lean wasm module): its
    /// queries cannot be read the way its pages were (see [`Analyzer::missing_stemmer`]).
    LeftOut(&'static str),
}

/// A language tag's primary subtag, lowercased: `zh` for `zh-CN` or `zh_Hans`. (Byte-wise: no
/// pattern searcher in every reader's wasm module.)
pub(crate) fn primary_subtag(tag: &str) -> String {
    let end = (tag.bytes().position(|b| b == b'-' || b == b'_')).unwrap_or(tag.len());
    tag[..end].to_ascii_lowercase()
}

/// The stemming and stopwords of a language tag (`fr`, `pt-BR`, `zh-Hans`), by its primary subtag;
/// Mintlify's `cn` and `jp` are read as `zh` and `ja`. CJK languages stem their Latin words as
/// English (their docs name APIs and terms in English).
fn language_stemming(tag: &str) -> (Stemming, &'static [&'static str]) {
    let primary = primary_subtag(tag);
    let (name, stopwords): (&'static str, &'static [&'static str]) = match primary.as_str() {
        "" | "en" | "zh" | "cn" | "ja" | "jp" | "ko" | "kr" => {
            return (Stemming::Snowball(frostem::Algorithm::English), STOPWORDS)
        }
        "fr" => ("french", stopwords!(STOPWORDS_FR)),
        "es" => ("spanish", stopwords!(STOPWORDS_ES)),
        "de" => ("german", stopwords!(STOPWORDS_DE)),
        "pt" => ("portuguese", stopwords!(STOPWORDS_PT)),
        "it" => ("italian", stopwords!(STOPWORDS_IT)),
        "nl" => ("dutch", &[]),
        "sv" => ("swedish", &[]),
        "da" => ("danish", &[]),
        "no" | "nb" | "nn" => ("norwegian", &[]),
        "fi" => ("finnish", &[]),
        "ru" => ("russian", &[]),
        "uk" => ("ukrainian", &[]),
        "pl" => ("polish", &[]),
        "cs" => ("czech", &[]),
        "tr" => ("turkish", &[]),
        "id" => ("indonesian", &[]),
        "ro" => ("romanian", &[]),
        "hu" => ("hungarian", &[]),
        "ca" => ("catalan", &[]),
        "el" => ("greek", &[]),
        "ar" => ("arabic", &[]),
        "hi" => ("hindi", &[]),
        _ => return (Stemming::None, &[]),
    };
    (snowball(name), stopwords)
}

/// The Snowball algorithm `name`, if this build has it (the `stemmers` feature).
#[cfg(feature = "stemmers")]
fn snowball(name: &'static str) -> Stemming {
    use frostem::Algorithm as A;
    Stemming::Snowball(match name {
        "french" => A::French,
        "spanish" => A::Spanish,
        "german" => A::German,
        "portuguese" => A::Portuguese,
        "italian" => A::Italian,
        "dutch" => A::Dutch,
        "swedish" => A::Swedish,
        "danish" => A::Danish,
        "norwegian" => A::Norwegian,
        "finnish" => A::Finnish,
        "russian" => A::Russian,
        "ukrainian" => A::Ukrainian,
        "polish" => A::Polish,
        "czech" => A::Czech,
        "turkish" => A::Turkish,
        "indonesian" => A::Indonesian,
        "romanian" => A::Romanian,
        "hungarian" => A::Hungarian,
        "catalan" => A::Catalan,
        "greek" => A::Greek,
        "arabic" => A::Arabic,
        "hindi" => A::Hindi,
        _ => return Stemming::LeftOut(name),
    })
}

#[cfg(not(feature = "stemmers"))]
fn snowball(name: &'static str) -> Stemming {
    Stemming::LeftOut(name)
}

pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x20000..=0x2FFFF)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// Unicode folding: compatibility decomposition with combining marks removed (for the scripts in
/// `fold_table`; `café` → `cafe`, `ﬁ` → `fi`, fullwidth → ASCII), then lowercase.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut push = |c: char| crate::lowercase::to_lowercase(c, |l| out.push(l));
    for c in s.chars() {
        let v = c as u32;
        if fold_table::MARKS.iter().any(|&(a, b)| (a..=b).contains(&v)) {
            continue;
        }
        match u16::try_from(v).ok().and_then(folded) {
            Some(f) => f.chars().for_each(&mut push),
            None => push(c),
        }
    }
    out
}

/// The fold of code point `k` in `fold_table`, if it has one: its block by binary search, then a
/// walk of at most one block's steps and lengths.
fn folded(k: u16) -> Option<&'static str> {
    use fold_table::{BLOCKS, LENS, STEPS, TEXT};
    let b = BLOCKS
        .partition_point(|&(first, _, _)| first <= k)
        .checked_sub(1)?;
    let (mut key, first, text) = BLOCKS[b];
    let end = BLOCKS
        .get(b + 1)
        .map_or(STEPS.len(), |&(_, next, _)| next as usize);
    let mut at = text as usize;
    // A block's first step is 0 (the block holds its code point), so every entry adds its step.
    for i in first as usize..end {
        key += STEPS[i] as u16;
        let len = LENS[i] as usize;
        if key >= k {
            return (key == k).then(|| TEXT.get(at..at + len)).flatten();
        }
        at += len;
    }
    None
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
    /// English, as the current version indexes it: pages without a language.
    pub fn english() -> Self {
        Self::for_language(None)
    }

    /// The current version's analyzer for a page (or reader) in language `tag`; `None` is English.
    pub fn for_language(tag: Option<&str>) -> Self {
        let (stemming, stopwords) = language_stemming(tag.unwrap_or(""));
        Analyzer {
            stemming,
            stopwords,
            cjk_bigrams: true,
            query: false,
        }
    }

    /// The analyzer an index of analyzer `version` used for pages in `tag`: version 2 analyzed every
    /// page as English with CJK characters one by one. `None` for a version readers do not know.
    pub fn for_index(version: u32, tag: Option<&str>) -> Option<Self> {
        match version {
            2 => Some(Analyzer {
                stemming: Stemming::Snowball(frostem::Algorithm::English),
                stopwords: STOPWORDS,
                cjk_bigrams: false,
                query: false,
            }),
            3 => Some(Self::for_language(tag)),
            _ => None,
        }
    }

    /// The same analyzer on the query side: a CJK run of two or more characters asks for its bigrams,
    /// not its characters too (every bigram an indexed text has, it has with its characters).
    pub fn for_query(self) -> Self {
        Analyzer {
            query: true,
            ..self
        }
    }

    /// The Snowball stemmer this analyzer's language needs and this build leaves out (the lean wasm
    /// module has English only): such an analyzer folds words without stemming them, so a reader must
    /// not rank with it (`SearchError::MissingStemmer`).
    pub fn missing_stemmer(&self) -> Option<&'static str> {
        match self.stemming {
            Stemming::LeftOut(name) => Some(name),
            _ => None,
        }
    }

    fn is_stopword(&self, word: &str) -> bool {
        self.stopwords.binary_search(&word).is_ok()
    }

    /// Analyzes `text` into tokens.
    pub fn analyze(&self, text: &str) -> Vec<Token> {
        let mut out = Vec::new();
        self.for_each_token(text, |t| out.push(t));
        out
    }

    /// Stems one folded word the way indexed words are stemmed.
    pub fn stem_word(&self, folded: &str) -> String {
        match self.stemming {
            Stemming::Snowball(a) => frostem::Stemmer::new(a).stem(folded).into_owned(),
            _ => folded.to_owned(),
        }
    }

    /// The term of a plain word as written (`raw`, not yet folded): English folds, then stems (its
    /// stemmer expects plain letters, and readers type without accents); the other languages' stemmers
    /// read their accents (`configurações` and `configuração` share the stem `configur` only before
    /// `ç` and `õ` are folded), so they stem the lowercased word and fold the stem. `None` for a
    /// stopword or an overlong token.
    fn word_term(&self, raw: &str) -> Option<String> {
        let folded = fold(raw);
        if folded.len() > MAX_TOKEN_BYTES || self.is_stopword(&folded) {
            return None;
        }
        Some(match self.stemming {
            Stemming::Snowball(frostem::Algorithm::English)
            | Stemming::None
            | Stemming::LeftOut(_) => self.stem_word(&folded),
            Stemming::Snowball(a) => fold(&frostem::Stemmer::new(a).stem(&raw.to_lowercase())),
        })
    }

    /// Streams tokens to `emit`; the allocation-light form tantivy's tokenizer uses.
    pub fn for_each_token(&self, text: &str, mut emit: impl FnMut(Token)) {
        self.tokens_to(text, &mut emit);
    }

    /// [`Self::for_each_token`]'s body, compiled once: each caller's closure would otherwise be
    /// another copy of the tokenizer in every reader's wasm (issue 21).
    fn tokens_to(&self, text: &str, emit: &mut dyn FnMut(Token)) {
        let mut position: u32 = 0;
        let mut run_start: Option<usize> = None;
        // The CJK run being read: where it starts, and its previous character (start, end).
        let mut cjk_start: Option<usize> = None;
        let mut cjk_prev: Option<(usize, usize)> = None;
        for (i, c) in text.char_indices() {
            if is_word_char(c) || JOINERS.contains(&c) {
                if run_start.is_none() {
                    run_start = Some(i);
                }
                cjk_start = None;
                cjk_prev = None;
                continue;
            }
            if let Some(start) = run_start.take() {
                self.raw_token(text, start, i, &mut position, emit);
            }
            if !is_cjk(c) {
                cjk_start = None;
                cjk_prev = None;
                continue;
            }
            let end = i + c.len_utf8();
            if self.cjk_bigrams {
                if let Some((from, _)) = cjk_prev {
                    emit(Token {
                        text: text[from..end].to_owned(),
                        kind: TokenKind::Word,
                        position: position - 1,
                        offset_from: from,
                        offset_to: end,
                    });
                }
            }
            let lone = !self.cjk_bigrams
                || !self.query
                || (cjk_start.is_none() && !text[end..].starts_with(is_cjk));
            if lone {
                emit(Token {
                    text: c.to_string(),
                    kind: TokenKind::Word,
                    position,
                    offset_from: i,
                    offset_to: end,
                });
            }
            cjk_start.get_or_insert(i);
            cjk_prev = Some((i, end));
            position += 1;
        }
        if let Some(start) = run_start {
            self.raw_token(text, start, text.len(), &mut position, emit);
        }
    }

    fn raw_token(
        &self,
        text: &str,
        start: usize,
        end: usize,
        position: &mut u32,
        emit: &mut dyn FnMut(Token),
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
            if let Some(text) = self.word_term(token) {
                emit(Token {
                    text,
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
            if let Some(text) = self.word_term(part) {
                emit(Token {
                    text,
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

    fn texts_in(analyzer: Analyzer, q: &str) -> Vec<String> {
        analyzer.analyze(q).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn issue_6_cjk_runs_are_characters_and_bigrams_and_queries_ask_for_bigrams() {
        let doc = Analyzer::for_language(Some("zh"));
        assert_eq!(
            texts_in(doc, "快速入门"),
            ["快", "快速", "速", "速入", "入", "入门", "门"]
        );
        // A query asks for the bigrams of a run of two or more, the character of a run of one.
        let query = doc.for_query();
        assert_eq!(texts_in(query, "快速入门"), ["快速", "速入", "入门"]);
        assert_eq!(texts_in(query, "云 API"), ["云", "api"]);
        // Every token a query asks for, an indexed text containing the query has.
        let page = texts_in(doc, "本页介绍快速入门和API密钥。");
        for t in texts_in(query, "快速入门 API密钥") {
            assert!(page.contains(&t), "{t} missing from {page:?}");
        }
        // Runs are broken by anything else; Japanese kana and Korean Hangul are runs too.
        assert_eq!(texts_in(query, "検索 する"), ["検索", "する"]);
        assert_eq!(texts_in(query, "문서검색"), ["문서", "서검", "검색"]);
        // Positions: a bigram sits at its first character's position, in order.
        let toks = doc.analyze("快速");
        let pos: Vec<u32> = toks.iter().map(|t| t.position).collect();
        assert_eq!(pos, [0, 0, 1]);
        assert_eq!((toks[1].offset_from, toks[1].offset_to), (0, "快速".len()));
        // Version 2 indexes (and their queries) keep characters one by one.
        let v2 = Analyzer::for_index(2, Some("zh")).unwrap().for_query();
        assert_eq!(texts_in(v2, "搜索文档"), ["搜", "索", "文", "档"]);
    }

    #[test]
    fn issue_6_a_build_without_stemmers_names_the_one_it_lacks() {
        let expect = |name: &'static str| cfg!(not(feature = "stemmers")).then_some(name);
        assert_eq!(
            Analyzer::for_language(Some("fr")).missing_stemmer(),
            expect("french")
        );
        assert_eq!(
            Analyzer::for_language(Some("pt-BR")).missing_stemmer(),
            expect("portuguese")
        );
        for tag in [
            None,
            Some("en"),
            Some("zh-Hans"),
            Some("ja"),
            Some("ko"),
            Some("vi"),
        ] {
            assert_eq!(
                Analyzer::for_language(tag).missing_stemmer(),
                None,
                "{tag:?}"
            );
        }
    }

    #[cfg(feature = "stemmers")]
    #[test]
    fn issue_6_pages_are_stemmed_in_their_language() {
        let fr = Analyzer::for_language(Some("fr"));
        // French stemming and stopwords, elided articles dropped: `l'authentification` → `authentif`.
        assert_eq!(
            texts_in(fr, "Les clés de l'authentification"),
            texts_in(fr, "clé authentifications")
        );
        assert!(!texts_in(fr, "l'authentification").contains(&"l".to_owned()));
        let es = Analyzer::for_language(Some("es-MX"));
        assert_eq!(texts_in(es, "las solicitudes"), texts_in(es, "solicitud"));
        let de = Analyzer::for_language(Some("de"));
        assert_eq!(texts_in(de, "die Schlüssel"), texts_in(de, "Schlüsseln"));
        let pt = Analyzer::for_language(Some("pt-BR"));
        assert_eq!(
            texts_in(pt, "as configurações"),
            texts_in(pt, "configuração")
        );
        // Words are not stemmed as English in French pages.
        assert_eq!(texts("running"), ["run"]);
        assert_eq!(texts_in(fr, "running"), ["running"]);
        // Identifiers stay whole and unstemmed in every language.
        assert_eq!(texts_in(fr, "getUserById")[0], "getuserbyid");
        // CJK languages stem their Latin words as English; an unknown language only folds.
        assert_eq!(
            texts_in(Analyzer::for_language(Some("zh-Hans")), "tokens"),
            ["token"]
        );
        assert_eq!(
            texts_in(Analyzer::for_language(Some("vi")), "Tokens"),
            ["tokens"]
        );
        // `None` and `en` are English; version 2 is English whatever the language.
        assert_eq!(
            Analyzer::for_language(None),
            Analyzer::for_language(Some("EN-us"))
        );
        assert_eq!(
            texts_in(
                Analyzer::for_index(2, Some("fr")).unwrap(),
                "les configurations"
            ),
            ["les", "configur"]
        );
        // Exactly the versions the constants name are read.
        assert!(Analyzer::for_index(MIN_ANALYZER_VERSION - 1, None).is_none());
        for v in MIN_ANALYZER_VERSION..=ANALYZER_VERSION {
            assert!(Analyzer::for_index(v, None).is_some(), "{v}");
        }
        assert!(Analyzer::for_index(ANALYZER_VERSION + 1, None).is_none());
    }

    #[cfg(feature = "stemmers")]
    #[test]
    fn every_stopword_list_is_sorted_and_folded() {
        for list in [
            STOPWORDS,
            STOPWORDS_FR,
            STOPWORDS_ES,
            STOPWORDS_DE,
            STOPWORDS_PT,
            STOPWORDS_IT,
        ] {
            let mut sorted = list.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted, list);
            assert!(list.iter().all(|w| fold(w) == *w));
        }
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
#[cfg(test)]
mod fold_table_tests {
    use crate::fold_table::{BLOCKS, LENS, STEPS, TEXT};

    /// The table as entries: each code point that folds, and its fold.
    fn entries() -> Vec<(u32, &'static str)> {
        let mut out = Vec::new();
        let (mut key, mut at) = (0u32, 0usize);
        for i in 0..STEPS.len() {
            if let Some(&(first, _, text)) = BLOCKS.iter().find(|b| b.1 as usize == i) {
                assert_eq!(STEPS[i], 0, "entry {i} starts a block");
                assert_eq!(text as usize, at, "block at entry {i}");
                key = first as u32;
            } else {
                assert!(STEPS[i] > 0, "entry {i}: code points strictly increase");
                key += STEPS[i] as u32;
            }
            let end = at + LENS[i] as usize;
            out.push((key, &TEXT[at..end]));
            at = end;
        }
        assert_eq!(at, TEXT.len(), "the folds cover the text");
        out
    }

    /// Issue 21's blocked table: the lookup finds exactly the table's entries, for every code
    /// point of the Basic Multilingual Plane.
    #[test]
    fn issue_21_folded_finds_every_entry_and_nothing_else() {
        let table = entries();
        assert!(table.windows(2).all(|w| w[0].0 < w[1].0));
        let mut want = table.iter().peekable();
        for k in 0..=u16::MAX {
            let expected = match want.peek() {
                Some(&&(key, fold)) if key == k as u32 => {
                    want.next();
                    Some(fold)
                }
                _ => None,
            };
            assert_eq!(super::folded(k), expected, "U+{k:04X}");
        }
    }

    /// What folding gives every code point up to U+2FFFF, pinned: a change here changes the terms
    /// every index holds (bump `ANALYZER_VERSION` with it). Checked equal to the table of sorted code
    /// points and offsets before issue 21 stored it in blocks.
    #[test]
    fn issue_21_folding_of_every_code_point_is_unchanged() {
        let mut hash: u64 = 0xcbf29ce484222325;
        for v in 0..0x30000u32 {
            let Some(c) = char::from_u32(v) else { continue };
            for b in super::fold(c.encode_utf8(&mut [0; 4]))
                .bytes()
                .chain([0xff])
            {
                hash = (hash ^ b as u64).wrapping_mul(0x100000001b3);
            }
        }
        assert_eq!(hash, 14952632607923329445);
    }
}
