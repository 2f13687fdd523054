//! `aidocs-index inspect`: what an index directory holds, with every checksum verified.

use std::path::Path;

use aidocs_core::format::DirectoryPage;
use aidocs_core::partitions::{root_kind, PartitionTable};
use aidocs_core::{
    FileRef, Manifest, MetaShard, Searcher, Shard, ShardKind, TermShard, MANIFEST_FILE,
};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct ShardReport {
    pub file: String,
    pub kind: &'static str,
    pub bytes: u64,
    pub items: usize,
    pub range: String,
    pub ok: bool,
    pub error: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct InspectReport {
    pub build_id: String,
    pub generator: String,
    pub audience: String,
    pub pages: usize,
    pub chunks: u32,
    pub manifest_bytes: u64,
    pub filter_bytes: usize,
    pub term_shards: usize,
    pub meta_shards: usize,
    pub terms: u64,
    pub total_bytes: u64,
    pub median_term_shard_bytes: u64,
    pub shards: Vec<ShardReport>,
    pub errors: usize,
    /// The language partitions' tags (a multilingual site's; otherwise empty). The figures above
    /// add up all partitions (a page without a language counts in each).
    pub partitions: Vec<String>,
}

/// Reads and verifies every file of the index in `dir`; a multilingual site's language partitions
/// (format v8) are each verified and added up, their manifests listed among the files.
pub fn inspect(dir: &Path) -> Result<InspectReport, String> {
    let mpath = dir.join(MANIFEST_FILE);
    let mbytes = std::fs::read(&mpath).map_err(|e| format!("{}: {e}", mpath.display()))?;
    let located =
        |e: aidocs_core::ShardError| format!("{}: {e} (code {})", mpath.display(), e.code());
    if root_kind(&mbytes).map_err(located)? != ShardKind::Partitions {
        return inspect_index(dir, MANIFEST_FILE, mbytes);
    }
    let table = PartitionTable::decode(&mbytes).map_err(located)?;
    let mut total: Option<InspectReport> = None;
    let mut seen = std::collections::BTreeSet::new();
    for (i, p) in table.partitions.iter().enumerate() {
        let path = dir.join(&p.manifest);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut r = inspect_index(dir, &p.manifest, bytes)?;
        // The partition's manifest, checked against the table's page count.
        r.shards.insert(
            0,
            report(
                &p.manifest,
                "manifest",
                format!("language {}", p.language),
                Ok((r.manifest_bytes, r.pages, r.pages == p.pages as usize)),
            ),
        );
        r.shards.retain(|s| seen.insert(s.file.clone()));
        r.partitions = vec![p.language.clone()];
        total = Some(match total {
            None => r,
            Some(mut t) => {
                if i == table.default {
                    (t.build_id, t.generator) = (r.build_id, r.generator);
                }
                t.pages += r.pages;
                t.chunks += r.chunks;
                t.filter_bytes += r.filter_bytes;
                t.term_shards += r.term_shards;
                t.meta_shards += r.meta_shards;
                t.terms += r.terms;
                t.partitions.extend(r.partitions);
                t.shards.extend(r.shards);
                t
            }
        });
    }
    let mut t = total.ok_or("the partition table lists no partition")?;
    t.manifest_bytes = mbytes.len() as u64;
    t.total_bytes = t.manifest_bytes + t.shards.iter().map(|s| s.bytes).sum::<u64>();
    let mut term_sizes: Vec<u64> = t
        .shards
        .iter()
        .filter(|s| s.kind == "terms")
        .map(|s| s.bytes)
        .collect();
    term_sizes.sort_unstable();
    t.median_term_shard_bytes = term_sizes.get(term_sizes.len() / 2).copied().unwrap_or(0);
    t.errors = t.shards.iter().filter(|s| !s.ok).count();
    Ok(t)
}

/// Verifies one index: its manifest `name` (`mbytes`) and every file it names.
fn inspect_index(dir: &Path, name: &str, mbytes: Vec<u8>) -> Result<InspectReport, String> {
    let mpath = dir.join(name);
    let mut m = Manifest::decode(&mbytes)
        .map_err(|e| format!("{}: {e} (code {})", mpath.display(), e.code()))?;
    let mut shards = Vec::new();
    // Directory pages (v11): each checked against its slot, then the tables read whole.
    if !m.term_pages.is_empty() || !m.meta_pages.is_empty() {
        let searcher = Searcher::new(m.clone()).map_err(|e| format!("{}: {e}", mpath.display()))?;
        for f in searcher.directory_pages() {
            let Some(name) = searcher.file_name(f, None, None) else {
                continue;
            };
            let r = std::fs::read(dir.join(&name))
                .map_err(|e| e.to_string())
                .and_then(|b| {
                    let (page, _) = searcher
                        .open_file(f, &name, &b, None)
                        .map_err(|e| e.to_string())?;
                    let n = match page {
                        Shard::Directory(d) => match d.as_ref() {
                            DirectoryPage::Terms(e) => e.len(),
                            DirectoryPage::Meta(e) => e.len(),
                        },
                        _ => 0,
                    };
                    Ok((b.len() as u64, n, true))
                });
            let table = if matches!(f, FileRef::TermDir(_)) {
                "term"
            } else {
                "metadata"
            };
            shards.push(report(&name, "directory", format!("{table} shards"), r));
        }
        // A page refused above is reported; the shards of the others are still checked (position
        // shards named by ordinal, v7–v9's prefix, only when no page is missing).
        (m.term_shards, m.meta_shards) = searcher.held_tables();
        if searcher.whole_tables().is_none()
            && matches!(
                m.positions,
                Some(aidocs_core::format::PositionFiles::Prefix(_))
            )
        {
            m.positions = None;
        }
    }
    for s in &m.term_shards {
        let r = std::fs::read(dir.join(&s.file))
            .map_err(|e| e.to_string())
            .and_then(|b| {
                let len = b.len() as u64;
                TermShard::decode(&b, m.num_chunks)
                    .map(|t| {
                        let term = |t: Option<&aidocs_core::format::TermPostings>| {
                            t.map_or(String::new(), |t| t.term.clone())
                        };
                        let range =
                            format!("{} .. {}", term(t.terms.first()), term(t.terms.last()));
                        (len, t.terms.len(), range)
                    })
                    .map_err(|e| format!("{e} (code {})", e.code()))
            });
        // The manifest keeps only a separator before each shard's first term.
        let range = match &r {
            Ok((_, _, range)) => range.clone(),
            Err(_) => format!("from {}", s.first),
        };
        shards.push(report(
            &s.file,
            "terms",
            range,
            r.map(|(b, n, _)| (b, n, n == s.term_count as usize)),
        ));
    }
    // Section text files (v9), named by the metadata shards' pages: (name, page ordinal).
    let mut texts: Vec<(String, usize)> = Vec::new();
    for s in &m.meta_shards {
        let r = std::fs::read(dir.join(&s.file))
            .map_err(|e| e.to_string())
            .and_then(|b| {
                let len = b.len() as u64;
                MetaShard::decode(&b)
                    .map(|t| {
                        for (j, p) in t.pages.iter().enumerate() {
                            if let Some(name) = &p.text {
                                texts.push((name.clone(), s.first_page as usize + j));
                            }
                        }
                        (
                            len,
                            t.pages.len(),
                            t.first_page == s.first_page && t.pages.len() == s.page_count as usize,
                        )
                    })
                    .map_err(|e| format!("{e} (code {})", e.code()))
            });
        shards.push(report(
            &s.file,
            "meta",
            format!("pages {}..{}", s.first_page, s.first_page + s.page_count),
            r,
        ));
    }
    for (name, page) in texts {
        let chunks = m.pages.get(page).map_or(0, |p| p.chunk_count as usize);
        let r = std::fs::read(dir.join(&name))
            .map_err(|e| e.to_string())
            .and_then(|b| {
                let len = b.len() as u64;
                aidocs_core::PageText::decode(&b)
                    .map(|t| (len, t.sections.len(), t.sections.len() == chunks))
                    .map_err(|e| format!("{e} (code {})", e.code()))
            });
        shards.push(report(&name, "text", format!("page {page}"), r));
    }
    if let Some(v) = &m.vectors {
        let vdir = std::fs::read(dir.join(&v.file))
            .map_err(|e| e.to_string())
            .and_then(|b| {
                aidocs_core::vectors::VectorDir::decode(&b)
                    .map(|d| (b.len() as u64, d))
                    .map_err(|e| format!("{e} (code {})", e.code()))
            });
        let (r, parts) = match vdir {
            Ok((len, d)) => {
                let ok = d.dims == v.dims
                    && d.partitions.iter().map(|p| p.count as u64).sum::<u64>() == v.count as u64;
                let parts = d.partitions.clone();
                (Ok((len, d.partitions.len(), ok)), parts)
            }
            Err(e) => (Err(e), Vec::new()),
        };
        shards.push(report(
            &v.file,
            "vecdir",
            format!("{} × {} dims", v.model, v.dims),
            r,
        ));
        for p in parts {
            let r = std::fs::read(dir.join(&p.file))
                .map_err(|e| e.to_string())
                .and_then(|b| {
                    aidocs_core::vectors::VectorShard::decode(&b)
                        .map(|s| {
                            let ok = s.dims == v.dims
                                && s.chunks.len() == p.count as usize
                                && s.chunks.last().is_none_or(|&c| c < m.num_chunks);
                            (b.len() as u64, s.chunks.len(), ok)
                        })
                        .map_err(|e| format!("{e} (code {})", e.code()))
                });
            shards.push(report(&p.file, "vectors", format!("{} chunks", p.count), r));
        }
        if let Some(rows) = &v.term_rows {
            let mut total = 0u64;
            for i in 0..rows.shards {
                let name = rows.file(i);
                let r = std::fs::read(dir.join(&name))
                    .map_err(|e| e.to_string())
                    .and_then(|b| {
                        aidocs_core::term_rows::TermRowShard::decode(&b)
                            .map(|s| {
                                total += s.terms.len() as u64;
                                // Every term sits in the shard its hash names.
                                let ok = s.dims == v.dims
                                    && s.terms.iter().all(|t| rows.shard_of(t) == i);
                                (b.len() as u64, s.terms.len(), ok)
                            })
                            .map_err(|e| format!("{e} (code {})", e.code()))
                    });
                shards.push(report(&name, "termrows", format!("shard {i}"), r));
            }
            if total != rows.terms as u64 {
                shards.push(report(
                    "manifest.bin",
                    "termrows",
                    "term count".into(),
                    Err(format!(
                        "the manifest counts {} terms with rows, the shards hold {total}",
                        rows.terms
                    )),
                ));
            }
        }
        if let Some(name) = &v.projection {
            let r = std::fs::read(dir.join(name))
                .map_err(|e| e.to_string())
                .and_then(|b| {
                    aidocs_core::vectors::Projection::decode(&b)
                        .map(|p| (b.len() as u64, p.out_dims as usize, p.out_dims == v.dims))
                        .map_err(|e| format!("{e} (code {})", e.code()))
                });
            shards.push(report(name, "projection", format!("to {} dims", v.dims), r));
        }
    }
    if let Some(file) = &m.typos {
        let tdir = std::fs::read(dir.join(file))
            .map_err(|e| e.to_string())
            .and_then(|b| {
                aidocs_core::typos::TypoDirectory::decode(&b)
                    .map(|d| (b.len() as u64, d))
                    .map_err(|e| format!("{e} (code {})", e.code()))
            });
        let (r, typo_dir) = match tdir {
            Ok((len, d)) => (Ok((len, d.shard_count(), true)), Some(d)),
            Err(e) => (Err(e), None),
        };
        shards.push(report(file, "typodir", "typo shards".into(), r));
        for i in 0..typo_dir.as_ref().map_or(0, |d| d.shard_count()) {
            let d = typo_dir.as_ref().expect("checked");
            let name = d.shard_file(i);
            // Each shard's words share at least one deletion key with its range.
            let lo = (i > 0).then(|| d.separators[i - 1].as_str());
            let hi = d.separators.get(i).map(String::as_str);
            let r = std::fs::read(dir.join(&name))
                .map_err(|e| e.to_string())
                .and_then(|b| {
                    aidocs_core::typos::TypoShard::decode(&b)
                        .map(|s| {
                            let ok = !s.words.is_empty()
                                && s.words.iter().all(|w| {
                                    aidocs_core::typos::deletion_keys(&w.word).iter().any(|k| {
                                        lo.is_none_or(|l| k.as_str() >= l)
                                            && hi.is_none_or(|h| k.as_str() < h)
                                    })
                                });
                            (b.len() as u64, s.words.len(), ok)
                        })
                        .map_err(|e| format!("{e} (code {})", e.code()))
                });
            let range = format!("keys {}..{}", lo.unwrap_or(""), hi.unwrap_or(""));
            shards.push(report(&name, "typos", range, r));
        }
    }
    // Position shards (v7): one per term shard, as many terms.
    for (i, t) in m.term_shards.iter().enumerate() {
        let Some(name) = m.positions_file(i) else {
            break;
        };
        let r = std::fs::read(dir.join(&name))
            .map_err(|e| e.to_string())
            .and_then(|b| {
                let len = b.len() as u64;
                aidocs_core::positions::PositionShard::decode(&b, m.num_chunks)
                    .map(|p| (len, p.terms.len(), p.terms.len() == t.term_count as usize))
                    .map_err(|e| format!("{e} (code {})", e.code()))
            });
        shards.push(report(&name, "positions", format!("of {}", t.file), r));
    }
    let mut term_sizes: Vec<u64> = shards
        .iter()
        .filter(|s| s.kind == "terms")
        .map(|s| s.bytes)
        .collect();
    term_sizes.sort_unstable();
    Ok(InspectReport {
        build_id: m.build_id.clone(),
        generator: m.generator.clone(),
        audience: format!("{:?}", m.audience).to_lowercase(),
        pages: m.pages.len(),
        chunks: m.num_chunks,
        manifest_bytes: mbytes.len() as u64,
        // (On a paged index the filters are in the directory pages.)
        filter_bytes: m
            .term_shards
            .iter()
            .filter_map(|s| s.filter.as_ref())
            .map(|f| f.byte_len())
            .sum(),
        term_shards: m.term_shard_count(),
        meta_shards: m.meta_shard_count(),
        terms: m.term_shards.iter().map(|s| s.term_count as u64).sum(),
        total_bytes: mbytes.len() as u64 + shards.iter().map(|s| s.bytes).sum::<u64>(),
        median_term_shard_bytes: term_sizes.get(term_sizes.len() / 2).copied().unwrap_or(0),
        errors: shards.iter().filter(|s| !s.ok).count(),
        shards,
        partitions: Vec::new(),
    })
}

fn report(
    file: &str,
    kind: &'static str,
    range: String,
    r: Result<(u64, usize, bool), String>,
) -> ShardReport {
    match r {
        Ok((bytes, items, consistent)) => ShardReport {
            file: file.to_owned(),
            kind,
            bytes,
            items,
            range,
            ok: consistent,
            error: (!consistent).then(|| "contents do not match the manifest entry".to_owned()),
        },
        Err(e) => ShardReport {
            file: file.to_owned(),
            kind,
            bytes: 0,
            items: 0,
            range,
            ok: false,
            error: Some(e),
        },
    }
}
