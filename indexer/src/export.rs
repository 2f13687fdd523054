//! Exporter: what the tantivy index holds (and the chunk vectors) → shard format v2 files
//! (content-hashed names) + manifest.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use aidocs_core::{
    Audience, Bm25Params, ChunkMeta, Manifest, MetaShard, MetaShardEntry, PageEntry, PageMeta,
    PageText, MANIFEST_FILE, SCORED_FIELDS,
};

pub use crate::export_tables::TablePaging;
use crate::export_terms::{shortest_separator, TermShardWriter, WrittenTerms};
use crate::index_terms::IndexTerms;
use crate::shard_cuts::ContentCuts;
use crate::static_fit::{self, FitOptions};
use crate::tantivy_cache::{IndexContents, IndexError, StoredChunk};
use crate::vectors::ShortExamples;
use crate::vectors::{export_vectors, ChunkVectors};
use aidocs_core::envelope::{self, ShardKind};
use aidocs_core::format::{DIRECTORY_DIR, TEXT_DIR};
use aidocs_core::partitions::{LanguagePartition, PartitionTable, PARTITION_DIR};
use rayon::prelude::*;

/// The directories of an index's files: terms, metadata, vectors, static-encoder rows, typos,
/// positions, section text (v9), language partitions' manifests.
pub const INDEX_DIRS: [&str; 9] = [
    "t",
    "m",
    "v",
    "q",
    "y",
    "p",
    TEXT_DIR,
    PARTITION_DIR,
    DIRECTORY_DIR,
];

/// Shard sizing.
#[derive(Debug, Clone, Copy)]
pub struct ShardSizes {
    /// Target uncompressed payload bytes of a term shard.
    pub term_bytes: usize,
    /// Target uncompressed payload bytes of a metadata shard.
    pub meta_bytes: usize,
    /// Whether the manifest carries a binary-fuse filter per term shard.
    pub filters: TermFilters,
    /// Whether the manifest's shard tables are cut into directory pages (format v11).
    pub tables: TablePaging,
    /// Target payload bytes of a term directory page (a metadata page's is half).
    pub directory_bytes: usize,
}

/// The per-term-shard filters in the manifest (about 1.13 bytes per term, incompressible) let a query
/// skip the term shard of a word the site never uses, at the price of a manifest every reader loads
/// first. A fetch they can save is one small term shard; so they pay for themselves on small
/// vocabularies, and cost more than they save on large ones (SciFact's 50,813 terms: 71 KB of its
/// 91 KB manifest, for a saving of one ~5 KB fetch per query with an absent word).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TermFilters {
    /// Filters while they cost at most [`AUTO_FILTER_BUDGET`] bytes.
    #[default]
    Auto,
    Always,
    Never,
}

/// `TermFilters::Auto` keeps the filters up to this many bytes (about 21,000 terms).
pub const AUTO_FILTER_BUDGET: usize = 24 * 1024;

impl TermFilters {
    /// Whether an index of `terms` terms gets filters.
    pub fn include(self, terms: usize) -> bool {
        match self {
            TermFilters::Always => true,
            TermFilters::Never => false,
            // Binary fuse 8: ~1.13 bytes per key plus a small descriptor per shard.
            TermFilters::Auto => terms * 113 / 100 <= AUTO_FILTER_BUDGET,
        }
    }
}

impl Default for ShardSizes {
    fn default() -> Self {
        ShardSizes {
            // 4 KB, not 8: a cold SciFact query fetches about a dozen term shards, and halving them
            // saves 28 KB there for 7 KB more manifest (2 KB saves no more and doubles the manifest's
            // growth). Measured with scripts/cold-bytes.mjs.
            term_bytes: 4 * 1024,
            meta_bytes: 4 * 1024,
            filters: TermFilters::Auto,
            tables: TablePaging::Auto,
            directory_bytes: crate::export_tables::TERM_PAGE_BYTES,
        }
    }
}

/// Files of one export, in memory, named by content hash.
pub struct Export {
    /// The index manifest: the only one, or the default language partition's.
    pub manifest: Manifest,
    /// A multilingual site's language partitions, by language tag (empty for one index).
    pub partitions: Vec<ExportedPartition>,
    /// (relative path, bytes), `manifest.bin` last.
    pub files: Vec<(String, Vec<u8>)>,
    /// The site's distinct terms (every language's).
    pub terms: usize,
}

