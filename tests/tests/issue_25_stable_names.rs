//! Issue 25: an edit renames only the files whose bytes it changes. Random sites of many small
//! shards; one page gets a sentence appended; the second (warm) build's new file names are checked
//! against what the edit reaches: the page's own text and metadata, the term and position shards
//! holding a posting of its chunks, the typo shards holding a word of the sentence (most of its
//! words are new to the site). Boundaries are
//! content-defined, so a changed shard may move its own end and, rarely, its neighbour's; cutting
//! at running byte counts (before issue 25) renamed every later shard, and naming the position and
//! typo shards by one hash for them all renamed every one of them.
//! The tables are paged (format v11, small directory pages): a renamed directory page must name a
//! renamed shard.
//! CI runs a fixed seed and budget; `AIDOCS_PROPTEST_CASES=N` and `AIDOCS_PROPTEST_SEED=S` run more.

mod fixed_seed;

use std::collections::BTreeSet;
use std::path::Path;

use aidocs_core::format::{DirectoryPage, Manifest, MetaShard, TermShard, MANIFEST_FILE};
use aidocs_core::typos::{TypoDirectory, TypoShard};
use aidocs_e2e::{build_with, files};
use aidocs_index::export::{ShardSizes, TablePaging, TermFilters};
use proptest::prelude::*;

const SYLLABLES: [&str; 12] = [
    "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "do", "gu",
];

/// A letters-only word (so that the typo index keeps it) from three syllables.
fn word(i: usize) -> String {
    (0..3)
        .map(|k| SYLLABLES[(i / 12usize.pow(k)) % 12])
        .collect()
}

/// `pages` pages of two sections each, their words drawn from `draws`.
fn write_site(dir: &Path, pages: usize, draws: &[usize]) {
    std::fs::create_dir_all(dir).unwrap();
    let mut k = 0;
    let mut next = |n: usize| -> String {
        let ws: Vec<String> = (0..n)
            .map(|_| {
                k += 1;
                word(draws[k % draws.len()] % 600)
            })
            .collect();
        ws.join(" ")
    };
    for p in 0..pages {
        let text = format!(
            "---\ntitle: Page {p} {}\n---\n\n{}.\n\n## {}\n\n{}.\n",
            next(2),
            next(30),
            next(2),
            next(40)
        );
        std::fs::write(dir.join(format!("p{p}.mdx")), text).unwrap();
    }
}

/// The second build's files that the first did not have (new names), by path.
fn new_names(a: &Path, b: &Path) -> BTreeSet<String> {
    let before: BTreeSet<String> = files(a).into_iter().map(|(n, _)| n).collect();
    (files(b).into_iter().map(|(n, _)| n))
        .filter(|n| !before.contains(n))
        .collect()
}

