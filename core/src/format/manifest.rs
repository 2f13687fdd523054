//! The manifest: the index's table of contents, the one file with a fixed name.

use super::{Audience, Bm25Params, Kind, SCORED_FIELDS};
use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{invalid, ShardError};
use crate::filter::TermFilter;
use crate::names::check_file_name;

use super::directory::{
    read_meta_entries, read_meta_pages, read_term_entries, read_term_pages, write_meta_entries,
    write_meta_pages, write_term_entries, write_term_pages, MetaPageRef, TermPageRef,
};

/// One page in the manifest's page table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageEntry {
    pub chunk_count: u32,
    pub kind: Kind,
    /// Index into [`Manifest::groups`], if the page sits in a navigation group.
    pub group: Option<u32>,
    /// Index into [`Manifest::tagsets`].
    pub tagset: u32,
    /// Index into [`Manifest::languages`] (format v6), when the page has a language.
    pub language: Option<u32>,
    /// Index into [`Manifest::versions`] (format v8), when the page sits in a docs version.
    pub version: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermShardEntry {
    /// The shard's first term: its range runs up to the next shard's first term (since v5 the last
    /// term is not stored; an absent term in the gap between two shards costs one fetch without
    /// filters, where storing every last term cost a 10,000-page site 5 KB per cold query).
    pub first: String,
    pub file: String,
    pub term_count: u32,
    pub filter: Option<TermFilter>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetaShardEntry {
    pub first_page: u32,
    pub page_count: u32,
    pub file: String,
}

/// The root of an index.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// Hash over every other shard's name: changes whenever any content changes.
    pub build_id: String,
    pub generator: String,
    pub analyzer_version: u32,
    pub audience: Audience,
    pub params: Bm25Params,
    pub num_chunks: u32,
    /// Total tokens per scored field over all chunks (average length = total / num_chunks).
    pub field_tokens: [u64; SCORED_FIELDS],
    pub groups: Vec<String>,
    pub tags: Vec<String>,
    pub tagsets: Vec<Vec<u32>>,
    pub pages: Vec<PageEntry>,
    /// The term shard table inline (empty when it is in `term_pages`).
    pub term_shards: Vec<TermShardEntry>,
    /// The term shard table as directory pages (format v11), on a site whose table would make every
    /// reader's first fetch large; empty when the table is inline.
    pub term_pages: Vec<TermPageRef>,
    /// The metadata shard table inline (empty when it is in `meta_pages`).
    pub meta_shards: Vec<MetaShardEntry>,
    /// The metadata shard table as directory pages (format v11); empty when it is inline.
    pub meta_pages: Vec<MetaPageRef>,
    /// Chunk vectors (format v2), when the index was built with embeddings.
    pub vectors: Option<crate::vectors::VectorRef>,
    /// The typo directory's file (format v6), when the index keeps its words for typo tolerance.
    pub typos: Option<String>,
    /// The pages' languages (format v6), sorted (`en`, `fr`, `zh`...); empty on a one-language site.
    pub languages: Vec<String>,
    /// Where each term shard's positions are (format v7, [`Manifest::positions_file`]). `None`:
    /// quoted phrases are not checked.
    pub positions: Option<PositionFiles>,
    /// The docs versions of the pages (format v8: the navigation's `versions`), sorted; empty on an
    /// unversioned site.
    pub versions: Vec<String>,
    /// Whether the exact-match keys are filed under a term of their text (format v12,
    /// [`crate::search::anchored_exact_key`]): not stored, it is the version the index was written
    /// in (an index of an earlier version has the bare keys).
    pub anchored_exact_keys: bool,
}

pub const MANIFEST_FILE: &str = "manifest.bin";

/// The format version whose exact-match keys are filed under a term of their text.
pub const ANCHORED_EXACT_KEYS_SINCE: u16 = 12;

