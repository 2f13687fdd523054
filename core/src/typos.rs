//! Typo tolerance (format v6): here is a typed word absent from the index, give me the indexed word it
//! most likely meant, without downloading the vocabulary.
//!
//! The index keeps the site's words (folded, unstemmed, letters only, as readers type them) in a
//! deletion neighbourhood (SymSpell): each word is stored under itself and under every form with one
//! character deleted. A typed word looks up the same keys of its own; two words share a key when one
//! deletion from each side makes them equal, which covers every single edit (insertion, deletion,
//! substitution, transposition) and some double ones. Candidates are then checked by their real
//! (optimal string alignment) distance: 1 edit from 4 letters, 2 from 8.
//!
//! Entries are sorted by key and cut into [`TypoShard`]s like the term shards; a [`TypoDirectory`]
//! (fetched only when a query has a word to correct) holds the separators between shards. A word's
//! keys start with at most three different pairs of letters, so a correction reads a handful of
//! shards of a few kilobytes.

use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{invalid, ShardError};
use crate::format::{common_prefix, front_coded_budget};
use crate::names::{check_file_name, NameList};

/// Shorter typed words are never corrected: too many words lie one edit away.
pub const TYPO_MIN_CHARS: usize = 4;
/// From this length a typed word may be two edits from what was meant.
pub const TYPO_TWO_EDITS_CHARS: usize = 8;
/// Longest word kept in the neighbourhood (longer ones are identifiers or noise).
pub const TYPO_MAX_CHARS: usize = 24;
/// Shortest word kept in the neighbourhood (a 4-letter typo may have lost one letter).
pub const TYPO_VOCAB_MIN_CHARS: usize = 3;
/// A corrected word scores this fraction of what the word typed correctly would. Tuned on SciFact
/// train with one deterministic typo per query (`eval --typo-queries`), nDCG@10: 0.6 → 0.6862,
/// 0.8 → 0.6878, 1.0 → 0.6863 (clean queries 0.6893): a little doubt about a correction pays.
pub const TYPO_DAMPING: f32 = 0.8;

/// How many edits a typed word of `chars` characters may carry.
pub fn max_edits(chars: usize) -> usize {
    match chars {
        c if c < TYPO_MIN_CHARS => 0,
        c if c < TYPO_TWO_EDITS_CHARS => 1,
        _ => 2,
    }
}

/// Whether a folded word takes part in typo tolerance: letters only (no digits, no identifier
/// joiners), between `min_chars` and [`TYPO_MAX_CHARS`] characters.
pub fn is_typo_word(word: &str, min_chars: usize) -> bool {
    let mut n = 0;
    for c in word.chars() {
        if !c.is_alphabetic() || crate::analyzer::is_cjk(c) {
            return false;
        }
        n += 1;
    }
    (min_chars..=TYPO_MAX_CHARS).contains(&n)
}

/// The word and every form of it with one character deleted, without duplicates (a doubled letter
/// gives one key), in the order of the deleted character.
pub fn deletion_keys(word: &str) -> Vec<String> {
    let mut keys = vec![word.to_owned()];
    for (i, c) in word.char_indices() {
        let mut k = String::with_capacity(word.len());
        k.push_str(&word[..i]);
        k.push_str(&word[i + c.len_utf8()..]);
        // (A linear check, not a sort: a sort instantiated for strings costs kilobytes of wasm.)
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys
}

/// Optimal string alignment distance (Levenshtein plus adjacent transpositions) over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    // Three rows: two back (transpositions), previous, current.
    let mut rows = vec![0usize; 3 * w];
    for (j, x) in rows[w..2 * w].iter_mut().enumerate() {
        *x = j;
    }
    for i in 1..=a.len() {
        let (back, rest) = rows.split_at_mut(w);
        let (prev, cur) = rest.split_at_mut(w);
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(back[j - 2] + 1);
            }
            cur[j] = d;
        }
        rows.copy_within(w..3 * w, 0);
    }
    rows[w + b.len()]
}

/// A word's frequency as one byte that orders like the count: eight steps per doubling.
pub fn frequency_bucket(count: u64) -> u8 {
    if count == 0 {
        return 0;
    }
    let l = count.ilog2() as u64;
    let frac = if l >= 3 {
        (count >> (l - 3)) & 7
    } else {
        (count << (3 - l)) & 7
    };
    (1 + l * 8 + frac).min(255) as u8
}

