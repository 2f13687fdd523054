//! Here are an index's terms in order, one at a time, give me its term shards and their position
//! shards: [`TermShardWriter`].
//!
//! Sorted terms are cut into runs near the target size where their own bytes say (content-defined:
//! an edit seldom moves a boundary past its own shard's). A shard is encoded and sealed soon after
//! it is cut, so the writer holds its files' compressed bytes and the current run, never the
//! index's postings (issue 25).

use aidocs_core::envelope::{self, ShardKind};
use aidocs_core::format::PositionFiles;
use aidocs_core::positions::{PositionPosting, PositionShard};
use aidocs_core::{Posting, TermFilter, TermPostings, TermShard, TermShardEntry, FIELD_COUNT};
use rayon::prelude::*;

use crate::export::{content_name, NamedFiles, TermFilters};
use crate::index_terms::{TermPositions, TermRecord};
use crate::shard_cuts::ContentCuts;

/// Shards encoded but not yet sealed: sealing (zlib at level 9) is most of an export's time, so
/// every core seals a batch at a time.
const SEAL_BATCH: usize = 256;

/// Cuts an index's terms, pushed in order, into term shards and position shards.
pub(crate) struct TermShardWriter {
    filters: TermFilters,
    cuts: ContentCuts,
    current: Vec<TermPostings>,
    current_positions: Vec<Vec<PositionPosting>>,
    entries: Vec<TermShardEntry>,
    /// Each shard's last term (the next shard's separator is chosen against it).
    lasts: Vec<String>,
    /// Every term, in order: the filters are built once the count is known.
    terms: Vec<String>,
    /// (term shard, position shard) payloads not yet sealed.
    pending: Vec<(Vec<u8>, Vec<u8>)>,
    /// (term shard, position shard) as sealed, in shard order.
    sealed: Vec<(Vec<u8>, Vec<u8>)>,
    any_positions: bool,
    /// The cuts chose to end the shard after the last term, but exact-match keys filed under it
    /// (format v12) follow it there: the shard ends before the next other term.
    cut_due: bool,
    /// The current shard's bytes as the cuts count them, and the most a shard waiting for keys
    /// may hold (4× the target: thousands of titles sharing their longest word spill over).
    bytes: usize,
    max_bytes: usize,
}

/// What the term shards of an index are, once written.
pub(crate) struct WrittenTerms {
    pub entries: Vec<TermShardEntry>,
    /// How the manifest names the position shards (`None`: no term has positions).
    pub positions: Option<PositionFiles>,
    /// Every term of the index, sorted.
    pub terms: Vec<String>,
}

/// CJK terms (characters and bigrams: 30,000 of mintlify-docs' 48,000 terms, from its 267 Chinese
/// pages) sort after every Latin, Greek and Cyrillic term. Their shards go without filters, so that
/// they do not price the other languages' filters out of the budget: a CJK query's bigrams are
/// seldom absent, and an absent one costs one small fetch.
fn is_cjk_term(t: &str) -> bool {
    t.chars().next().is_some_and(aidocs_core::analyzer::is_cjk)
}

impl TermShardWriter {
    pub fn new(term_bytes: usize, filters: TermFilters) -> Self {
        TermShardWriter {
            filters,
            cuts: ContentCuts::new(term_bytes),
            current: Vec::new(),
            current_positions: Vec::new(),
            entries: Vec::new(),
            lasts: Vec::new(),
            terms: Vec::new(),
            pending: Vec::new(),
            sealed: Vec::new(),
            any_positions: false,
            cut_due: false,
            bytes: 0,
            max_bytes: term_bytes.saturating_mul(4),
        }
    }

    /// Adds the next term (terms come in byte order).
    pub fn push(&mut self, record: TermRecord) {
        let TermRecord {
            term,
            postings: mut raw,
            positions,
        } = record;
        raw.sort_unstable();
        let mut postings: Vec<Posting> = Vec::new();
        for (ord, field, tf, norm) in raw {
            if postings.last().is_none_or(|p| p.chunk != ord) {
                postings.push(Posting::new(ord));
            }
            if let Some(p) = postings.last_mut() {
                let f = (field as usize).min(FIELD_COUNT - 1);
                p.tf[f] += tf;
                p.norm[f] = norm;
            }
        }
        // A key filed under a term stays in its term's shard, where a query with the term looks
        // (issue 21): a cut due after the term waits until its keys are in.
        if self.cut_due
            && (!term.contains(aidocs_core::search::EXACT_ANCHOR_SEPARATOR)
                || self.bytes >= self.max_bytes)
        {
            self.cut();
        }
        let bytes = term.len() + 2 + postings.len() * 4;
        self.bytes += bytes;
        let end = (self.cuts).end_after(term.as_bytes(), bytes);
        self.current_positions.push(position_postings(positions));
        self.terms.push(term.clone());
        self.current.push(TermPostings { term, postings });
        self.cut_due |= end;
    }