/// How the position shards are named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionFiles {
    /// Format v7–v9: term shard `i`'s positions are `{prefix}{i:x}.bin`, the prefix one hash over
    /// them all, so that any edit renamed every position shard.
    Prefix(String),
    /// Format v10: term shard `t/<h>.bin`'s positions are `p/<h>.bin`, `<h>` one hash over both
    /// files' bytes: an edit renames only the pairs it changes, and the manifest names none of them.
    BesideTerms,
}

/// Where a term shard's positions are named beside it (format v10).
const POSITIONS_DIR: &str = "p";

/// The position shard beside term shard `term_file` (format v10): `t/<h>.bin` is `p/<h>.bin`'s.
pub(crate) fn positions_beside(term_file: &str) -> Option<String> {
    let stem = term_file.strip_prefix("t/")?;
    Some(crate::text::concat(&[POSITIONS_DIR, "/", stem]))
}

/// The term shard position shard `name` sits beside (the inverse of [`positions_beside`]).
pub(crate) fn term_file_beside(name: &str) -> Option<String> {
    let stem = name.strip_prefix(POSITIONS_DIR)?.strip_prefix('/')?;
    Some(crate::text::concat(&["t/", stem]))
}

impl Manifest {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.str(&self.build_id);
        w.str(&self.generator);
        w.varint(self.analyzer_version as u64);
        w.u8(self.audience as u8);
        w.f32(self.params.k1);
        w.f32(self.params.b);
        for x in self.params.weights {
            w.f32(x);
        }
        w.varint(self.num_chunks as u64);
        for t in self.field_tokens {
            w.varint(t);
        }
        for list in [&self.groups, &self.tags] {
            w.varint(list.len() as u64);
            for s in list.iter() {
                w.str(s);
            }
        }
        w.varint(self.tagsets.len() as u64);
        for set in &self.tagsets {
            w.varint(set.len() as u64);
            for &t in set {
                w.varint(t as u64);
            }
        }
        w.varint(self.pages.len() as u64);
        for p in &self.pages {
            w.varint(p.chunk_count as u64);
            w.u8(p.kind as u8);
            w.varint(p.group.map_or(0, |g| g as u64 + 1));
            w.varint(p.tagset as u64);
        }
        // v11: each table inline (as v5–v10) or as directory pages.
        match self.term_pages.is_empty() {
            true => {
                w.u8(0);
                write_term_entries(&mut w, &self.term_shards);
            }
            false => {
                w.u8(1);
                write_term_pages(&mut w, &self.term_pages);
            }
        }
        match self.meta_pages.is_empty() {
            true => {
                w.u8(0);
                write_meta_entries(&mut w, &self.meta_shards);
            }
            false => {
                w.u8(1);
                write_meta_pages(&mut w, &self.meta_pages);
            }
        }
        // v2: the vector reference (a v1 payload ends here); v3: flag 2, then the static encoder
        // and the projection.
        match &self.vectors {
            Some(v) => {
                w.u8(2);
                v.encode_v3(&mut w);
            }
            None => w.u8(0),
        }
        // v6: the typo directory.
        match &self.typos {
            Some(file) => {
                w.u8(1);
                w.str(file);
            }
            None => w.u8(0),
        }
        // v6: languages and each page's.
        write_page_values(
            &mut w,
            &self.languages,
            self.pages.iter().map(|p| p.language),
        );
        // v7: the position shards.
        match &self.positions {
            Some(PositionFiles::Prefix(prefix)) => {
                w.u8(1);
                w.str(prefix);
            }
            Some(PositionFiles::BesideTerms) => w.u8(2),
            None => w.u8(0),
        }
        // v8: docs versions and each page's.
        write_page_values(&mut w, &self.versions, self.pages.iter().map(|p| p.version));
        envelope::seal(ShardKind::Manifest, &w.into_inner())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        let version = envelope::read_header(file)?.version;
        Self::decode_versioned(&envelope::open(file, ShardKind::Manifest)?, version)
    }

    /// Decodes an already verified and inflated payload of the current format version.
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        Self::decode_versioned(raw, envelope::FORMAT_VERSION)
    }

    /// Decodes an already verified and inflated payload (see [`envelope::check`]) written by format
    /// `version` (v5 stores content-hashed names as 6 bytes and implies metadata shards' first pages).
    pub fn decode_versioned(raw: &[u8], version: u16) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let build_id = r.str("build id")?.to_owned();
        let generator = r.str("generator")?.to_owned();
        let analyzer_version = r.varint_u32("analyzer version")?;
        let audience = match r.u8("audience")? {
            0 => Audience::Public,
            1 => Audience::Internal,
            _ => return Err(invalid("audience", "unknown audience byte")),
        };
        let k1 = r.f32("k1")?;
        let b = r.f32("b")?;
        let mut weights = [0f32; SCORED_FIELDS];
        for x in weights.iter_mut() {
            *x = r.f32("field weight")?;
        }
        if !(k1.is_finite()
            && k1 >= 0.0
            && (0.0..=1.0).contains(&b)
            && weights.iter().all(|w| w.is_finite() && *w >= 0.0))
        {
            return Err(invalid("bm25 parameters", "out of range"));
        }
        let num_chunks = r.varint_u32("chunk count")?;
        let mut field_tokens = [0u64; SCORED_FIELDS];
        for t in field_tokens.iter_mut() {
            *t = r.varint("field token total")?;
        }
        let mut lists = [Vec::new(), Vec::new()];
        for list in lists.iter_mut() {
            let n = r.count("string list", 1)?;
            for _ in 0..n {
                list.push(r.str("group or tag name")?.to_owned());
            }
        }
        let [groups, tags] = lists;
        let n = r.count("tag sets", 1)?;
        let mut tagsets = Vec::with_capacity(n);
        for _ in 0..n {
            let m = r.count("tag set", 1)?;
            let mut set = Vec::with_capacity(m);
            for _ in 0..m {
                let t = r.varint_u32("tag id")?;
                if t as usize >= tags.len() {
                    return Err(invalid("tag set", "tag id out of range"));
                }
                set.push(t);
            }
            tagsets.push(set);
        }
        let n = r.count("page table", 4)?;
        let mut pages = Vec::with_capacity(n);
        let mut chunk_sum: u64 = 0;
        for _ in 0..n {
            let chunk_count = r.varint_u32("page chunk count")?;
            let kind = Kind::from_byte(r.u8("page kind")?)?;
            let group = match r.varint_u32("page group")? {
                0 => None,
                g if (g as usize) <= groups.len() => Some(g - 1),
                _ => return Err(invalid("page group", "group id out of range")),
            };
            let tagset = r.varint_u32("page tag set")?;
            if tagset as usize >= tagsets.len().max(1) && !(tagsets.is_empty() && tagset == 0) {
                return Err(invalid("page tag set", "tag set id out of range"));
            }
            chunk_sum += chunk_count as u64;
            pages.push(PageEntry {
                chunk_count,
                kind,
                group,
                tagset,
                language: None,
                version: None,
            });
        }
        if chunk_sum != num_chunks as u64 {
            return Err(invalid(
                "page table",
                "chunk counts do not add up to the chunk count",
            ));
        }
        // v11: a form byte before each table (0 inline, 1 directory pages).
        let paged = |r: &mut ByteReader<'_>, what| -> Result<bool, ShardError> {
            if version < 11 {
                return Ok(false);
            }
            match r.u8(what)? {
                0 => Ok(false),
                1 => Ok(true),
                _ => Err(invalid(what, "not 0 or 1")),
            }
        };
        let (term_shards, term_pages) = if paged(&mut r, "term table form")? {
            (Vec::new(), read_term_pages(&mut r)?)
        } else {
            (read_term_entries(&mut r, version)?, Vec::new())
        };
        let (meta_shards, meta_pages) = if paged(&mut r, "meta table form")? {
            (Vec::new(), read_meta_pages(&mut r, pages.len())?)
        } else {
            let shards = read_meta_entries(&mut r, version, 0)?;
            let covered = shards
                .last()
                .map_or(0, |m| m.first_page as u64 + m.page_count as u64);
            if covered != pages.len() as u64 {
                return Err(invalid(
                    "meta shard list",
                    "page ranges do not cover the page table",
                ));
            }
            (shards, Vec::new())
        };
        let vectors = if version < 2 && r.is_done() {
            None // a v1 manifest
        } else {
            match r.u8("vector flag")? {
                0 => None,
                flag @ (1 | 2) => Some(crate::vectors::VectorRef::decode(&mut r, flag == 2)?),
                _ => return Err(invalid("vector flag", "not 0, 1 or 2")),
            }
        };
        if vectors.as_ref().is_some_and(|v| v.count != num_chunks) {
            return Err(invalid("vector count", "differs from the chunk count"));
        }
        let typos = if version < 6 {
            None
        } else {
            match r.u8("typo flag")? {
                0 => None,
                1 => {
                    let file = r.str("typo directory")?.to_owned();
                    check_file_name(&file)?;
                    Some(file)
                }
                _ => return Err(invalid("typo flag", "not 0 or 1")),
            }
        };
        let languages = if version >= 6 {
            read_page_values(&mut r, &mut pages, |p, l| p.language = l)?
        } else {
            Vec::new()
        };
        let positions = if version < 7 {
            None
        } else {
            match r.u8("positions flag")? {
                0 => None,
                1 => {
                    let prefix = r.str("positions prefix")?.to_owned();
                    // The prefix becomes a path: the same rules as every other file name.
                    check_file_name(&crate::names::numbered_file(&prefix, 0))?;
                    Some(PositionFiles::Prefix(prefix))
                }
                // v10: each beside its term shard, which must be a `t/` file for that to name one.
                2 if version >= 10 => {
                    if !term_shards.iter().all(|s| s.file.starts_with("t/")) {
                        return Err(invalid(
                            "positions flag",
                            "positions beside term shards outside t/",
                        ));
                    }
                    Some(PositionFiles::BesideTerms)
                }
                _ => return Err(invalid("positions flag", "not 0, 1 or (v10) 2")),
            }
        };
        let versions = if version >= 8 {
            read_page_values(&mut r, &mut pages, |p, v| p.version = v)?
        } else {
            Vec::new()
        };
        r.finish("manifest")?;
        Ok(Manifest {
            build_id,
            generator,
            analyzer_version,
            audience,
            params: Bm25Params { k1, b, weights },
            num_chunks,
            field_tokens,
            groups,
            tags,
            tagsets,
            pages,
            term_shards,
            term_pages,
            meta_shards,
            meta_pages,
            vectors,
            typos,
            languages,
            positions,
            versions,
            anchored_exact_keys: version >= ANCHORED_EXACT_KEYS_SINCE,
        })
    }

    /// The position shard of term shard `i`, when the index has positions.
    pub fn positions_file(&self, i: usize) -> Option<String> {
        match self.positions.as_ref()? {
            PositionFiles::Prefix(p) => Some(crate::names::numbered_file(p, i as u64)),
            PositionFiles::BesideTerms => positions_beside(&self.term_shards.get(i)?.file),
        }
    }

    /// The term shard whose positions `name` holds, if it is one of this index's position shards.
    pub fn positions_shard_of(&self, name: &str) -> Option<usize> {
        let prefix = match self.positions.as_ref()? {
            PositionFiles::Prefix(p) => p,
            PositionFiles::BesideTerms => {
                let terms = term_file_beside(name)?;
                return self.term_shards.iter().position(|s| s.file == terms);
            }
        };
        let hex = name.strip_prefix(prefix.as_str())?.strip_suffix(".bin")?;
        // Lowercase hex without leading zeros: one name per shard.
        let canonical = (hex == "0" || !hex.starts_with('0'))
            && hex.len() <= 8
            && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        let i = u32::from_str_radix(hex, 16).ok().filter(|_| canonical)? as usize;
        (i < self.term_shards.len()).then_some(i)
    }

    /// Term shards in the index, inline or in directory pages.
    pub fn term_shard_count(&self) -> usize {
        match self.term_pages.is_empty() {
            true => self.term_shards.len(),
            false => self.term_pages.iter().map(|p| p.shard_count as usize).sum(),
        }
    }

    /// Metadata shards in the index, inline or in directory pages.
    pub fn meta_shard_count(&self) -> usize {
        match self.meta_pages.is_empty() {
            true => self.meta_shards.len(),
            false => self.meta_pages.iter().map(|p| p.shard_count as usize).sum(),
        }
    }

    /// Average length of a scored field, as both sides compute it.
    pub fn avg_field_len(&self, field: usize) -> f32 {
        if self.num_chunks == 0 {
            return 0.0;
        }
        (self.field_tokens[field] as f64 / self.num_chunks as f64) as f32
    }
}

