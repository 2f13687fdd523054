//! Issue 20: `eval` reports its metrics by the length of the page that answers, so that a regression
//! on long pages shows.

use std::collections::HashMap;

use aidocs_e2e::{fixture, lexical_index};

#[test]
fn issue_20_eval_reports_metrics_by_the_answering_pages_length() {
    let (_tmp, index) = lexical_index(&fixture("example-site"));
    let sections: HashMap<String, usize> = (0..index.searcher.manifest().meta_shards.len())
        .flat_map(|i| index.meta_shard(i).unwrap().pages.clone())
        .map(|p| (p.id, p.chunks.len()))
        .collect();
    let queries: Vec<(String, String)> = [
        ("q1", "renew my credentials"),
        ("q2", "install the sdk"),
        ("q3", "getUserById"),
        ("q4", "a page the index does not have"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let gold = [
        ("q1", "guides/refresh-tokens"),
        ("q2", "quickstart"),
        ("q3", "api/getUserById"),
        ("q4", "no/such-page"),
    ];
    let qrels: HashMap<String, HashMap<String, u32>> = gold
        .iter()
        .map(|(q, d)| (q.to_string(), HashMap::from([(d.to_string(), 1)])))
        .collect();
    let report =
        aidocs_reader::eval::evaluate(&index, &queries, &qrels, &Default::default(), None).unwrap();
    assert_eq!(report.queries, 4);
    let total: usize = report.by_page_length.iter().map(|b| b.queries).sum();
    assert_eq!(total, 4, "{:?}", report.by_page_length);
    let bucket = |n: usize| match n {
        0..=1 => "1",
        2..=4 => "2-4",
        5..=15 => "5-15",
        _ => "16+",
    };
    let mut expected: HashMap<&str, usize> = HashMap::from([("absent", 1)]);
    for (_, d) in &gold[..3] {
        *expected.entry(bucket(sections[*d])).or_default() += 1;
    }
    let got: HashMap<&str, usize> = report
        .by_page_length
        .iter()
        .map(|b| (b.sections, b.queries))
        .collect();
    assert_eq!(got, expected);
    // The bucket of the query the index cannot answer scores nothing.
    let absent = report
        .by_page_length
        .iter()
        .find(|b| b.sections == "absent")
        .unwrap();
    assert_eq!((absent.ndcg_at_10, absent.recall_at_10), (0.0, 0.0));
}