/// One language's index of a partitioned export.
pub struct ExportedPartition {
    pub language: String,
    /// Its manifest's file, `l/<hash>.bin`.
    pub file: String,
    pub manifest_bytes: usize,
    pub manifest: Manifest,
}

/// How a site with pages in several languages is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LanguageLayout {
    /// One index per language (pages without a language in each), and `manifest.bin` a
    /// [`PartitionTable`]: a reader downloads only its language's vocabulary.
    #[default]
    Partitioned,
    /// One index for every language: a reader's language is a filter inside it.
    Single,
}

/// The distinct page languages of `chunks`, sorted.
fn site_languages(chunks: &[StoredChunk]) -> Vec<String> {
    let set: BTreeSet<&str> = chunks
        .iter()
        .filter_map(|c| c.page.language.as_deref())
        .filter(|l| !l.is_empty())
        .collect();
    set.into_iter().map(str::to_owned).collect()
}

/// Each chunk's ordinal in the `language` partition (pages in that language or in none), and the
/// old ordinals of the kept chunks in order.
fn language_renumbering(chunks: &[StoredChunk], language: &str) -> (Vec<Option<u32>>, Vec<usize>) {
    let mut renumber: Vec<Option<u32>> = vec![None; chunks.len()];
    let mut kept = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        let lang = c.page.language.as_deref().filter(|l| !l.is_empty());
        if lang.is_none_or(|l| l == language) {
            renumber[i] = Some(kept.len() as u32);
            kept.push(i);
        }
    }
    (renumber, kept)
}

/// The rows of a partition's chunks (`kept`, old ordinals in order); its short examples are chosen
/// once its terms are known ([`export`]).
fn vectors_subset(v: &ChunkVectors, kept: &[usize]) -> ChunkVectors {
    ChunkVectors {
        model: v.model.clone(),
        dims: v.dims,
        rows: kept.iter().map(|&i| v.rows[i].clone()).collect(),
        short: v.short.clone(),
    }
}

