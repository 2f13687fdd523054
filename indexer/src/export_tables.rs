//! Here is an index's manifest with its term and metadata shard tables inline, give me the manifest
//! a reader should fetch first: each table left inline, or (format v11) cut into directory pages that
//! a query fetches as it needs them (issue 25).
//!
//! A table is paged when, inline, it would cost every reader more transfer time than the round trip
//! a paged one adds to a cold query: on the reference mobile profile (Lighthouse's: 150 ms RTT, 1.6
//! Mbps) a round trip is worth ~30 KB, so a table whose deflated bytes pass [`INLINE_TABLE_BYTES`]
//! is paged. Small and medium sites (every fixture, both real Mintlify sites, 10,000 pages) keep
//! their tables inline and their rounds; a 100,000-page site's 300 KB of tables become ~600
//! directory pages, of which a reader's question reads ~16 KB.
//!
//! Pages are cut where their content says ([`ContentCuts`], keyed by a shard's first term or first
//! page's id), so an edit renames the directory page of the shards it renamed and seldom another.

use aidocs_core::format::{
    DirectoryPage, Manifest, MetaPageRef, MetaShardEntry, TermPageRef, TermShardEntry,
    DIRECTORY_DIR,
};

use crate::shard_cuts::ContentCuts;

/// A table whose sealed inline form is larger than this is paged (`TablePaging::Auto`).
pub const INLINE_TABLE_BYTES: usize = 32 * 1024;
/// Target payload bytes of a term directory page: ~60 entries, about the square root of a
/// 100,000-page site's ~10,000 shards over the two or three pages a query reads, which balances
/// the manifest's lines against the pages' bytes. A metadata page's target is half (~64 entries: a
/// query reads one per run of results, up to ten).
pub const TERM_PAGE_BYTES: usize = 1024;

/// Whether the manifest's shard tables are cut into directory pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TablePaging {
    /// Each table whose inline form passes `INLINE_TABLE_BYTES`.
    #[default]
    Auto,
    /// Both tables, whatever their size (tests, and sites that prefer the smallest first fetch).
    Always,
    /// Neither: every reader loads both tables first, and no query waits for a directory page.
    Never,
}

/// Pages `manifest`'s tables as `paging` says, adding the directory pages to `files`.
/// `meta_keys`: each metadata shard's first page's id (the key its page cut is decided by).
pub(crate) fn page_tables(
    manifest: &mut Manifest,
    meta_keys: &[&str],
    paging: TablePaging,
    page_bytes: usize,
    files: &mut Vec<(String, Vec<u8>)>,
    content_name: impl Fn(&str, &[u8]) -> String,
) {
    let page = |table: DirectoryPage| match paging {
        TablePaging::Always => true,
        TablePaging::Never => false,
        TablePaging::Auto => table.encode().len() > INLINE_TABLE_BYTES,
    };
    let terms = std::mem::take(&mut manifest.term_shards);
    if terms.is_empty() || !page(DirectoryPage::Terms(terms.clone())) {
        manifest.term_shards = terms;
    } else {
        // An entry's bytes: its first term, name, counts and (when the index keeps them) filter.
        let bytes =
            |e: &TermShardEntry| e.first.len() + 9 + e.filter.as_ref().map_or(0, |f| f.byte_len());
        for run in runs(&terms, page_bytes, |e| (e.first.as_bytes(), bytes(e))) {
            let bytes = DirectoryPage::Terms(run.to_vec()).encode();
            let file = content_name(DIRECTORY_DIR, &bytes);
            manifest.term_pages.push(TermPageRef {
                first: run[0].first.clone(),
                file: file.clone(),
                shard_count: run.len() as u32,
            });
            files.push((file, bytes));
        }
    }
    let metas = std::mem::take(&mut manifest.meta_shards);
    if metas.is_empty() || !page(DirectoryPage::Meta(metas.clone())) {
        manifest.meta_shards = metas;
        return;
    }
    let keyed: Vec<(&MetaShardEntry, &str)> = metas.iter().zip(meta_keys.iter().copied()).collect();
    for run in runs(&keyed, page_bytes / 2, |(_, key)| (key.as_bytes(), 8)) {
        let entries: Vec<MetaShardEntry> = run.iter().map(|(e, _)| (*e).clone()).collect();
        let page_count = entries.iter().map(|e| e.page_count).sum();
        let bytes = DirectoryPage::Meta(entries).encode();
        let file = content_name(DIRECTORY_DIR, &bytes);
        manifest.meta_pages.push(MetaPageRef {
            page_count,
            shard_count: run.len() as u32,
            file: file.clone(),
        });
        files.push((file, bytes));
    }
}

/// `items` cut into runs of about `target` bytes where their keys say (`size`: an item's key and
/// bytes).
fn runs<'a, T>(
    items: &'a [T],
    target: usize,
    size: impl Fn(&'a T) -> (&'a [u8], usize),
) -> Vec<&'a [T]> {
    let mut cuts = ContentCuts::new(target);
    let mut out = Vec::new();
    let mut start = 0;
    for (i, item) in items.iter().enumerate() {
        let (key, bytes) = size(item);
        if cuts.end_after(key, bytes) {
            out.push(&items[start..=i]);
            start = i + 1;
        }
    }
    if start < items.len() {
        out.push(&items[start..]);
    }
    out
}
