//! Here is a term or a page, give me its shard; here is a shard, give me its entry: the lookups in
//! the manifest's term and metadata shard tables, inline or (format v11) cut into directory pages.
//!
//! A paged table is read as queries need it: each directory page a query fetches is checked against
//! its slot in the manifest and kept for every later query (a page is a few hundred bytes; all of a
//! 100,000-page site's are ~300 KB, what its manifest held before v11). A lookup that needs a page
//! not held yet answers nothing and notes the page as missed; a session collects the misses of
//! what it just computed ([`Searcher::missed`]) and asks for those pages before it goes on, so a
//! plan is never made from half a table. Shard ordinals are global, as with an inline table: a
//! page's run from the manifest's counts.

use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use crate::format::{DirectoryPage, Manifest, MetaShardEntry, PositionFiles, TermShardEntry};

use super::files::FileRef;
use super::Searcher;

/// The two tables, and the pages missed since the last [`Searcher::missed`].
#[derive(Debug, Clone)]
pub(crate) struct ShardTables {
    terms: Table<TermShardEntry>,
    /// Each term page's first term (one empty key for an inline table).
    term_firsts: Vec<String>,
    metas: Table<MetaShardEntry>,
    /// Each metadata page's first site page, plus the page count.
    meta_first_pages: Vec<u32>,
    missed: RefCell<Vec<FileRef>>,
}

/// One table: its pages' shard runs and the pages held.
#[derive(Debug, Clone)]
struct Table<E> {
    /// Each page's first shard ordinal, plus the shard count.
    base: Vec<u32>,
    pages: RefCell<Vec<Option<Rc<[E]>>>>,
    /// How the manifest names each page (empty for an inline table).
    files: Vec<String>,
}

impl<E> Table<E> {
    fn inline(entries: Vec<E>) -> Self {
        Table {
            base: vec![0, entries.len() as u32],
            pages: RefCell::new(vec![Some(entries.into())]),
            files: Vec::new(),
        }
    }

    fn paged(counts: impl Iterator<Item = u32>, files: Vec<String>) -> Self {
        let mut base = vec![0u32];
        for c in counts {
            base.push(base[base.len() - 1].saturating_add(c));
        }
        Table {
            pages: RefCell::new(vec![None; base.len() - 1]),
            base,
            files,
        }
    }

    fn len(&self) -> usize {
        self.base.last().map_or(0, |&n| n as usize)
    }

    /// The page holding shard `i`.
    fn page_of(&self, i: usize) -> Option<usize> {
        (i < self.len()).then(|| self.base.partition_point(|&b| b as usize <= i) - 1)
    }

    /// Page `p`'s entries, when held.
    fn page(&self, p: usize) -> Option<Rc<[E]>> {
        self.pages.borrow().get(p).cloned().flatten()
    }
}

impl ShardTables {
    pub(crate) fn new(m: &Manifest) -> Self {
        let (terms, term_firsts) = if m.term_pages.is_empty() {
            (Table::inline(m.term_shards.clone()), vec![String::new()])
        } else {
            let p = &m.term_pages;
            (
                Table::paged(
                    p.iter().map(|p| p.shard_count),
                    p.iter().map(|p| p.file.clone()).collect(),
                ),
                p.iter().map(|p| p.first.clone()).collect(),
            )
        };
        let (metas, meta_first_pages) = if m.meta_pages.is_empty() {
            let total = m.pages.len() as u32;
            (Table::inline(m.meta_shards.clone()), vec![0, total])
        } else {
            let p = &m.meta_pages;
            let mut firsts = vec![0u32];
            for page in p {
                firsts.push(firsts[firsts.len() - 1].saturating_add(page.page_count));
            }
            (
                Table::paged(
                    p.iter().map(|p| p.shard_count),
                    p.iter().map(|p| p.file.clone()).collect(),
                ),
                firsts,
            )
        };
        ShardTables {
            terms,
            term_firsts,
            metas,
            meta_first_pages,
            missed: RefCell::default(),
        }
    }

