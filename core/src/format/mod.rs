//! The shard format's core structures, one file each, writer (`encode`) and reader (`decode`) side by
//! side; every reader validates what it reads. Byte layouts and version history: `FORMAT.md`.
//!
//! - `manifest` ([`Manifest`]): the only file with a fixed name. It lists term shards by term range (so a term or
//!   a prefix maps to one shard) with a binary-fuse filter each, metadata shards by page range, the
//!   corpus statistics BM25 needs, the scoring parameters, and a compact page table (chunks per page,
//!   kind, nav group, tag set) so filters and chunk→page aggregation need no other file.
//! - `term_shard` ([`TermShard`]): a sorted, front-coded run of terms, each with its postings: chunk ordinal, and
//!   per field the term frequency and the field-norm code (tantivy's 1-byte length quantization).
//! - `meta_shard` ([`MetaShard`]): what results display for a run of pages and their chunks, and (v9)
//!   the name of each page's section text file.
//! - `text_shard` ([`PageText`], v9): one page's full section text, read only for evidence.
//!
//! Here: the field, kind and audience enums and the BM25 parameters every structure shares.

mod directory;
mod manifest;
mod meta_shard;
mod term_shard;
mod text_shard;

use crate::error::FormatError;
pub use crate::names::{DIRECTORY_DIR, META_DIR, TERM_DIR};
pub use directory::{DirectoryPage, MetaPageRef, TermPageRef};
pub(crate) use manifest::{positions_beside, term_file_beside};
pub use manifest::{
    Manifest, MetaShardEntry, PageEntry, PositionFiles, TermShardEntry, MANIFEST_FILE,
};
pub use meta_shard::{ApiMeta, ChunkMeta, MetaShard, PageMeta};
#[cfg(test)]
pub(crate) use term_shard::analyzed_postings;
pub(crate) use term_shard::{common_prefix, front_coded_budget};
pub use term_shard::{Posting, TermPostings, TermShard};
pub use text_shard::{PageText, TEXT_DIR};

/// The scored text fields, in posting order. `Exact` carries exact-match keys (whole title,
/// operationId, `METHOD /path`) that drive boosts, not BM25.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    Title = 0,
    Headings = 1,
    Body = 2,
    Code = 3,
    Exact = 4,
}

pub const FIELD_COUNT: usize = 5;
/// Fields scored by BM25F.
pub const SCORED_FIELDS: usize = 4;

impl Field {
    pub const ALL: [Field; FIELD_COUNT] = [
        Field::Title,
        Field::Headings,
        Field::Body,
        Field::Code,
        Field::Exact,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Headings => "headings",
            Field::Body => "body",
            Field::Code => "code",
            Field::Exact => "exact",
        }
    }
}

/// What a page is: a guide, an API operation, or a custom record (JSONL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Docs = 0,
    Api = 1,
    Custom = 2,
}

impl Kind {
    pub fn from_byte(b: u8) -> Result<Self, FormatError> {
        match b {
            0 => Ok(Kind::Docs),
            1 => Ok(Kind::Api),
            2 => Ok(Kind::Custom),
            _ => Err(FormatError::Invalid {
                what: "kind",
                detail: "unknown kind byte",
            }),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Kind::Docs => "docs",
            Kind::Api => "api",
            Kind::Custom => "custom",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "docs" => Some(Kind::Docs),
            "api" => Some(Kind::Api),
            "custom" => Some(Kind::Custom),
            _ => None,
        }
    }
}

/// Which content an index was built for. Private content is never written, so it has no level here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Audience {
    Public = 0,
    Internal = 1,
}

/// BM25F parameters, stored in the manifest so every reader scores the same way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bm25Params {
    pub k1: f32,
    pub b: f32,
    /// Weight per scored field (title, headings, body, code).
    pub weights: [f32; SCORED_FIELDS],
}

impl Default for Bm25Params {
    /// Standard BM25 values (tantivy's k1/b) with title > headings > body > code. A sweep on the SciFact
    /// train split (k1 0.9-1.5, b 0.5-0.9, title weight 1-4) gained at most 0.009 nDCG@10, which did
    /// not carry over to the test split, so these stay (ARCHITECTURE.md, "Relevance").
    fn default() -> Self {
        Bm25Params {
            k1: 1.2,
            b: 0.75,
            weights: [2.0, 1.5, 1.0, 0.8],
        }
    }
}