/// Builds every file of a site's index: one index, or with pages in two or more languages and
/// [`LanguageLayout::Partitioned`], one per language under a [`PartitionTable`] (format v8). Each
/// index walks the terms of `contents` once.
pub fn export_site(
    contents: IndexContents,
    audience: Audience,
    params: Bm25Params,
    sizes: ShardSizes,
    vectors: Option<&ChunkVectors>,
    fit: &FitOptions,
    layout: LanguageLayout,
) -> Result<Export, IndexError> {
    let languages = site_languages(&contents.chunks);
    let IndexContents {
        chunks,
        terms,
        words,
    } = contents;
    if layout == LanguageLayout::Single || languages.len() < 2 {
        let keep_all = |c: u32| Some(c);
        let part = Part {
            words: words.of_index(None),
            chunks,
            renumber: &keep_all,
            vectors,
            partition: false,
        };
        return export(part, &terms, audience, params, sizes, fit);
    }
    let vectors = vectors.filter(|v| v.rows.len() == chunks.len());
    let mut files: NamedFiles = Vec::new();
    let mut named: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut partitions: Vec<ExportedPartition> = Vec::new();
    let mut term_count = 0;
    // The largest language last, its chunks moved rather than copied: a site mostly in one
    // language is never held twice (issue 25). Partitions are listed by tag whatever the order.
    let mut order: Vec<(usize, String)> = (languages.into_iter())
        .map(|l| {
            let chunks = (chunks.iter())
                .filter(|c| (c.page.language.as_deref()).is_none_or(|p| p.is_empty() || p == l))
                .count();
            (chunks, l)
        })
        .collect();
    order.sort();
    let largest = order.pop().map(|(_, l)| l);
    let mut chunks = Some(chunks);
    let jobs = order.into_iter().map(|(_, l)| l).chain(largest);
    let total = jobs.size_hint().0;
    for (j, language) in jobs.enumerate() {
        let Some(all) = chunks.take() else { break };
        let (renumber, kept) = language_renumbering(&all, &language);
        let subset = if j + 1 == total {
            let mut i = 0;
            let mut all = all;
            all.retain(|_| {
                i += 1;
                renumber[i - 1].is_some()
            });
            all
        } else {
            let cut = kept.iter().map(|&i| all[i].clone()).collect();
            chunks = Some(all);
            cut
        };
        let sub_vectors = vectors.map(|v| vectors_subset(v, &kept));
        let new_chunk = |c: u32| renumber.get(c as usize).copied().flatten();
        let part = Part {
            words: words.of_index(Some(&language)),
            chunks: subset,
            renumber: &new_chunk,
            vectors: sub_vectors.as_ref(),
            partition: true,
        };
        let Export {
            manifest,
            files: mut sub_files,
            terms,
            ..
        } = export(part, &terms, audience, params, sizes, fit)?;
        term_count = terms;
        let (_, manifest_file) = sub_files.pop().expect("an export ends with its manifest");
        let file = content_name(PARTITION_DIR, &manifest_file);
        sub_files.push((file.clone(), manifest_file));
        for (name, bytes) in sub_files {
            // Two partitions may share a file (same name, same bytes); `write` refuses a name
            // with two contents, so both are kept then.
            match named.get(&name) {
                Some(&i) if files[i].1 == bytes => {}
                _ => {
                    named.insert(name.clone(), files.len());
                    files.push((name, bytes));
                }
            }
        }
        partitions.push(ExportedPartition {
            language,
            manifest_bytes: files[named[&file]].1.len(),
            file,
            manifest,
        });
    }
    partitions.sort_by(|a, b| a.language.cmp(&b.language));
    // The default: the language with the most pages (the first of them in tag order).
    let mut default = 0;
    for (i, p) in partitions.iter().enumerate() {
        if p.manifest.pages.len() > partitions[default].manifest.pages.len() {
            default = i;
        }
    }
    let table = PartitionTable {
        partitions: partitions
            .iter()
            .map(|p| LanguagePartition {
                language: p.language.clone(),
                manifest: p.file.clone(),
                pages: p.manifest.pages.len() as u32,
            })
            .collect(),
        default,
    };
    files.push((MANIFEST_FILE.to_owned(), table.encode()));
    Ok(Export {
        manifest: partitions[default].manifest.clone(),
        partitions,
        files,
        terms: term_count,
    })
}

/// What one index of an export is built from.
struct Part<'a> {
    /// Its chunks, in export order.
    chunks: Vec<StoredChunk>,
    /// Its chunks' words, counted (typo tolerance's vocabulary).
    words: BTreeMap<&'a str, u64>,
    /// A chunk ordinal of the whole site's index → its ordinal here (`None`: not in this index).
    renumber: &'a dyn Fn(u32) -> Option<u32>,
    /// Its chunks' vectors (rows in chunk order) and every short example of the site.
    vectors: Option<&'a ChunkVectors>,
    /// One language's index of several: the static encoder learns only from the short examples
    /// that share a word with its terms (a Chinese heading teaches the English rows nothing).
    partition: bool,
}

/// `dir/<first 12 hex digits of the content's BLAKE3>.bin`. 48 bits keep a collision within a site
/// out of reach (about 10^-7 for 10,000 files) while every reader pays for these names in the manifest:
/// 20 digits cost a 10,000-page site 13 KB more per cold query. `write` compares contents, so even a
/// collision with an older build's file is never mistaken for it.
pub(crate) fn content_name(dir: &str, bytes: &[u8]) -> String {
    format!("{dir}/{}.bin", &blake3::hash(bytes).to_hex()[..12])
}

