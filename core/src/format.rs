//! Shard format v1: the manifest, term shards and metadata shards. Writer (`encode`) and reader
//! (`decode`) sit side by side; the reader validates everything it reads.
//!
//! - The **manifest** is the only file with a fixed name. It lists term shards by term range (so a term
//!   or a prefix maps to one shard) with a binary-fuse filter each, metadata shards by page range, the
//!   corpus statistics BM25 needs, the scoring parameters, and a compact page table (chunks per page, kind,
//!   nav group, tag set) so filters and chunk→page aggregation need no other file.
//! - A **term shard** holds a sorted, front-coded run of terms, each with its postings: chunk ordinal,
//!   and per field the term frequency and the field-norm code (tantivy's 1-byte length quantization).
//! - A **metadata shard** holds what results display for a run of pages and their chunks.

use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{FormatError, ShardError};
use crate::filter::TermFilter;

/// The scored text fields, in posting order. `Exact` carries exact-match keys (whole title,
/// operationId, `METHOD /path`) that drive boosts, not BM25.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    Title = 0,
    Headings = 1,
    Body = 2,
    Code = 3,
    Exact = 4,
}

pub const FIELD_COUNT: usize = 5;
/// Fields scored by BM25F.
pub const SCORED_FIELDS: usize = 4;

impl Field {
    pub const ALL: [Field; FIELD_COUNT] = [
        Field::Title,
        Field::Headings,
        Field::Body,
        Field::Code,
        Field::Exact,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Headings => "headings",
            Field::Body => "body",
            Field::Code => "code",
            Field::Exact => "exact",
        }
    }
}

/// What a page is: a guide, an API operation, or a custom record (JSONL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Docs = 0,
    Api = 1,
    Custom = 2,
}

impl Kind {
    pub fn from_byte(b: u8) -> Result<Self, FormatError> {
        match b {
            0 => Ok(Kind::Docs),
            1 => Ok(Kind::Api),
            2 => Ok(Kind::Custom),
            _ => Err(FormatError::Invalid {
                what: "kind",
                detail: "unknown kind byte",
            }),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Kind::Docs => "docs",
            Kind::Api => "api",
            Kind::Custom => "custom",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "docs" => Some(Kind::Docs),
            "api" => Some(Kind::Api),
            "custom" => Some(Kind::Custom),
            _ => None,
        }
    }
}

/// Which content an index was built for. Private content is never written, so it has no level here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Audience {
    Public = 0,
    Internal = 1,
}

/// BM25F parameters, stored in the manifest so every reader scores the same way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bm25Params {
    pub k1: f32,
    pub b: f32,
    /// Weight per scored field (title, headings, body, code).
    pub weights: [f32; SCORED_FIELDS],
}

impl Default for Bm25Params {
    /// Standard BM25 values (tantivy's k1/b) with title > headings > body > code. A sweep on the SciFact
    /// train split (k1 0.9-1.5, b 0.5-0.9, title weight 1-4) gained at most 0.009 nDCG@10, which did
    /// not carry over to the test split, so these stay (ARCHITECTURE.md, "Relevance").
    fn default() -> Self {
        Bm25Params {
            k1: 1.2,
            b: 0.75,
            weights: [2.0, 1.5, 1.0, 0.8],
        }
    }
}

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
    pub term_shards: Vec<TermShardEntry>,
    pub meta_shards: Vec<MetaShardEntry>,
    /// Chunk vectors (format v2), when the index was built with embeddings.
    pub vectors: Option<crate::vectors::VectorRef>,
    /// The typo directory's file (format v6), when the index keeps its words for typo tolerance.
    pub typos: Option<String>,
    /// The pages' languages (format v6), sorted (`en`, `fr`, `zh`...); empty on a one-language site.
    pub languages: Vec<String>,
    /// The position shards' file prefix (format v7, `p/<hash>-`): term shard `i`'s positions are
    /// `{prefix}{i:x}.bin` ([`Manifest::positions_file`]). `None`: quoted phrases are not checked.
    pub positions: Option<String>,
    /// The docs versions of the pages (format v8: the navigation's `versions`), sorted; empty on an
    /// unversioned site.
    pub versions: Vec<String>,
}

