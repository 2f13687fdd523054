//! Here is an index's file, give me what it is: [`FileRef`] names every file a query can read by what
//! it is (term shard 3, the vector directory), [`Searcher::file_name`] and [`Searcher::file_ref`]
//! translate between that and the file name in the index directory, and [`Searcher::open_file`]
//! verifies, decodes and checks a fetched file against the manifest, once for every reader.
//!
//! Vector partitions and typo shards are named by their directory, not the manifest, so those two
//! translations take the directory when the caller has it.

use std::rc::Rc;

use crate::envelope::{self, ShardKind};
use crate::format::{DirectoryPage, PageText};
use crate::positions::PositionShard;
use crate::term_rows::TermRowShard;
use crate::typos::{TypoDirectory, TypoShard};
use crate::vectors::{Projection, VectorDir, VectorShard};
use crate::{MetaShard, ShardError, TermShard};

use super::{SearchError, Searcher};

/// One file of an index that a query reads, by what it is. Cache keys of every reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileRef {
    /// Term shard `i` of the manifest.
    Terms(u32),
    /// Metadata shard `i` of the manifest.
    Meta(u32),
    /// The position shard of term shard `i` (format v7).
    Positions(u32),
    /// The typo directory (format v6).
    TypoDir,
    /// Typo shard `i` of the typo directory.
    Typos(u32),
    /// The vector directory.
    VectorDir,
    /// Vector partition `i` of the vector directory.
    Vectors(u32),
    /// Row shard `i` of the static query encoder.
    TermRows(u32),
    /// The projection from the model's space to the stored vectors'.
    Projection,
    /// The section text of page `p` (format v9), named by the page's metadata: read for evidence only.
    Text(u32),
    /// Page `p` of the manifest's paged term shard table (format v11).
    TermDir(u32),
    /// Page `p` of the manifest's paged metadata shard table (format v11).
    MetaDir(u32),
}

impl FileRef {
    /// The envelope kind of the file.
    pub fn kind(self) -> ShardKind {
        match self {
            FileRef::Terms(_) => ShardKind::Terms,
            FileRef::Meta(_) => ShardKind::Meta,
            FileRef::Positions(_) => ShardKind::Positions,
            FileRef::TypoDir => ShardKind::TypoDir,
            FileRef::Typos(_) => ShardKind::Typos,
            FileRef::VectorDir => ShardKind::VectorDir,
            FileRef::Vectors(_) => ShardKind::Vectors,
            FileRef::TermRows(_) => ShardKind::TermRows,
            FileRef::Projection => ShardKind::Projection,
            FileRef::Text(_) => ShardKind::Text,
            FileRef::TermDir(_) | FileRef::MetaDir(_) => ShardKind::Directory,
        }
    }
}

/// A decoded, checked index file.
#[derive(Debug, Clone)]
pub enum Shard {
    Terms(Rc<TermShard>),
    Meta(Rc<MetaShard>),
    Positions(Rc<PositionShard>),
    TypoDir(Rc<TypoDirectory>),
    Typos(Rc<TypoShard>),
    VectorDir(Rc<VectorDir>),
    Vectors(Rc<VectorShard>),
    TermRows(Rc<TermRowShard>),
    Projection(Rc<Projection>),
    Text(Rc<PageText>),
    Directory(Rc<DirectoryPage>),
}

impl Shard {
    /// Whether this is the kind of file `file` names.
    pub fn is(&self, file: FileRef) -> bool {
        matches!(
            (self, file),
            (Shard::Terms(_), FileRef::Terms(_))
                | (Shard::Meta(_), FileRef::Meta(_))
                | (Shard::Positions(_), FileRef::Positions(_))
                | (Shard::TypoDir(_), FileRef::TypoDir)
                | (Shard::Typos(_), FileRef::Typos(_))
                | (Shard::VectorDir(_), FileRef::VectorDir)
                | (Shard::Vectors(_), FileRef::Vectors(_))
                | (Shard::TermRows(_), FileRef::TermRows(_))
                | (Shard::Projection(_), FileRef::Projection)
                | (Shard::Text(_), FileRef::Text(_))
                | (
                    Shard::Directory(_),
                    FileRef::TermDir(_) | FileRef::MetaDir(_)
                )
        )
    }
}

