//! Issue 2: the same input gives byte-identical shards; a warm rebuild equals a cold one; editing one
//! page re-parses one page and rewrites few files.

use aidocs_e2e::{build, build_with, files, fixture};
use aidocs_index::export::ShardSizes;
use aidocs_index::Visibility;

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn issue_2_two_builds_are_byte_identical() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
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
    let out = tmp.path().join("out");
    let cache = tmp.path().join("cache");
    // Small shards, so that an edit can leave most files untouched.
    let small = |o: &mut aidocs_index::BuildOptions| {
        o.sizes = ShardSizes {
            term_bytes: 400,
            meta_bytes: 600,
            filters: aidocs_index::export::TermFilters::Always,
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
    let cold = tmp.path().join("cold");
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
