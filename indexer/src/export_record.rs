//! What the last build wrote into an output, so that a build whose every input is unchanged exports
//! nothing (issue 25: a warm rebuild recomputed and compared every shard, 26 s at 100,000 pages).
//!
//! The record lives in the build cache, one per output, and names the build's key: the running
//! program's own bytes (any change of code, whatever its version number), every option, the
//! embedding model, the site's branding and every page's id and fingerprint (which covers its text,
//! includes, navigation entry and position, and the site's settings), which together fix every byte
//! the build writes (the index from the cached pages, `llms.txt` from them and the navigation). A
//! build with the same key, that parsed and withdrew nothing, finds the output holding exactly the
//! recorded files (read back and hashed: a damaged or replaced file is written again) and no other
//! index file (another build's shards are removed by a full build, never kept by this path), and
//! returns the recorded summary. The record is removed before an output is written and saved after,
//! so an interrupted build never vouches for files it did not finish.

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
    /// Every file of the output the build wrote, relative, sorted.
    files: Vec<String>,
    /// [`digest`] of those files.
    digest: String,
    index: RecordedIndex,
}

/// BLAKE3 over each file's name, length and bytes, in order; `None` when one cannot be read as a
/// regular file (a symlink included).
fn digest(out: &Path, files: &[String]) -> Option<String> {
    let mut h = blake3::Hasher::new();
    for name in files {
        // Names come from our own record, but a record is a file like any other: only relative,
        // plain names are looked up.
        if name
            .split('/')
            .any(|p| p.is_empty() || p == ".." || p == ".")
        {
            return None;
        }
        let path = out.join(name);
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            return None;
        }
        digest_file(&mut h, name, &std::fs::read(&path).ok()?);
    }
    Some(h.finalize().to_hex().to_string())
}

/// One file's part of [`digest`]: its name, length and bytes.
fn digest_file(h: &mut blake3::Hasher, name: &str, bytes: &[u8]) {
    h.update(&(name.len() as u64).to_le_bytes());
    h.update(name.as_bytes());
    h.update(&(bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// The running program's bytes, hashed once: a build by other code is another build.
fn code_identity() -> Option<&'static str> {
    static ID: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe().ok()?;
        let mut h = blake3::Hasher::new();
        h.update_reader(std::fs::File::open(exe).ok()?).ok()?;
        Some(h.finalize().to_hex().to_string())
    })
    .as_deref()
}

/// The key of a build: everything its output is a function of (see the module docs); `None` when
/// the program cannot read itself (then no build is ever skipped).
pub(crate) fn key(
    opts: &BuildOptions,
    model: Option<&[u8; 32]>,
    ingested: &Ingested,
) -> Option<String> {
    let mut h = blake3::Hasher::new();
    let line = |h: &mut blake3::Hasher, s: &str| {
        h.update(&(s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
    };
    line(&mut h, code_identity()?);
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
    Some(h.finalize().to_hex().to_string())
}

fn record_path(cache_dir: &Path, out: &Path) -> PathBuf {
    let out = std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf());
    let id = blake3::hash(out.to_string_lossy().as_bytes()).to_hex();
    cache_dir.join(format!("export-{}.json", &id[..16]))
}

/// The recorded index, when the last build of `out` from this cache had `key` and the output holds
/// exactly its files: each as written, and (unless `keep_old`, which keeps older shards on purpose)
/// no other index file.
pub(crate) fn current(
    cache_dir: &Path,
    out: &Path,
    key: &str,
    keep_old: bool,
) -> Option<RecordedIndex> {
    let bytes = std::fs::read(record_path(cache_dir, out)).ok()?;
    let record: ExportRecord = serde_json::from_slice(&bytes).ok()?;
    if record.key != key || digest(out, &record.files)? != record.digest {
        return None;
    }
    if !keep_old {
        let listed: std::collections::HashSet<&str> =
            record.files.iter().map(String::as_str).collect();
        for dir in crate::export::INDEX_DIRS {
            for entry in std::fs::read_dir(out.join(dir)).ok()? {
                let name = format!("{dir}/{}", entry.ok()?.file_name().to_string_lossy());
                // What a full build would remove (`export::write`): a `.bin` it did not write.
                if name.ends_with(".bin") && !listed.contains(name.as_str()) {
                    return None;
                }
            }
        }
    }
    Some(record.index)
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
    // The index files' bytes are still in memory, hashed there rather than read back (276 MB at
    // 100,000 pages); the others (`llms.txt`) are read from the output.
    let mut bytes: std::collections::BTreeMap<&str, std::borrow::Cow<[u8]>> = (exported.files)
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice().into()))
        .collect();
    for name in extra {
        bytes.insert(name, std::fs::read(out.join(name))?.into());
    }
    let mut h = blake3::Hasher::new();
    for (name, b) in &bytes {
        digest_file(&mut h, name, b);
    }
    let record = ExportRecord {
        key: key.to_owned(),
        files: bytes.keys().map(|n| (*n).to_owned()).collect(),
        digest: h.finalize().to_hex().to_string(),
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
