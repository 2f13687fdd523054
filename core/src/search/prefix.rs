//! Prefix search (issue 6): the last word typed is also the start of longer indexed words, read from
//! a bounded number of term shards and damped below whole-word matches.

use super::bm25::bm25f_term;
use super::{QueryPlan, SearchError, Searcher};
use crate::format::{TermShard, SCORED_FIELDS};

/// Prefix search (issue 6): a last word shorter than this is matched whole only (two letters would
/// expand to hundreds of terms).
pub const PREFIX_MIN_CHARS: usize = 3;

/// Term shards a prefix may read: its expansions are bounded by what these hold, so a prefix costs at
/// most this many small fetches.
pub const PREFIX_MAX_SHARDS: usize = 3;

/// Expansions scored per prefix: the terms with the most postings.
pub const PREFIX_MAX_EXPANSIONS: usize = 12;

/// An expansion's score relative to the whole word's, so that exact matches outrank extensions.
pub const PREFIX_DAMPING: f32 = 0.7;

/// The last word of a query read as a prefix.
#[derive(Debug, Clone, PartialEq)]
pub struct PrefixTerm {
    /// The word as typed, folded and lowercased, not stemmed (`authen`).
    pub text: String,
    /// The query term the whole word analyzes to, if any: a chunk scores the better of it and its best
    /// damped expansion, never both.
    pub whole: Option<String>,
    pub weight: f32,
    /// Term shards that may hold its expansions (sorted; at most [`PREFIX_MAX_SHARDS`]).
    pub shards: Vec<usize>,
}

impl Searcher {
    pub(super) fn prefix_term(&self, query: &str, plan: &QueryPlan) -> Option<PrefixTerm> {
        let tail = query
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric())
            .last()
            .map(|(i, _)| &query[i..])?;
        let text = crate::analyzer::fold(tail);
        let chars = text.chars().count();
        if chars < PREFIX_MIN_CHARS {
            return None;
        }
        // The whole word's term, as the analyzer makes it (stemmed, or an identifier kept whole).
        // (`analyze`, not a new `for_each_token` closure: each one is another copy of the tokenizer
        // in the wasm module.)
        let whole = plan
            .analyzer
            .analyze(tail)
            .pop()
            .and_then(|w| plan.terms.iter().find(|t| t.text == w.text))
            .map(|t| (t.text.clone(), t.weight));
        // The shortest stem a typed word may have (see `is_truncated_stem`) sorts first.
        let shortest: String = text.chars().take(min_stem_chars(chars)).collect();
        // On a paged index whose page of `shortest` is not held yet, the most `first` can be: the
        // pages the run may end in are read in the same round (the plan is made again then).
        let first = self.term_shard_at_most(&shortest).unwrap_or(0);
        let end = self.prefix_run_end(&text, first.saturating_add(PREFIX_MAX_SHARDS));
        let shards: Vec<usize> = (first..end.max(first + 1).min(self.term_shard_count()))
            .take(PREFIX_MAX_SHARDS)
            .collect();
        // The directory pages of those shards come with the plan's (once `first` is known).
        if self
            .unheld_directory(crate::FileRef::Terms(first as u32))
            .is_none()
        {
            for &i in &shards {
                self.term_entry(i, |_| ());
            }
        }
        Some(PrefixTerm {
            text,
            weight: whole.as_ref().map_or(1.0, |w| w.1),
            whole: whole.map(|w| w.0),
            shards,
        })
    }

    /// The terms a prefix expands to: those that start with it, or that it starts with as a word
    /// starts with its stem, other than the whole word's own term; the [`PREFIX_MAX_EXPANSIONS`] with
    /// the most postings (ties by term), so both sides pick the same.
    pub(super) fn prefix_expansions<'s>(
        &self,
        p: &PrefixTerm,
        // `dyn`: one copy in the wasm module for ranking and typo tolerance.
        get: &dyn Fn(usize) -> Result<&'s TermShard, SearchError>,
    ) -> Result<Vec<&'s crate::format::TermPostings>, SearchError> {
        let mut found = Vec::new();
        for &si in &p.shards {
            for t in &get(si)?.terms {
                let term = t.term.as_str();
                if Some(term) != p.whole.as_deref()
                    && !super::is_exact_key(term)
                    && (term.starts_with(p.text.as_str()) || is_truncated_stem(term, &p.text))
                {
                    found.push(t);
                }
            }
        }
        // Selected, not sorted: a sort instantiated for this one type costs kilobytes of wasm.
        let mut picked = Vec::with_capacity(PREFIX_MAX_EXPANSIONS);
        while picked.len() < PREFIX_MAX_EXPANSIONS && !found.is_empty() {
            let mut best = 0;
            for (i, t) in found.iter().enumerate().skip(1) {
                let b = found[best];
                if (t.postings.len(), core::cmp::Reverse(&t.term))
                    > (b.postings.len(), core::cmp::Reverse(&b.term))
                {
                    best = i;
                }
            }
            picked.push(found.swap_remove(best));
        }
        Ok(picked)
    }

    /// Per chunk (ascending), what the prefix adds to the whole word's score: its best damped
    /// expansion over the whole word's own contribution, if higher; and the expansion that gave it,
    /// for explanations.
    pub(super) fn prefix_scores<'s>(
        &self,
        p: &PrefixTerm,
        get: &impl Fn(usize) -> Result<&'s TermShard, SearchError>,
        params: &crate::format::Bm25Params,
        avg: &[f32; SCORED_FIELDS],
    ) -> Result<Vec<(u32, f32, &'s str)>, SearchError> {
        let expansions = self.prefix_expansions(p, get)?;
        let n = self.manifest.num_chunks as usize;
        // Dense per-chunk bests (as `lexical_chunks` scores): the first expansion wins ties.
        let mut best = vec![(0f32, 0usize); n];
        let mut touched: Vec<u32> = Vec::new();
        for (ei, t) in expansions.iter().enumerate() {
            let idf = self.idf(&t.postings, params);
            for posting in &t.postings {
                let x = bm25f_term(posting, idf, p.weight * PREFIX_DAMPING, params, avg);
                let Some(b) = best.get_mut(posting.chunk as usize) else {
                    continue;
                };
                if b.0 == 0.0 && x > 0.0 {
                    touched.push(posting.chunk);
                }
                if x > b.0 {
                    *b = (x, ei);
                }
            }
        }
        if let Some(whole) = &p.whole {
            // The whole word is a query term: its shard is in the plan.
            if let Some(tp) = match self.locate(whole) {
                Some(si) => get(si)?.get(whole),
                None => None,
            } {
                let idf = self.idf(&tp.postings, params);
                for posting in &tp.postings {
                    if let Some(b) = best.get_mut(posting.chunk as usize) {
                        b.0 -= bm25f_term(posting, idf, p.weight, params, avg);
                    }
                }
            }
        }
        touched.sort_unstable();
        Ok(touched
            .into_iter()
            .filter_map(|c| {
                let (x, ei) = best[c as usize];
                (x > 0.0).then(|| (c, x, expansions[ei].term.as_str()))
            })
            .collect())
    }
}