pub const MANIFEST_FILE: &str = "manifest.bin";

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
        w.varint(self.term_shards.len() as u64);
        let term_names = NameList::of(TERM_DIR, self.term_shards.iter().map(|s| s.file.as_str()));
        term_names.write_mode(&mut w);
        for s in &self.term_shards {
            w.str(&s.first);
            term_names.write(&mut w, &s.file);
            w.varint(s.term_count as u64);
            match &s.filter {
                Some(f) => {
                    w.u8(1);
                    f.encode(&mut w);
                }
                None => w.u8(0),
            }
        }
        // v5: the first page is implied (ranges are contiguous from 0).
        w.varint(self.meta_shards.len() as u64);
        let meta_names = NameList::of(META_DIR, self.meta_shards.iter().map(|m| m.file.as_str()));
        meta_names.write_mode(&mut w);
        for m in &self.meta_shards {
            w.varint(m.page_count as u64);
            meta_names.write(&mut w, &m.file);
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
            Some(prefix) => {
                w.u8(1);
                w.str(prefix);
            }
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
        let v5 = version >= 5;
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
        let n = r.count("term shard list", 5)?;
        let term_names = NameList::read_mode(&mut r, v5, TERM_DIR)?;
        let mut term_shards: Vec<TermShardEntry> = Vec::with_capacity(n);
        let mut prev_last: Option<String> = None;
        for _ in 0..n {
            let first = r.str("term shard first term")?.to_owned();
            // Before v5, the last term too: the ranges must not overlap.
            let last = if v5 {
                first.clone()
            } else {
                r.str("term shard last term")?.to_owned()
            };
            let file = term_names.read(&mut r)?;
            let term_count = r.varint_u32("term shard term count")?;
            let filter = match r.u8("term filter flag")? {
                0 => None,
                1 => Some(TermFilter::decode(&mut r)?),
                _ => return Err(invalid("term filter flag", "not 0 or 1")),
            };
            if first > last || prev_last.is_some_and(|p| p >= first) {
                return Err(invalid(
                    "term shard list",
                    "term ranges not sorted or overlapping",
                ));
            }
            prev_last = Some(last);
            term_shards.push(TermShardEntry {
                first,
                file,
                term_count,
                filter,
            });
        }
        let n = r.count("meta shard list", 2)?;
        let meta_names = NameList::read_mode(&mut r, v5, META_DIR)?;
        let mut meta_shards = Vec::with_capacity(n);
        let mut next_page = 0u64;
        for _ in 0..n {
            let first_page = if v5 {
                u32::try_from(next_page)
                    .map_err(|_| invalid("meta shard list", "too many pages"))?
            } else {
                r.varint_u32("meta shard first page")?
            };
            let page_count = r.varint_u32("meta shard page count")?;
            let file = meta_names.read(&mut r)?;
            if first_page as u64 != next_page || page_count == 0 {
                return Err(invalid("meta shard list", "page ranges not contiguous"));
            }
            next_page += page_count as u64;
            meta_shards.push(MetaShardEntry {
                first_page,
                page_count,
                file,
            });
        }
        if next_page != pages.len() as u64 {
            return Err(invalid(
                "meta shard list",
                "page ranges do not cover the page table",
            ));
        }
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
                    check_file_name(&format!("{prefix}0.bin"))?;
                    Some(prefix)
                }
                _ => return Err(invalid("positions flag", "not 0 or 1")),
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
            meta_shards,
            vectors,
            typos,
            languages,
            positions,
            versions,
        })
    }

    /// The position shard of term shard `i`, when the index has positions.
    pub fn positions_file(&self, i: usize) -> Option<String> {
        self.positions.as_ref().map(|p| format!("{p}{i:x}.bin"))
    }

    /// The term shard whose positions `name` holds, if it is one of this index's position shards.
    pub fn positions_shard_of(&self, name: &str) -> Option<usize> {
        let hex = name
            .strip_prefix(self.positions.as_deref()?)?
            .strip_suffix(".bin")?;
        // Lowercase hex without leading zeros: one name per shard.
        let canonical = (hex == "0" || !hex.starts_with('0'))
            && hex.len() <= 8
            && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        let i = u32::from_str_radix(hex, 16).ok().filter(|_| canonical)? as usize;
        (i < self.term_shards.len()).then_some(i)
    }

    /// Average length of a scored field, as both sides compute it.
    pub fn avg_field_len(&self, field: usize) -> f32 {
        if self.num_chunks == 0 {
            return 0.0;
        }
        (self.field_tokens[field] as f64 / self.num_chunks as f64) as f32
    }

    /// The term shard whose range holds `term`, if any (none before the first shard's first term).
    pub fn term_shard_for(&self, term: &str) -> Option<usize> {
        self.term_shards
            .partition_point(|s| s.first.as_str() <= term)
            .checked_sub(1)
    }

    /// Term shards whose range may hold terms starting with `prefix`: the one holding `prefix`
    /// itself, and every later one whose first term starts with it.
    pub fn term_shards_for_prefix(&self, prefix: &str) -> core::ops::Range<usize> {
        let start = self
            .term_shards
            .partition_point(|s| s.first.as_str() <= prefix)
            .saturating_sub(1);
        let end = self
            .term_shards
            .partition_point(|s| s.first.as_str() < prefix || s.first.starts_with(prefix));
        start..end.max(start)
    }

    /// The metadata shard holding `page`.
    pub fn meta_shard_for(&self, page: u32) -> Option<usize> {
        let i = self
            .meta_shards
            .partition_point(|m| m.first_page + m.page_count <= page);
        (i < self.meta_shards.len()).then_some(i)
    }
}

