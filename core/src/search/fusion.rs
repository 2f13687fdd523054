//! The vector side and hybrid ranking: the static query encoder's row shards, the partitions a query
//! vector probes, cosine ranking, and min-max or reciprocal-rank fusion with the lexical side.

use super::aggregate::{ChunkMap, RankInfo};
use super::{Facets, Fusion, Mode, PageHit, QueryPlan, SearchError, SearchOptions, Searcher};
use crate::format::TermShard;

/// The vector side of a query: the index's vector directory, the query's unit vector, and the
/// partition shards (every index [`Searcher::vector_partitions`] names must be available).
pub struct VectorQuery<'a, F> {
    pub dir: &'a crate::vectors::VectorDir,
    pub query: &'a [f32],
    pub shard: F,
}

impl Searcher {
    /// The static query encoder's row shards `plan` needs (sorted): one per query term the index may
    /// hold. Empty when the index has no term rows.
    pub fn term_row_shards(&self, plan: &QueryPlan) -> Vec<u32> {
        let Some(rows) = self.term_rows() else {
            return Vec::new();
        };
        super::sorted_unique(
            (plan.terms.iter())
                .filter(|t| t.shard.is_some() && !t.alternate)
                .map(|t| rows.shard_of(&t.text)),
        )
    }

    /// The index's static query encoder, when it has one.
    pub fn term_rows(&self) -> Option<&crate::term_rows::TermRowsRef> {
        self.manifest.vectors.as_ref()?.term_rows.as_ref()
    }

