//! Issue 2: the same input gives byte-identical shards; a warm rebuild equals a cold one; editing one
//! page re-parses one page and rewrites few files.

use aidocs_e2e::{build, build_with, copy_dir, files, fixture};
use aidocs_index::export::ShardSizes;
use aidocs_index::Visibility;

#[test]
fn issue_2_two_builds_are_byte_identical() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("www-a/out");
    let b = tmp.path().join("www-b/out");
    build(
        &fixture("example-site"),
        &a,
        &tmp.path().join("ca"),
        Visibility::Public,
    );
    build(
        &fixture("example-site"),
        &b,
        &tmp.path().join("cb"),
        Visibility::Public,
    );
    let (fa, fb) = (files(&a), files(&b));
    assert!(!fa.is_empty());
    assert_eq!(fa, fb, "two cold builds differ");
}

#[test]
fn issue_2_incremental_rebuild_matches_cold_build_and_touches_little() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("example-site"), &site);
    let out = tmp.path().join("www/out");
    let cache = tmp.path().join("cache");
    // Small shards, so that an edit can leave most files untouched.
    let small = |o: &mut aidocs_index::BuildOptions| {
        o.sizes = ShardSizes {
            term_bytes: 400,
            meta_bytes: 600,
            filters: aidocs_index::export::TermFilters::Always,
            ..Default::default()
        }
    };
    let build = |site: &std::path::Path,
                 out: &std::path::Path,
                 cache: &std::path::Path,
                 _: Visibility| build_with(site, out, cache, small);
    let first = build(&site, &out, &cache, Visibility::Public);
    assert!(first.term_shards > 3 && first.meta_shards > 3, "{first:?}");
    let again = build(&site, &out, &cache, Visibility::Public);
    assert_eq!(again.pages_parsed, 0, "an unchanged site re-parses nothing");
    assert_eq!(again.output.new_files, 0);
    assert_eq!(first.pages, again.pages);

    let page = site.join("guides/refresh-tokens.mdx");
    let text = std::fs::read_to_string(&page)
        .unwrap()
        .replace("one hour", "fifteen minutes");
    std::fs::write(&page, text).unwrap();
    let edited = build(&site, &out, &cache, Visibility::Public);
    assert_eq!(edited.pages_parsed, 1);
    assert!(
        edited.output.new_files >= 2 && edited.output.new_files < edited.output.files,
        "{:?}",
        edited.output
    );

    // The warm, edited build equals a cold build of the edited site.
    let cold = tmp.path().join("www-cold/out");
    build(&site, &cold, &tmp.path().join("cache2"), Visibility::Public);
    let names = |d: &std::path::Path| {
        files(d)
            .into_iter()
            .map(|(n, b)| (n, b.len()))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&out), names(&cold));
    assert_eq!(files(&out), files(&cold));

    // Removing a page removes it from the index.
    std::fs::remove_file(site.join("guides/html-safety.mdx")).unwrap();
    let removed = build(&site, &out, &cache, Visibility::Public);
    assert_eq!(removed.pages, first.pages - 1);
    assert_eq!(removed.pages_removed, 1);
}

/// Issue 6: a multilingual site written as one index per language is deterministic too, and an
/// edit to a French page leaves the English and Chinese indexes' files untouched (readers of those
/// languages keep every file they cached).
#[test]
fn issue_6_language_partitions_are_deterministic_and_edited_one_at_a_time() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("multilingual-site"), &site);
    let build_lexical = |out: &std::path::Path, cache: &str| {
        build_with(&site, out, &tmp.path().join(cache), |o| {
            o.embeddings = aidocs_index::build::Embeddings::Off;
        })
    };
    let (a, b) = (tmp.path().join("www-a/out"), tmp.path().join("www-b/out"));
    let summary = build_lexical(&a, "ca");
    build_lexical(&b, "cb");
    assert_eq!(files(&a), files(&b), "two cold builds differ");
    let langs: Vec<&str> = summary
        .partitions
        .iter()
        .map(|p| p.language.as_str())
        .collect();
    assert_eq!(langs, ["en", "fr", "zh"]);
    let manifest_of = |s: &aidocs_index::BuildSummary, lang: &str| {
        s.partitions
            .iter()
            .find(|p| p.language == lang)
            .map(|p| p.manifest.clone())
            .unwrap()
    };

    let page = site.join("fr/custom-domain.mdx");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, text.replace("48 heures", "72 heures")).unwrap();
    let edited = build_lexical(&a, "ca");
    assert_eq!(edited.pages_parsed, 1);
    assert_ne!(manifest_of(&edited, "fr"), manifest_of(&summary, "fr"));
    for lang in ["en", "zh"] {
        assert_eq!(
            manifest_of(&edited, lang),
            manifest_of(&summary, lang),
            "{lang}"
        );
    }
    // Every file of the English and Chinese indexes is still there, byte for byte.
    let before: std::collections::BTreeMap<String, Vec<u8>> = files(&b).into_iter().collect();
    let after: std::collections::BTreeMap<String, Vec<u8>> = files(&a).into_iter().collect();
    for lang in ["en", "zh"] {
        let index = aidocs_reader::LocalIndex::open_language(&b, Some(lang)).unwrap();
        let (terms, metas) = index.searcher.whole_tables().unwrap();
        let mut names: Vec<String> = terms.iter().map(|t| t.file.clone()).collect();
        names.extend(metas.iter().map(|s| s.file.clone()));
        names.push(manifest_of(&summary, lang));
        for name in names {
            assert_eq!(after.get(&name), before.get(&name), "{lang}: {name}");
        }
    }
}
