//! BERT's uncased WordPiece tokenizer (what all-MiniLM-L6-v2 was trained with), hand-written because
//! the `tokenizers` crate costs hundreds of kilobytes in wasm. The build-side document encoder and the
//! full query encoder (Node and edge) run this same code, so a text maps to the same token ids
//! everywhere, and to the ids the model's own `tokenizer.json` gives (the parity test,
//! `tests/tests/issue_24_wordpiece_parity.rs`, checks every code point and every corpus we have).
//!
//! Steps, exactly as Hugging Face's `BertNormalizer` + `BertPreTokenizer` + `WordPiece`:
//! 1. drop NUL, U+FFFD and every "other" character (Cc, Cf, Cn, Co, Cs; soft hyphens, zero-width
//!    joiners) but tab, newline and carriage return, and turn whitespace into spaces;
//! 2. put spaces around CJK ideographs;
//! 3. canonical decomposition (NFD, never the compatibility forms: `ﬁ` stays one character) and drop
//!    non-spacing marks (accents; spacing marks such as Devanagari's vowel signs stay);
//! 4. lowercase, character by character;
//! 5. split on whitespace and punctuation (ASCII punctuation and the Unicode P* categories);
//! 6. greedy longest-match-first subwords with `##` continuations, `[UNK]` for a word with no match
//!    or longer than 100 characters.
//!
//! The character classes and decompositions come from the crates `tokenizers` itself uses
//! (`unicode_categories`, `unicode-normalization-alignments`): a newer Unicode table would be "more
//! correct" and differ from the tokenizer the model was trained and published with.

use std::collections::HashMap;

use unicode_categories::UnicodeCategories;
use unicode_normalization_alignments::UnicodeNormalization;

/// Changes whenever this code may give other ids for a text: cached document vectors are keyed by it.
pub const TOKENIZER_VERSION: u32 = 2;

pub const CLS: &str = "[CLS]";
pub const SEP: &str = "[SEP]";
pub const UNK: &str = "[UNK]";
pub const PAD: &str = "[PAD]";
const MAX_WORD_CHARS: usize = 100;

/// A WordPiece vocabulary: token → id, in `vocab.txt` order.
#[derive(Debug, Clone)]
pub struct WordPiece {
    ids: HashMap<String, u32>,
    tokens: Vec<String>,
    cls: u32,
    sep: u32,
    unk: u32,
    pad: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VocabError {
    #[error("vocabulary line {line}: duplicate token {token:?}")]
    Duplicate { line: usize, token: String },
    #[error("vocabulary has no {0} token")]
    MissingSpecial(&'static str),
}

impl WordPiece {
    /// Reads `vocab.txt` (one token per line; the line number is the id).
    pub fn from_vocab(text: &str) -> Result<Self, VocabError> {
        let mut ids = HashMap::new();
        let mut tokens = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let token = line.trim_end_matches('\r');
            if ids.insert(token.to_owned(), i as u32).is_some() && !token.is_empty() {
                return Err(VocabError::Duplicate {
                    line: i + 1,
                    token: token.to_owned(),
                });
            }
            tokens.push(token.to_owned());
        }
        let special = |t: &'static str| ids.get(t).copied().ok_or(VocabError::MissingSpecial(t));
        Ok(WordPiece {
            cls: special(CLS)?,
            sep: special(SEP)?,
            unk: special(UNK)?,
            pad: special(PAD)?,
            ids,
            tokens,
        })
    }

    pub fn len(&self) -> usize {
        self.tokens.len()
    }
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
    pub fn cls(&self) -> u32 {
        self.cls
    }
    pub fn sep(&self) -> u32 {
        self.sep
    }
    pub fn pad(&self) -> u32 {
        self.pad
    }
    pub fn unk(&self) -> u32 {
        self.unk
    }
    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(String::as_str)
    }

    /// Token ids of `text` without `[CLS]`/`[SEP]`.
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        for word in pre_tokenize(text) {
            self.word_pieces(&word, &mut out);
        }
        out
    }

    /// `[CLS] tokens [SEP]`, truncated so the whole sequence has at most `max_len` ids.
    pub fn encode(&self, text: &str, max_len: usize) -> Vec<u32> {
        let mut ids = Vec::with_capacity(max_len.min(512));
        ids.push(self.cls);
        let body = self.tokenize(text);
        let room = max_len.saturating_sub(2);
        ids.extend(body.into_iter().take(room));
        ids.push(self.sep);
        ids
    }

    fn word_pieces(&self, word: &str, out: &mut Vec<u32>) {
        let chars: Vec<(usize, char)> = word.char_indices().collect();
        if chars.len() > MAX_WORD_CHARS {
            out.push(self.unk);
            return;
        }
        let mark = out.len();
        let mut start = 0usize; // index into chars
        let mut piece = String::new();
        while start < chars.len() {
            let mut end = chars.len();
            let mut found = None;
            while end > start {
                let from = chars[start].0;
                let to = chars.get(end).map_or(word.len(), |c| c.0);
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(&word[from..to]);
                if let Some(&id) = self.ids.get(piece.as_str()) {
                    found = Some(id);
                    break;
                }
                end -= 1;
            }
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => {
                    out.truncate(mark);
                    out.push(self.unk);
                    return;
                }
            }
        }
    }
}