fn invalid(what: &'static str, detail: &'static str) -> ShardError {
    ShardError::Format(FormatError::Invalid { what, detail })
}

/// Shard file names are `t/<hex>.bin`, `m/<hex>.bin` or `v/<hex>.bin`: nothing a reader could be tricked into
/// resolving outside the index directory.
/// Where term shards live, and metadata shards (`dir/<12 hex digits>.bin` when content-hashed).
pub const TERM_DIR: &str = "t";
pub const META_DIR: &str = "m";
/// Hex digits of a content-hashed name: 48 bits, stored as 6 bytes since v5.
const HASH_HEX: usize = 12;

/// How a manifest list stores its file names (v5): as 6 raw bytes when every name is content-hashed
/// (`dir/<12 hex>.bin`: 2,600 names of a 10,000-page site cost 9 KB less than as text, even
/// deflated), else as strings. Before v5, always strings.
enum NameList<'d> {
    Strings,
    Hashed(&'d str),
}

impl<'d> NameList<'d> {
    fn of<'a>(dir: &'d str, mut names: impl Iterator<Item = &'a str>) -> Self {
        if names.all(|n| hashed_name(dir, n).is_some()) {
            NameList::Hashed(dir)
        } else {
            NameList::Strings
        }
    }

    fn write_mode(&self, w: &mut ByteWriter) {
        w.u8(matches!(self, NameList::Hashed(_)) as u8);
    }

    fn write(&self, w: &mut ByteWriter, name: &str) {
        match self {
            NameList::Hashed(dir) => match hashed_name(dir, name) {
                Some(bytes) => w.raw(&bytes),
                None => unreachable!("NameList::of checked every name"),
            },
            NameList::Strings => w.str(name),
        }
    }

    fn read_mode(r: &mut ByteReader<'_>, v5: bool, dir: &'d str) -> Result<Self, ShardError> {
        if !v5 {
            return Ok(NameList::Strings);
        }
        match r.u8("file name mode")? {
            0 => Ok(NameList::Strings),
            1 => Ok(NameList::Hashed(dir)),
            _ => Err(invalid("file name mode", "not 0 or 1")),
        }
    }

    fn read(&self, r: &mut ByteReader<'_>) -> Result<String, ShardError> {
        match self {
            NameList::Hashed(dir) => {
                let bytes = r.take(HASH_HEX / 2, "shard file hash")?;
                let mut name = String::with_capacity(dir.len() + HASH_HEX + 5);
                name.push_str(dir);
                name.push('/');
                for b in bytes {
                    for nib in [b >> 4, b & 0xf] {
                        name.push(char::from_digit(nib as u32, 16).unwrap_or('0'));
                    }
                }
                name.push_str(".bin");
                Ok(name)
            }
            NameList::Strings => read_file_name(r),
        }
    }
}