/// The fewest letters a stem of a typed word of `chars` letters is taken to have: stems of at least 5
/// letters, and English suffixes the stemmer removes are at most 7 letters (`-ication`), so a typed
/// word one letter short of its whole is at most 6 past its stem.
pub(super) fn min_stem_chars(chars: usize) -> usize {
    5.max(chars.saturating_sub(6))
}

/// Whether `term` may be the stem of a word that starts with `typed`: `typed` starts with it, and it
/// is long enough ([`min_stem_chars`]): `authenticati` → `authent`, `tokenizat` → `token`, but
/// `authen` ↛ `auth`.
pub(super) fn is_truncated_stem(term: &str, typed: &str) -> bool {
    term.len() < typed.len()
        && typed.starts_with(term)
        && term.chars().count() >= min_stem_chars(typed.chars().count())
}

#[cfg(test)]
mod prefix_tests {
    //! Issue 6: the last word typed is also a prefix.
    use super::*;
    use crate::search::test_index::index;
    use crate::search::SearchOptions;
    use crate::search::*;
    use std::collections::BTreeSet;

    fn ranked(s: &Searcher, shards: &[TermShard], query: &str, prefix: bool) -> Vec<u32> {
        let plan = s.plan_prefix(query, prefix, None);
        let opts = SearchOptions {
            prefix,
            ..Default::default()
        };
        s.rank(&plan, |i| shards.get(i), &opts)
            .unwrap()
            .into_iter()
            .map(|h| h.page)
            .collect()
    }

    const TEXTS: [&str; 5] = [
        "Authentication with API keys and passwords",
        "Rotate an author's avatar",
        "Auth tokens expire after an hour",
        "Call getUserById to read a user",
        "Webhooks retry failed deliveries",
    ];

    #[test]
    fn issue_6_the_last_word_typed_matches_longer_words() {
        let (s, shards) = index(&TEXTS, 4);
        // Without prefix search a partial word finds nothing.
        assert!(ranked(&s, &shards, "authen", false).is_empty());
        assert_eq!(ranked(&s, &shards, "authen", true), vec![0]);
        // A typed word longer than its stem (`authent`) still finds it.
        assert_eq!(ranked(&s, &shards, "authenticati", true), vec![0]);
        // Identifiers are prefixes of their whole form.
        assert_eq!(ranked(&s, &shards, "getuserb", true), vec![3]);
        assert_eq!(ranked(&s, &shards, "call getUserB", true)[0], 3);
        // Only the last word: a finished word followed by a space is matched whole.
        assert!(ranked(&s, &shards, "webhoo ", true).is_empty());
        // Too short to expand.
        assert!(ranked(&s, &shards, "we", true).is_empty());
    }