/// A sorted list of names (languages since v6, versions since v8), then when it is not empty each
/// page's (0 = none, else 1 + index): the writer of [`read_page_values`].
fn write_page_values(
    w: &mut ByteWriter,
    values: &[String],
    pages: impl Iterator<Item = Option<u32>>,
) {
    w.varint(values.len() as u64);
    for v in values {
        w.str(v);
    }
    if !values.is_empty() {
        for id in pages {
            w.varint(id.map_or(0, |v| u64::from(v) + 1));
        }
    }
}

/// The reader of [`write_page_values`]: the names, and each page's set on `pages` by `set`.
fn read_page_values(
    r: &mut ByteReader<'_>,
    pages: &mut [PageEntry],
    set: impl Fn(&mut PageEntry, Option<u32>),
) -> Result<Vec<String>, ShardError> {
    let n = r.count("page value count", 2)?;
    let mut values: Vec<String> = Vec::with_capacity(n);
    for _ in 0..n {
        let v = r.str("page value")?;
        if v.is_empty() || values.last().is_some_and(|p| p.as_str() >= v) {
            return Err(invalid(
                "languages or versions",
                "empty or not strictly increasing",
            ));
        }
        values.push(v.to_owned());
    }
    if !values.is_empty() {
        for p in pages.iter_mut() {
            let id = match r.varint_u32("page language or version")? {
                0 => None,
                v if (v as usize) <= values.len() => Some(v - 1),
                _ => return Err(invalid("page language or version", "id out of range")),
            };
            set(p, id);
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_roundtrip_and_ranges() {
        let m = Manifest {
            build_id: "abc".into(),
            generator: "test".into(),
            analyzer_version: 1,
            audience: Audience::Public,
            params: Bm25Params::default(),
            num_chunks: 3,
            field_tokens: [3, 0, 30, 0],
            groups: vec!["Guides".into()],
            tags: vec!["t".into()],
            tagsets: vec![vec![], vec![0]],
            pages: vec![
                PageEntry {
                    chunk_count: 2,
                    kind: Kind::Docs,
                    group: Some(0),
                    tagset: 1,
                    language: None,
                    version: None,
                },
                PageEntry {
                    chunk_count: 1,
                    kind: Kind::Api,
                    group: None,
                    tagset: 0,
                    language: None,
                    version: None,
                },
            ],
            term_shards: vec![
                TermShardEntry {
                    first: "a".into(),
                    file: "t/1.bin".into(),
                    term_count: 2,
                    filter: TermFilter::build(["a", "m"]),
                },
                TermShardEntry {
                    first: "n".into(),
                    file: "t/2.bin".into(),
                    term_count: 1,
                    filter: None,
                },
            ],
            meta_shards: vec![MetaShardEntry {
                first_page: 0,
                page_count: 2,
                file: "m/1.bin".into(),
            }],
            term_pages: Vec::new(),
            meta_pages: Vec::new(),
            vectors: None,
            typos: None,
            languages: Vec::new(),
            positions: None,
            versions: Vec::new(),
            anchored_exact_keys: true,
        };
        let d = Manifest::decode(&m.encode()).unwrap();
        assert_eq!(d, m);

        // Issue 4: content-hashed names (what the indexer writes) are stored as 6 bytes each, and
        // read back as the same names; one name of another shape keeps that list's names as text.
        let mut hashed = m.clone();
        hashed.term_shards[0].file = "t/0123456789ab.bin".into();
        hashed.term_shards[1].file = "t/fedcba987654.bin".into();
        hashed.meta_shards[0].file = "m/00ff00ff00ff.bin".into();
        let file = hashed.encode();
        assert_eq!(Manifest::decode(&file).unwrap(), hashed);
        let raw = envelope::open(&file, ShardKind::Manifest).unwrap();
        assert!(!raw.windows(12).any(|w| w == b"0123456789ab"));
        let mut mixed = hashed.clone();
        mixed.term_shards[1].file = "t/FEDCBA987654.bin".into();
        assert_eq!(Manifest::decode(&mixed.encode()).unwrap(), mixed);
        for cut in 0..raw.len() {
            assert!(Manifest::decode_payload(&raw[..cut]).is_err(), "cut {cut}");
        }

        // Issue 6 (v6): the typo directory and the pages' languages.
        let mut multi = hashed.clone();
        multi.typos = Some("y/0123456789ab.bin".into());
        multi.languages = vec!["en".into(), "zh".into()];
        multi.pages[0].language = Some(1);
        // Issue 6 (v8): the pages' docs versions.
        multi.versions = vec!["v1".into(), "v2".into()];
        multi.pages[1].version = Some(1);
        // Issue 6 (v7): the position shards' prefix.
        multi.positions = Some(PositionFiles::Prefix("p/0123456789ab-".into()));
        assert_eq!(
            multi.positions_file(10).as_deref(),
            Some("p/0123456789ab-a.bin")
        );
        assert_eq!(multi.positions_shard_of("p/0123456789ab-0.bin"), Some(0));
        assert_eq!(multi.positions_shard_of("p/0123456789ab-00.bin"), None);
        assert_eq!(multi.positions_shard_of("p/other-0.bin"), None);
        let mut bad_prefix = multi.clone();
        bad_prefix.positions = Some(PositionFiles::Prefix("../p/x-".into()));
        assert!(Manifest::decode(&bad_prefix.encode()).is_err());
        let file = multi.encode();
        assert_eq!(Manifest::decode(&file).unwrap(), multi);
        let raw = envelope::open(&file, ShardKind::Manifest).unwrap();
        for cut in 0..raw.len() {
            assert!(Manifest::decode_payload(&raw[..cut]).is_err(), "cut {cut}");
        }
        // Issue 25 (v10): each term shard's positions beside it, under the same hash.
        let mut beside = multi.clone();
        beside.positions = Some(PositionFiles::BesideTerms);
        assert_eq!(
            beside.positions_file(0).as_deref(),
            Some(format!("p/{}", &beside.term_shards[0].file[2..]).as_str())
        );
        assert_eq!(beside.positions_file(beside.term_shards.len()), None);
        let last = beside.term_shards.len() - 1;
        let name = beside.positions_file(last).unwrap();
        assert_eq!(beside.positions_shard_of(&name), Some(last));
        assert_eq!(beside.positions_shard_of(&beside.term_shards[0].file), None);
        assert_eq!(beside.positions_shard_of("p/ffffffffffff.bin"), None);
        assert_eq!(Manifest::decode(&beside.encode()).unwrap(), beside);
        let mut outside = beside.clone();
        outside.term_shards[0].file = "q/0123456789ab.bin".into();
        assert!(Manifest::decode(&outside.encode()).is_err());
        let mut unsorted = multi.clone();
        unsorted.languages = vec!["zh".into(), "en".into()];
        assert!(Manifest::decode(&unsorted.encode()).is_err());
        let mut out_of_range = multi.clone();
        out_of_range.pages[1].language = Some(2);
        assert!(Manifest::decode(&out_of_range.encode()).is_err());
        let mut bad_version = multi.clone();
        bad_version.pages[0].version = Some(2);
        assert!(Manifest::decode(&bad_version.encode()).is_err());
        let mut unsorted = multi.clone();
        unsorted.versions = vec!["v2".into(), "v1".into()];
        assert!(Manifest::decode(&unsorted.encode()).is_err());
    }
}