    /// The static encoding of `plan`'s query (see [`crate::term_rows`]): `row_shard` returns the
    /// decoded row shard for an index of [`Self::term_row_shards`]. `None` without term rows, or when
    /// no query term has a row (ranking then falls back to lexical).
    pub fn static_query_vector<'r>(
        &self,
        plan: &QueryPlan,
        row_shard: impl Fn(u32) -> Option<&'r crate::term_rows::TermRowShard>,
    ) -> Option<Vec<f32>> {
        let rows = self.term_rows()?;
        crate::term_rows::encode_terms(
            rows,
            plan.terms
                .iter()
                .filter(|t| t.shard.is_some() && !t.alternate)
                .map(|t| t.text.as_str()),
            |t| row_shard(rows.shard_of(t))?.row(t),
        )
    }

    /// The vector partitions a query vector probes (`opts.nprobe`, 0 = all).
    pub fn vector_partitions(
        &self,
        dir: &crate::vectors::VectorDir,
        query: &[f32],
        opts: &SearchOptions,
    ) -> Vec<usize> {
        let n = dir.partitions.len();
        let probe = if opts.nprobe == 0 {
            n
        } else {
            opts.nprobe.min(n)
        };
        let mut p = dir.probe(query, probe);
        p.sort_unstable();
        p
    }

    /// Ranks with `opts.mode`: lexical; vector (cosine over the probed partitions); or hybrid (both
    /// sides' top `opts.candidates` chunks fused with `opts.fusion`). Without a vector side, or
    /// for a mismatched one, ranking is lexical. Returns the hits, the mode actually used and, with
    /// `opts.facets`, the query's [`Facets`].
    pub fn rank_faceted<'s, 'v, F>(
        &self,
        plan: &QueryPlan,
        shard: impl Fn(usize) -> Option<&'s TermShard>,
        vectors: Option<VectorQuery<'_, F>>,
        opts: &SearchOptions,
    ) -> Result<(Vec<PageHit>, Mode, Option<Facets>), SearchError>
    where
        F: Fn(usize) -> Option<&'v crate::vectors::VectorShard>,
    {
        self.check_stemmer(plan, opts)?;
        let get = self.getter(&shard);
        let usable = vectors.filter(|v| {
            opts.mode != Mode::Lexical
                && v.query.len() == v.dir.dims as usize
                && self
                    .manifest
                    .vectors
                    .as_ref()
                    .is_some_and(|r| r.dims == v.dir.dims)
        });
        let Some(vq) = usable else {
            let chunks = self.lexical_chunks(plan, &get, opts)?;
            let (hits, facets) = self.aggregate(chunks, plan, &get, opts, None)?;
            return Ok((hits, Mode::Lexical, facets));
        };
        let mut vector: Vec<(u32, f32)> = Vec::new();
        for p in self.vector_partitions(vq.dir, vq.query, opts) {
            let s = (vq.shard)(p)
                .ok_or_else(|| SearchError::MissingTermShard(vq.dir.partitions[p].file.clone()))?;
            vector.extend(
                s.scores(vq.query)
                    .filter(|&(c, _)| c < self.manifest.num_chunks),
            );
        }
        // A chunk twice in a list (a hostile index's partitions) is ranked where it is last, as a
        // map filled in order kept it.
        let ranks = |list: &[(u32, f32)]| -> ChunkMap<u32> {
            let pairs = (list.iter().enumerate()).map(|(i, &(c, _))| (c, i as u32 + 1));
            ChunkMap::new(pairs.collect(), |a: &u32, b: &u32| b.cmp(a))
        };
        if opts.mode == Mode::Vector {
            // Cosine similarity, shifted to be positive so aggregation (which drops scores <= 0) keeps
            // every probed chunk.
            let mut chunks: Vec<(u32, f32)> = vector.iter().map(|&(c, s)| (c, 1.0 + s)).collect();
            crate::sort::sort_by(&mut chunks, |a, b| a.0.cmp(&b.0));
            // Ranks and similarities only explain: built when explanations are asked for, with
            // every probed chunk ranked (the whole list in order).
            let info = opts.explains().then(|| {
                crate::sort::sort_by(&mut vector, by_score);
                RankInfo {
                    lexical: ChunkMap::default(),
                    vector: ranks(&vector),
                    similarity: similarities(&vector),
                }
            });
            let (hits, facets) = self.aggregate(chunks, plan, &get, opts, info.as_ref())?;
            return Ok((hits, Mode::Vector, facets));
        }
        let mut lexical = self.lexical_chunks(plan, &get, opts)?;
        // Each side's candidates are sections with the quoted phrases: a phrase's sections outside
        // the top `candidates` of one side must not be cut before the filter would keep them.
        if !plan.phrases.is_empty() {
            lexical.retain(|&(c, _)| plan.phrases_allow(c));
            vector.retain(|&(c, _)| plan.phrases_allow(c));
        }
        let n = opts.candidates.max(1);
        // Each side's candidates are the chunks of its top `n` pages, sorted that far (the rest of
        // the vector side still gives its similarities).
        let cut = self.top_pages(&mut lexical, n);
        lexical.truncate(cut);
        let cut = self.top_pages(&mut vector, n);
        let vtop = &vector[..cut];
        // Each side's share of each chunk's score, in list order (lexical first): summed by chunk
        // below, in that order.
        let mut shares: Vec<(u32, f32)> = Vec::with_capacity(lexical.len() + vtop.len());
        match opts.fusion {
            Fusion::MinMax { lexical_weight } => {
                let w = lexical_weight.clamp(0.0, 1.0);
                for (list, weight) in [(&lexical[..], w), (vtop, 1.0 - w)] {
                    let (Some(max), Some(min)) = (list.first(), list.last()) else {
                        continue;
                    };
                    let span = max.1 - min.1;
                    for &(c, s) in list {
                        let norm = if span > 0.0 { (s - min.1) / span } else { 1.0 };
                        shares.push((c, weight * norm));
                    }
                }
            }
            Fusion::Rrf { k } => {
                for list in [&lexical[..], vtop] {
                    for (i, &(c, _)) in list.iter().enumerate() {
                        shares.push((c, 1.0 / (k + i as f32 + 1.0)));
                    }
                }
            }
        }
        let chunks = sum_by_chunk(shares);
        let info = opts.explains().then(|| RankInfo {
            lexical: ranks(&lexical),
            vector: ranks(vtop),
            similarity: similarities(&vector),
        });
        let (hits, facets) = self.aggregate(chunks, plan, &get, opts, info.as_ref())?;
        Ok((hits, Mode::Hybrid, facets))
    }
}

impl Searcher {
    /// Sorts `list` (chunk, score) best first as far as its top `pages` pages reach and returns how
    /// many chunks that is: the chunks before the first chunk of the page after them. Candidates
    /// are counted in pages because a long page's sections would otherwise take most of a side's
    /// candidates (100 sections of a few long reference pages), leaving the other side's pages
    /// nothing to fuse with; on a site of one-section pages it is the top `pages` chunks, as before.
    fn top_pages(&self, list: &mut [(u32, f32)], pages: usize) -> usize {
        let mut sorted = 0;
        // One chunk past `pages`: on a site of one-section pages the first round is the last.
        let mut want = pages.saturating_add(1);
        // The pages seen so far, one bit each (chunks past the last page share one), and how many.
        let mut seen = vec![0u64; self.page_first_chunk.len() / 64 + 1];
        let mut count = 0;
        loop {
            let k = want.min(list.len());
            crate::sort::sort_least(list, k, &mut |a, b| by_score(a, b).is_lt());
            for (i, &(c, _)) in list.iter().enumerate().take(k).skip(sorted) {
                let page = (self.page_of(c) as usize).min(self.page_first_chunk.len());
                let (word, bit) = (page / 64, 1u64 << (page % 64));
                if seen[word] & bit == 0 {
                    if count == pages {
                        return i;
                    }
                    seen[word] |= bit;
                    count += 1;
                }
            }
            if k == list.len() {
                return k;
            }
            sorted = k;
            want = want.saturating_mul(4);
        }
    }
}