/// Builds every shard and the manifest of one index, walking its terms once.
fn export(
    part: Part,
    index_terms: &IndexTerms,
    audience: Audience,
    params: Bm25Params,
    sizes: ShardSizes,
    fit: &FitOptions,
) -> Result<Export, IndexError> {
    let Part {
        chunks,
        words,
        renumber,
        vectors,
        partition,
    } = part;
    let vectors = vectors.filter(|v| v.rows.len() == chunks.len() && !v.rows.is_empty());
    // Fewer stored dimensions: the top principal directions of the chunk vectors.
    let projected = vectors
        .filter(|v| fit.dims > 0 && fit.dims < v.dims)
        .map(|v| crate::vectors::project(v, fit.dims));
    let vectors = projected.as_ref().map(|(v, _)| v).or(vectors);
    // The static query encoder is fitted to the vectors over the same terms the term shards hold,
    // gathered as the terms are walked.
    let mut columns = vectors.map(|v| static_fit::TermColumns::new(v.rows.len(), fit.min_df));
    // Page table, in chunk order (chunks are sorted by page id, then index).
    let mut pages: Vec<(usize, usize)> = Vec::new(); // (first chunk, count)
    for (i, c) in chunks.iter().enumerate() {
        match pages.last_mut() {
            Some((first, n)) if chunks[*first].page.id == c.page.id => *n += 1,
            _ => pages.push((i, 1)),
        }
    }
    let mut groups = BTreeSet::new();
    let mut tags = BTreeSet::new();
    let mut languages = BTreeSet::new();
    let mut versions = BTreeSet::new();
    for &(first, _) in &pages {
        let p = &chunks[first].page;
        if let Some(g) = &p.group {
            groups.insert(g.clone());
        }
        tags.extend(p.tags.iter().cloned());
        languages.extend(p.language.iter().filter(|l| !l.is_empty()).cloned());
        versions.extend(p.version.iter().filter(|v| !v.is_empty()).cloned());
    }
    let groups: Vec<String> = groups.into_iter().collect();
    let languages: Vec<String> = languages.into_iter().collect();
    let versions: Vec<String> = versions.into_iter().collect();
    let tags: Vec<String> = tags.into_iter().collect();
    let mut tagsets: Vec<Vec<u32>> = vec![Vec::new()];
    let mut tagset_ids: BTreeMap<Vec<u32>, u32> = BTreeMap::from([(Vec::new(), 0)]);
    let mut page_entries = Vec::with_capacity(pages.len());
    for &(first, n) in &pages {
        let c = &chunks[first];
        let mut set: Vec<u32> = c
            .page
            .tags
            .iter()
            .filter_map(|t| tags.binary_search(t).ok().map(|i| i as u32))
            .collect();
        set.sort_unstable();
        set.dedup();
        let id = *tagset_ids.entry(set.clone()).or_insert_with(|| {
            tagsets.push(set);
            (tagsets.len() - 1) as u32
        });
        page_entries.push(PageEntry {
            chunk_count: n as u32,
            kind: c.kind(),
            group: c
                .page
                .group
                .as_ref()
                .and_then(|g| groups.binary_search(g).ok())
                .map(|i| i as u32),
            tagset: id,
            language: c
                .page
                .language
                .as_ref()
                .and_then(|l| languages.binary_search(l).ok())
                .map(|i| i as u32),
            version: c
                .page
                .version
                .as_ref()
                .and_then(|v| versions.binary_search(v).ok())
                .map(|i| i as u32),
        });
    }
    let mut field_tokens = [0u64; SCORED_FIELDS];
    for c in &chunks {
        for (f, t) in field_tokens.iter_mut().enumerate() {
            *t += c.lens[f];
        }
    }

    let mut files = Vec::new();

    // Term shards, one term at a time as the index is walked.
    let mut term_shards = TermShardWriter::new(sizes.term_bytes, sizes.filters);
    let term_count = index_terms.walk(renumber, &mut |record| {
        if let Some(c) = columns.as_mut() {
            c.push(&record.term, &record.postings);
        }
        term_shards.push(record);
    })?;
    let WrittenTerms {
        entries: term_entries,
        positions,
        terms: index_terms,
    } = term_shards.finish(&mut files);
    // One language's index learns from the short examples that share a word with its terms.
    let filtered_short = (partition && vectors.is_some()).then(|| {
        let short = &vectors.expect("checked").short;
        let mut kept = ShortExamples {
            terms: Vec::new(),
            vectors: Vec::new(),
        };
        for (t, vector) in short.terms.iter().zip(&short.vectors) {
            if t.iter().any(|w| index_terms.binary_search(w).is_ok()) {
                kept.terms.push(t.clone());
                kept.vectors.push(vector.clone());
            }
        }
        kept
    });
    drop(index_terms);
    let term_rows = vectors.zip(columns).map(|(v, columns)| {
        let short = filtered_short.as_ref().unwrap_or(&v.short);
        let rows = static_fit::fit(columns, &v.rows, short, v.dims, fit);
        static_fit::export_rows(&rows, fit.shard_bytes)
    });

    // Metadata shards: consecutive pages near the target size, cut where the pages say
    // (content-defined, as the term shards).
    let mut meta_entries = Vec::new();
    let mut batch: Vec<PageMeta> = Vec::new();
    let mut batch_first = 0u32;
    let mut meta_cuts = ContentCuts::new(sizes.meta_bytes);
    // Payloads now, sealed on every core below.
    let mut meta_payloads: Vec<Vec<u8>> = Vec::new();
    let flush_meta = |batch: &mut Vec<PageMeta>,
                      first: u32,
                      payloads: &mut Vec<Vec<u8>>,
                      entries: &mut Vec<MetaShardEntry>| {
        if batch.is_empty() {
            return;
        }
        let shard = MetaShard {
            first_page: first,
            pages: std::mem::take(batch),
        };
        payloads.push(shard.encode_payload());
        entries.push(MetaShardEntry {
            first_page: first,
            page_count: shard.pages.len() as u32,
            file: String::new(),
        });
    };
    // Each page's section text (format v9), one file per page (an edit renames only its own),
    // sealed on every core before the metadata that names them.
    let texts: Vec<(String, Vec<u8>)> = pages
        .par_iter()
        .map(|&(first, n)| {
            let text = PageText {
                sections: (chunks[first..first + n].iter())
                    .map(|c| c.text.clone())
                    .collect(),
            }
            .encode();
            (content_name(TEXT_DIR, &text), text)
        })
        .collect();
    for (pi, (&(first, n), (text_file, text))) in pages.iter().zip(texts).enumerate() {
        let c0 = &chunks[first];
        let meta = PageMeta {
            id: c0.page.id.clone(),
            url: c0.page.url.clone(),
            title: c0.page.title.clone(),
            kind: Some(c0.kind()),
            breadcrumb: c0.page.breadcrumb.clone(),
            tags: c0.page.tags.clone(),
            api: c0.page.api.clone(),
            chunks: chunks[first..first + n]
                .iter()
                .map(|c| ChunkMeta {
                    anchor: c.anchor.clone(),
                    title: c.title.clone(),
                    heading_path: c.heading_path.clone(),
                    excerpt: c.excerpt.clone(),
                })
                .collect(),
            text: None,
        };
        files.push((text_file.clone(), text));
        let meta = PageMeta {
            text: Some(text_file),
            ..meta
        };
        let size = meta.id.len()
            + meta.url.len()
            + meta.title.len()
            + meta
                .chunks
                .iter()
                .map(|c| c.excerpt.len() + c.title.len() + c.anchor.len() + 8)
                .sum::<usize>();
        if batch.is_empty() {
            batch_first = pi as u32;
        }
        let end = meta_cuts.end_after(meta.id.as_bytes(), size);
        batch.push(meta);
        if end {
            flush_meta(
                &mut batch,
                batch_first,
                &mut meta_payloads,
                &mut meta_entries,
            );
        }
    }
    flush_meta(
        &mut batch,
        batch_first,
        &mut meta_payloads,
        &mut meta_entries,
    );
    let sealed: Vec<Vec<u8>> = (meta_payloads.into_par_iter())
        .map(|p| envelope::seal(ShardKind::Meta, &p))
        .collect();
    for (entry, bytes) in meta_entries.iter_mut().zip(sealed) {
        entry.file = content_name(aidocs_core::format::META_DIR, &bytes);
        files.push((entry.file.clone(), bytes));
    }

    let vector_ref = vectors.map(|v| {
        let (mut r, vfiles) =
            export_vectors(v, fit.partition_size.max(1), fit.probe_dims, content_name);
        files.extend(vfiles);
        if let Some((_, p)) = &projected {
            let bytes = p.encode();
            let name = content_name("v", &bytes);
            r.projection = Some(name.clone());
            files.push((name, bytes));
        }
        if let Some((rows_ref, row_files)) = term_rows {
            files.extend(row_files);
            r.term_rows = Some(rows_ref);
        }
        r
    });

    let typos = export_typos(words, sizes.term_bytes).map(|(dir, typo_files)| {
        files.extend(typo_files);
        dir
    });

    // Each metadata shard's directory page cut is decided by its first page's id.
    let meta_keys: Vec<&str> = (meta_entries.iter())
        .map(|e| chunks[pages[e.first_page as usize].0].page.id.as_str())
        .collect();
    let mut manifest = Manifest {
        build_id: String::new(),
        generator: format!("aidocs-index {}", env!("CARGO_PKG_VERSION")),
        analyzer_version: aidocs_core::ANALYZER_VERSION,
        audience,
        params,
        num_chunks: chunks.len() as u32,
        field_tokens,
        groups,
        tags,
        tagsets,
        pages: page_entries,
        term_shards: term_entries,
        meta_shards: meta_entries,
        term_pages: Vec::new(),
        meta_pages: Vec::new(),
        vectors: vector_ref,
        typos,
        languages,
        positions,
        versions,
        anchored_exact_keys: true,
    };
    crate::export_tables::page_tables(
        &mut manifest,
        &meta_keys,
        sizes.tables,
        sizes.directory_bytes,
        &mut files,
        content_name,
    );
    let mut build_hash = blake3::Hasher::new();
    for (name, _) in &files {
        build_hash.update(name.as_bytes());
        build_hash.update(b"\n");
    }
    manifest.build_id = build_hash.finalize().to_hex()[..20].to_owned();
    files.push((MANIFEST_FILE.to_owned(), manifest.encode()));
    Ok(Export {
        manifest,
        partitions: Vec::new(),
        files,
        terms: term_count,
    })
}

