//! Directory pages (format v11): the manifest's term and metadata shard tables, cut into pages a
//! reader fetches only when a query needs them (issue 25). A table grows with the site (a
//! 100,000-page site names ~10,000 term shards and ~26,000 metadata shards: 300 KB of a 334 KB
//! manifest that every reader paid before its first result); paged, the manifest keeps one line per
//! page and a query reads the pages its terms and results fall in, as a Merkle tree's reader does
//! (at 100,000 pages, a reader's question: 16 KB of pages for 334 KB of manifest less). Also here: the table entries' encoding, shared by the inline tables of the manifest
//! and the pages.

use super::manifest::{MetaShardEntry, TermShardEntry};
use crate::bytes::{ByteReader, ByteWriter};
use crate::envelope::{self, ShardKind};
use crate::error::{invalid, ShardError};
use crate::filter::TermFilter;
use crate::names::{NameList, DIRECTORY_DIR, META_DIR, TERM_DIR};

/// One page of a paged term shard table, as the manifest names it: the page holds the shards from
/// its `first` term up to the next page's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermPageRef {
    /// The first term of the page's first shard (that shard's own `first`).
    pub first: String,
    /// `d/<h>.bin`.
    pub file: String,
    /// Term shards on the page, at least 1; shard ordinals run on from the previous page's.
    pub shard_count: u32,
}

/// One page of a paged metadata shard table: the shards of its run of pages (the site's pages, in
/// page-ordinal order, the runs contiguous from page 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetaPageRef {
    /// Site pages whose metadata the page's shards hold, at least 1.
    pub page_count: u32,
    /// Metadata shards on the page, 1 to `page_count`.
    pub shard_count: u32,
    /// `d/<h>.bin`.
    pub file: String,
}

/// A decoded directory page (kind 13).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectoryPage {
    /// Term shard entries, as in an inline table.
    Terms(Vec<TermShardEntry>),
    /// Metadata shard entries (at least one), their runs contiguous from the first one's first page,
    /// which the page stores (so that a page read into another slot is refused).
    Meta(Vec<MetaShardEntry>),
}

impl DirectoryPage {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        match self {
            DirectoryPage::Terms(entries) => {
                w.u8(0);
                write_term_entries(&mut w, entries);
            }
            DirectoryPage::Meta(entries) => {
                w.u8(1);
                w.varint(entries.first().map_or(0, |e| e.first_page) as u64);
                write_meta_entries(&mut w, entries);
            }
        }
        envelope::seal(ShardKind::Directory, &w.into_inner())
    }

    pub fn decode(file: &[u8]) -> Result<Self, ShardError> {
        Self::decode_payload(&envelope::open(file, ShardKind::Directory)?)
    }

    /// Decodes a verified, inflated payload. Each list is checked as an inline table is (sorted
    /// terms, non-empty page runs); how it fits its slot in the manifest is the reader's check.
    pub fn decode_payload(raw: &[u8]) -> Result<Self, ShardError> {
        let mut r = ByteReader::new(raw);
        let page = match r.u8("directory table")? {
            0 => DirectoryPage::Terms(read_term_entries(&mut r, envelope::FORMAT_VERSION)?),
            1 => {
                let first_page = r.varint_u32("directory first page")?;
                DirectoryPage::Meta(read_meta_entries(
                    &mut r,
                    envelope::FORMAT_VERSION,
                    first_page,
                )?)
            }
            _ => return Err(invalid("directory table", "not 0 (terms) or 1 (meta)")),
        };
        r.finish("directory page")?;
        Ok(page)
    }
}

/// Term shard entries (v5+ layout): count, name mode, then per shard its first term, file, term
/// count and optional filter.
pub(crate) fn write_term_entries(w: &mut ByteWriter, entries: &[TermShardEntry]) {
    w.varint(entries.len() as u64);
    let names = NameList::of(TERM_DIR, entries.iter().map(|s| s.file.as_str()));
    names.write_mode(w);
    for s in entries {
        w.str(&s.first);
        names.write(w, &s.file);
        w.varint(s.term_count as u64);
        match &s.filter {
            Some(f) => {
                w.u8(1);
                f.encode(w);
            }
            None => w.u8(0),
        }
    }
}

/// The reader of [`write_term_entries`] (before v5: no name mode, and each entry's last term).
// One copy for the manifest and the pages (inlined into both, it cost every reader's module 2 KB).
#[inline(never)]
pub(crate) fn read_term_entries(
    r: &mut ByteReader<'_>,
    version: u16,
) -> Result<Vec<TermShardEntry>, ShardError> {
    let v5 = version >= 5;
    let n = r.count("term shard list", 5)?;
    let names = NameList::read_mode(r, v5, TERM_DIR)?;
    let mut entries: Vec<TermShardEntry> = Vec::with_capacity(n);
    let mut prev_last: Option<String> = None;
    for _ in 0..n {
        let first = r.str("term shard first term")?.to_owned();
        // Before v5, the last term too: the ranges must not overlap.
        let last = if v5 {
            first.clone()
        } else {
            r.str("term shard last term")?.to_owned()
        };
        let file = names.read(r)?;
        let term_count = r.varint_u32("term shard term count")?;
        let filter = match r.u8("term filter flag")? {
            0 => None,
            1 => Some(TermFilter::decode(r)?),
            _ => return Err(invalid("term filter flag", "not 0 or 1")),
        };
        if first > last || prev_last.is_some_and(|p| p >= first) {
            return Err(invalid(
                "term shard list",
                "term ranges not sorted or overlapping",
            ));
        }
        prev_last = Some(last);
        entries.push(TermShardEntry {
            first,
            file,
            term_count,
            filter,
        });
    }
    Ok(entries)
}