/// The 6 bytes of `dir/<12 lowercase hex digits>.bin`, or `None` for any other name.
fn hashed_name(dir: &str, name: &str) -> Option<[u8; HASH_HEX / 2]> {
    let hex = name
        .strip_prefix(dir)?
        .strip_prefix('/')?
        .strip_suffix(".bin")?
        .as_bytes();
    if hex.len() != HASH_HEX {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; HASH_HEX / 2];
    for (i, o) in out.iter_mut().enumerate() {
        *o = (digit(hex[2 * i])? << 4) | digit(hex[2 * i + 1])?;
    }
    Some(out)
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

pub(crate) fn read_file_name(r: &mut ByteReader<'_>) -> Result<String, ShardError> {
    let name = r.str("shard file name")?;
    check_file_name(name)?;
    Ok(name.to_owned())
}

/// Index file names are `dir/name.bin`-shaped: they become paths and URLs on the reading side.
pub(crate) fn check_file_name(name: &str) -> Result<(), ShardError> {
    let ok = name.len() <= 80
        && name.split('/').count() == 2
        && name.split('/').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-')
        })
        && !name.contains("..");
    if !ok {
        return Err(invalid("shard file name", "not of the form dir/name.bin"));
    }
    Ok(())
}

/// One chunk's occurrence of a term: frequency and field-norm code per field (0 frequency = absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    pub chunk: u32,
    pub tf: [u32; FIELD_COUNT],
    pub norm: [u8; FIELD_COUNT],
}

impl Posting {
    pub fn new(chunk: u32) -> Self {
        Posting {
            chunk,
            tf: [0; FIELD_COUNT],
            norm: [0; FIELD_COUNT],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermPostings {
    pub term: String,
    pub postings: Vec<Posting>,
}

/// A sorted run of terms with their postings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TermShard {
    pub terms: Vec<TermPostings>,
}

impl TermShard {
    /// Encodes the payload (before the envelope): used to size shards while writing.
    pub fn encode_payload(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.terms.len() as u64);
        let mut prev: &str = "";
        for t in &self.terms {
            let shared = common_prefix(prev, &t.term);
            w.varint(shared as u64);
            w.str(&t.term[shared..]);
            w.varint(t.postings.len() as u64);
            let mut last = 0u32;
            for (i, p) in t.postings.iter().enumerate() {
                w.varint((p.chunk - if i == 0 { 0 } else { last + 1 }) as u64);
                last = p.chunk;
                let mask =
                    p.tf.iter()
                        .enumerate()
                        .fold(0u8, |m, (f, &tf)| if tf > 0 { m | (1 << f) } else { m });
                w.u8(mask);
                for f in 0..FIELD_COUNT {
                    if p.tf[f] > 0 {
                        w.varint(p.tf[f] as u64);
                        w.u8(p.norm[f]);
                    }
                }
            }
            prev = &t.term;
        }
        w.into_inner()
    }

    pub fn encode(&self) -> Vec<u8> {
        envelope::seal(ShardKind::Terms, &self.encode_payload())
    }

    /// Decodes and validates a term shard. `num_chunks` bounds every chunk ordinal.
    pub fn decode(file: &[u8], num_chunks: u32) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Terms)?, num_chunks)
    }

    /// Decodes an already verified and inflated payload (see [`envelope::check`]).
    pub fn decode_payload(raw: &[u8], num_chunks: u32) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let n = r.count("term count", 3)?;
        let mut terms: Vec<TermPostings> = Vec::with_capacity(n);
        let mut prev = String::new();
        for _ in 0..n {
            let shared = r.varint("term shared prefix")? as usize;
            let suffix = r.str("term suffix")?;
            if shared > prev.len() || !prev.is_char_boundary(shared) {
                return Err(invalid(
                    "term",
                    "shared prefix longer than the previous term",
                ));
            }
            let mut term = String::with_capacity(shared + suffix.len());
            term.push_str(&prev[..shared]);
            term.push_str(suffix);
            if !terms.is_empty() && term <= prev {
                return Err(invalid("term", "terms not strictly increasing"));
            }
            let m = r.count("posting count", 2)?;
            let mut postings = Vec::with_capacity(m);
            let mut next_min: u64 = 0;
            for _ in 0..m {
                let chunk = next_min + r.varint("chunk delta")?;
                if chunk >= num_chunks as u64 {
                    return Err(invalid("posting", "chunk ordinal out of range"));
                }
                next_min = chunk + 1;
                let mask = r.u8("field mask")?;
                if mask == 0 || mask >> FIELD_COUNT != 0 {
                    return Err(invalid("posting", "bad field mask"));
                }
                let mut p = Posting::new(chunk as u32);
                for f in 0..FIELD_COUNT {
                    if mask & (1 << f) != 0 {
                        p.tf[f] = r.varint_u32("term frequency")?;
                        if p.tf[f] == 0 {
                            return Err(invalid("posting", "zero term frequency"));
                        }
                        p.norm[f] = r.u8("field norm")?;
                    }
                }
                postings.push(p);
            }
            prev.clone_from(&term);
            terms.push(TermPostings { term, postings });
        }
        r.finish("term shard")?;
        Ok(TermShard { terms })
    }

    pub fn get(&self, term: &str) -> Option<&TermPostings> {
        self.terms
            .binary_search_by(|t| t.term.as_str().cmp(term))
            .ok()
            .map(|i| &self.terms[i])
    }

    /// Terms of this shard that start with `prefix`, in order.
    pub fn with_prefix<'a>(
        &'a self,
        prefix: &'a str,
    ) -> impl Iterator<Item = &'a TermPostings> + 'a {
        let start = self.terms.partition_point(|t| t.term.as_str() < prefix);
        self.terms[start..]
            .iter()
            .take_while(move |t| t.term.starts_with(prefix))
    }
}