/// CJK ideographs, the ranges Hugging Face's `BertNormalizer` spaces (its `0x2B920`, not Google's
/// `0x2B820`, is kept: it is the oracle).
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

fn is_bert_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// Removed by the cleaning step: BERT's "control", every general category C* but tab, newline and
/// carriage return (which are whitespace).
fn is_bert_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

fn is_bert_punct(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// The text as BERT's normalizer leaves it: cleaned, CJK spaced, decomposed without non-spacing
/// marks, lowercased.
fn normalize(text: &str) -> String {
    let mut cleaned = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\0' || c == '\u{FFFD}' || is_bert_control(c) {
            continue;
        }
        if is_bert_whitespace(c) {
            cleaned.push(' ');
        } else if is_cjk(c) {
            cleaned.push(' ');
            cleaned.push(c);
            cleaned.push(' ');
        } else {
            cleaned.push(c);
        }
    }
    let mut out = String::with_capacity(cleaned.len());
    // The fork yields each character with its alignment change, which we do not need.
    for (c, _) in cleaned.nfd().filter(|(c, _)| !c.is_mark_nonspacing()) {
        out.extend(c.to_lowercase());
    }
    out
}

/// Words and punctuation marks of the normalized text, in order.
fn pre_tokenize(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    for c in normalize(text).chars() {
        if c.is_whitespace() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
        } else if is_bert_punct(c) {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            words.push(c.to_string());
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> WordPiece {
        let v = "[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\nrefresh\ntoken\n##s\nun\n##want\n##ed\n,\nrun\n##ning\n中\ncafe\n.\n";
        WordPiece::from_vocab(v).unwrap()
    }

    fn toks(w: &WordPiece, s: &str) -> Vec<String> {
        w.tokenize(s)
            .into_iter()
            .map(|i| w.token(i).unwrap().to_owned())
            .collect()
    }

    #[test]
    fn greedy_longest_match_with_continuations() {
        let w = vocab();
        assert_eq!(
            toks(&w, "unwanted,running"),
            ["un", "##want", "##ed", ",", "run", "##ning"]
        );
        assert_eq!(
            toks(&w, "Refresh TOKENS."),
            ["refresh", "token", "##s", "."]
        );
        assert_eq!(toks(&w, "Café 中文"), ["cafe", "中", "[UNK]"]);
        assert_eq!(toks(&w, "xyz"), ["[UNK]"]);
        assert_eq!(toks(&w, &"a".repeat(101)), ["[UNK]"]);
    }

    #[test]
    fn encode_adds_specials_and_truncates() {
        let w = vocab();
        assert_eq!(w.encode("the token", 512), [2, 4, 6, 3]);
        assert_eq!(w.encode("the token the token", 4), [2, 4, 6, 3]);
        assert_eq!(w.encode("", 8), [2, 3]);
    }

    /// Issue 24: BERT's normalizer, not our analyzer's folding: format characters go, compatibility
    /// forms stay, only non-spacing marks are stripped, punctuation is every P* category.
    #[test]
    fn issue_24_normalizes_as_bert_does() {
        // Soft hyphen and zero-width joiner (Cf) are removed, so the word is whole again.
        assert_eq!(normalize("re\u{AD}fresh to\u{200D}ken"), "refresh token");
        // A ligature and a full-width letter have only compatibility decompositions: kept.
        assert_eq!(normalize("\u{FB01}x \u{FF21}"), "\u{FB01}x \u{FF41}");
        // The virama (Mn) goes, the vowel sign (Mc) stays; a precomposed accent is stripped.
        assert_eq!(
            normalize("\u{938}\u{94D}\u{925}\u{93E} Caf\u{E9}"),
            "\u{938}\u{925}\u{93E} cafe"
        );
        // Hangul syllables decompose to their jamo.
        assert_eq!(normalize("\u{D55C}"), "\u{1112}\u{1161}\u{11AB}");
        assert_eq!(
            pre_tokenize("a\u{2026}b \u{FF0C}c"),
            ["a", "\u{2026}", "b", "\u{FF0C}", "c"]
        );
    }

    #[test]
    fn rejects_a_vocabulary_without_specials() {
        assert_eq!(
            WordPiece::from_vocab("a\nb\n").unwrap_err(),
            VocabError::MissingSpecial(CLS)
        );
    }
}
