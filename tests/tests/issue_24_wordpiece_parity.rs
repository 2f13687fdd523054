//! Issue 24: our WordPiece (`aidocs_embed::wordpiece`, what the build-side and the edge encoders
//! tokenize with) gives the token ids the model's own tokenizer gives: Hugging Face's `tokenizers`
//! crate loading the model's `tokenizer.json` (BertNormalizer, BertPreTokenizer, WordPiece) is the
//! oracle. Compared on every text of every corpus in `../shared/data` (SciFact, conala-pydocs, both
//! real Mintlify sites in all their languages, the OpenAPI specs) and on a Unicode torture list: every
//! code point, one at a time, between letters.
//!
//! Run with `--nocapture` for the figures: texts compared, texts that differ, and the differing
//! words grouped by the first character our tokenizer treats differently.

use std::collections::BTreeMap;
use std::path::Path;

use aidocs_e2e::{model_available, shared_data};
use aidocs_embed::wordpiece::WordPiece;
use tokenizers::Tokenizer;

struct Oracle {
    ours: WordPiece,
    theirs: Tokenizer,
}

impl Oracle {
    fn load() -> Option<Oracle> {
        if !model_available() {
            return None;
        }
        let dir = aidocs_index::embed::locate(None).expect("model located");
        let vocab = std::fs::read_to_string(dir.join("vocab.txt")).expect("vocab.txt");
        let mut theirs = Tokenizer::from_file(dir.join("tokenizer.json")).expect("tokenizer.json");
        theirs.with_truncation(None).expect("no truncation");
        theirs.with_padding(None);
        Some(Oracle {
            ours: WordPiece::from_vocab(&vocab).expect("vocab"),
            theirs,
        })
    }

    fn theirs(&self, text: &str) -> Vec<u32> {
        self.theirs
            .encode(text, false)
            .expect("tokenizers encodes")
            .get_ids()
            .to_vec()
    }

    /// `None` when both agree, else the first whitespace-separated word on which they differ.
    fn differ(&self, text: &str) -> Option<String> {
        if self.ours.tokenize(text) == self.theirs(text) {
            return None;
        }
        let word = text
            .split(|c: char| c.is_whitespace())
            .find(|w| !w.is_empty() && self.ours.tokenize(w) != self.theirs(w))
            .unwrap_or(text);
        Some(word.chars().take(40).collect())
    }
}

/// Tallies of one corpus.
#[derive(Default)]
struct Tally {
    texts: usize,
    differ: usize,
    /// First differing word's first non-ASCII character (or the word) → count, with an example.
    causes: BTreeMap<String, (usize, String)>,
}

impl Tally {
    fn check(&mut self, oracle: &Oracle, text: &str) {
        self.texts += 1;
        if let Some(word) = oracle.differ(text) {
            self.differ += 1;
            let cause = word
                .chars()
                .find(|c| !c.is_ascii())
                .map(|c| format!("U+{:04X}", c as u32))
                .unwrap_or_else(|| word.clone());
            let e = self.causes.entry(cause).or_insert((0, word));
            e.0 += 1;
        }
    }

    fn report(&self, name: &str) {
        println!(
            "{name}: {} texts, {} differ ({} causes)",
            self.texts,
            self.differ,
            self.causes.len()
        );
        let mut causes: Vec<_> = self.causes.iter().collect();
        causes.sort_by_key(|c| std::cmp::Reverse(c.1 .0));
        for (cause, (n, example)) in causes.iter().take(15) {
            println!("  {cause}: {n} texts, e.g. {example:?}");
        }
    }
}

fn jsonl_texts(path: &Path, fields: &[&str]) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("corpus");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("jsonl line");
        for f in fields {
            if let Some(s) = v.get(*f).and_then(|s| s.as_str()) {
                out.push(s.to_owned());
            }
        }
    }
    out
}

/// Every text of `../shared/data`, by corpus. Long texts are compared a paragraph at a time, so a
/// difference names its place and the oracle's cost stays linear.
fn corpora() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let paragraphs = |texts: Vec<String>| -> Vec<String> {
        texts
            .iter()
            .flat_map(|t| t.split("\n\n").map(str::to_owned).collect::<Vec<_>>())
            .filter(|p| !p.trim().is_empty())
            .collect()
    };
    for (name, file, fields) in [
        ("scifact docs", "scifact/docs.jsonl", &["title", "text"][..]),
        ("scifact queries", "scifact/queries.jsonl", &["text"][..]),
        (
            "conala-pydocs docs",
            "conala-pydocs/docs.jsonl",
            &["title", "text"][..],
        ),
        (
            "conala-pydocs queries",
            "conala-pydocs/queries.train.jsonl",
            &["text"][..],
        ),
    ] {
        if let Some(p) = shared_data(file) {
            out.push((name.to_owned(), paragraphs(jsonl_texts(&p, fields))));
        }
    }
    for site in ["mintlify-docs", "pipecat-docs"] {
        let Some(root) = shared_data(&format!("sites/{site}")) else {
            continue;
        };
        let mut texts = Vec::new();
        for e in walkdir::WalkDir::new(&root).sort_by_file_name() {
            let e = e.expect("walk");
            let p = e.path();
            let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
            if matches!(ext, "md" | "mdx") {
                texts.push(std::fs::read_to_string(p).unwrap_or_default());
            }
        }
        out.push((site.to_owned(), paragraphs(texts)));
    }
    for spec in ["openapi/github-rest.json", "openapi/stripe-spec3.yaml"] {
        if let Some(p) = shared_data(spec) {
            let text = std::fs::read_to_string(p).expect("spec");
            let lines = text.lines().map(str::to_owned).collect::<Vec<_>>();
            out.push((spec.to_owned(), lines));
        }
    }
    out
}