    fn miss(&self, f: FileRef) {
        let mut missed = self.missed.borrow_mut();
        if !missed.contains(&f) {
            missed.push(f);
        }
    }

    /// Term page `p`'s entries, or a miss.
    fn term_page(&self, p: usize) -> Option<Rc<[TermShardEntry]>> {
        let page = self.terms.page(p);
        if page.is_none() {
            self.miss(FileRef::TermDir(p as u32));
        }
        page
    }

    fn meta_page(&self, p: usize) -> Option<Rc<[MetaShardEntry]>> {
        let page = self.metas.page(p);
        if page.is_none() {
            self.miss(FileRef::MetaDir(p as u32));
        }
        page
    }
}

impl Searcher {
    /// The directory pages lookups missed since the last call (and forgets them). A session calls it
    /// once before and once after what it computes: what it gets the second time is what that
    /// computation lacked.
    pub(crate) fn missed(&self) -> Vec<FileRef> {
        std::mem::take(&mut *self.tables.missed.borrow_mut())
    }

    /// Term shards in the index.
    pub fn term_shard_count(&self) -> usize {
        self.tables.terms.len()
    }

    /// Metadata shards in the index.
    pub fn meta_shard_count(&self) -> usize {
        self.tables.metas.len()
    }

    /// Term shard `i`'s entry, through `f` (`None`: no such shard, or its page is not held).
    pub(crate) fn term_entry<R>(
        &self,
        i: usize,
        f: impl FnOnce(&TermShardEntry) -> R,
    ) -> Option<R> {
        let t = &self.tables;
        let p = t.terms.page_of(i)?;
        let page = t.term_page(p)?;
        page.get(i - t.terms.base[p] as usize).map(f)
    }

    /// Term shard `i`'s file, for messages (its ordinal when its page is not held).
    pub(crate) fn term_file(&self, i: usize) -> String {
        (self.term_entry(i, |s| s.file.clone())).unwrap_or_else(|| format!("term shard {i}"))
    }

    /// Metadata shard `i`'s entry.
    pub(crate) fn meta_entry(&self, i: usize) -> Option<MetaShardEntry> {
        let t = &self.tables;
        let p = t.metas.page_of(i)?;
        let page = t.meta_page(p)?;
        page.get(i - t.metas.base[p] as usize).cloned()
    }

    /// The term shard whose range holds `term`, if any (none before the first shard's first term).
    pub fn term_shard_for(&self, term: &str) -> Option<usize> {
        let t = &self.tables;
        let p = t
            .term_firsts
            .partition_point(|f| f.as_str() <= term)
            .checked_sub(1)?;
        let page = t.term_page(p)?;
        let j = page
            .partition_point(|s| s.first.as_str() <= term)
            .checked_sub(1)?;
        Some(t.terms.base[p] as usize + j)
    }

    /// Term shards whose range may hold terms starting with `prefix`: the one holding `prefix`
    /// itself, and every later one whose first term starts with it.
    pub fn term_shards_for_prefix(&self, prefix: &str) -> Range<usize> {
        let t = &self.tables;
        let beyond = |first: &str| first < prefix || first.starts_with(prefix);
        let at = |p: usize, j: usize| t.terms.base[p] as usize + j;
        let ps = (t.term_firsts.partition_point(|f| f.as_str() <= prefix)).saturating_sub(1);
        let start = match t.term_page(ps) {
            Some(page) => at(
                ps,
                page.partition_point(|s| s.first.as_str() <= prefix)
                    .saturating_sub(1),
            ),
            None => return 0..0,
        };
        // The end falls in the last page whose first term is still in the prefix's run.
        let end = match t.term_firsts.partition_point(|f| beyond(f)).checked_sub(1) {
            Some(pe) => match t.term_page(pe) {
                Some(page) => at(pe, page.partition_point(|s| beyond(&s.first))),
                None => return 0..0,
            },
            None => 0,
        };
        start..end.max(start)
    }