/// The byte length of the common prefix of `a` and `b`, on a character boundary (front coding).
pub(crate) fn common_prefix(a: &str, b: &str) -> usize {
    let mut n = 0;
    for ((i, x), y) in a.char_indices().zip(b.chars()) {
        if x != y {
            return i;
        }
        n = i + x.len_utf8();
    }
    n
}

/// API details of an operation page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ApiMeta {
    pub method: String,
    pub path: String,
    pub operation_id: String,
}

/// What a result shows for one chunk (section) of a page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChunkMeta {
    /// GitHub-style anchor, empty for the page-summary chunk.
    pub anchor: String,
    pub title: String,
    pub heading_path: Vec<String>,
    /// The start of the chunk's text, for excerpts.
    pub excerpt: String,
}

/// What a result shows for a page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageMeta {
    pub id: String,
    pub url: String,
    pub title: String,
    pub kind: Option<Kind>,
    pub breadcrumb: Vec<String>,
    pub tags: Vec<String>,
    pub api: Option<ApiMeta>,
    pub chunks: Vec<ChunkMeta>,
}

/// Metadata of a contiguous run of pages.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MetaShard {
    pub first_page: u32,
    pub pages: Vec<PageMeta>,
}

impl MetaShard {
    pub fn encode_payload(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        w.varint(self.first_page as u64);
        w.varint(self.pages.len() as u64);
        for p in &self.pages {
            w.str(&p.id);
            w.str(&p.url);
            w.str(&p.title);
            w.u8(p.kind.unwrap_or(Kind::Docs) as u8);
            write_strs(&mut w, &p.breadcrumb);
            write_strs(&mut w, &p.tags);
            match &p.api {
                Some(a) => {
                    w.u8(1);
                    w.str(&a.method);
                    w.str(&a.path);
                    w.str(&a.operation_id);
                }
                None => w.u8(0),
            }
            w.varint(p.chunks.len() as u64);
            for c in &p.chunks {
                w.str(&c.anchor);
                w.str(&c.title);
                write_strs(&mut w, &c.heading_path);
                w.str(&c.excerpt);
            }
        }
        w.into_inner()
    }