#[test]
fn issue_24_wordpiece_equals_the_models_tokenizer_on_every_corpus() {
    let Some(oracle) = Oracle::load() else { return };
    let mut total = Tally::default();
    for (name, texts) in corpora() {
        let mut tally = Tally::default();
        for t in &texts {
            tally.check(&oracle, t);
            total.texts += 1;
        }
        tally.report(&name);
        total.differ += tally.differ;
        for (k, (n, ex)) in tally.causes {
            let e = total.causes.entry(k).or_insert((0, ex));
            e.0 += n;
        }
    }
    total.report("all corpora");
    assert!(total.texts > 10_000, "the corpora were not found");
    assert_eq!(
        total.differ, 0,
        "texts whose token ids differ from the model's tokenizer"
    );
}

/// Every Unicode scalar value, alone and between letters (`a{c}b`, `{c}{c}`): normalisation,
/// control and punctuation classes, CJK spacing and accents are all decided per character.
#[test]
fn issue_24_wordpiece_equals_the_models_tokenizer_on_every_code_point() {
    let Some(oracle) = Oracle::load() else { return };
    let mut tally = Tally::default();
    let mut batch = String::new();
    let chars: Vec<char> = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    for chunk in chars.chunks(64) {
        batch.clear();
        for &c in chunk {
            batch.push_str(&format!("a{c}b {c}{c} x{c} "));
        }
        if oracle.differ(&batch).is_some() {
            // Narrow the batch down to its characters, so each one is counted.
            for &c in chunk {
                tally.check(&oracle, &format!("a{c}b {c}{c} x{c}"));
            }
        } else {
            tally.texts += chunk.len();
        }
    }
    tally.report("every code point");
    assert_eq!(tally.differ, 0, "code points on which the token ids differ");
}

/// Strings a tokenizer gets wrong: combining sequences, Hangul, format characters, ligatures,
/// full-width forms, scripts with spacing marks, emoji sequences, mixed scripts.
#[test]
fn issue_24_wordpiece_equals_the_models_tokenizer_on_a_torture_list() {
    let Some(oracle) = Oracle::load() else { return };
    let torture = [
        "café CAFÉ cafe\u{301} Ångström ÅNGSTRÖM",
        "soft\u{AD}hyphen zero\u{200B}width join\u{200D}er non\u{200C}joiner \u{FEFF}bom",
        "ﬁnance ﬂow ﬃ Ⅻ ① ² ½ ™ ㎏ ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３",
        "한국어 텍스트 처리 한글",
        "नमस्ते स्थापना करें हिन्दी",
        "العربية مرحبا بالعالم",
        "中文分词测试 日本語のテキスト カタカナ ｶﾀｶﾅ",
        "Ελληνικά ΣΊΣΥΦΟΣ ς",
        "Привет Ёжик йод",
        "İstanbul ıiİI ß ẞ",
        "👩‍💻 emoji 🇫🇷 flag 👍🏽 ❤️",
        "tabs\tand\r\nnewlines\u{0B}\u{0C}\u{85}\u{2028}\u{2029}",
        "quotes “double” ‘single’ «guillemets» — dash – ‒ ― …",
        "math ∑ ∫ ≤ ≥ ≠ ± × ÷ √ ∞ → ⇒",
        "currency $ € £ ¥ ₹ ¢ ₿",
        "mixed a\u{0}b a\u{FFFD}b a\u{1}b a\u{7F}b a\u{9F}b",
        "Vec<T> HashMap<K, V> fn() -> Result<(), Error> a->b a=>b x::y",
        "ZALGO z\u{336}a\u{337}l\u{338}g\u{335}o\u{334}",
        "\u{E000}private \u{F8FF} \u{10FFFD} \u{D7FF} \u{FFFF}",
        "supercalifragilisticexpialidocious",
        &"a".repeat(101),
        &"é".repeat(100),
        &"é".repeat(101),
        "ǅ ǈ ǋ Ǳ ǲ ǳ",
        "ᾼ ῌ ῼ ﬀ ǰ ΐ",
        "ḍ̇ q̣̇ ṩ ệ",
        "\u{1E9E}\u{1E9E} \u{2126} \u{212A} \u{212B}",
    ];
    let mut tally = Tally::default();
    for t in torture {
        tally.check(&oracle, t);
    }
    tally.report("torture list");
    assert_eq!(tally.differ, 0, "torture strings whose token ids differ");
}