    /// The metadata shard holding `page`.
    pub fn meta_shard_for(&self, page: u32) -> Option<usize> {
        let t = &self.tables;
        let firsts = &t.meta_first_pages;
        if page >= *firsts.last()? {
            return None;
        }
        let p = firsts.partition_point(|&f| f <= page) - 1;
        let entries = t.meta_page(p)?;
        let j = entries.partition_point(|m| m.first_page + m.page_count <= page);
        (j < entries.len()).then(|| t.metas.base[p] as usize + j)
    }

    /// The file of term shard `i`'s positions, when the index has positions.
    pub(crate) fn positions_file(&self, i: usize) -> Option<String> {
        match self.manifest.positions.as_ref()? {
            PositionFiles::Prefix(_) => (i < self.term_shard_count())
                .then(|| self.manifest.positions_file(i))
                .flatten(),
            PositionFiles::BesideTerms => self
                .term_entry(i, |s| s.file.strip_prefix("t/").map(|h| format!("p/{h}")))
                .flatten(),
        }
    }

    /// The directory page file `f` names (`None`: not one of this index's pages).
    pub(crate) fn directory_file(&self, f: FileRef) -> Option<String> {
        match f {
            FileRef::TermDir(p) => self.tables.terms.files.get(p as usize).cloned(),
            FileRef::MetaDir(p) => self.tables.metas.files.get(p as usize).cloned(),
            _ => None,
        }
    }

    /// The directory page that names file `f`, when it is not held (`None`: held, or `f` is not
    /// named by a table).
    pub fn unheld_directory(&self, f: FileRef) -> Option<FileRef> {
        let t = &self.tables;
        let (table, page) = match f {
            FileRef::Terms(i) | FileRef::Positions(i) => (
                FileRef::TermDir as fn(u32) -> FileRef,
                t.terms.page_of(i as usize)?,
            ),
            FileRef::Meta(i) => (
                FileRef::MetaDir as fn(u32) -> FileRef,
                t.metas.page_of(i as usize)?,
            ),
            _ => return None,
        };
        let held = match f {
            FileRef::Meta(_) => t.metas.page(page).is_some(),
            _ => t.terms.page(page).is_some(),
        };
        (!held).then(|| table(page as u32))
    }

    /// Whether directory page `f` is one of the tables' pages, not held yet.
    pub(crate) fn unheld_directory_page(&self, f: FileRef) -> bool {
        let t = &self.tables;
        match f {
            FileRef::TermDir(p) => !t.terms.files.is_empty() && t.terms.page(p as usize).is_none(),
            FileRef::MetaDir(p) => !t.metas.files.is_empty() && t.metas.page(p as usize).is_none(),
            _ => false,
        }
    }

    /// What `name` is among the table files held: a term shard, a metadata shard, a directory page
    /// or a position shard beside a term shard.
    pub(crate) fn table_file_ref(&self, name: &str) -> Option<FileRef> {
        let t = &self.tables;
        if let Some(p) = t.terms.files.iter().position(|f| f == name) {
            return Some(FileRef::TermDir(p as u32));
        }
        if let Some(p) = t.metas.files.iter().position(|f| f == name) {
            return Some(FileRef::MetaDir(p as u32));
        }
        let find = |file: &str| {
            let pages = t.terms.pages.borrow();
            pages.iter().enumerate().find_map(|(p, page)| {
                let j = page.as_ref()?.iter().position(|s| s.file == file)?;
                Some(t.terms.base[p] + j as u32)
            })
        };
        if let Some(i) = find(name) {
            return Some(FileRef::Terms(i));
        }
        let pages = t.metas.pages.borrow();
        if let Some(i) = pages.iter().enumerate().find_map(|(p, page)| {
            let j = page.as_ref()?.iter().position(|m| m.file == name)?;
            Some(t.metas.base[p] + j as u32)
        }) {
            return Some(FileRef::Meta(i));
        }
        match self.manifest.positions.as_ref()? {
            PositionFiles::Prefix(_) => (self.manifest.positions_shard_of(name))
                .filter(|&i| i < self.term_shard_count())
                .map(|i| FileRef::Positions(i as u32)),
            PositionFiles::BesideTerms => {
                let stem = name.strip_prefix("p/")?;
                find(&format!("t/{stem}")).map(FileRef::Positions)
            }
        }
    }

