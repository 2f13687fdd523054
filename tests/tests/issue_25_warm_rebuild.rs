//! Issue 25: a warm rebuild with nothing changed exports nothing, and anything that changes the
//! output (a page, an option, a file missing from the output, another build's files in it) makes the
//! build export again: the output is always what a cold build of the same input writes.

use aidocs_e2e::{build_with, copy_dir, files, fixture};
use aidocs_index::export::ShardSizes;

#[test]
fn issue_25_a_warm_rebuild_with_nothing_changed_exports_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    copy_dir(&fixture("example-site"), &site);
    let out = tmp.path().join("www/out");
    let cache = tmp.path().join("cache");
    let lexical = |o: &mut aidocs_index::BuildOptions| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    };
    let cold = |name: &str, adjust: &dyn Fn(&mut aidocs_index::BuildOptions)| {
        let out = tmp.path().join(format!("www-{name}/out"));
        build_with(
            &site,
            &out,
            &tmp.path().join(format!("cache-{name}")),
            |o| {
                lexical(o);
                adjust(o);
            },
        );
        files(&out)
    };

    let first = build_with(&site, &out, &cache, lexical);
    let again = build_with(&site, &out, &cache, lexical);
    // The same summary, without a file written or compared.
    assert_eq!(again.pages_parsed, 0);
    assert_eq!(again.output.new_files, 0);
    assert_eq!(
        (again.output.files, again.output.bytes, again.term_shards),
        (first.output.files, first.output.bytes, first.term_shards)
    );
    assert_eq!(
        (again.pages, again.chunks, again.terms),
        (first.pages, first.chunks, first.terms)
    );
    assert_eq!(files(&out), cold("a", &|_| {}));

    // Another build's shard in the output (an interrupted build from another cache, say): a cold
    // build would remove it, so the warm one does not skip.
    let foreign = out.join("x/000000000000.bin");
    std::fs::write(&foreign, b"another build's text").unwrap();
    let cleaned = build_with(&site, &out, &cache, lexical);
    assert!(cleaned.output.removed_files >= 1, "{:?}", cleaned.output);
    assert!(!foreign.exists());
    // llms-full.txt changed in place, at the same size: written again.
    let full = out.join("llms-full.txt");
    let text = std::fs::read_to_string(&full).unwrap();
    std::fs::write(&full, text.to_uppercase()).unwrap();
    build_with(&site, &out, &cache, lexical);
    assert_eq!(std::fs::read_to_string(&full).unwrap(), text);
    // A shard damaged in place (zeros, the same size): written again.
    let shard = files(&out)
        .into_iter()
        .find(|(n, _)| n.starts_with("m/"))
        .unwrap();
    std::fs::write(out.join(&shard.0), vec![0u8; shard.1.len()]).unwrap();
    build_with(&site, &out, &cache, lexical);
    assert_eq!(std::fs::read(out.join(&shard.0)).unwrap(), shard.1);
    assert_eq!(files(&out), cold("a", &|_| {}));

    // A file gone from the output: written again.
    let victim = files(&out)
        .into_iter()
        .map(|(n, _)| n)
        .find(|n| n.starts_with("t/"))
        .unwrap();
    std::fs::remove_file(out.join(&victim)).unwrap();
    let restored = build_with(&site, &out, &cache, lexical);
    assert_eq!(restored.output.new_files, 1);
    assert!(out.join(&victim).is_file());

    // An option that changes the output: exported again, as a cold build with it.
    let small = |o: &mut aidocs_index::BuildOptions| {
        o.sizes = ShardSizes {
            term_bytes: 500,
            ..ShardSizes::default()
        };
    };
    let resized = build_with(&site, &out, &cache, |o| {
        lexical(o);
        small(o);
    });
    assert!(resized.output.new_files > 0);
    assert_eq!(files(&out), cold("b", &small));

    // Another build's files in the output (another cache wrote there): exported again.
    let other_cache = tmp.path().join("cache-other");
    build_with(&site, &out, &other_cache, |o| {
        lexical(o);
        o.llms_txt = false;
    });
    let back = build_with(&site, &out, &cache, |o| {
        lexical(o);
        small(o);
    });
    assert!(back.output.new_files > 0);
    assert_eq!(files(&out), cold("b", &small));

    // The navigation reordered (no page text changed): llms.txt follows it.
    let docs = site.join("docs.json");
    let nav = std::fs::read_to_string(&docs).unwrap();
    let swapped = nav.replacen(
        "[\"index\", \"quickstart\"]",
        "[\"quickstart\", \"index\"]",
        1,
    );
    assert_ne!(swapped, nav);
    std::fs::write(&docs, &swapped).unwrap();
    let llms_before = std::fs::read_to_string(out.join("llms.txt")).unwrap();
    build_with(&site, &out, &cache, |o| {
        lexical(o);
        small(o);
    });
    assert_ne!(
        std::fs::read_to_string(out.join("llms.txt")).unwrap(),
        llms_before
    );
    assert_eq!(files(&out), cold("c", &small));
}