impl Searcher {
    /// The file name of `file` in the index directory; `None` when the index has no such file (or,
    /// for a vector partition or typo shard, when its directory is not given; a page's text file is
    /// named by its metadata shard: [`Self::text_file_name`]).
    pub fn file_name(
        &self,
        file: FileRef,
        vector_dir: Option<&VectorDir>,
        typo_dir: Option<&TypoDirectory>,
    ) -> Option<String> {
        let m = &self.manifest;
        let vectors = m.vectors.as_ref();
        match file {
            FileRef::Terms(i) => self.term_entry(i as usize, |s| s.file.clone()),
            FileRef::Meta(i) => self.meta_entry(i as usize).map(|e| e.file),
            FileRef::Positions(i) => self.positions_file(i as usize),
            FileRef::TermDir(_) | FileRef::MetaDir(_) => self.directory_file(file),
            FileRef::TypoDir => m.typos.clone(),
            FileRef::Typos(i) => typo_dir
                .filter(|d| (i as usize) < d.shard_count())
                .map(|d| d.shard_file(i as usize)),
            FileRef::VectorDir => vectors.map(|v| v.file.clone()),
            FileRef::Vectors(i) => vector_dir
                .and_then(|d| d.partitions.get(i as usize))
                .map(|p| p.file.clone()),
            FileRef::TermRows(i) => self.term_rows().filter(|r| i < r.shards).map(|r| r.file(i)),
            FileRef::Projection => vectors.and_then(|v| v.projection.clone()),
            FileRef::Text(_) => None,
        }
    }

    /// Whether `text` can be page `page`'s: one section per chunk of the page. What `open_file`
    /// checks, and what a reader checks before it hands one decoded file to another page of the same
    /// text.
    pub fn text_fits(&self, page: u32, text: &PageText) -> bool {
        (self.manifest.pages.get(page as usize))
            .is_some_and(|e| e.chunk_count as usize == text.sections.len())
    }

    /// The text file of page `page`, named in `meta` (the metadata shard the manifest assigns the
    /// page); `None` for a page without one (an index before v9) or a shard of other pages.
    pub fn text_file_name(&self, page: u32, meta: &MetaShard) -> Option<String> {
        let i = self.meta_shard_for(page)?;
        let entry = self.meta_entry(i)?;
        if meta.first_page != entry.first_page {
            return None;
        }
        let j = page.checked_sub(meta.first_page)? as usize;
        meta.pages.get(j)?.text.clone()
    }

    /// What the file called `name` is in this index (the inverse of [`Self::file_name`]); `None`
    /// for a name that is not one of its files.
    pub fn file_ref(
        &self,
        name: &str,
        vector_dir: Option<&VectorDir>,
        typo_dir: Option<&TypoDirectory>,
    ) -> Option<FileRef> {
        let m = &self.manifest;
        if let Some(f) = self.table_file_ref(name) {
            return Some(f);
        }
        if m.typos.as_deref() == Some(name) {
            return Some(FileRef::TypoDir);
        }
        if let Some(i) = typo_dir.and_then(|d| d.shard_of_file(name)) {
            return Some(FileRef::Typos(i as u32));
        }
        let v = m.vectors.as_ref()?;
        if v.file == name {
            return Some(FileRef::VectorDir);
        }
        if v.projection.as_deref() == Some(name) {
            return Some(FileRef::Projection);
        }
        if let Some(i) = v.term_rows.as_ref().and_then(|r| r.shard_of_file(name)) {
            return Some(FileRef::TermRows(i));
        }
        let d = vector_dir?;
        let i = d.partitions.iter().position(|p| p.file == name)?;
        Some(FileRef::Vectors(i as u32))
    }