    #[test]
    fn issue_6_identifiers_match_in_any_separator_form() {
        let texts = [
            "Call get_user_by_id",
            "Get the user id: get a user and its id, user by user",
            "Send x-request-id",
            "Every request has an id: the request id, an x of the request",
            "Then get_zebra",
        ];
        // A term per shard, so that `get-user-by-id`, `get_user_by_id` and `getuserbyid` sort into
        // different shards (`get_zebra` sorts between the last two).
        let (plain, shards) = index(&texts, 1);
        // Without filters a form is asked for only in a shard the query reads anyway: never a fetch
        // of its own (sites past about 21,000 terms have no filters).
        for q in ["get-user-by-id", "getUserById", "X_Request_Id"] {
            let plan = plain.plan(q);
            let own: BTreeSet<usize> = Analyzer::english()
                .analyze(q)
                .into_iter()
                .filter_map(|t| plain.locate(&t.text))
                .chain(plan.exact.iter().filter_map(|e| e.shard))
                .collect();
            assert_eq!(plan.shards, own.into_iter().collect::<Vec<_>>(), "{q}");
        }
        // With filters (what smaller sites have) every form the site uses is found.
        let mut manifest = plain.manifest.clone();
        (manifest.term_shards, manifest.meta_shards) = plain.whole_tables().unwrap();
        for (entry, shard) in manifest.term_shards.iter_mut().zip(&shards) {
            entry.filter =
                crate::filter::TermFilter::build(shard.terms.iter().map(|t| t.term.as_str()));
        }
        let s = Searcher::new(manifest).unwrap();
        // (A name typed joined, `getuserbyid`, finds `getUserById` but not `get_user_by_id`: that
        // needs the index to store the joined form too, an analyzer change.)
        for q in ["getUserById", "get-user-by-id", "GET_USER_BY_ID"] {
            let r = ranked(&s, &shards, q, false);
            assert_eq!(r.first(), Some(&0), "{q}: {r:?}");
        }
        for q in ["X_Request_Id", "xRequestId"] {
            assert_eq!(ranked(&s, &shards, q, false).first(), Some(&2), "{q}");
        }
        assert_eq!(
            separator_forms("getUserById"),
            vec!["get_user_by_id", "get-user-by-id"]
        );
        assert_eq!(
            separator_forms("X-Request-ID"),
            vec!["xrequestid", "x_request_id"]
        );
        assert!(separator_forms("docs.json").is_empty());
        assert!(separator_forms("/v1/users").is_empty());
        // The form the site uses is an identifier term of the plan, boosted as the form typed; the
        // forms it does not use are ruled out by the filters.
        let plan = s.plan("getUserById");
        let w = |t: &str| plan.terms.iter().find(|x| x.text == t).map(|x| x.weight);
        assert_eq!(w("get_user_by_id"), Some(IDENTIFIER_BOOST));
        assert_eq!(w("get-user-by-id"), None);
    }

    #[test]
    fn issue_6_exact_words_outrank_their_extensions() {
        let (s, shards) = index(&TEXTS, 4);
        // "auth" is a word of page 2 and the start of words of pages 0 and 1.
        let hits = ranked(&s, &shards, "auth", true);
        assert_eq!(hits[0], 2, "{hits:?}");
        assert!(hits.contains(&0) && hits.contains(&1), "{hits:?}");
        // The prefix adds the better of the whole word and its best extension, never both.
        let plan = s.plan_prefix("auth", true, None);
        let p = plan.prefix.as_ref().unwrap();
        assert_eq!(p.whole.as_deref(), Some("auth"));
        if !cfg!(feature = "explain") {
            return;
        }
        let opts = SearchOptions {
            prefix: true,
            explain: true,
            ..Default::default()
        };
        let hits = s.rank(&plan, |i| shards.get(i), &opts).unwrap();
        let whole = hits.iter().find(|h| h.page == 2).unwrap();
        let ex = whole.explanation.as_ref().unwrap();
        assert_eq!(ex.terms.len(), 1, "{ex:?}");
        let extension = hits.iter().find(|h| h.page == 0).unwrap();
        let ex = extension.explanation.as_ref().unwrap();
        assert!(ex.terms[0].term.starts_with("auth* → "), "{ex:?}");
    }

    #[test]
    fn issue_6_a_prefix_reads_a_bounded_number_of_shards() {
        // One term per shard: a prefix shared by many terms still reads at most PREFIX_MAX_SHARDS.
        let texts: Vec<String> = (0..40).map(|i| format!("config{i:02}")).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let (s, shards) = index(&refs, 1);
        let plan = s.plan_prefix("conf", true, None);
        let p = plan.prefix.as_ref().unwrap();
        assert!(
            !p.shards.is_empty() && p.shards.len() <= PREFIX_MAX_SHARDS,
            "{:?}",
            p.shards
        );
        assert!(!ranked(&s, &shards, "conf", true).is_empty());
        // Plans without prefix search are unchanged.
        assert_eq!(s.plan_prefix("conf", false, None), s.plan("conf"));
    }
}
