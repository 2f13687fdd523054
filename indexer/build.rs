//! The hash of the indexer's own source (`src/`), of the shared `core` crate's (its analyzer makes the
//! cached terms) and of the workspace's `Cargo.lock` (a parser's new version reads pages anew),
//! which every cached page's fingerprint includes: a page parsed by another version of the reading
//! rules is parsed again, so no rule a newer binary applies (text it withholds) is skipped for a page
//! an older one cached. FNV-1a over the files' paths and bytes in path order: the same source gives
//! the same hash on every machine. Outside the workspace (a published crate) the missing files
//! count as empty.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=../core/src");
    println!("cargo:rerun-if-changed=../Cargo.lock");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    files(&root.join("src"), &mut all);
    files(&root.join("../core/src"), &mut all);
    all.push(root.join("../Cargo.lock"));
    all.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for path in &all {
        let rel = path.strip_prefix(root).unwrap_or(path);
        feed(rel.to_string_lossy().replace('\\', "/").as_bytes());
        feed(&[0]);
        feed(&std::fs::read(path).unwrap_or_default());
        feed(&[0]);
    }
    println!("cargo:rustc-env=AIDOCS_INDEX_SOURCE_HASH={h:016x}");
}