/// A word of the site and how common it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypoWord {
    pub word: String,
    /// [`frequency_bucket`] of the word's occurrences in the site's text: ties between equally close
    /// candidates go to the commoner word.
    pub frequency: u8,
}

/// The words whose deletion keys fall in one range of keys, sorted, each once. A reader does not
/// need the keys themselves: every word within reach of a typed word shares one of the typed word's
/// keys, so it is in the shards of those keys, and the real distance picks among what they hold.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypoShard {
    pub words: Vec<TypoWord>,
}

/// Writes strictly increasing strings front-coded (shared prefix length, then the rest).
fn write_front_coded<'a>(w: &mut ByteWriter, items: impl Iterator<Item = &'a str>) {
    let mut prev = "";
    for s in items {
        let shared = common_prefix(prev, s);
        w.varint(shared as u64);
        w.str(&s[shared..]);
        prev = s;
    }
}

/// Reads one front-coded string after `prev`, which must sort before it, and takes its length from
/// `budget` ([`front_coded_budget`]).
fn read_front_coded(
    r: &mut ByteReader<'_>,
    prev: &str,
    what: &'static str,
    budget: &mut usize,
) -> Result<String, ShardError> {
    let shared = r.varint(what)? as usize;
    if shared > prev.len() || !prev.is_char_boundary(shared) {
        return Err(invalid(what, "shares more than the previous entry"));
    }
    let suffix = r.str(what)?;
    *budget = (budget.checked_sub(shared + suffix.len()))
        .ok_or_else(|| invalid(what, "front coding expands past its bound"))?;
    let mut s = prev[..shared].to_owned();
    s.push_str(suffix);
    if !prev.is_empty() && *prev >= *s {
        return Err(invalid(what, "not strictly increasing"));
    }
    Ok(s)
}

impl TypoShard {
    pub fn encode_payload(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.words.len() as u64);
        write_front_coded(&mut w, self.words.iter().map(|t| t.word.as_str()));
        for t in &self.words {
            w.u8(t.frequency);
        }
        w.into_inner()
    }

    pub fn encode(&self) -> Vec<u8> {
        envelope::seal(ShardKind::Typos, &self.encode_payload())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Typos)?)
    }

    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let n = r.count("typo word count", 3)?;
        let mut words: Vec<TypoWord> = Vec::with_capacity(n);
        let mut prev = String::new();
        let mut budget = front_coded_budget(raw.len());
        for _ in 0..n {
            let word = read_front_coded(&mut r, &prev, "typo word", &mut budget)?;
            if word.is_empty() {
                return Err(invalid("typo word", "empty"));
            }
            prev.clone_from(&word);
            words.push(TypoWord { word, frequency: 0 });
        }
        for t in &mut words {
            t.frequency = r.u8("typo frequency")?;
        }
        r.finish("typo shard")?;
        Ok(TypoShard { words })
    }
}

/// Which typo shard holds which keys: shard `i` holds the keys from `separators[i - 1]` (inclusive)
/// up to `separators[i]`, in the file `shard_files[i]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypoDirectory {
    /// One name per shard (`separators.len() + 1`). Since format v10 each shard is named by its own
    /// content hash (`y/<h>.bin`), so an edit renames only the shards whose words it changes; v6–v9
    /// named them `{prefix}{i:x}.bin`, one hash over them all, which decoding spells out.
    pub shard_files: Vec<String>,
    pub separators: Vec<String>,
}

/// Where typo shards live (`y/<12 hex digits>.bin`).
pub const TYPO_DIR: &str = "y";

impl TypoDirectory {
    pub fn shard_count(&self) -> usize {
        self.separators.len() + 1
    }

    /// The shard whose range holds `key`.
    pub fn shard_for(&self, key: &str) -> usize {
        self.separators.partition_point(|s| s.as_str() <= key)
    }

    pub fn shard_file(&self, i: usize) -> String {
        self.shard_files.get(i).cloned().unwrap_or_default()
    }

    /// The shard the file `name` is, if it is one of this directory's, and only one's: a reader
    /// handed a file finds the shard by its name, so a directory naming one file for two shards
    /// (never written: typo shards are named by their bytes and first key) has it as no shard's, an
    /// `unknown_file` rather than a search that waits for the other shard forever.
    pub fn shard_of_file(&self, name: &str) -> Option<usize> {
        let i = self.shard_files.iter().position(|f| f == name)?;
        (!self.shard_files[i + 1..].iter().any(|f| f == name)).then_some(i)
    }