    /// Verifies the envelope of `bytes` (the file `name`, which is `file` of this index), decodes
    /// it, and checks it against the manifest: vectors of the index's width, a metadata shard of the
    /// pages its slot holds. `raw`: the payload when the caller inflated it (checked against the
    /// header); without it the payload is inflated here (the `inflate` feature). Also returns the
    /// payload's length, a stable proxy for the memory the decoded file holds (what caches bound).
    pub fn open_file(
        &self,
        file: FileRef,
        name: &str,
        bytes: &[u8],
        raw: Option<Vec<u8>>,
    ) -> Result<(Shard, usize), SearchError> {
        let shard_err = |source: ShardError| SearchError::Shard {
            file: name.to_owned(),
            source,
        };
        let kind = file.kind();
        let header = envelope::check(bytes, kind).map_err(shard_err)?;
        let raw = match raw {
            Some(raw) => {
                envelope::check_inflated(&header, &raw).map_err(shard_err)?;
                raw
            }
            None => envelope::open_checked(bytes, &header).map_err(shard_err)?,
        };
        let m = &self.manifest;
        let dims = m.vectors.as_ref().map_or(0, |v| v.dims);
        let mismatch = || SearchError::MetaMismatch(name.to_owned());
        let check = |ok: bool| if ok { Ok(()) } else { Err(mismatch()) };
        let shard = match file {
            FileRef::Terms(_) => Shard::Terms(Rc::new(
                TermShard::decode_payload(&raw, m.num_chunks).map_err(shard_err)?,
            )),
            FileRef::Positions(_) => Shard::Positions(Rc::new(
                PositionShard::decode_payload(&raw, m.num_chunks).map_err(shard_err)?,
            )),
            // v10 names each typo shard, v6–v9 one prefix for them all: the header says which.
            FileRef::TypoDir => Shard::TypoDir(Rc::new(
                TypoDirectory::decode_versioned(&raw, header.version).map_err(shard_err)?,
            )),
            FileRef::Typos(_) => {
                Shard::Typos(Rc::new(TypoShard::decode_payload(&raw).map_err(shard_err)?))
            }
            FileRef::VectorDir => {
                // v2 stored f32 centroids, v3 int8: the header says which.
                let dir = VectorDir::decode_versioned(&raw, header.version).map_err(shard_err)?;
                check(dir.dims == dims)?;
                Shard::VectorDir(Rc::new(dir))
            }
            FileRef::Vectors(_) => {
                // v2–v3 stored int8 absolute vectors, v4 4-bit residuals: the header says which.
                let v = VectorShard::decode_versioned(&raw, header.version).map_err(shard_err)?;
                check(v.dims == dims)?;
                Shard::Vectors(Rc::new(v))
            }
            FileRef::TermRows(_) => {
                let r = TermRowShard::decode_payload(&raw).map_err(shard_err)?;
                check(r.dims == dims)?;
                Shard::TermRows(Rc::new(r))
            }
            FileRef::Projection => {
                let p = Projection::decode_payload(&raw).map_err(shard_err)?;
                check(p.out_dims == dims)?;
                Shard::Projection(Rc::new(p))
            }
            #[cfg(feature = "evidence")]
            FileRef::Text(page) => {
                // The text of another page (or build) would cite the wrong words: its sections must
                // be the page's chunks.
                let text = PageText::decode_payload(&raw).map_err(shard_err)?;
                check(self.text_fits(page, &text))?;
                Shard::Text(Rc::new(text))
            }
            // Read for evidence only, which a reader without the feature never asks for.
            #[cfg(not(feature = "evidence"))]
            FileRef::Text(_) => return Err(SearchError::NoEvidence),
            FileRef::TermDir(_) | FileRef::MetaDir(_) => {
                // A page that does not fit its slot would send terms or titles to the wrong files.
                let page = DirectoryPage::decode_payload(&raw).map_err(shard_err)?;
                check(self.take_directory(file, &page))?;
                Shard::Directory(Rc::new(page))
            }
            FileRef::Meta(i) => {
                let entry = self.meta_entry(i as usize).ok_or_else(mismatch)?;
                // v9 names each page's text file: the header says which layout.
                let meta = MetaShard::decode_versioned(&raw, header.version).map_err(shard_err)?;
                // A metadata shard of another build would attach wrong titles to the right pages:
                // reject it here, before any reader can cache it.
                check(
                    meta.first_page == entry.first_page
                        && meta.pages.len() == entry.page_count as usize
                        && meta.pages.iter().enumerate().all(|(j, p)| {
                            m.pages
                                .get(entry.first_page as usize + j)
                                .is_some_and(|e| e.chunk_count as usize == p.chunks.len())
                        }),
                )?;
                Shard::Meta(Rc::new(meta))
            }
        };
        Ok((shard, raw.len()))
    }
}