fn check(pages: usize, draws: Vec<usize>, edited: usize, sentence: Vec<usize>) {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    write_site(&site, pages, &draws);
    let small = |o: &mut aidocs_index::BuildOptions| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
        o.llms_txt = false;
        o.sizes = ShardSizes {
            term_bytes: 300,
            meta_bytes: 300,
            filters: TermFilters::Never,
            tables: TablePaging::Always,
            directory_bytes: 96,
        };
    };
    let cache = tmp.path().join("cache");
    let (a, b) = (tmp.path().join("www-a/out"), tmp.path().join("www-b/out"));
    let first = build_with(&site, &a, &cache, small);
    // A sentence of known words and one the site never had, appended to one page's last section.
    let added: Vec<String> = (sentence.iter().map(|&i| word(i % 600)))
        .chain(["quendrixal".to_owned()])
        .collect();
    let page = site.join(format!("p{edited}.mdx"));
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str(&format!("\n{}.\n", added.join(" ")));
    std::fs::write(&page, text).unwrap();
    let second = build_with(&site, &b, &cache, small);
    assert_eq!(second.pages_parsed, 1);
    assert!(first.term_shards > 20, "{first:?}");

    let new = new_names(&a, &b);
    let read = |name: &str| std::fs::read(b.join(name)).unwrap();
    let mut manifest = Manifest::decode(&read(MANIFEST_FILE)).unwrap();
    // The tables from their directory pages; each renamed page names a renamed shard.
    let searcher = aidocs_core::Searcher::new(manifest.clone()).unwrap();
    let mut renamed_pages = 0;
    for f in searcher.directory_pages() {
        let name = searcher.file_name(f, None, None).unwrap();
        let (page, _) = searcher.open_file(f, &name, &read(&name), None).unwrap();
        if !new.contains(&name) {
            continue;
        }
        renamed_pages += 1;
        let files: Vec<String> = match page {
            aidocs_core::Shard::Directory(d) => match d.as_ref() {
                DirectoryPage::Terms(e) => e.iter().map(|e| e.file.clone()).collect(),
                DirectoryPage::Meta(e) => e.iter().map(|e| e.file.clone()).collect(),
            },
            _ => unreachable!("a directory page"),
        };
        assert!(
            files.iter().any(|f| new.contains(f)),
            "{name} renamed, naming no renamed shard"
        );
    }
    assert!(renamed_pages >= 2, "a term page and a metadata page");
    (manifest.term_shards, manifest.meta_shards) = searcher.whole_tables().unwrap();
    // The edited page's chunks, from its metadata.
    let mut chunk = 0u32;
    let mut chunks = None;
    for entry in &manifest.meta_shards {
        let meta = MetaShard::decode(&read(&entry.file)).unwrap();
        for p in &meta.pages {
            let n = p.chunks.len() as u32;
            if p.url.ends_with(&format!("/p{edited}")) {
                chunks = Some(chunk..chunk + n);
            }
            chunk += n;
        }
    }
    let chunks = chunks.expect("the edited page is indexed");
    // Same sections before and after (the sentence joins the last one): no ordinal moved.
    assert_eq!(first.chunks, second.chunks);

    let (mut touched, mut untouched) = (0, 0);
    for (i, entry) in manifest.term_shards.iter().enumerate() {
        if !new.contains(&entry.file) {
            continue;
        }
        let shard = TermShard::decode(&read(&entry.file), manifest.num_chunks).unwrap();
        let reached =
            (shard.terms.iter().flat_map(|t| &t.postings)).any(|p| chunks.contains(&p.chunk));
        if reached {
            touched += 1;
        } else {
            untouched += 1;
        }
        // A position shard is renamed with its term shard, never alone.
        let positions = manifest.positions_file(i).unwrap();
        assert!(
            new.contains(&positions),
            "{positions} kept beside renamed {}",
            entry.file
        );
    }
    let renamed_positions = new.iter().filter(|n| n.starts_with("p/")).count();
    assert_eq!(renamed_positions, touched + untouched);
    assert!(touched >= 1);
    // A changed shard may move its end, and so its neighbour's start (likelier the smaller the
    // shards: here 300 bytes, 4 KB in a real build): never a run of later shards.
    assert!(
        untouched <= 2 + touched / 2,
        "{untouched} term shards renamed that hold nothing of the edited page ({touched} do)"
    );

    let dir_name = manifest.typos.clone().unwrap();
    let dir = TypoDirectory::decode(&read(&dir_name)).unwrap();
    let (mut typo_touched, mut typo_untouched) = (0, 0);
    for f in &dir.shard_files {
        if !new.contains(f) {
            continue;
        }
        let shard = TypoShard::decode(&read(f)).unwrap();
        if shard.words.iter().any(|w| added.contains(&w.word)) {
            typo_touched += 1;
        } else {
            typo_untouched += 1;
        }
    }
    // Typo shards are cut between deletion keys, and a new word's keys land in many shards at once
    // (each may move its end): looser than the term shards, never a run of every later shard (all
    // of them were renamed before issue 25).
    assert!(
        typo_untouched <= 2 + typo_touched,
        "{typo_untouched} typo shards renamed without a word of the sentence ({typo_touched} with)"
    );
    let count = |dir: &str| new.iter().filter(|n| n.starts_with(dir)).count();
    assert!(count("m/") <= 2, "metadata shards renamed: {new:?}");
    assert_eq!(count("x/"), 1, "the page's own text file");
    let accounted = touched + untouched + renamed_positions + typo_touched + typo_untouched + 1;
    let rest = new.len() - accounted - count("m/") - count("x/") - renamed_pages;
    assert_eq!(rest, 0, "unexpected renames: {new:?}");
}

#[test]
fn issue_25_one_edited_page_renames_only_what_it_changes() {
    let (mut runner, _, _) = fixed_seed::runner(6, 25);
    runner
        .run(
            &(
                60..120usize,
                prop::collection::vec(0..10_000usize, 200..400),
                0..60usize,
                prop::collection::vec(0..10_000usize, 3..8),
            ),
            |(pages, draws, edited, sentence)| {
                check(pages, draws, edited % pages, sentence);
                Ok(())
            },
        )
        .unwrap();
}
