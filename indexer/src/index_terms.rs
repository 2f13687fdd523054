//! Here is the build index's cache, give me its terms in order, one at a time: [`IndexTerms::walk`].
//!
//! The exporter once read every term's postings and positions into two maps before cutting the
//! first shard: at 100,000 pages they were 2.6 GB of a 4.4 GB peak (issue 25). The term shards
//! are cut in term order, so the exporter needs one term at a time: the walk merges the term
//! dictionaries of every segment and field (tantivy's [`TermMerger`]) and hands each term over
//! with all of its postings and positions, then forgets it.

use std::path::PathBuf;

use tantivy::postings::Postings;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::termdict::{TermMerger, TermStreamer};
use tantivy::{DocSet, InvertedIndexReader, TERMINATED};

use crate::tantivy_cache::IndexError;

/// A document that is no chunk of the export (deleted, or not live when read).
pub(crate) const NO_CHUNK: u32 = u32::MAX;

/// The terms of a build index, read one at a time in byte order ([`IndexTerms::walk`]).
pub struct IndexTerms {
    pub(crate) searcher: tantivy::Searcher,
    /// The text fields, in field order (scored fields first, then the exact keys).
    pub(crate) fields: [Field; aidocs_core::FIELD_COUNT],
    /// Per segment, per document: its chunk ordinal, or [`NO_CHUNK`].
    pub(crate) ordinals: Vec<Vec<u32>>,
    /// The cache directory, for errors.
    pub(crate) dir: PathBuf,
}

/// One term of the index: every posting (chunk ordinal, field, tf, norm code), and the token
/// positions of its scored fields, both unsorted.
pub struct TermRecord {
    pub term: String,
    pub postings: Vec<(u32, u8, u32, u8)>,
    pub positions: TermPositions,
}

impl IndexTerms {
    fn tv(&self, source: tantivy::TantivyError) -> IndexError {
        IndexError::Tantivy {
            path: self.dir.clone(),
            source,
        }
    }

    /// Calls `visit` once per term with a posting in a chunk `renumber` keeps, in byte order (the
    /// order of a `BTreeMap<String, _>`), with those postings renumbered. Returns the number of
    /// terms with a posting in any live chunk, whatever `renumber` keeps. Terms that are not UTF-8
    /// are skipped (the analyzer never makes one).
    pub fn walk(
        &self,
        renumber: &dyn Fn(u32) -> Option<u32>,
        visit: &mut dyn FnMut(TermRecord),
    ) -> Result<usize, IndexError> {
        // One term stream per (segment, field), `stream = segment * FIELD_COUNT + field`.
        let mut inverted: Vec<std::sync::Arc<InvertedIndexReader>> = Vec::new();
        let mut norms = Vec::new();
        for seg in self.searcher.segment_readers() {
            for (fi, &field) in self.fields.iter().enumerate() {
                inverted.push(seg.inverted_index(field).map_err(|e| self.tv(e))?);
                norms.push(if fi < aidocs_core::SCORED_FIELDS {
                    Some(seg.get_fieldnorms_reader(field).map_err(|e| self.tv(e))?)
                } else {
                    None
                });
            }
        }
        let streams: Vec<TermStreamer> = (inverted.iter())
            .map(|inv| inv.terms().stream())
            .collect::<std::io::Result<_>>()
            .map_err(|e| self.tv(e.into()))?;
        let mut merger = TermMerger::new(streams);
        let mut live_terms = 0;
        let mut ps = Vec::new();
        while merger.advance() {
            let Ok(term) = std::str::from_utf8(merger.key()) else {
                continue;
            };
            let mut postings = Vec::new();
            let mut positions = TermPositions::default();
            let mut live = false;
            for (stream, info) in merger.current_segment_ords_and_term_infos() {
                let (si, fi) = (
                    stream / aidocs_core::FIELD_COUNT,
                    stream % aidocs_core::FIELD_COUNT,
                );
                let scored = fi < aidocs_core::SCORED_FIELDS;
                let option = if scored {
                    IndexRecordOption::WithFreqsAndPositions
                } else {
                    IndexRecordOption::WithFreqs
                };
                let mut docs = inverted[stream]
                    .read_postings_from_terminfo(&info, option)
                    .map_err(|e| self.tv(e.into()))?;
                let mut doc = docs.doc();
                while doc != TERMINATED {
                    let ord = (self.ordinals[si].get(doc as usize).copied()).unwrap_or(NO_CHUNK);
                    if ord != NO_CHUNK {
                        live = true;
                        if let Some(ord) = renumber(ord) {
                            let norm = norms[stream].as_ref().map_or(0, |n| n.fieldnorm_id(doc));
                            postings.push((ord, fi as u8, docs.term_freq(), norm));
                            if scored {
                                docs.positions(&mut ps);
                                positions.push(ord, fi as u8, &ps);
                            }
                        }
                    }
                    doc = docs.advance();
                }
            }
            live_terms += usize::from(live);
            if !postings.is_empty() {
                visit(TermRecord {
                    term: term.to_owned(),
                    postings,
                    positions,
                });
            }
        }
        Ok(live_terms)
    }
}

/// One term's positions over the index, flat: posting `i` is (chunk ordinal, scored field) with the
/// token positions `positions[ends[i - 1]..ends[i]]`. Three vectors per term where a vector per
/// (term, chunk, field) made the positions most of a large build's peak memory (issue 25).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TermPositions {
    postings: Vec<(u32, u8)>,
    ends: Vec<u32>,
    positions: Vec<u32>,
}

impl TermPositions {
    pub fn push(&mut self, chunk: u32, field: u8, positions: &[u32]) {
        self.postings.push((chunk, field));
        self.positions.extend_from_slice(positions);
        self.ends.push(self.positions.len() as u32);
    }

    pub fn is_empty(&self) -> bool {
        self.postings.is_empty()
    }

    /// (chunk ordinal, scored field, token positions), in the order pushed.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u8, &[u32])> + '_ {
        (self.postings.iter().zip(&self.ends).enumerate()).map(|(i, (&(chunk, field), &end))| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            (chunk, field, &self.positions[start as usize..end as usize])
        })
    }
}
