//! Issue 25: chunk vectors are cached by model and text in one place per site and visibility level,
//! so a second output of the same site (`build --search-box`, `demo`, another `--out`) embeds
//! nothing, while another visibility level never shares them. Its own test binary: it points the
//! default caches (`AIDOCS_CACHE_DIR`) at a temporary directory.

use aidocs_e2e::{build_with, copy_dir, files, fixture, model_available};
use aidocs_index::build::{default_cache_dir, default_embeddings_dir, Embeddings};
use aidocs_index::{BuildOptions, Visibility};

fn embedding_files(dir: &std::path::Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("embeddings-"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn issue_25_outputs_of_one_site_share_its_vectors() {
    let tmp = tempfile::tempdir().unwrap();
    let caches = tmp.path().join("caches");
    std::env::set_var("AIDOCS_CACHE_DIR", &caches);
    let site = tmp.path().join("site");
    copy_dir(&fixture("example-site"), &site);
    let (a, b) = (tmp.path().join("www-a/out"), tmp.path().join("www-b/out"));

    // Where the caches go, without the model: per output for the index, per site and audience for
    // the vectors, never under the served directories.
    let opts_a = BuildOptions::new(&site, &a);
    let opts_b = BuildOptions::new(&site, &b);
    let mut internal = BuildOptions::new(&site, &a);
    internal.audience = Visibility::Internal;
    assert_ne!(default_cache_dir(&opts_a), default_cache_dir(&opts_b));
    assert_eq!(
        default_embeddings_dir(&opts_a),
        default_embeddings_dir(&opts_b)
    );
    assert_ne!(
        default_embeddings_dir(&opts_a),
        default_embeddings_dir(&internal)
    );
    assert!(default_embeddings_dir(&opts_a).starts_with(&caches));

    if !model_available() {
        return;
    }
    let build = |out: &std::path::Path, audience: Visibility| {
        build_with(&site, out, &caches.join("unused"), |o| {
            o.cache_dir = None; // the defaults under test
            o.audience = audience;
            o.embeddings = Embeddings::Require;
            o.llms_txt = false;
        })
    };
    let first = build(&a, Visibility::Public);
    assert!(first.chunks_embedded > 0, "{first:?}");
    let second = build(&b, Visibility::Public);
    assert_eq!(second.chunks_embedded, 0, "the second output re-embedded");
    assert_eq!(files(&a), files(&b), "the same site gives the same index");
    let shared = default_embeddings_dir(&opts_a);
    assert_eq!(embedding_files(&shared).len(), 1);
    // The per-output caches hold no vectors.
    assert!(embedding_files(&default_cache_dir(&opts_a)).is_empty());
    assert!(embedding_files(&default_cache_dir(&opts_b)).is_empty());
    // A page withdrawn: the next build of either output prunes its vectors from the shared cache.
    let vectors = shared.join(&embedding_files(&shared)[0]);
    let before = std::fs::metadata(&vectors).unwrap().len();
    std::fs::remove_file(site.join("guides/refresh-tokens.mdx")).unwrap();
    let pruned = build(&b, Visibility::Public);
    assert_eq!(pruned.pages_removed, 1);
    assert!(std::fs::metadata(&vectors).unwrap().len() < before);
    // Another visibility level embeds its own, elsewhere.
    let c = tmp.path().join("www-c/out");
    let third = build(&c, Visibility::Internal);
    assert!(third.chunks_embedded > 0, "{third:?}");
    let mut internal_c = BuildOptions::new(&site, &c);
    internal_c.audience = Visibility::Internal;
    assert_eq!(
        embedding_files(&default_embeddings_dir(&internal_c)).len(),
        1
    );
}
