//! Issue 20: `eval` reports its metrics by the length of the page that answers, so that a regression
//! on long pages shows.

use std::collections::HashMap;

use aidocs_e2e::{fixture, lexical_index};

/// The judged page of each test query; q4's is not in the index.
const GOLD: [(&str, &str); 4] = [
    ("q1", "guides/refresh-tokens"),
    ("q2", "quickstart"),
    ("q3", "api/getUserById"),
    ("q4", "no/such-page"),
];

fn qrels() -> HashMap<String, HashMap<String, u32>> {
    GOLD.iter()
        .map(|(q, d)| (q.to_string(), HashMap::from([(d.to_string(), 1)])))
        .collect()
}

#[test]
fn issue_20_eval_reports_metrics_by_the_answering_pages_length() {
    let (_tmp, index) = lexical_index(&fixture("example-site"));
    let sections: HashMap<String, usize> = (0..index.searcher.meta_shard_count())
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
    let qrels = qrels();
    let report = aidocs_reader::eval::evaluate(
        &index,
        &queries,
        &qrels,
        &Default::default(),
        None,
        &HashMap::new(),
    )
    .unwrap();
    assert_eq!(report.queries, 4);
    let total: usize = report
        .by_page_length
        .iter()
        .map(|b| b.metrics.queries)
        .sum();
    assert_eq!(total, 4, "{:?}", report.by_page_length);
    let bucket = |n: usize| match n {
        0..=1 => "1",
        2..=4 => "2-4",
        5..=15 => "5-15",
        _ => "16+",
    };
    let mut expected: HashMap<&str, usize> = HashMap::from([("absent", 1)]);
    for (_, d) in &GOLD[..3] {
        *expected.entry(bucket(sections[*d])).or_default() += 1;
    }
    let got: HashMap<&str, usize> = report
        .by_page_length
        .iter()
        .map(|b| (b.sections, b.metrics.queries))
        .collect();
    assert_eq!(got, expected);
    // The bucket of the query the index cannot answer scores nothing.
    let absent = report
        .by_page_length
        .iter()
        .find(|b| b.sections == "absent")
        .unwrap();
    assert_eq!(
        (absent.metrics.ndcg_at_10, absent.metrics.recall_at_10),
        (0.0, 0.0)
    );
    assert!(report.by_category.is_empty());
}

/// Queries labelled by category are reported per category, each group's means from its own queries.
#[test]
fn issue_20_eval_reports_metrics_by_query_category() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("queries.jsonl");
    std::fs::write(
        &file,
        concat!(
            r#"{"id":"q1","text":"renew my credentials","category":"question","split":"dev"}"#,
            "\n",
            r#"{"id":"q2","text":"install the sdk","category":"question","split":"train"}"#,
            "\n",
            r#"{"id":"q3","text":"getUserById","category":"identifier","split":"dev"}"#,
            "\n",
            r#"{"id":"q4","text":"a page the index does not have"}"#,
            "\n",
        ),
    )
    .unwrap();
    let labelled = aidocs_reader::eval::read_labelled_queries(&file).unwrap();
    assert_eq!(labelled[0].split.as_deref(), Some("dev"));
    assert_eq!(labelled[3].category, None);
    let categories: HashMap<String, String> = labelled
        .iter()
        .filter_map(|q| Some((q.id.clone(), q.category.clone()?)))
        .collect();
    let queries: Vec<(String, String)> = labelled
        .iter()
        .map(|q| (q.id.clone(), q.text.clone()))
        .collect();
    let (_tmp, index) = lexical_index(&fixture("example-site"));
    let qrels = qrels();
    let opts = Default::default();
    let report =
        aidocs_reader::eval::evaluate(&index, &queries, &qrels, &opts, None, &categories).unwrap();
    let got: Vec<(&str, usize)> = report
        .by_category
        .iter()
        .map(|c| (c.category.as_str(), c.metrics.queries))
        .collect();
    assert_eq!(got, [("identifier", 1), ("question", 2)]);
    // Each category's means are its own queries' means, scored alone.
    for c in &report.by_category {
        let ids: Vec<&str> = categories
            .iter()
            .filter(|(_, v)| **v == c.category)
            .map(|(k, _)| k.as_str())
            .collect();
        let alone: Vec<(String, String)> = queries
            .iter()
            .filter(|(id, _)| ids.contains(&id.as_str()))
            .cloned()
            .collect();
        let r = aidocs_reader::eval::evaluate(&index, &alone, &qrels, &opts, None, &HashMap::new())
            .unwrap();
        assert_eq!(c.metrics.queries, r.queries);
        assert!((c.metrics.ndcg_at_10 - r.ndcg_at_10).abs() < 1e-12, "{c:?}");
        assert!((c.metrics.mrr_at_10 - r.mrr_at_10).abs() < 1e-12, "{c:?}");
    }
    // A label that cannot be printed as a report line is an error naming the line.
    std::fs::write(
        &file,
        "{\"id\":1,\"text\":\"x\"}\n{\"id\":2,\"text\":\"y\",\"category\":\"a\\nb\"}\n",
    )
    .unwrap();
    let err = aidocs_reader::eval::read_labelled_queries(&file)
        .unwrap_err()
        .to_string();
    assert!(err.contains(":2:") && err.contains("category"), "{err}");
}