/// Best score first, then the lower chunk: a ranked list's total order.
fn by_score(a: &(u32, f32), b: &(u32, f32)) -> core::cmp::Ordering {
    b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))
}

/// Each chunk's similarity, for explanations. A chunk in two partitions (a hostile index: shards
/// are checked one by one) keeps its lowest, whatever order the list is in: what the fully sorted
/// list gave before the hybrid side was sorted only as far as its top candidates.
fn similarities(list: &[(u32, f32)]) -> ChunkMap<f32> {
    ChunkMap::new(list.to_vec(), f32::total_cmp)
}

/// Each chunk's shares (in the order given) summed from 0, sorted by chunk, plus a tiny floor that
/// keeps candidates that normalized to 0 on their only side: what adding them into a map did.
fn sum_by_chunk(shares: Vec<(u32, f32)>) -> Vec<(u32, f32)> {
    // Sorted by chunk, a chunk's shares in the order given (the position breaks ties).
    let mut keyed: Vec<(u32, u32, f32)> = (shares.into_iter().enumerate())
        .map(|(i, (c, s))| (c, i as u32, s))
        .collect();
    crate::sort::sort_by(&mut keyed, |a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut out: Vec<(u32, f32)> = Vec::new();
    for (c, _, s) in keyed {
        match out.last_mut() {
            Some(last) if last.0 == c => last.1 += s,
            _ => out.push((c, 0.0 + s)),
        }
    }
    for e in &mut out {
        e.1 += 1e-6;
    }
    out
}

#[cfg(test)]
mod tests {
    /// Review of issue 21's partial sorts: a chunk twice in the vector side (partitions of a hostile
    /// index) explains with its lowest similarity in any order of the list.
    #[test]
    fn issue_21_duplicate_chunks_keep_their_lowest_similarity_in_any_order() {
        let list = [(3, 0.5), (7, 0.9), (3, 0.8), (7, -0.1), (1, 0.2)];
        let mut reversed = list;
        reversed.reverse();
        for l in [&list[..], &reversed[..]] {
            let m = super::similarities(l);
            let found = (m.get(3), m.get(7), m.get(1), m.0.len());
            assert_eq!(found, (Some(0.5), Some(-0.1), Some(0.2), 3));
        }
    }

    /// Issue 20: a side's candidates are the chunks of its top pages, so one long page's sections
    /// cannot take them all; on pages of one section each it is the top chunks, as before.
    #[test]
    fn issue_20_hybrid_candidates_are_counted_in_pages() {
        let texts: Vec<String> = (0..30).map(|i| format!("text {i}")).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let (s, _) = crate::search::test_index::index(&texts, 8);
        // Pages: 0 holds chunks 0..20 (a long page), then ten pages of one chunk each.
        let mut m = s.manifest().clone();
        let entry = m.pages[0].clone();
        m.pages = std::iter::once(crate::format::PageEntry {
            chunk_count: 20,
            ..entry.clone()
        })
        .chain(std::iter::repeat_n(entry, 10))
        .collect();
        let s = crate::search::Searcher::new(m).unwrap();
        // The long page's chunks score highest, then pages 1.. in order.
        let scores = |c: u32| {
            if c < 20 {
                10.0 - c as f32 / 100.0
            } else {
                5.0 - c as f32 / 100.0
            }
        };
        let mut list: Vec<(u32, f32)> = (0..30).rev().map(|c| (c, scores(c))).collect();
        let n = s.top_pages(&mut list, 3);
        // The long page's 20 chunks and the two pages after it: 22 chunks of 3 pages.
        assert_eq!(n, 22);
        let kept: Vec<u32> = list[..n].iter().map(|&(c, _)| c).collect();
        assert_eq!(kept, (0..22).collect::<Vec<u32>>());
        // More pages than the list has: all of it, in order.
        let n = s.top_pages(&mut list, 50);
        assert_eq!(n, 30);
        assert!(list.windows(2).all(|w| w[0].1 >= w[1].1));
        // Pages of one chunk: the top chunks.
        let (one, _) = crate::search::test_index::index(&texts, 8);
        let mut list: Vec<(u32, f32)> = (0..30).map(|c| (c, c as f32)).collect();
        assert_eq!(one.top_pages(&mut list, 4), 4);
        assert_eq!(
            list[..4].iter().map(|&(c, _)| c).collect::<Vec<_>>(),
            [29, 28, 27, 26]
        );
    }
}
