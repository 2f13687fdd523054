//! Quoted phrases (format v7+): the position shards a phrase needs, where it occurs, and the chunks it
//! lets rank.

use super::{QueryPlan, SearchError, Searcher};
use crate::analyzer::{Analyzer, TokenKind};
use crate::format::TermShard;

/// A quoted phrase: its terms with their offsets from the first (a stopword between two words leaves
/// a gap, as it does in the index), and once resolved, the chunks where it occurs.
#[derive(Debug, Clone, PartialEq)]
pub struct Phrase {
    pub terms: Vec<(String, u32)>,
    /// Sorted chunk ordinals; `None` until resolved, and on an index without positions (before
    /// format v7), where the phrase's words rank as plain words.
    pub chunks: Option<Vec<u32>>,
}

impl QueryPlan {
    /// Whether some chunk has every resolved phrase of the query (true without a resolved phrase).
    pub(super) fn phrases_occur(&self) -> bool {
        let Some(first) = self.phrases.iter().find_map(|p| p.chunks.as_ref()) else {
            return true;
        };
        first.iter().any(|&c| self.phrases_allow(c))
    }

    /// Whether `chunk` has every resolved phrase of the query.
    pub(super) fn phrases_allow(&self, chunk: u32) -> bool {
        self.phrases.iter().all(|p| {
            p.chunks
                .as_ref()
                .is_none_or(|c| c.binary_search(&chunk).is_ok())
        })
    }
}

impl Searcher {
    /// The term shards whose position shards the query's phrases need (sorted): none on an index
    /// without positions, or for a query without a quoted phrase.
    pub fn position_shards(&self, plan: &QueryPlan) -> Vec<usize> {
        if self.manifest.positions.is_none() {
            return Vec::new();
        }
        super::sorted_unique(
            (plan.phrases.iter())
                .flat_map(|p| &p.terms)
                .filter_map(|(t, _)| self.locate(t)),
        )
    }

    /// Finds where each of `plan`'s phrases occurs, from the term shards (which say each term's
    /// place in its shard) and the position shards of [`Self::position_shards`]. A phrase with a word
    /// the index lacks occurs nowhere. Nothing to do on an index without positions.
    pub fn resolve_phrases<'s, 'p>(
        &self,
        plan: &mut QueryPlan,
        terms: impl Fn(usize) -> Option<&'s TermShard>,
        positions: impl Fn(usize) -> Option<&'p crate::positions::PositionShard>,
    ) -> Result<(), SearchError> {
        if self.manifest.positions.is_none() {
            return Ok(());
        }
        for phrase in &mut plan.phrases {
            let mut lists: Vec<(&[crate::positions::PositionPosting], u32)> = Vec::new();
            let mut absent = false;
            for (term, offset) in &phrase.terms {
                let Some(i) = self.locate(term) else {
                    absent = true;
                    break;
                };
                let shard =
                    terms(i).ok_or_else(|| SearchError::MissingTermShard(self.term_file(i)))?;
                let Ok(j) = shard.terms.binary_search_by(|t| t.term.as_str().cmp(term)) else {
                    absent = true;
                    break;
                };
                let file = || self.positions_file(i).unwrap_or_default();
                let ps = positions(i).ok_or_else(|| SearchError::MissingTermShard(file()))?;
                if ps.terms.len() != shard.terms.len() {
                    return Err(SearchError::PositionsMismatch(file()));
                }
                lists.push((&ps.terms[j], *offset));
            }
            phrase.chunks = Some(if absent {
                Vec::new()
            } else {
                crate::positions::phrase_chunks(&lists)
            });
        }
        Ok(())
    }
}

/// The query's quoted phrases of two terms or more, analyzed as the rest of the query: words and
/// identifier parts with their offsets (whole identifiers sit at their first part's position, so the
/// parts carry the order).
pub(super) fn phrases(query: &str, analyzer: Analyzer) -> Vec<Phrase> {
    let mut out = Vec::new();
    for (start, end) in crate::typos::quoted_spans(query) {
        let quote = query[start..].chars().next().map_or(1, char::len_utf8);
        let inner = query.get(start + quote..end).unwrap_or("");
        let toks: Vec<_> = analyzer
            .analyze(inner)
            .into_iter()
            .filter(|t| t.kind != TokenKind::Identifier)
            .collect();
        let Some(first) = toks.first().map(|t| t.position) else {
            continue;
        };
        let terms: Vec<(String, u32)> = toks
            .into_iter()
            .map(|t| (t.text, t.position - first))
            .collect();
        if terms.len() >= 2 {
            out.push(Phrase {
                terms,
                chunks: None,
            });
        }
    }
    out
}

#[cfg(test)]
mod phrase_tests {
    //! Issue 6: quoted phrases match their words next to each other, in order, in one field.
    use super::*;
    use crate::format::Field;
    use crate::positions::{PositionPosting, PositionShard};
    use crate::search::*;
    use std::collections::BTreeMap;