    /// Takes a decoded directory page into its slot, once it fits there: a term page of its
    /// slot's shard count, starting at its slot's first term and ending before the next page's
    /// (its shards in `t/` when positions sit beside them); a metadata page of its slot's shard
    /// count whose runs cover its slot's pages. A page that does not fit is refused (`false`), as a
    /// metadata shard of another build is: it would send terms or titles to the wrong files.
    pub(crate) fn take_directory(&self, f: FileRef, page: &DirectoryPage) -> bool {
        let t = &self.tables;
        match (f, page) {
            (FileRef::TermDir(p), DirectoryPage::Terms(entries)) => {
                let p = p as usize;
                let Some(count) = t
                    .terms
                    .base
                    .get(p + 1)
                    .map(|&b| (b - t.terms.base[p]) as usize)
                else {
                    return false;
                };
                let fits = entries.len() == count
                    && entries.first().is_some_and(|e| e.first == t.term_firsts[p])
                    && (t.term_firsts.get(p + 1))
                        .is_none_or(|next| entries.last().is_some_and(|e| &e.first < next))
                    && (self.manifest.positions != Some(PositionFiles::BesideTerms)
                        || entries.iter().all(|e| e.file.starts_with("t/")));
                if fits {
                    t.terms.pages.borrow_mut()[p] = Some(entries.clone().into());
                }
                fits
            }
            (FileRef::MetaDir(p), DirectoryPage::Meta(entries)) => {
                let p = p as usize;
                let Some(count) = t
                    .metas
                    .base
                    .get(p + 1)
                    .map(|&b| (b - t.metas.base[p]) as usize)
                else {
                    return false;
                };
                let (first, end) = (t.meta_first_pages[p], t.meta_first_pages[p + 1]);
                let fits = entries.len() == count
                    && entries.first().is_some_and(|e| e.first_page == first)
                    && entries
                        .last()
                        .is_some_and(|e| e.first_page as u64 + e.page_count as u64 == end as u64);
                if fits {
                    t.metas.pages.borrow_mut()[p] = Some(entries.clone().into());
                }
                fits
            }
            _ => false,
        }
    }

    /// The directory pages of the index (empty when both tables are inline), each once.
    pub fn directory_pages(&self) -> Vec<FileRef> {
        let t = &self.tables;
        (0..t.terms.files.len() as u32)
            .map(FileRef::TermDir)
            .chain((0..t.metas.files.len() as u32).map(FileRef::MetaDir))
            .collect()
    }

    /// Both tables whole, as an inline manifest holds them, once every directory page is held ([`Self::open_file`] takes them); `None` before.
    pub fn whole_tables(&self) -> Option<(Vec<TermShardEntry>, Vec<MetaShardEntry>)> {
        let terms = (0..self.term_shard_count())
            .map(|i| self.term_entry(i, TermShardEntry::clone))
            .collect::<Option<Vec<_>>>();
        let metas = (0..self.meta_shard_count())
            .map(|i| self.meta_entry(i))
            .collect::<Option<Vec<_>>>();
        self.missed();
        Some((terms?, metas?))
    }

    /// Whether the tables are paged (format v11): a query may then need directory pages first.
    pub fn has_directory_pages(&self) -> bool {
        !self.tables.terms.files.is_empty() || !self.tables.metas.files.is_empty()
    }
}
