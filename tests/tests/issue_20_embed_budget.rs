//! Issue 20: a large site's first build bounded by an embedding budget (`--embed-budget`). Each build
//! embeds at most that many chunks, the rest searching by their section heading's vector meanwhile;
//! builds again embed the next ones, and once all are embedded the index is byte for byte the one a
//! build without a budget writes.

use aidocs_e2e::{build_with, files, fixture, model_available};
use aidocs_index::build::Embeddings;

#[test]
fn issue_20_an_embedding_budget_converges_to_the_index_of_a_build_without_one() {
    if !model_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let site = fixture("example-site");
    // The output under a directory of its own (which may be served), the cache beside it.
    let out = |name: &str| tmp.path().join(name).join("out");
    let build = |name: &str, budget: Option<usize>| {
        build_with(
            &site,
            &out(name),
            &tmp.path().join(format!("{name}-cache")),
            |o| {
                o.embeddings = Embeddings::Require;
                o.embed_budget = budget;
            },
        )
    };
    let whole = build("whole", None);
    assert_eq!(whole.chunks_embedded, whole.chunks);
    assert_eq!(whole.chunks_deferred, 0);
    assert!(whole.chunk_tokens_embedded > whole.chunks, "{whole:?}");
    let reference = files(&out("whole"));

    const BUDGET: usize = 5;
    assert!(
        whole.chunks > 2 * BUDGET,
        "the fixture is too small for the test"
    );
    let mut left = whole.chunks;
    for round in 1.. {
        let s = build("budgeted", Some(BUDGET));
        assert_eq!(s.chunks_embedded, BUDGET.min(left), "round {round}: {s:?}");
        left -= s.chunks_embedded;
        assert_eq!(s.chunks_deferred, left, "round {round}");
        let got = files(&out("budgeted"));
        if left == 0 {
            assert!(got == reference, "round {round}: not the unbudgeted index");
            break;
        }
        // Deferred chunks search by other vectors: another index, but a whole one.
        assert!(got != reference, "round {round}");
        assert_eq!(s.chunks, whole.chunks);
    }
    // Nothing left: a build with a budget embeds nothing and writes the same index.
    let again = build("budgeted", Some(BUDGET));
    assert_eq!((again.chunks_embedded, again.chunks_deferred), (0, 0));
    assert!(files(&out("budgeted")) == reference);
}