    pub fn encode(&self) -> Vec<u8> {
        envelope::seal(ShardKind::Meta, &self.encode_payload())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Meta)?)
    }

    /// Decodes an already verified and inflated payload (see [`envelope::check`]).
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let first_page = r.varint_u32("first page")?;
        let n = r.count("page count", 8)?;
        let mut pages = Vec::with_capacity(n);
        for _ in 0..n {
            let id = r.str("page id")?.to_owned();
            let url = r.str("page url")?.to_owned();
            let title = r.str("page title")?.to_owned();
            let kind = Some(Kind::from_byte(r.u8("page kind")?)?);
            let breadcrumb = read_strs(&mut r, "breadcrumb")?;
            let tags = read_strs(&mut r, "tags")?;
            let api = match r.u8("api flag")? {
                0 => None,
                1 => Some(ApiMeta {
                    method: r.str("api method")?.to_owned(),
                    path: r.str("api path")?.to_owned(),
                    operation_id: r.str("operation id")?.to_owned(),
                }),
                _ => return Err(invalid("api flag", "not 0 or 1")),
            };
            let m = r.count("chunk count", 4)?;
            let mut chunks = Vec::with_capacity(m);
            for _ in 0..m {
                chunks.push(ChunkMeta {
                    anchor: r.str("chunk anchor")?.to_owned(),
                    title: r.str("chunk title")?.to_owned(),
                    heading_path: read_strs(&mut r, "heading path")?,
                    excerpt: r.str("excerpt")?.to_owned(),
                });
            }
            pages.push(PageMeta {
                id,
                url,
                title,
                kind,
                breadcrumb,
                tags,
                api,
                chunks,
            });
        }
        r.finish("meta shard")?;
        Ok(MetaShard { first_page, pages })
    }
}

fn write_strs(w: &mut ByteWriter, list: &[String]) {
    w.varint(list.len() as u64);
    for s in list {
        w.str(s);
    }
}

fn read_strs(r: &mut ByteReader<'_>, what: &'static str) -> Result<Vec<String>, FormatError> {
    let n = r.count(what, 1)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(r.str(what)?.to_owned());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_terms() -> TermShard {
        let mut p = Posting::new(3);
        p.tf[Field::Body as usize] = 2;
        p.norm[Field::Body as usize] = 17;
        let mut q = Posting::new(9);
        q.tf[Field::Title as usize] = 1;
        q.norm[Field::Title as usize] = 2;
        TermShard {
            terms: vec![
                TermPostings {
                    term: "alpha".into(),
                    postings: vec![p, q],
                },
                TermPostings {
                    term: "alphabet".into(),
                    postings: vec![q],
                },
                TermPostings {
                    term: "é".into(),
                    postings: vec![p],
                },
            ],
        }
    }

    #[test]
    fn term_shard_roundtrip_and_lookup() {
        let s = sample_terms();
        let d = TermShard::decode(&s.encode(), 10).unwrap();
        assert_eq!(d, s);
        assert_eq!(d.get("alphabet").unwrap().postings.len(), 1);
        assert_eq!(d.with_prefix("alp").count(), 2);
        assert!(d.get("beta").is_none());
        assert!(
            TermShard::decode(&s.encode(), 5).is_err(),
            "chunk 9 must be out of range for 5 chunks"
        );
    }

    #[test]
    fn meta_shard_roundtrip() {
        let m = MetaShard {
            first_page: 4,
            pages: vec![PageMeta {
                id: "guides/auth".into(),
                url: "/guides/auth".into(),
                title: "Auth".into(),
                kind: Some(Kind::Api),
                breadcrumb: vec!["Guides".into()],
                tags: vec!["security".into()],
                api: Some(ApiMeta {
                    method: "POST".into(),
                    path: "/v1/users".into(),
                    operation_id: "createUser".into(),
                }),
                chunks: vec![ChunkMeta {
                    anchor: "tokens".into(),
                    title: "Tokens".into(),
                    heading_path: vec!["Tokens".into()],
                    excerpt: "x".into(),
                }],
            }],
        };
        assert_eq!(MetaShard::decode(&m.encode()).unwrap(), m);
    }

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
            vectors: None,
            typos: None,
            languages: Vec::new(),
            positions: None,
            versions: Vec::new(),
        };
        let d = Manifest::decode(&m.encode()).unwrap();
        assert_eq!(d, m);
        assert_eq!(d.term_shard_for("b"), Some(0));
        assert_eq!(d.term_shard_for("mz"), Some(0));
        assert_eq!(d.term_shard_for("0"), None);
        assert_eq!(d.term_shard_for("q"), Some(1));
        assert_eq!(d.term_shards_for_prefix("m"), 0..1);
        assert_eq!(d.term_shards_for_prefix("n"), 1..2);
        assert_eq!(d.term_shards_for_prefix("0"), 0..0);
        assert_eq!(d.meta_shard_for(1), Some(0));
        assert_eq!(d.meta_shard_for(2), None);

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
        multi.positions = Some("p/0123456789ab-".into());
        assert_eq!(
            multi.positions_file(10).as_deref(),
            Some("p/0123456789ab-a.bin")
        );
        assert_eq!(multi.positions_shard_of("p/0123456789ab-0.bin"), Some(0));
        assert_eq!(multi.positions_shard_of("p/0123456789ab-00.bin"), None);
        assert_eq!(multi.positions_shard_of("p/other-0.bin"), None);
        let mut bad_prefix = multi.clone();
        bad_prefix.positions = Some("../p/x-".into());
        assert!(Manifest::decode(&bad_prefix.encode()).is_err());
        let file = multi.encode();
        assert_eq!(Manifest::decode(&file).unwrap(), multi);
        let raw = envelope::open(&file, ShardKind::Manifest).unwrap();
        for cut in 0..raw.len() {
            assert!(Manifest::decode_payload(&raw[..cut]).is_err(), "cut {cut}");
        }
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

