//! Issue 2: our BM25 over one field equals tantivy's own BM25 scorer on the same field (SciFact).
//!
//! Both sides use k1 = 1.2, b = 0.75, tantivy's 1-byte field norms and its idf. Remaining differences
//! come from page aggregation (a page's score is its best chunk; a few SciFact abstracts are split into
//! two chunks) and f32 rounding in near ties.

use std::collections::HashMap;

use aidocs_core::{Bm25Params, SearchOptions};
use aidocs_e2e::{build, shared_data};
use aidocs_index::tantivy_cache::{BuildIndex, StoredChunk};
use aidocs_index::Visibility;
use aidocs_reader::LocalIndex;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{IndexRecordOption, Value};
use tantivy::{TantivyDocument, Term};

#[test]
fn issue_2_bm25_matches_tantivy_scorer_on_scifact() {
    let Some(docs) = shared_data("scifact/docs.jsonl") else {
        return;
    };
    let Some(queries) = shared_data("scifact/queries.jsonl") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (out, cache) = (tmp.path().join("www/out"), tmp.path().join("cache"));
    build(&docs, &out, &cache, Visibility::Public);
    let ours = LocalIndex::open(&out).unwrap();
    let bi = BuildIndex::open(&cache).unwrap();
    let reader = bi.index.reader().unwrap();
    let searcher = reader.searcher();
    let body = bi.fields.text[aidocs_core::Field::Body as usize];
    let analyzer = aidocs_core::Analyzer::english();

    let opts = SearchOptions {
        k: 10,
        params: Some(Bm25Params {
            k1: 1.2,
            b: 0.75,
            weights: [0.0, 0.0, 1.0, 0.0],
        }),
        // Tantivy scores chunks: a page by its best one, without the whole page's evidence.
        page: aidocs_core::search::PageParams {
            weight: 0.0,
            ..Default::default()
        },
        ..Default::default()
    };
    let queries = aidocs_reader::eval::read_queries(&queries).unwrap();
    let (mut same_top10, mut same_top1, mut total) = (0usize, 0usize, 0usize);
    let mut max_rel_diff = 0f64;
    for (_, text) in queries.iter() {
        // Our identifier boost is not part of plain BM25: compare on queries without identifiers.
        let tokens = analyzer.analyze(text);
        if tokens
            .iter()
            .any(|t| t.kind != aidocs_core::TokenKind::Word)
            || tokens.is_empty()
        {
            continue;
        }
        let mut terms: Vec<String> = tokens.into_iter().map(|t| t.text).collect();
        terms.sort();
        terms.dedup();
        let clauses: Vec<(Occur, Box<dyn Query>)> = terms
            .iter()
            .map(|t| {
                (
                    Occur::Should,
                    Box::new(TermQuery::new(
                        Term::from_field_text(body, t),
                        IndexRecordOption::WithFreqs,
                    )) as Box<dyn Query>,
                )
            })
            .collect();
        let top = searcher
            .search(
                &BooleanQuery::new(clauses),
                &TopDocs::with_limit(50).order_by_score(),
            )
            .unwrap();
        let mut best: HashMap<String, f32> = HashMap::new();
        for (score, addr) in top {
            let d: TantivyDocument = searcher.doc(addr).unwrap();
            let blob = d
                .get_first(bi.fields.data)
                .and_then(|v| v.as_str())
                .unwrap()
                .to_owned();
            let c: StoredChunk = serde_json::from_str(&blob).unwrap();
            let e = best.entry(c.page.id).or_insert(score);
            *e = e.max(score);
        }
        let mut theirs: Vec<(String, f32)> = best.into_iter().collect();
        theirs.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        theirs.truncate(10);
        let mine = ours.search(text, &opts).unwrap();
        total += 1;
        let mine_ids: Vec<&str> = mine.iter().map(|r| r.id.as_str()).collect();
        let their_ids: Vec<&str> = theirs.iter().map(|(id, _)| id.as_str()).collect();
        if mine_ids == their_ids {
            same_top10 += 1;
        }
        if mine_ids.first() == their_ids.first() {
            same_top1 += 1;
            if let (Some(m), Some(t)) = (mine.first(), theirs.first()) {
                max_rel_diff = max_rel_diff.max(((m.score - t.1) as f64 / t.1 as f64).abs());
            }
        }
    }
    eprintln!("tantivy parity: {same_top10}/{total} identical top-10, {same_top1}/{total} identical top-1, max relative top-1 score difference {max_rel_diff:.2e}");
    assert!(total >= 300, "too few comparable queries: {total}");
    assert!(
        same_top10 as f64 >= 0.9 * total as f64,
        "{same_top10}/{total} identical top-10"
    );
    assert!(same_top1 as f64 >= 0.97 * total as f64);
    assert!(max_rel_diff < 1e-4, "scores differ by {max_rel_diff}");
}