    /// Ends the current shard.
    fn cut(&mut self) {
        self.cut_due = false;
        self.bytes = 0;
        if self.current.is_empty() {
            return;
        }
        let positions = PositionShard {
            terms: std::mem::take(&mut self.current_positions),
        };
        self.any_positions |= positions.terms.iter().any(|t| !t.is_empty());
        let shard = TermShard {
            terms: std::mem::take(&mut self.current),
        };
        self.lasts
            .push(shard.terms[shard.terms.len() - 1].term.clone());
        self.entries.push(TermShardEntry {
            first: shard.terms[0].term.clone(),
            file: String::new(), // named with its positions, in `finish`
            term_count: shard.terms.len() as u32,
            filter: None, // built in `finish`
        });
        (self.pending).push((shard.encode_payload(), positions.encode_payload()));
        if self.pending.len() >= SEAL_BATCH {
            self.seal_pending();
        }
    }

    fn seal_pending(&mut self) {
        let sealed: Vec<(Vec<u8>, Vec<u8>)> = (std::mem::take(&mut self.pending).into_par_iter())
            .map(|(terms, pos)| {
                (
                    envelope::seal(ShardKind::Terms, &terms),
                    envelope::seal(ShardKind::Positions, &pos),
                )
            })
            .collect();
        self.sealed.extend(sealed);
    }

    /// Ends the last shard, builds the filters, and names the shards into `files`: without
    /// positions each is `t/<hash of its bytes>.bin`; with them, term shard and position shard
    /// share one name, `t/<h>.bin` and `p/<h>.bin` with `<h>` a hash over both files' bytes, so a
    /// reader finds the positions by the term shard's name and an edit renames only the pairs whose
    /// bytes it changes (format v10).
    pub fn finish(mut self, files: &mut NamedFiles) -> WrittenTerms {
        self.cut();
        self.seal_pending();
        let with_filters = self.filters.include(match self.filters {
            TermFilters::Auto => self.terms.iter().filter(|t| !is_cjk_term(t)).count(),
            _ => self.terms.len(),
        });
        let mut start = 0;
        for entry in &mut self.entries {
            let terms = &self.terms[start..start + entry.term_count as usize];
            start += entry.term_count as usize;
            if with_filters
                && (self.filters != TermFilters::Auto || !terms.iter().any(|t| is_cjk_term(t)))
            {
                entry.filter = TermFilter::build(terms.iter().map(String::as_str));
            }
        }
        for (entry, (bytes, pos)) in self.entries.iter_mut().zip(self.sealed) {
            if !self.any_positions {
                entry.file = content_name(aidocs_core::format::TERM_DIR, &bytes);
                files.push((entry.file.clone(), bytes));
                continue;
            }
            let mut h = blake3::Hasher::new();
            h.update(blake3::hash(&bytes).as_bytes());
            h.update(blake3::hash(&pos).as_bytes());
            let stem = &h.finalize().to_hex()[..12];
            entry.file = format!("{}/{stem}.bin", aidocs_core::format::TERM_DIR);
            files.push((entry.file.clone(), bytes));
            files.push((format!("p/{stem}.bin"), pos));
        }
        // The manifest locates a term by the shard whose first term is the greatest at or below
        // it: any string after the previous shard's last term and up to this shard's first does as
        // well, and the shortest such prefix costs every reader fewer manifest bytes (about 2 KB
        // on a 10,000-page site).
        for (entry, prev_last) in self.entries.iter_mut().skip(1).zip(&self.lasts) {
            entry.first = shortest_separator(prev_last, &entry.first);
        }
        WrittenTerms {
            entries: self.entries,
            positions: self.any_positions.then_some(PositionFiles::BesideTerms),
            terms: self.terms,
        }
    }
}

/// The shortest prefix of `first` that sorts after `prev` (`prev < first`): `autho` between
/// `authent` and `author`, `ab` between `a` and `abc`.
pub(crate) fn shortest_separator(prev: &str, first: &str) -> String {
    let common = prev
        .chars()
        .zip(first.chars())
        .take_while(|(a, b)| a == b)
        .count();
    first.chars().take(common + 1).collect()
}

/// A term's positions as read from the index, `(chunk, field, positions)` unsorted, as position
/// postings: by chunk, packed positions ([`aidocs_core::positions::pack`]) sorted and deduplicated.
fn position_postings(raw: TermPositions) -> Vec<PositionPosting> {
    let mut raw: Vec<(u32, u8, &[u32])> = raw.iter().collect();
    raw.sort_unstable_by_key(|&(chunk, field, _)| (chunk, field));
    let mut out: Vec<PositionPosting> = Vec::new();
    for (chunk, field, ps) in raw {
        if ps.is_empty() || field as usize >= aidocs_core::SCORED_FIELDS {
            continue;
        }
        if out.last().is_none_or(|p| p.chunk != chunk) {
            out.push(PositionPosting {
                chunk,
                positions: Vec::new(),
            });
        }
        if let Some(p) = out.last_mut() {
            p.positions.extend(
                ps.iter()
                    .map(|&pos| aidocs_core::positions::pack(field, pos)),
            );
        }
    }
    for p in &mut out {
        p.positions.sort_unstable();
        p.positions.dedup();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shortest_separator;

    /// Issue 4: term-shard entries store the shortest string that still sorts between shards.
    #[test]
    fn issue_4_separators_sort_between_the_shards() {
        for (prev, first, sep) in [
            ("authent", "author", "autho"),
            ("a", "abc", "ab"),
            ("zeta", "édition", "é"),
            ("token", "tokens", "tokens"),
        ] {
            let s = shortest_separator(prev, first);
            assert_eq!(s, sep);
            assert!(
                prev < s.as_str() && s.as_str() <= first,
                "{prev} < {s} <= {first}"
            );
        }
    }
}
