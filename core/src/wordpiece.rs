//! BERT's uncased WordPiece tokenizer (what all-MiniLM-L6-v2 was trained with), hand-written because
//! the `tokenizers` crate costs hundreds of kilobytes in wasm. Both query encoders and the build-side
//! document encoder run this same code, so a text maps to the same token ids everywhere.
//!
//! Steps, as Hugging Face's `BertNormalizer` + `BertPreTokenizer` + `WordPiece`: drop control
//! characters and turn whitespace into spaces; put spaces around CJK ideographs; lowercase and strip
//! accents (our analyzer's [`fold`](crate::analyzer::fold), which also applies compatibility forms);
//! split on whitespace and punctuation; then greedy longest-match-first subwords with `##`
//! continuations, `[UNK]` for a word with no match or longer than 100 characters.

use std::collections::HashMap;

use crate::analyzer::fold;

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

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

/// BERT's punctuation: ASCII symbol ranges plus Unicode punctuation (approximated by the general
/// punctuation blocks and CJK punctuation, which covers what docs contain).
fn is_punct(c: char) -> bool {
    let v = c as u32;
    (33..=47).contains(&v)
        || (58..=64).contains(&v)
        || (91..=96).contains(&v)
        || (123..=126).contains(&v)
        || matches!(v, 0xA1 | 0xA7 | 0xAB | 0xB6 | 0xB7 | 0xBB | 0xBF | 0x2010..=0x2027 | 0x2030..=0x205E | 0x3000..=0x303F | 0xFF01..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 | 0xFF5B..=0xFF65)
}

/// Normalized words and punctuation marks, in order.
fn pre_tokenize(text: &str) -> Vec<String> {
    let mut spaced = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\0' || c == '\u{FFFD}' || (c.is_control() && !c.is_whitespace()) {
            continue;
        }
        if c.is_whitespace() {
            spaced.push(' ');
        } else if is_cjk(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    let mut words = Vec::new();
    for raw in spaced.split(' ').filter(|w| !w.is_empty()) {
        let folded = fold(raw);
        let mut cur = String::new();
        for c in folded.chars() {
            if c.is_whitespace() {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            } else if is_punct(c) {
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

    #[test]
    fn rejects_a_vocabulary_without_specials() {
        assert_eq!(
            WordPiece::from_vocab("a\nb\n").unwrap_err(),
            VocabError::MissingSpecial(CLS)
        );
    }
}