/// Metadata shard entries (v5+ layout): count, name mode, then per shard its page count and file
/// (the first page is implied: runs are contiguous).
pub(crate) fn write_meta_entries(w: &mut ByteWriter, entries: &[MetaShardEntry]) {
    w.varint(entries.len() as u64);
    let names = NameList::of(META_DIR, entries.iter().map(|m| m.file.as_str()));
    names.write_mode(w);
    for m in entries {
        w.varint(m.page_count as u64);
        names.write(w, &m.file);
    }
}

/// The reader of [`write_meta_entries`], the first shard's first page being `first_page` (before
/// v5: no name mode, and each entry's first page, which must continue the runs).
#[inline(never)]
pub(crate) fn read_meta_entries(
    r: &mut ByteReader<'_>,
    version: u16,
    first_page: u32,
) -> Result<Vec<MetaShardEntry>, ShardError> {
    let v5 = version >= 5;
    let n = r.count("meta shard list", 2)?;
    let names = NameList::read_mode(r, v5, META_DIR)?;
    let mut entries = Vec::with_capacity(n);
    let mut next_page = first_page as u64;
    for _ in 0..n {
        let first_page = if v5 {
            u32::try_from(next_page).map_err(|_| invalid("meta shard list", "too many pages"))?
        } else {
            r.varint_u32("meta shard first page")?
        };
        let page_count = r.varint_u32("meta shard page count")?;
        let file = names.read(r)?;
        if first_page as u64 != next_page || page_count == 0 {
            return Err(invalid("meta shard list", "page ranges not contiguous"));
        }
        next_page += page_count as u64;
        entries.push(MetaShardEntry {
            first_page,
            page_count,
            file,
        });
    }
    if u32::try_from(next_page).is_err() {
        return Err(invalid("meta shard list", "too many pages"));
    }
    Ok(entries)
}

/// The manifest's term pages: count, name mode (directory `d`), then per page its first term, file
/// and shard count.
pub(crate) fn write_term_pages(w: &mut ByteWriter, pages: &[TermPageRef]) {
    w.varint(pages.len() as u64);
    let names = NameList::of(DIRECTORY_DIR, pages.iter().map(|p| p.file.as_str()));
    names.write_mode(w);
    for p in pages {
        w.str(&p.first);
        names.write(w, &p.file);
        w.varint(p.shard_count as u64);
    }
}

/// The reader of [`write_term_pages`]: at least one page, first terms strictly increasing, each
/// page at least one shard, at most `u32::MAX` shards in all.
pub(crate) fn read_term_pages(r: &mut ByteReader<'_>) -> Result<Vec<TermPageRef>, ShardError> {
    let n = r.count("term pages", 8)?;
    let names = NameList::read_mode(r, true, DIRECTORY_DIR)?;
    let mut pages: Vec<TermPageRef> = Vec::with_capacity(n);
    let mut shards = 0u64;
    for _ in 0..n {
        let first = r.str("term page first term")?.to_owned();
        let file = names.read(r)?;
        let shard_count = r.varint_u32("term page shard count")?;
        if pages.last().is_some_and(|p| p.first >= first) {
            return Err(invalid("term pages", "first terms not strictly increasing"));
        }
        shards += shard_count as u64;
        if shard_count == 0 || u32::try_from(shards).is_err() {
            return Err(invalid("term pages", "a page of no shards, or too many"));
        }
        pages.push(TermPageRef {
            first,
            file,
            shard_count,
        });
    }
    if pages.is_empty() {
        return Err(invalid("term pages", "none"));
    }
    Ok(pages)
}

/// The manifest's metadata pages: count, name mode (directory `d`), then per page its site page
/// count, shard count and file.
pub(crate) fn write_meta_pages(w: &mut ByteWriter, pages: &[MetaPageRef]) {
    w.varint(pages.len() as u64);
    let names = NameList::of(DIRECTORY_DIR, pages.iter().map(|p| p.file.as_str()));
    names.write_mode(w);
    for p in pages {
        w.varint(p.page_count as u64);
        w.varint(p.shard_count as u64);
        names.write(w, &p.file);
    }
}

/// The reader of [`write_meta_pages`]: at least one page; each of 1 to its page count shards;
/// the runs covering exactly the `site_pages` pages of the page table.
pub(crate) fn read_meta_pages(
    r: &mut ByteReader<'_>,
    site_pages: usize,
) -> Result<Vec<MetaPageRef>, ShardError> {
    let n = r.count("meta pages", 8)?;
    let names = NameList::read_mode(r, true, DIRECTORY_DIR)?;
    let mut pages = Vec::with_capacity(n);
    let (mut covered, mut shards) = (0u64, 0u64);
    for _ in 0..n {
        let page_count = r.varint_u32("meta page page count")?;
        let shard_count = r.varint_u32("meta page shard count")?;
        let file = names.read(r)?;
        if shard_count == 0 || shard_count > page_count {
            return Err(invalid(
                "meta pages",
                "a page of no shards, or of more shards than pages",
            ));
        }
        covered += page_count as u64;
        shards += shard_count as u64;
        pages.push(MetaPageRef {
            page_count,
            shard_count,
            file,
        });
    }
    if pages.is_empty() || covered != site_pages as u64 || u32::try_from(shards).is_err() {
        return Err(invalid(
            "meta pages",
            "none, or their runs do not cover the page table",
        ));
    }
    Ok(pages)
}