    /// The v10 payload: the name mode, the separators, then one name per shard.
    pub fn encode_payload(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        let names = NameList::of(TYPO_DIR, self.shard_files.iter().map(String::as_str));
        names.write_mode(&mut w);
        w.varint(self.separators.len() as u64);
        write_front_coded(&mut w, self.separators.iter().map(String::as_str));
        for f in &self.shard_files {
            names.write(&mut w, f);
        }
        w.into_inner()
    }

    pub fn encode(&self) -> Vec<u8> {
        envelope::seal(ShardKind::TypoDir, &self.encode_payload())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        let version = envelope::read_header(file)?.version;
        Self::decode_versioned(&envelope::open(file, ShardKind::TypoDir)?, version)
    }

    /// A payload of the current format version.
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        Self::decode_versioned(raw, envelope::FORMAT_VERSION)
    }

    /// A payload written by format `version` (the envelope's): v6–v9 name the shards by one prefix,
    /// v10 each by its own name.
    pub fn decode_versioned(raw: &[u8], version: u16) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let mut prefix = None;
        let mut names = NameList::Strings;
        if version < 10 {
            let p = r.str("typo shard prefix")?.to_owned();
            check_file_name(&crate::vectors::partition_file(&p, 0))?;
            prefix = Some(p);
        } else {
            names = NameList::read_mode(&mut r, true, TYPO_DIR)?;
        }
        let n = r.count("typo separator count", 2)?;
        let mut separators: Vec<String> = Vec::with_capacity(n);
        let mut budget = front_coded_budget(raw.len());
        for _ in 0..n {
            let prev = separators.last().map_or("", String::as_str);
            let s = read_front_coded(&mut r, prev, "typo separator", &mut budget)?;
            if s.is_empty() {
                return Err(invalid("typo separator", "empty"));
            }
            separators.push(s);
        }
        let mut shard_files = Vec::with_capacity(n + 1);
        for i in 0..=n {
            shard_files.push(match &prefix {
                Some(p) => crate::vectors::partition_file(p, i),
                None => names.read(&mut r)?,
            });
        }
        r.finish("typo directory")?;
        Ok(TypoDirectory {
            shard_files,
            separators,
        })
    }
}

/// A word of the query replaced by the indexed word it most likely meant; or, as
/// [`Correction::dropped_quotes`], the query's double quotes dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    /// The word as typed, folded and lowercased (`"` for dropped quotes).
    pub from: String,
    /// The indexed word searched instead (folded, unstemmed; empty for dropped quotes).
    pub to: String,
}

impl Correction {
    /// No page has the query's quoted phrases as they are, so their words were searched as plain
    /// words, as a reader who drops the quotes would: `{"from": "\"", "to": ""}`.
    pub fn dropped_quotes() -> Self {
        Correction {
            from: "\"".to_owned(),
            to: String::new(),
        }
    }

    /// Whether this is [`Correction::dropped_quotes`].
    pub fn is_dropped_quotes(&self) -> bool {
        self.from == "\"" && self.to.is_empty()
    }
}

/// `query` with each corrected word replaced by what it was corrected to, and without its double
/// quotes when they were dropped (for "showing results for").
pub fn corrected_query(query: &str, corrections: &[Correction]) -> String {
    let mut out = String::with_capacity(query.len() + 8);
    let mut rest = query;
    while let Some(start) = rest.find(|c: char| c.is_alphanumeric()) {
        out.push_str(&rest[..start]);
        let run = &rest[start..];
        let end = run
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(run.len());
        let word = &run[..end];
        let folded = crate::analyzer::fold(word);
        match corrections.iter().find(|c| c.from == folded) {
            Some(c) => out.push_str(&c.to),
            None => out.push_str(word),
        }
        rest = &run[end..];
    }
    out.push_str(rest);
    if corrections.iter().any(Correction::is_dropped_quotes) {
        out.retain(|c| !is_quote(c));
    }
    out
}

/// Whether `c` opens or closes a quoted phrase: `"`, or a curly quote.
pub fn is_quote(c: char) -> bool {
    matches!(c, '"' | '“' | '”')
}

