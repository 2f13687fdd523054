//! Language partitions (format v8): a site whose pages are in two or more languages is written as one
//! index per language, and `manifest.bin` becomes this table of them. A reader opens the partition of
//! its language and never downloads the other languages' vocabulary: English readers of a site with
//! Chinese pages no longer pay for the Chinese bigrams' share of the manifest, and prefix expansions,
//! typo corrections and statistics come from the reader's language only.
//!
//! ```text
//! payload: varint partition count (≥ 1), then per partition:
//!            str language tag, str manifest file name (`l/<hash>.bin`), varint pages
//!          varint default partition (the one a reader of no listed language opens)
//! ```
//! Pages without a language are in every partition. A single-language site has no table: its
//! `manifest.bin` is the index manifest, as before v8.

use crate::analyzer::primary_subtag;
use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{invalid, ShardError};
use crate::names::read_file_name;

/// The directory of the partitions' manifests.
pub const PARTITION_DIR: &str = "l";

/// One language's index: its manifest file and how many pages it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguagePartition {
    /// A language tag as the site's navigation or frontmatter gives it (`en`, `zh`, `pt-BR`).
    pub language: String,
    /// The partition's manifest, `l/<hash>.bin`.
    pub manifest: String,
    pub pages: u32,
}

/// What `manifest.bin` holds for a multilingual site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionTable {
    /// Sorted by language tag.
    pub partitions: Vec<LanguagePartition>,
    /// The partition readers of no listed language open: the site's language with the most pages.
    pub default: usize,
}

impl PartitionTable {
    pub fn encode_payload(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.partitions.len() as u64);
        for p in &self.partitions {
            w.str(&p.language);
            w.str(&p.manifest);
            w.varint(u64::from(p.pages));
        }
        w.varint(self.default as u64);
        w.into_inner()
    }

    pub fn encode(&self) -> Vec<u8> {
        envelope::seal(ShardKind::Partitions, &self.encode_payload())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Partitions)?)
    }

    /// Decodes a verified, inflated payload: at least one partition, language tags non-empty, unique
    /// and sorted, manifest names of the `dir/name.bin` form, the default one of them.
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let n = r.count("partitions", 3)?;
        if n == 0 {
            return Err(invalid("partitions", "none"));
        }
        let mut partitions: Vec<LanguagePartition> = Vec::with_capacity(n);
        for _ in 0..n {
            let language = r.str("partition language")?.to_owned();
            let ok = !language.is_empty()
                && language.len() <= 35
                && language
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if !ok {
                return Err(invalid("partition language", "not a language tag"));
            }
            if partitions.last().is_some_and(|p| p.language >= language) {
                return Err(invalid("partition language", "not sorted or repeated"));
            }
            let manifest = read_file_name(&mut r)?;
            let pages = r.varint_u32("partition pages")?;
            partitions.push(LanguagePartition {
                language,
                manifest,
                pages,
            });
        }
        let default = r.varint("default partition")? as usize;
        if default >= partitions.len() {
            return Err(invalid("default partition", "past the partitions"));
        }
        r.finish("partition table")?;
        Ok(PartitionTable {
            partitions,
            default,
        })
    }

    /// The partition a reader in `language` opens: the same tag ignoring case, else the same primary
    /// subtag (`zh-CN` opens `zh`, `pt` opens `pt-BR`), else the default.
    pub fn choose(&self, language: Option<&str>) -> &LanguagePartition {
        let found = language.filter(|l| !l.is_empty()).and_then(|lang| {
            let parts = &self.partitions;
            parts
                .iter()
                .find(|p| p.language.eq_ignore_ascii_case(lang))
                .or_else(|| {
                    let want = primary_subtag(lang);
                    parts.iter().find(|p| primary_subtag(&p.language) == want)
                })
        });
        found.unwrap_or(&self.partitions[self.default])
    }
}

/// What `manifest.bin` is: the index manifest of a single-language site, or the partition table of a
/// multilingual one (read from the envelope's kind byte, before anything is inflated).
pub fn root_kind(file: &[u8]) -> Result<ShardKind, ShardError> {
    let kind = envelope::read_header(file)?.kind;
    match kind {
        ShardKind::Manifest | ShardKind::Partitions => Ok(kind),
        other => Err(ShardError::WrongKind {
            expected: ShardKind::Manifest.name(),
            found: other.name(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> PartitionTable {
        let p = |language: &str, hash: &str, pages| LanguagePartition {
            language: language.into(),
            manifest: format!("l/{hash}.bin"),
            pages,
        };
        PartitionTable {
            partitions: vec![
                p("en", "aaaaaaaaaaaa", 300),
                p("fr", "bbbbbbbbbbbb", 200),
                p("pt-BR", "cccccccccccc", 10),
                p("zh", "dddddddddddd", 150),
            ],
            default: 0,
        }
    }

    /// Issue 6: the table round-trips, and a reader's language picks its partition by tag, then by
    /// primary subtag, else the default.
    #[test]
    fn issue_6_a_readers_language_picks_its_partition() {
        let t = table();
        let bytes = t.encode();
        assert_eq!(root_kind(&bytes).unwrap(), ShardKind::Partitions);
        assert_eq!(PartitionTable::decode(&bytes).unwrap(), t);
        for (lang, want) in [
            (Some("fr"), "fr"),
            (Some("FR"), "fr"),
            (Some("fr-CA"), "fr"),
            (Some("zh-CN"), "zh"),
            (Some("pt"), "pt-BR"),
            (Some("pt_br"), "pt-BR"),
            (Some("de"), "en"),
            (Some(""), "en"),
            (None, "en"),
        ] {
            assert_eq!(t.choose(lang).language, want, "{lang:?}");
        }
    }

    /// Issue 6: damaged or inconsistent tables are typed errors, never a panic.
    #[test]
    fn issue_6_bad_partition_tables_are_refused() {
        let good = table();
        let mut unsorted = good.clone();
        unsorted.partitions.swap(0, 1);
        let mut bad_default = good.clone();
        bad_default.default = 4;
        let mut bad_name = good.clone();
        bad_name.partitions[1].manifest = "../etc/passwd".into();
        let mut bad_tag = good.clone();
        bad_tag.partitions[2].language = "pt BR".into();
        let empty = PartitionTable {
            partitions: Vec::new(),
            default: 0,
        };
        for t in [unsorted, bad_default, bad_name, bad_tag, empty] {
            let e = PartitionTable::decode_payload(&t.encode_payload()).unwrap_err();
            assert_eq!(e.code(), "invalid_payload", "{t:?}");
        }
        // Every truncation and every flipped byte of the payload is an error or a valid table.
        let raw = good.encode_payload();
        for cut in 0..raw.len() {
            assert!(PartitionTable::decode_payload(&raw[..cut]).is_err());
        }
        for i in 0..raw.len() {
            for bit in 0..8 {
                let mut m = raw.clone();
                m[i] ^= 1 << bit;
                if let Ok(t) = PartitionTable::decode_payload(&m) {
                    assert!(t.default < t.partitions.len());
                }
            }
        }
        // A term shard is not a root manifest.
        let terms = envelope::seal(ShardKind::Terms, &[0]);
        assert_eq!(root_kind(&terms).unwrap_err().code(), "wrong_kind");
    }
}