/// Index files as (relative path, bytes).
pub(crate) type NamedFiles = Vec<(String, Vec<u8>)>;

/// The typo-tolerance files: every word of the site under each of its deletion keys, sorted by key and
/// cut into shards near `target_bytes` where the keys say (never inside one key's entries), each named
/// by its own bytes and first key, and their directory (returned first). `None` when the site has no words.
fn export_typos(counts: BTreeMap<&str, u64>, target_bytes: usize) -> Option<(String, NamedFiles)> {
    use aidocs_core::typos::{
        deletion_keys, frequency_bucket, TypoDirectory, TypoShard, TypoWord, TYPO_DIR,
    };
    if counts.is_empty() {
        return None;
    }
    // (key, word index): every word under each of its deletion keys.
    let words: Vec<(&str, u8)> = counts
        .into_iter()
        .map(|(w, n)| (w, frequency_bucket(n)))
        .collect();
    let mut entries: Vec<(String, usize)> = Vec::new();
    for (wi, (word, _)) in words.iter().enumerate() {
        entries.extend(deletion_keys(word).into_iter().map(|k| (k, wi)));
    }
    entries.sort_unstable();
    // Cut between keys near `target_bytes` of keys, where the keys say (content-defined: a new word
    // changes the shards of its own keys, and moves no other boundary); a shard holds the words of
    // its keys, each once.
    let mut cuts: Vec<(usize, usize)> = Vec::new(); // entry ranges
    let mut content_cuts = ContentCuts::new(target_bytes);
    let mut start = 0;
    let mut i = 0;
    while i < entries.len() {
        let key = &entries[i].0;
        let run = entries[i..].partition_point(|e| e.0 == *key);
        i += run;
        if content_cuts.end_after(key.as_bytes(), run * (key.len() + 2)) && i < entries.len() {
            cuts.push((start, i));
            start = i;
        }
    }
    cuts.push((start, entries.len()));
    let shards: Vec<TypoShard> = cuts
        .iter()
        .map(|&(a, b)| {
            let mut ids: Vec<usize> = entries[a..b].iter().map(|e| e.1).collect();
            ids.sort_unstable(); // word order (words are sorted)
            ids.dedup();
            TypoShard {
                words: ids
                    .into_iter()
                    .map(|wi| TypoWord {
                        word: words[wi].0.to_owned(),
                        frequency: words[wi].1,
                    })
                    .collect(),
            }
        })
        .collect();
    let separators: Vec<String> = cuts
        .windows(2)
        .map(|w| shortest_separator(&entries[w[0].1 - 1].0, &entries[w[1].0].0))
        .collect();
    // Each shard named by its own bytes and its first key (format v10): an edit renames only the
    // shards it changes, and two shards of the same words (possible: a word's keys may fall in two
    // ranges that hold nothing else) still get two names.
    let starts: Vec<&str> = cuts.iter().map(|&(a, _)| entries[a].0.as_str()).collect();
    let mut files: Vec<(String, Vec<u8>)> = (shards.par_iter().zip(starts.par_iter()))
        .map(|(s, start)| {
            let bytes = s.encode();
            let mut h = blake3::Hasher::new();
            h.update(blake3::hash(&bytes).as_bytes());
            h.update(start.as_bytes());
            (
                format!("{TYPO_DIR}/{}.bin", &h.finalize().to_hex()[..12]),
                bytes,
            )
        })
        .collect();
    let dir = TypoDirectory {
        shard_files: files.iter().map(|(n, _)| n.clone()).collect(),
        separators,
    };
    let bytes = dir.encode();
    let name = content_name("y", &bytes);
    files.push((name.clone(), bytes));
    Some((name, files))
}