/// Sorted terms and postings of one chunk per text, as the indexer writes them: the analyzer's terms
/// in the body field, every field length `norm`. For tests that need real term shards.
#[cfg(test)]
pub(crate) fn analyzed_postings(texts: &[&str], norm: u8) -> Vec<TermPostings> {
    let analyzer = crate::analyzer::Analyzer::english();
    let mut terms: std::collections::BTreeMap<String, Vec<Posting>> = Default::default();
    for (i, t) in texts.iter().enumerate() {
        for tok in analyzer.analyze(t) {
            let list = terms.entry(tok.text).or_default();
            if list.last().map(|p| p.chunk) != Some(i as u32) {
                list.push(Posting::new(i as u32));
            }
            let p = list.last_mut().unwrap();
            p.tf[Field::Body as usize] += 1;
            p.norm[Field::Body as usize] = norm;
        }
    }
    terms
        .into_iter()
        .map(|(term, postings)| TermPostings { term, postings })
        .collect()
}

#[cfg(test)]
mod mutation_tests {
    //! Thousands of random byte mutations of real shards: every case must be an error or a valid value,
    //! never a panic (the wasm module must never trap on a damaged file).
    use super::*;
    use crate::search::{SearchOptions, Searcher};

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn sample() -> (Manifest, TermShard, MetaShard) {
        let texts = [
            "Refresh tokens keep sessions alive",
            "Send the x-request-id header",
            "getUserById returns a user",
        ];
        let shard = TermShard {
            terms: analyzed_postings(&texts, 5),
        };
        let meta = MetaShard {
            first_page: 0,
            pages: (0..3)
                .map(|i| PageMeta {
                    id: format!("p{i}"),
                    url: format!("/p{i}"),
                    title: texts[i].into(),
                    kind: Some(Kind::Docs),
                    chunks: vec![ChunkMeta::default()],
                    ..Default::default()
                })
                .collect(),
        };
        let manifest = Manifest {
            build_id: "b".into(),
            generator: "t".into(),
            analyzer_version: crate::ANALYZER_VERSION,
            audience: Audience::Public,
            params: Bm25Params::default(),
            num_chunks: 3,
            field_tokens: [0, 0, 15, 0],
            groups: vec!["G".into()],
            tags: vec!["x".into()],
            tagsets: vec![vec![], vec![0]],
            pages: (0..3)
                .map(|i| PageEntry {
                    chunk_count: 1,
                    kind: Kind::Docs,
                    group: Some(0),
                    tagset: i % 2,
                    language: None,
                    version: None,
                })
                .collect(),
            term_shards: vec![TermShardEntry {
                first: shard.terms[0].term.clone(),
                file: "t/a.bin".into(),
                term_count: shard.terms.len() as u32,
                filter: TermFilter::build(shard.terms.iter().map(|t| t.term.as_str())),
            }],
            meta_shards: vec![MetaShardEntry {
                first_page: 0,
                page_count: 3,
                file: "m/a.bin".into(),
            }],
            vectors: None,
            typos: None,
            languages: Vec::new(),
            positions: None,
            versions: Vec::new(),
        };
        (manifest, shard, meta)
    }

