//! What the last build wrote into an output, so that a build whose every input is unchanged exports
//! nothing (issue 25: a warm rebuild recomputed and compared every shard, 26 s at 100,000 pages).
//!
//! The record lives in the build cache, one per output, and names the build's key: the generator
//! and format versions, every option, the embedding model, the site's branding and every page's
//! fingerprint in ingestion (navigation) order, which together fix every byte the build writes
//! (the index from the cached pages, `llms.txt` from them and the navigation). A build with the
//! same key, that parsed and withdrew nothing, finds the recorded files still in the output (the
//! manifest byte for byte, the others by size) and returns the recorded summary. The record is
//! removed before an output is written and saved after, so an interrupted build never vouches
//! for files it did not finish.

use std::path::{Path, PathBuf};

use crate::build::{BuildOptions, PartitionSummary};
use crate::export::Export;
use crate::ingest::Ingested;

/// The part of a build's summary that describes the index it wrote.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct RecordedIndex {
    pub pages: usize,
    pub chunks: usize,
    pub term_shards: usize,
    pub meta_shards: usize,
    pub terms: usize,
    pub manifest_bytes: usize,
    pub partitions: Vec<PartitionSummary>,
    pub files: usize,
    pub bytes: u64,
    pub embedding_model: Option<String>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct ExportRecord {
    key: String,
    /// Every file of the output the build wrote, relative, with its size.
    files: Vec<(String, u64)>,
    /// BLAKE3 of `manifest.bin`.
    manifest: String,
    index: RecordedIndex,
}

/// The key of a build: everything its output is a function of (see the module docs).
pub(crate) fn key(opts: &BuildOptions, model: Option<&[u8; 32]>, ingested: &Ingested) -> String {
    let mut h = blake3::Hasher::new();
    let line = |h: &mut blake3::Hasher, s: &str| {
        h.update(&(s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
    };
    line(&mut h, env!("CARGO_PKG_VERSION"));
    line(&mut h, &aidocs_core::FORMAT_VERSION.to_string());
    let options = BuildOptions {
        progress: false,
        ..opts.clone()
    };
    line(&mut h, &format!("{options:?}"));
    line(&mut h, &format!("{model:?}"));
    line(
        &mut h,
        &format!("{:?}", ingested.site.as_ref().map(|s| &s.branding)),
    );
    for p in &ingested.pending {
        line(&mut h, &p.id);
        line(&mut h, &p.fingerprint);
    }
    h.finalize().to_hex().to_string()
}

fn record_path(cache_dir: &Path, out: &Path) -> PathBuf {
    let out = std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf());
    let id = blake3::hash(out.to_string_lossy().as_bytes()).to_hex();
    cache_dir.join(format!("export-{}.json", &id[..16]))
}

/// The recorded index, when the last build of `out` from this cache had `key` and its files are
/// all still there.
pub(crate) fn current(cache_dir: &Path, out: &Path, key: &str) -> Option<RecordedIndex> {
    let bytes = std::fs::read(record_path(cache_dir, out)).ok()?;
    let record: ExportRecord = serde_json::from_slice(&bytes).ok()?;
    if record.key != key {
        return None;
    }
    let manifest = std::fs::read(out.join(aidocs_core::format::MANIFEST_FILE)).ok()?;
    if blake3::hash(&manifest).to_hex().as_str() != record.manifest {
        return None;
    }
    let present = (record.files.iter()).all(|(name, size)| {
        // Names come from our own record, but a record is a file like any other: only relative,
        // plain names are looked up.
        !name
            .split('/')
            .any(|p| p.is_empty() || p == ".." || p == ".")
            && std::fs::symlink_metadata(out.join(name))
                .is_ok_and(|m| m.is_file() && m.len() == *size)
    });
    present.then_some(record.index)
}

/// Forgets the record of `out` (before its files are written).
pub(crate) fn forget(cache_dir: &Path, out: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(record_path(cache_dir, out)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Records what a build wrote into `out` (its index files and `extra`, e.g. `llms.txt`).
pub(crate) fn save(
    cache_dir: &Path,
    out: &Path,
    key: &str,
    exported: &Export,
    extra: &[&str],
    index: RecordedIndex,
) -> std::io::Result<()> {
    let mut files: Vec<(String, u64)> = (exported.files.iter())
        .map(|(n, b)| (n.clone(), b.len() as u64))
        .collect();
    for name in extra {
        files.push(((*name).to_owned(), std::fs::metadata(out.join(name))?.len()));
    }
    files.sort();
    files.dedup();
    let manifest = (exported.files.last())
        .map(|(_, b)| blake3::hash(b).to_hex().to_string())
        .unwrap_or_default();
    let record = ExportRecord {
        key: key.to_owned(),
        files,
        manifest,
        index,
    };
    let path = record_path(cache_dir, out);
    let tmp = path.with_extension("json.tmp");
    std::fs::write(
        &tmp,
        serde_json::to_vec(&record).map_err(std::io::Error::other)?,
    )?;
    std::fs::rename(&tmp, &path)
}