#[cfg(test)]
mod mutation_tests {
    //! Thousands of random byte mutations of real shards: every case must be an error or a valid value,
    //! never a panic (the wasm module must never trap on a damaged file).
    use super::*;
    use crate::filter::TermFilter;
    use crate::search::{SearchOptions, Searcher};

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn sample() -> (Manifest, TermShard, MetaShard) {
        let texts = [
            "Refresh tokens keep sessions alive",
            "Send the x-request-id header",
            "getUserById returns a user",
        ];
        let shard = TermShard {
            terms: analyzed_postings(&texts, 5),
        };
        let meta = MetaShard {
            first_page: 0,
            pages: (0..3)
                .map(|i| PageMeta {
                    id: format!("p{i}"),
                    url: format!("/p{i}"),
                    title: texts[i].into(),
                    kind: Some(Kind::Docs),
                    chunks: vec![ChunkMeta::default()],
                    ..Default::default()
                })
                .collect(),
        };
        let manifest = Manifest {
            build_id: "b".into(),
            generator: "t".into(),
            analyzer_version: crate::ANALYZER_VERSION,
            audience: Audience::Public,
            params: Bm25Params::default(),
            num_chunks: 3,
            field_tokens: [0, 0, 15, 0],
            groups: vec!["G".into()],
            tags: vec!["x".into()],
            tagsets: vec![vec![], vec![0]],
            pages: (0..3)
                .map(|i| PageEntry {
                    chunk_count: 1,
                    kind: Kind::Docs,
                    group: Some(0),
                    tagset: i % 2,
                    language: None,
                    version: None,
                })
                .collect(),
            term_shards: vec![TermShardEntry {
                first: shard.terms[0].term.clone(),
                file: "t/a.bin".into(),
                term_count: shard.terms.len() as u32,
                filter: TermFilter::build(shard.terms.iter().map(|t| t.term.as_str())),
            }],
            meta_shards: vec![MetaShardEntry {
                first_page: 0,
                page_count: 3,
                file: "m/a.bin".into(),
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
        (manifest, shard, meta)
    }

    fn mutate(rng: &mut Rng, file: &[u8], reseal: bool, kind: crate::ShardKind) -> Vec<u8> {
        // Mutate either the sealed bytes (checksum catches most) or the payload before sealing
        // (exercises the payload validators directly).
        let mut bytes = if reseal {
            crate::envelope::open(file, kind).unwrap()
        } else {
            file.to_vec()
        };
        let n = 1 + (rng.next() % 4) as usize;
        for _ in 0..n {
            match rng.next() % 4 {
                0 if !bytes.is_empty() => {
                    let i = (rng.next() as usize) % bytes.len();
                    bytes[i] = rng.next() as u8;
                }
                1 if !bytes.is_empty() => {
                    let i = (rng.next() as usize) % bytes.len();
                    bytes.truncate(i);
                }
                2 => {
                    let i = if bytes.is_empty() {
                        0
                    } else {
                        (rng.next() as usize) % bytes.len()
                    };
                    bytes.insert(i, rng.next() as u8);
                }
                _ if !bytes.is_empty() => {
                    let i = (rng.next() as usize) % bytes.len();
                    bytes[i] ^= 0x80;
                }
                _ => {}
            }
        }
        if reseal {
            crate::envelope::seal(kind, &bytes)
        } else {
            bytes
        }
    }

    #[test]
    fn random_mutations_are_errors_or_valid_never_panics() {
        let (manifest, shard, meta) = sample();
        let (mf, tf, mt) = (manifest.encode(), shard.encode(), meta.encode());
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut errors = 0;
        for case in 0..6000 {
            let reseal = case % 2 == 0;
            if let Ok(m) =
                Manifest::decode(&mutate(&mut rng, &mf, reseal, crate::ShardKind::Manifest))
            {
                // A manifest that decodes must also be safe to search with.
                if let Ok(s) = Searcher::new(m) {
                    let plan = s.plan("refresh x-request-id user");
                    let _ = s.rank(&plan, |_| Some(&shard), &SearchOptions::default());
                }
            } else {
                errors += 1;
            }
            match TermShard::decode(&mutate(&mut rng, &tf, reseal, crate::ShardKind::Terms), 3) {
                Ok(t) => {
                    let s = Searcher::new(manifest.clone()).unwrap();
                    let plan = s.plan("refresh x-request-id user");
                    if let Ok(hits) = s.rank(
                        &plan,
                        |_| Some(&t),
                        &SearchOptions {
                            explain: true,
                            ..Default::default()
                        },
                    ) {
                        let _ = s.assemble(hits, |_| Some(&meta));
                    }
                }
                Err(_) => errors += 1,
            }
            match MetaShard::decode(&mutate(&mut rng, &mt, reseal, crate::ShardKind::Meta)) {
                Ok(m) => {
                    let s = Searcher::new(manifest.clone()).unwrap();
                    let plan = s.plan("refresh token");
                    let hits = s
                        .rank(&plan, |_| Some(&shard), &SearchOptions::default())
                        .unwrap();
                    let _ = s.assemble(hits, |_| Some(&m));
                }
                Err(_) => errors += 1,
            }
        }
        assert!(
            errors > 6000,
            "mutations should mostly be rejected, {errors} errors"
        );
    }
}