    fn mutate(rng: &mut Rng, file: &[u8], reseal: bool, kind: crate::ShardKind) -> Vec<u8> {
        // Mutate either the sealed bytes (checksum catches most) or the payload before sealing
        // (exercises the payload validators directly).
        let mut bytes = if reseal {
            crate::envelope::open(file, kind).unwrap()
        } else {
            file.to_vec()
        };
        let n = 1 + (rng.next() % 4) as usize;
        for _ in 0..n {
            match rng.next() % 4 {
                0 if !bytes.is_empty() => {
                    let i = (rng.next() as usize) % bytes.len();
                    bytes[i] = rng.next() as u8;
                }
                1 if !bytes.is_empty() => {
                    let i = (rng.next() as usize) % bytes.len();
                    bytes.truncate(i);
                }
                2 => {
                    let i = if bytes.is_empty() {
                        0
                    } else {
                        (rng.next() as usize) % bytes.len()
                    };
                    bytes.insert(i, rng.next() as u8);
                }
                _ if !bytes.is_empty() => {
                    let i = (rng.next() as usize) % bytes.len();
                    bytes[i] ^= 0x80;
                }
                _ => {}
            }
        }
        if reseal {
            crate::envelope::seal(kind, &bytes)
        } else {
            bytes
        }
    }

    #[test]
    fn random_mutations_are_errors_or_valid_never_panics() {
        let (manifest, shard, meta) = sample();
        let (mf, tf, mt) = (manifest.encode(), shard.encode(), meta.encode());
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut errors = 0;
        for case in 0..6000 {
            let reseal = case % 2 == 0;
            if let Ok(m) =
                Manifest::decode(&mutate(&mut rng, &mf, reseal, crate::ShardKind::Manifest))
            {
                // A manifest that decodes must also be safe to search with.
                if let Ok(s) = Searcher::new(m) {
                    let plan = s.plan("refresh x-request-id user");
                    let _ = s.rank(&plan, |_| Some(&shard), &SearchOptions::default());
                }
            } else {
                errors += 1;
            }
            match TermShard::decode(&mutate(&mut rng, &tf, reseal, crate::ShardKind::Terms), 3) {
                Ok(t) => {
                    let s = Searcher::new(manifest.clone()).unwrap();
                    let plan = s.plan("refresh x-request-id user");
                    if let Ok(hits) = s.rank(
                        &plan,
                        |_| Some(&t),
                        &SearchOptions {
                            explain: true,
                            ..Default::default()
                        },
                    ) {
                        let _ = s.assemble(hits, |_| Some(&meta));
                    }
                }
                Err(_) => errors += 1,
            }
            match MetaShard::decode(&mutate(&mut rng, &mt, reseal, crate::ShardKind::Meta)) {
                Ok(m) => {
                    let s = Searcher::new(manifest.clone()).unwrap();
                    let plan = s.plan("refresh token");
                    let hits = s
                        .rank(&plan, |_| Some(&shard), &SearchOptions::default())
                        .unwrap();
                    let _ = s.assemble(hits, |_| Some(&m));
                }
                Err(_) => errors += 1,
            }
        }
        assert!(
            errors > 6000,
            "mutations should mostly be rejected, {errors} errors"
        );
    }
}