/// What writing changed on disk.
#[derive(Debug, Default, Clone, Copy, serde::Serialize)]
pub struct WriteStats {
    pub files: usize,
    pub bytes: u64,
    /// Files that did not exist before this build (content changed).
    pub new_files: usize,
    pub removed_files: usize,
}

/// Writes the export into `out`: shards first, the manifest last (atomically, via rename), so a reader
/// never sees a manifest pointing at missing shards. Shards no longer referenced are removed unless
/// `keep_old` (for deployments where open sessions still use the previous manifest).
pub fn write(export: &Export, out: &Path, keep_old: bool) -> std::io::Result<WriteStats> {
    let mut stats = WriteStats::default();
    for dir in INDEX_DIRS {
        std::fs::create_dir_all(out.join(dir))?;
    }
    // Two different files under one content-hashed name would silently lose one of them.
    let mut seen: std::collections::HashMap<&str, &[u8]> = std::collections::HashMap::new();
    for (name, bytes) in &export.files {
        if seen
            .insert(name, bytes)
            .is_some_and(|other| other != bytes.as_slice())
        {
            return Err(std::io::Error::other(format!(
                "two different index files hash to the name {name}; rebuild with a different --shard-size"
            )));
        }
    }
    // Shards on every core (creating thousands of files is much of a cold build's time), then the
    // manifest, so that no reader sees a manifest naming a shard not yet written.
    // Each name once (a multilingual site's languages share identical files).
    let unique: Vec<(&str, &[u8])> = seen.into_iter().collect();
    let shards = (unique.par_iter())
        .filter(|(name, _)| *name != MANIFEST_FILE)
        .map(|&(name, bytes)| -> std::io::Result<usize> {
            let path = out.join(name);
            if path.is_file()
                && std::fs::metadata(&path)?.len() == bytes.len() as u64
                && std::fs::read(&path)? == bytes
            {
                return Ok(0); // content-hashed: same name, same bytes
            }
            std::fs::write(&path, bytes)?;
            Ok(1)
        })
        .collect::<std::io::Result<Vec<usize>>>()?;
    stats.new_files += shards.iter().sum::<usize>();
    for (name, bytes) in &export.files {
        stats.files += 1;
        stats.bytes += bytes.len() as u64;
        if name == MANIFEST_FILE {
            let path = out.join(name);
            if std::fs::read(&path).ok().as_deref() != Some(bytes.as_slice()) {
                stats.new_files += 1;
            }
            let tmp = out.join(".manifest.bin.tmp");
            std::fs::write(&tmp, bytes)?;
            std::fs::rename(&tmp, &path)?;
        }
    }
    if !keep_old {
        let wanted: BTreeSet<&str> = export.files.iter().map(|(n, _)| n.as_str()).collect();
        for dir in INDEX_DIRS {
            for entry in std::fs::read_dir(out.join(dir))? {
                let entry = entry?;
                let name = format!("{dir}/{}", entry.file_name().to_string_lossy());
                if name.ends_with(".bin") && !wanted.contains(name.as_str()) {
                    std::fs::remove_file(entry.path())?;
                    stats.removed_files += 1;
                }
            }
        }
    }
    Ok(stats)
}