/// The best correction of `word` among `candidates` (the words of the typo shards of its keys): the
/// closest within [`max_edits`], then the commonest, then the first in order; `None` when none is
/// close enough.
pub fn best_correction<'a>(
    word: &str,
    candidates: impl Iterator<Item = &'a TypoWord>,
) -> Option<&'a TypoWord> {
    let limit = max_edits(word.chars().count());
    let mut best: Option<(usize, &TypoWord)> = None;
    for e in candidates {
        if e.word == word {
            continue;
        }
        let d = edit_distance(word, &e.word);
        if d == 0 || d > limit {
            continue;
        }
        let better = match best {
            None => true,
            Some((bd, b)) => {
                (d, core::cmp::Reverse(e.frequency), &e.word)
                    < (bd, core::cmp::Reverse(b.frequency), &b.word)
            }
        };
        if better {
            best = Some((d, e));
        }
    }
    best.map(|(_, e)| e)
}

/// The spans of `query` inside double quotes (a quote left open runs to the end): never corrected.
pub fn quoted_spans(query: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut open: Option<usize> = None;
    for (i, c) in query.char_indices() {
        if is_quote(c) {
            match open.take() {
                Some(s) => spans.push((s, i)),
                None => open = Some(i),
            }
        }
    }
    if let Some(s) = open {
        spans.push((s, query.len()));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_one_edit_of_each_kind() {
        assert_eq!(edit_distance("vitamin", "vitamin"), 0);
        assert_eq!(edit_distance("vitamn", "vitamin"), 1); // deletion
        assert_eq!(edit_distance("vitamiin", "vitamin"), 1); // insertion
        assert_eq!(edit_distance("vitanin", "vitamin"), 1); // substitution
        assert_eq!(edit_distance("vitmain", "vitamin"), 1); // transposition
        assert_eq!(edit_distance("vtmain", "vitamin"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("écrit", "ecrit"), 1);
    }

    #[test]
    fn every_single_edit_shares_a_deletion_key() {
        let word = "vitamin";
        let keys = deletion_keys(word);
        for typo in [
            "vitamn", "vitamiin", "vitanin", "vitmain", "itamin", "xvitamin",
        ] {
            let shared = deletion_keys(typo).iter().any(|k| keys.contains(k));
            assert!(shared, "{typo}");
        }
        assert_eq!(deletion_keys("aab"), vec!["aab", "ab", "aa"]);
    }

    #[test]
    fn max_edits_follows_length() {
        assert_eq!(max_edits(3), 0);
        assert_eq!(max_edits(4), 1);
        assert_eq!(max_edits(7), 1);
        assert_eq!(max_edits(8), 2);
    }

    #[test]
    fn frequency_buckets_order_like_counts() {
        let mut prev = 0;
        for c in 1..5000u64 {
            let b = frequency_bucket(c);
            assert!(b >= prev, "{c}");
            prev = b;
        }
        assert_eq!(frequency_bucket(0), 0);
        assert_eq!(frequency_bucket(u64::MAX), 255);
    }

    fn shard(words: &[(&str, u8)]) -> TypoShard {
        let mut words: Vec<TypoWord> = words
            .iter()
            .map(|&(w, f)| TypoWord {
                word: w.to_owned(),
                frequency: f,
            })
            .collect();
        words.sort_by(|a, b| a.word.cmp(&b.word));
        TypoShard { words }
    }

    #[test]
    fn shards_roundtrip_and_reject_hostile_bytes() {
        let s = shard(&[
            ("vitamin", 40),
            ("vitamins", 20),
            ("café", 3),
            ("ねこねこ", 1),
        ]);
        let file = s.encode();
        assert_eq!(TypoShard::decode(&file).unwrap(), s);
        let raw = s.encode_payload();
        for n in 0..raw.len() {
            assert!(TypoShard::decode_payload(&raw[..n]).is_err(), "cut at {n}");
        }
        let mut unsorted = s.clone();
        unsorted.words.swap(0, 1);
        assert!(TypoShard::decode_payload(&unsorted.encode_payload()).is_err());
        for i in 0..raw.len() {
            let mut bad = raw.clone();
            bad[i] ^= 0x5a;
            let _ = TypoShard::decode_payload(&bad); // never panics
        }
    }

    #[test]
    fn directories_roundtrip_and_locate_keys() {
        let d = TypoDirectory {
            shard_files: ["y/0123456789ab.bin", "y/other.bin", "y/a.bin", "y/b.bin"]
                .map(String::from)
                .to_vec(),
            separators: vec!["d".into(), "deb".into(), "m".into()],
        };
        assert_eq!(TypoDirectory::decode(&d.encode()).unwrap(), d);
        assert_eq!(d.shard_of_file("y/a.bin"), Some(2));
        assert_eq!(d.shard_of_file("y/c.bin"), None);
        // Issue 25 (v10): each shard by its own name, 6 bytes when content-hashed.
        let hashed = TypoDirectory {
            shard_files: vec!["y/0123456789ab.bin".into(), "y/ba9876543210.bin".into()],
            separators: vec!["m".into()],
        };
        assert_eq!(hashed.encode_payload().len(), 1 + 1 + 3 + 12);
        assert_eq!(TypoDirectory::decode(&hashed.encode()).unwrap(), hashed);
        let mut twice = hashed.clone();
        twice.shard_files[1] = twice.shard_files[0].clone();
        assert_eq!(twice.shard_of_file("y/0123456789ab.bin"), None);
        // v6–v9: one prefix, spelt out per shard.
        let mut old = ByteWriter::new();
        old.str("y/0123456789ab-");
        old.varint(1);
        write_front_coded(&mut old, ["m"].into_iter());
        assert_eq!(
            TypoDirectory::decode_versioned(&old.into_inner(), 9).unwrap(),
            TypoDirectory {
                shard_files: vec!["y/0123456789ab-0.bin".into(), "y/0123456789ab-1.bin".into()],
                separators: vec!["m".into()],
            }
        );
        assert_eq!(d.shard_for("a"), 0);
        assert_eq!(d.shard_for("d"), 1);
        assert_eq!(d.shard_for("dea"), 1);
        assert_eq!(d.shard_for("deb"), 2);
        assert_eq!(d.shard_for("zz"), 3);
        assert_eq!(d.shard_count(), 4);
        let raw = d.encode_payload();
        for n in 0..raw.len() {
            assert!(
                TypoDirectory::decode_payload(&raw[..n]).is_err(),
                "cut at {n}"
            );
        }
        let hostile = TypoDirectory {
            shard_files: vec!["../x".into()],
            separators: vec![],
        };
        assert!(TypoDirectory::decode_payload(&hostile.encode_payload()).is_err());
        // Issue 25 (review): each separator repeating all of the one before plus a byte would spell
        // out 200 MB from a 60 KB payload; the front coding's bound stops it.
        let mut quadratic = ByteWriter::new();
        quadratic.u8(1);
        quadratic.varint(20_000);
        for i in 0..20_000u64 {
            quadratic.varint(i);
            quadratic.str("a");
        }
        let err = TypoDirectory::decode_payload(&quadratic.into_inner()).unwrap_err();
        assert!(err.to_string().contains("bound"), "{err}");
        let mut hostile_prefix = ByteWriter::new();
        hostile_prefix.str("../x");
        hostile_prefix.varint(0);
        assert!(TypoDirectory::decode_versioned(&hostile_prefix.into_inner(), 9).is_err());
    }

    #[test]
    fn the_closest_then_commonest_word_wins() {
        let s = shard(&[
            ("vitamin", 40),
            ("vitamins", 20),
            ("vitals", 90),
            ("vitamix", 1),
        ]);
        let pick = |w: &str| best_correction(w, s.words.iter()).map(|e| e.word.clone());
        assert_eq!(pick("vitamn").as_deref(), Some("vitamin"));
        assert_eq!(pick("vitamim").as_deref(), Some("vitamin")); // as close as "vitamix", commoner
        assert_eq!(pick("vitamiins").as_deref(), Some("vitamins"));
        assert_eq!(pick("vit"), None); // too short to correct
        assert_eq!(pick("qqqqqq"), None);
    }

    #[test]
    fn corrected_queries_replace_the_corrected_words() {
        let c = [Correction {
            from: "vitamn".into(),
            to: "vitamin".into(),
        }];
        assert_eq!(
            corrected_query("Is Vitamn D good?", &c),
            "Is vitamin D good?"
        );
        assert_eq!(corrected_query("", &c), "");
    }

    #[test]
    fn dropped_quotes_leave_no_quote_of_any_kind() {
        let c = [Correction::dropped_quotes()];
        assert_eq!(
            corrected_query("“sdk refresh” and \"x y\"", &c),
            "sdk refresh and x y"
        );
        assert_eq!(corrected_query("\"open phrase", &c), "open phrase");
        assert_eq!(corrected_query("\"kept\"", &[]), "\"kept\"");
    }

    #[test]
    fn quoted_spans_cover_phrases() {
        let q = r#"use "exact phrse" and "open"#;
        let spans = quoted_spans(q);
        assert_eq!(spans.len(), 2);
        assert!(q[spans[0].0..spans[0].1].contains("phrse"));
        assert!(q[spans[1].0..spans[1].1].contains("open"));
    }
}
