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

use crate::format::{
    positions_beside, term_file_beside, DirectoryPage, Manifest, MetaShardEntry, PositionFiles,
    TermShardEntry,
};

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

/// One table: its pages' shard runs and the pages held. Only held pages take memory: a manifest
/// may claim any number of shards, but a page's entries exist only once its file gave them.
#[derive(Debug, Clone)]
struct Table<E> {
    /// Each page's first shard ordinal, plus the shard count.
    base: Vec<u32>,
    /// Each page's entries; empty until held (a paged table's pages are never empty).
    pages: RefCell<Vec<Vec<E>>>,
    /// How the manifest names each page (empty for an inline table, which is held).
    files: Vec<String>,
}

impl<E: Clone> Table<E> {
    fn inline(entries: Vec<E>) -> Self {
        Table {
            base: vec![0, entries.len() as u32],
            pages: RefCell::new(vec![entries]),
            files: Vec::new(),
        }
    }

    fn paged(counts: impl Iterator<Item = u32>, files: Vec<String>) -> Self {
        let mut base = vec![0u32];
        for c in counts {
            base.push(base[base.len() - 1].saturating_add(c));
        }
        Table {
            pages: RefCell::new(vec![Vec::new(); base.len() - 1]),
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

    fn held(&self, p: usize) -> bool {
        self.files.is_empty() || self.pages.borrow().get(p).is_some_and(|e| !e.is_empty())
    }

    /// Shard `i`'s entry through `f`, when held.
    fn get<R>(&self, i: usize, f: impl FnOnce(&E) -> R) -> Option<R> {
        let p = self.page_of(i)?;
        let pages = self.pages.borrow();
        pages[p].get(i - self.base[p] as usize).map(f)
    }

    /// The ordinal of the first shard of page `p` (held) for which `pred` fails: a partition point
    /// within the page.
    fn partition(&self, p: usize, pred: impl Fn(&E) -> bool) -> usize {
        self.base[p] as usize + self.pages.borrow()[p].partition_point(pred)
    }

    /// The held shard for which `pred` holds.
    fn position(&self, pred: impl Fn(&E) -> bool) -> Option<usize> {
        let pages = self.pages.borrow();
        (pages.iter().enumerate())
            .find_map(|(p, e)| Some(self.base[p] as usize + e.iter().position(&pred)?))
    }

    fn fill(&self, p: usize, page: &[E]) {
        self.pages.borrow_mut()[p] = page.to_vec();
    }
}

impl ShardTables {
    /// The tables of `m`.
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
            let pages = m.pages.len() as u32;
            (Table::inline(m.meta_shards.clone()), vec![0, pages])
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

    /// Whether term page `p` is held; notes it missed when not.
    fn term_page(&self, p: usize) -> bool {
        let held = self.terms.held(p);
        if !held {
            self.miss(FileRef::TermDir(p as u32));
        }
        held
    }

    fn meta_page(&self, p: usize) -> bool {
        let held = self.metas.held(p);
        if !held {
            self.miss(FileRef::MetaDir(p as u32));
        }
        held
    }

    fn miss(&self, f: FileRef) {
        let mut missed = self.missed.borrow_mut();
        if !missed.contains(&f) {
            missed.push(f);
        }
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
        t.term_page(t.terms.page_of(i)?);
        t.terms.get(i, f)
    }

    /// Term shard `i`'s file, for messages (empty when its page is not held).
    pub(crate) fn term_file(&self, i: usize) -> String {
        self.term_entry(i, |s| s.file.clone()).unwrap_or_default()
    }

    /// Metadata shard `i`'s entry.
    pub(crate) fn meta_entry(&self, i: usize) -> Option<MetaShardEntry> {
        let t = &self.tables;
        t.meta_page(t.metas.page_of(i)?);
        t.metas.get(i, MetaShardEntry::clone)
    }

    /// The term shard whose range holds `term`, if any (none before the first shard's first term).
    pub fn term_shard_for(&self, term: &str) -> Option<usize> {
        let i = self.term_shard_at_most(term)?;
        let t = &self.tables.terms;
        t.held(t.page_of(i)?).then_some(i)
    }

    /// [`Self::term_shard_for`], or while the page of `term`'s range is not held (noted missed),
    /// the last shard of that page: the most the answer can be.
    pub(crate) fn term_shard_at_most(&self, term: &str) -> Option<usize> {
        let t = &self.tables;
        let p = t
            .term_firsts
            .partition_point(|f| f.as_str() <= term)
            .checked_sub(1)?;
        if !t.term_page(p) {
            return Some(t.terms.base[p + 1] as usize - 1);
        }
        let end = t.terms.partition(p, |s| s.first.as_str() <= term);
        (end > t.terms.base[p] as usize).then(|| end - 1)
    }

    /// Where the run of term shards that may hold terms starting with `prefix` ends: one past the
    /// last whose first term sorts before `prefix` or starts with it (0: none). Exact below `limit`;
    /// at or past `limit` otherwise, without reading the page it falls in (a prefix reads at most
    /// so many shards); while that page is not held (noted missed), its first shard.
    pub(crate) fn prefix_run_end(&self, prefix: &str, limit: usize) -> usize {
        let t = &self.tables;
        let beyond = |first: &str| first < prefix || first.starts_with(prefix);
        let Some(p) = t.term_firsts.partition_point(|f| beyond(f)).checked_sub(1) else {
            return 0;
        };
        let base = t.terms.base[p] as usize;
        if base >= limit || !t.term_page(p) {
            return base;
        }
        t.terms.partition(p, |s| beyond(&s.first))
    }

    /// The metadata shard holding `page`.
    pub fn meta_shard_for(&self, page: u32) -> Option<usize> {
        let t = &self.tables;
        let firsts = &t.meta_first_pages;
        if page >= *firsts.last()? {
            return None;
        }
        let p = firsts.partition_point(|&f| f <= page) - 1;
        if !t.meta_page(p) {
            return None;
        }
        let j = t
            .metas
            .partition(p, |m| m.first_page + m.page_count <= page);
        (j < t.metas.base[p + 1] as usize).then_some(j)
    }

    /// The file of term shard `i`'s positions, when the index has positions.
    pub(crate) fn positions_file(&self, i: usize) -> Option<String> {
        match self.manifest.positions.as_ref()? {
            PositionFiles::Prefix(_) => (i < self.term_shard_count())
                .then(|| self.manifest.positions_file(i))
                .flatten(),
            PositionFiles::BesideTerms => {
                self.term_entry(i, |s| positions_beside(&s.file)).flatten()
            }
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
        match f {
            FileRef::Terms(i) | FileRef::Positions(i) => {
                let p = t.terms.page_of(i as usize)?;
                (!t.terms.held(p)).then_some(FileRef::TermDir(p as u32))
            }
            FileRef::Meta(i) => {
                let p = t.metas.page_of(i as usize)?;
                (!t.metas.held(p)).then_some(FileRef::MetaDir(p as u32))
            }
            _ => None,
        }
    }

    /// Whether directory page `f` is one of the tables' pages, not held yet.
    pub(crate) fn unheld_directory_page(&self, f: FileRef) -> bool {
        let t = &self.tables;
        match f {
            FileRef::TermDir(p) => (p as usize) < t.terms.files.len() && !t.terms.held(p as usize),
            FileRef::MetaDir(p) => (p as usize) < t.metas.files.len() && !t.metas.held(p as usize),
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
        if let Some(i) = t.terms.position(|s| s.file == name) {
            return Some(FileRef::Terms(i as u32));
        }
        if let Some(i) = t.metas.position(|m| m.file == name) {
            return Some(FileRef::Meta(i as u32));
        }
        let i = match self.manifest.positions.as_ref()? {
            PositionFiles::Prefix(_) => self.manifest.positions_shard_of(name)?,
            PositionFiles::BesideTerms => {
                let terms = term_file_beside(name)?;
                t.terms.position(|s| s.file == terms)?
            }
        };
        (i < self.term_shard_count()).then_some(FileRef::Positions(i as u32))
    }

    /// Takes a decoded directory page into its slot, once it fits there: a term page of its
    /// slot's shard count, starting at its slot's first term and ending before the next page's
    /// (its shards in `t/` when positions sit beside them); a metadata page of its slot's shard
    /// count whose runs cover its slot's pages. A page that does not fit is refused (`false`), as a
    /// metadata shard of another build is: it would send terms or titles to the wrong files.
    pub(crate) fn take_directory(&self, f: FileRef, page: &DirectoryPage) -> bool {
        let t = &self.tables;
        let count = |base: &[u32], p: usize| Some(base.get(p + 1)? - base[p]);
        match (f, page) {
            (FileRef::TermDir(p), DirectoryPage::Terms(entries)) => {
                let p = p as usize;
                let fits = p < t.terms.files.len()
                    && count(&t.terms.base, p) == Some(entries.len() as u32)
                    && entries.first().is_some_and(|e| e.first == t.term_firsts[p])
                    && (t.term_firsts.get(p + 1))
                        .is_none_or(|next| entries.last().is_some_and(|e| &e.first < next))
                    && (self.manifest.positions != Some(PositionFiles::BesideTerms)
                        || entries.iter().all(|e| e.file.starts_with("t/")));
                if fits {
                    t.terms.fill(p, entries);
                }
                fits
            }
            (FileRef::MetaDir(p), DirectoryPage::Meta(entries)) => {
                let p = p as usize;
                let fits = p < t.metas.files.len()
                    && count(&t.metas.base, p) == Some(entries.len() as u32)
                    && entries.first().map(|e| e.first_page) == Some(t.meta_first_pages[p])
                    && entries
                        .last()
                        .map(|e| e.first_page as u64 + e.page_count as u64)
                        == Some(t.meta_first_pages[p + 1] as u64);
                if fits {
                    t.metas.fill(p, entries);
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

    /// The entries of both tables' held pages, in order (with gaps where a page is not held).
    pub fn held_tables(&self) -> (Vec<TermShardEntry>, Vec<MetaShardEntry>) {
        let t = &self.tables;
        (
            t.terms.pages.borrow().concat(),
            t.metas.pages.borrow().concat(),
        )
    }

    /// Both tables whole, as an inline manifest holds them, once every directory page is held
    /// ([`Self::open_file`] takes them); `None` before.
    pub fn whole_tables(&self) -> Option<(Vec<TermShardEntry>, Vec<MetaShardEntry>)> {
        let (terms, metas) = self.held_tables();
        (terms.len() == self.term_shard_count() && metas.len() == self.meta_shard_count())
            .then_some((terms, metas))
    }

    /// Whether the tables are paged (format v11): a query may then need directory pages first.
    pub fn has_directory_pages(&self) -> bool {
        !self.tables.terms.files.is_empty() || !self.tables.metas.files.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::{self, ShardKind};
    use crate::format::{MetaPageRef, TermPageRef};

    const TEXTS: [&str; 7] = [
        "alpha beta gamma delta",
        "beta epsilon zeta",
        "eta theta iota kappa lambda",
        "mu nu xi omicron pi",
        "rho sigma tau upsilon",
        "phi chi psi omega alphabet",
        "betamax gammaray deltoid",
    ];

    /// The test index's tables, and the same cut into pages of `sizes` shards (cycled), each page
    /// taken once `take` says so.
    fn paged(sizes: &[usize]) -> (Searcher, Searcher, Vec<DirectoryPage>) {
        let (inline, _) = crate::search::test_index::index(&TEXTS, 2);
        let mut m = inline.manifest().clone();
        // Metadata: one shard per page, to cut into pages too.
        m.meta_shards = (0..m.pages.len() as u32)
            .map(|p| MetaShardEntry {
                first_page: p,
                page_count: 1,
                file: format!("m/{p}.bin"),
            })
            .collect();
        let inline = Searcher::new(m.clone()).unwrap();
        let (terms, metas) = (
            std::mem::take(&mut m.term_shards),
            std::mem::take(&mut m.meta_shards),
        );
        let mut pages = Vec::new();
        let (mut i, mut k) = (0, 0);
        while i < terms.len() {
            let n = sizes[k % sizes.len()].min(terms.len() - i);
            m.term_pages.push(TermPageRef {
                first: terms[i].first.clone(),
                file: format!("d/t{k}.bin"),
                shard_count: n as u32,
            });
            pages.push(DirectoryPage::Terms(terms[i..i + n].to_vec()));
            (i, k) = (i + n, k + 1);
        }
        let mut i = 0;
        while i < metas.len() {
            let n = sizes[k % sizes.len()].min(metas.len() - i);
            m.meta_pages.push(MetaPageRef {
                page_count: n as u32,
                shard_count: n as u32,
                file: format!("d/m{k}.bin"),
            });
            pages.push(DirectoryPage::Meta(metas[i..i + n].to_vec()));
            (i, k) = (i + n, k + 1);
        }
        // The manifest reads back as written.
        let m = crate::format::Manifest::decode(&m.encode()).unwrap();
        (inline, Searcher::new(m).unwrap(), pages)
    }

    /// Issue 25 (v11): lookups in paged tables give the inline tables' answers once their pages
    /// are held, and before that nothing but the missed pages; every term, prefix and page, for
    /// several page cuts.
    #[test]
    fn issue_25_paged_lookups_answer_as_inline_ones() {
        for sizes in [&[1][..], &[2], &[3, 1], &[1, 4, 2], &[100]] {
            let (inline, paged, pages) = paged(sizes);
            assert!(inline.term_shard_count() >= 8);
            assert_eq!(paged.term_shard_count(), inline.term_shard_count());
            assert_eq!(paged.meta_shard_count(), inline.meta_shard_count());
            let (all_terms, _) = inline.whole_tables().unwrap();
            let mut probes: Vec<String> =
                vec!["".into(), "0".into(), "zzz".into(), "\u{10FFFF}".into()];
            for e in &all_terms {
                probes.push(e.first.clone());
                let shard: String = e.first.chars().take(2).collect();
                probes.push(shard);
                probes.push(format!("{}a", e.first));
            }
            // Nothing held: every lookup misses, and says which page it needs.
            paged.missed();
            for t in &probes {
                assert_eq!(paged.term_shard_for(t), None);
            }
            assert!(!paged.missed().is_empty());
            assert_eq!(paged.meta_shard_for(0), None);
            assert!(matches!(paged.missed()[..], [FileRef::MetaDir(0)]));
            assert_eq!(paged.whole_tables(), None);
            for (p, page) in paged.directory_pages().into_iter().zip(&pages) {
                assert!(paged.unheld_directory_page(p));
                assert!(paged.take_directory(p, page), "{p:?}");
                assert!(!paged.unheld_directory_page(p));
            }
            assert_eq!(paged.whole_tables(), inline.whole_tables());
            for t in &probes {
                assert_eq!(
                    paged.term_shard_for(t),
                    inline.term_shard_for(t),
                    "{t} {sizes:?}"
                );
                let end = inline.prefix_run_end(t, usize::MAX);
                assert_eq!(paged.prefix_run_end(t, usize::MAX), end, "{t} {sizes:?}");
                // Below a limit the end is exact; past it, only bounded (and reads no page).
                for limit in 0..=end {
                    let e = paged.prefix_run_end(t, limit);
                    assert!(e == end || (e >= limit && e <= end), "{t} {limit}: {e}");
                }
            }
            for page in 0..=TEXTS.len() as u32 {
                assert_eq!(paged.meta_shard_for(page), inline.meta_shard_for(page));
            }
            assert!(paged.missed().is_empty());
            // Names and refs are inverse over everything the pages name.
            for i in 0..paged.term_shard_count() {
                let name = paged
                    .file_name(FileRef::Terms(i as u32), None, None)
                    .unwrap();
                assert_eq!(
                    paged.file_ref(&name, None, None),
                    Some(FileRef::Terms(i as u32))
                );
            }
        }
    }

    /// Issue 25 (v11, review): a manifest claiming billions of shards in a few bytes costs nothing
    /// until pages arrive: only held pages take memory, and a page must hold its slot's count.
    #[test]
    fn issue_25_a_huge_claimed_table_allocates_nothing() {
        let (_, paged, _) = paged(&[2]);
        let mut m = paged.manifest().clone();
        m.term_pages.truncate(1);
        m.term_pages[0].shard_count = u32::MAX;
        let m = crate::format::Manifest::decode(&m.encode()).unwrap();
        let s = Searcher::new(m).unwrap();
        assert_eq!(s.term_shard_count(), u32::MAX as usize);
        assert_eq!(s.term_shard_for("beta"), None);
        assert!(matches!(s.missed()[..], [FileRef::TermDir(0)]));
        assert_eq!(s.file_name(FileRef::Terms(7), None, None), None);
        assert_eq!(
            s.unheld_directory(FileRef::Terms(u32::MAX - 1)),
            Some(FileRef::TermDir(0))
        );
        let mut over = paged.manifest().clone();
        over.term_pages[0].shard_count = u32::MAX;
        assert!(
            crate::format::Manifest::decode(&over.encode()).is_err(),
            "sum past u32"
        );
    }

    /// Issue 25 (v11): a page is refused in any slot but its own, and a truncated or padded page
    /// does not decode.
    #[test]
    fn issue_25_directory_pages_fit_their_slot_and_decode_strictly() {
        let (_, paged, pages) = paged(&[2]);
        let slots = paged.directory_pages();
        for (a, slot) in slots.iter().enumerate() {
            for (b, page) in pages.iter().enumerate() {
                let (_, s, _) = self::paged(&[2]);
                assert_eq!(
                    s.take_directory(*slot, page),
                    a == b,
                    "{slot:?} given page {b}"
                );
            }
        }
        for page in &pages {
            let file = page.encode();
            assert_eq!(&DirectoryPage::decode(&file).unwrap(), page);
            let raw = envelope::open(&file, ShardKind::Directory).unwrap();
            for cut in 0..raw.len() {
                assert!(
                    DirectoryPage::decode_payload(&raw[..cut]).is_err(),
                    "cut {cut}"
                );
            }
            let mut padded = raw.clone();
            padded.push(0);
            assert!(DirectoryPage::decode_payload(&padded).is_err());
            let mut other = raw.clone();
            other[0] = 2;
            assert!(DirectoryPage::decode_payload(&other).is_err());
        }
    }
}
