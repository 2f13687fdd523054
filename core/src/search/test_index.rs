//! A small index built in memory for the search unit tests: one chunk per text, analyzed as the
//! indexer does, no file behind it.

use super::Searcher;
use crate::format::{
    Audience, Bm25Params, Kind, Manifest, MetaShardEntry, PageEntry, TermShard, TermShardEntry,
};

/// One chunk per text, indexed as the indexer does (analyzer terms in the body field), in term
/// shards of at most `per_shard` terms.
pub(super) fn index(texts: &[&str], per_shard: usize) -> (Searcher, Vec<TermShard>) {
    let all = crate::format::analyzed_postings(texts, 6);
    let shards: Vec<TermShard> = all
        .chunks(per_shard)
        .map(|c| TermShard { terms: c.to_vec() })
        .collect();
    let n = texts.len() as u32;
    let manifest = Manifest {
        build_id: "b".into(),
        generator: "t".into(),
        analyzer_version: crate::ANALYZER_VERSION,
        audience: Audience::Public,
        params: Bm25Params::default(),
        num_chunks: n,
        field_tokens: [0, 0, 6 * n as u64, 0],
        groups: Vec::new(),
        tags: Vec::new(),
        tagsets: Vec::new(),
        pages: (0..n)
            .map(|_| PageEntry {
                chunk_count: 1,
                kind: Kind::Docs,
                group: None,
                tagset: 0,
                language: None,
                version: None,
            })
            .collect(),
        term_shards: shards
            .iter()
            .enumerate()
            .map(|(i, s)| TermShardEntry {
                first: s.terms[0].term.clone(),
                file: format!("t/{i}.bin"),
                term_count: s.terms.len() as u32,
                filter: None,
            })
            .collect(),
        meta_shards: vec![MetaShardEntry {
            first_page: 0,
            page_count: n,
            file: "m/0.bin".into(),
        }],
        term_pages: Vec::new(),
        meta_pages: Vec::new(),
        vectors: None,
        typos: None,
        languages: Vec::new(),
        positions: None,
        versions: Vec::new(),
        anchored_exact_keys: true,
    };
    (Searcher::new(manifest).unwrap(), shards)
}