    /// The prefix tests' index, with position shards aligned with its term shards (body field).
    fn index(texts: &[&str], per_shard: usize) -> (Searcher, Vec<TermShard>, Vec<PositionShard>) {
        let (s, shards) = crate::search::test_index::index(texts, per_shard);
        let mut at: BTreeMap<String, Vec<PositionPosting>> = BTreeMap::new();
        for (chunk, t) in texts.iter().enumerate() {
            for tok in Analyzer::english().analyze(t) {
                let list = at.entry(tok.text).or_default();
                if list.last().map(|p| p.chunk) != Some(chunk as u32) {
                    list.push(PositionPosting {
                        chunk: chunk as u32,
                        positions: Vec::new(),
                    });
                }
                let ps = &mut list.last_mut().unwrap().positions;
                let packed = crate::positions::pack(Field::Body as u8, tok.position);
                if ps.last() != Some(&packed) {
                    ps.push(packed);
                }
            }
        }
        let positions = shards
            .iter()
            .map(|t| PositionShard {
                terms: t.terms.iter().map(|p| at[&p.term].clone()).collect(),
            })
            .collect();
        let mut m = s.manifest.clone();
        m.positions = Some(crate::format::PositionFiles::Prefix("p/x-".into()));
        (Searcher::new(m).unwrap(), shards, positions)
    }

    fn ranked(
        s: &Searcher,
        shards: &[TermShard],
        positions: &[PositionShard],
        q: &str,
    ) -> Vec<u32> {
        let mut plan = s.plan(q);
        // Only the phrases' shards are needed, and they are named.
        for i in s.position_shards(&plan) {
            assert!(i < positions.len());
        }
        s.resolve_phrases(&mut plan, |i| shards.get(i), |i| positions.get(i))
            .unwrap();
        let mut pages: Vec<u32> = s
            .rank(&plan, |i| shards.get(i), &SearchOptions::default())
            .unwrap()
            .into_iter()
            .map(|h| h.page)
            .collect();
        pages.sort_unstable();
        pages
    }

    #[test]
    fn issue_6_quoted_phrases_need_their_words_in_order() {
        let texts = [
            "Refresh the token before it expires",
            "The token refresh endpoint",
            "Refresh a page, then read the token",
            "Call get_user_by_id with the user id",
            "快速入门指南",
        ];
        let (s, shards, positions) = index(&texts, 2);
        let r = |q: &str| ranked(&s, &shards, &positions, q);
        assert_eq!(r("refresh token"), [0, 1, 2]);
        // A stopword between the words is part of the phrase (both sides skip it the same way).
        assert_eq!(r("\"refresh the token\""), [0]);
        assert_eq!(r("\"token refresh\""), [1]);
        // Curly quotes too; the words outside the quotes rank as usual.
        assert_eq!(r("“token refresh” endpoint"), [1]);
        // Words present but apart, or a word the index lacks: nothing.
        assert!(r("\"refresh page token\"").is_empty());
        assert!(r("\"refresh zebra\"").is_empty());
        // Identifier parts keep their order; a one-word phrase is a plain word.
        assert_eq!(r("\"get_user_by_id with\""), [3]);
        assert_eq!(r("\"token\""), [0, 1, 2]);
        // CJK phrases by their bigrams.
        assert_eq!(r("\"快速入门\""), [4]);
        assert!(r("\"入门快速\"").is_empty());
        // An unterminated quote runs to the end of the query.
        assert_eq!(r("\"token refresh"), [1]);
    }

    #[test]
    fn issue_6_phrases_need_positions_and_name_their_files() {
        let texts = ["refresh the token", "token refresh"];
        let (s, shards, positions) = index(&texts, 1);
        let plan = s.plan("\"token refresh\" now");
        let mut want: Vec<usize> = ["token", "refresh"]
            .iter()
            .filter_map(|t| s.locate(t))
            .collect();
        want.sort_unstable();
        assert_eq!(s.position_shards(&plan), want);
        assert!(s.position_shards(&s.plan("token refresh")).is_empty());
        // A missing position shard is a typed error naming it.
        let mut p = plan.clone();
        let err = s
            .resolve_phrases(&mut p, |i| shards.get(i), |_| None)
            .unwrap_err();
        assert!(matches!(err, SearchError::MissingTermShard(f) if f.starts_with("p/x-")));
        // One that does not match its term shard too.
        let mut p = plan.clone();
        let empty = PositionShard::default();
        let err = s
            .resolve_phrases(&mut p, |i| shards.get(i), |_| Some(&empty))
            .unwrap_err();
        assert!(matches!(err, SearchError::PositionsMismatch(_)));
        // An index without positions (before format v7) ranks the phrase's words as plain words.
        let mut m = s.manifest.clone();
        m.positions = None;
        let old = Searcher::new(m).unwrap();
        let mut plan = old.plan("\"token refresh\"");
        assert!(old.position_shards(&plan).is_empty());
        old.resolve_phrases(&mut plan, |i| shards.get(i), |i| positions.get(i))
            .unwrap();
        let hits = old
            .rank(&plan, |i| shards.get(i), &SearchOptions::default())
            .unwrap();
        assert_eq!(hits.len(), 2);
    }
}
