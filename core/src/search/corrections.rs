//! Typo tolerance (issue 6): which query words the index lacks, the files that can correct them, and
//! the plan with each correction searched too.

use super::files::FileRef;
use super::{QueryPlan, QueryTerm, SearchError, Searcher};
use crate::analyzer::TokenKind;
use crate::format::TermShard;

impl Searcher {
    /// Typo tolerance: what the query's misspelled words most likely meant. A word is corrected when
    /// it is a plain word of [`crate::typos::TYPO_MIN_CHARS`]+ letters (never an identifier, never
    /// inside double quotes) whose term the index lacks, and, for the last word read as a prefix, no
    /// indexed word starts with it. `Err` lists the files to fetch first: the term shards that say
    /// whether a word is indexed ([`FileRef::Terms`]), then the typo directory ([`FileRef::TypoDir`]),
    /// then the typo shards of its deletion keys ([`FileRef::Typos`]).
    /// `terms`, `dir` and `shards` return what is already loaded.
    pub fn corrections<'s, 't>(
        &self,
        query: &str,
        plan: &QueryPlan,
        terms: impl Fn(usize) -> Option<&'s TermShard>,
        dir: Option<&crate::typos::TypoDirectory>,
        shards: impl Fn(usize) -> Option<&'t crate::typos::TypoShard>,
    ) -> Result<Vec<crate::typos::Correction>, Vec<FileRef>> {
        use crate::typos::{
            best_correction, deletion_keys, is_typo_word, Correction, TYPO_MIN_CHARS,
        };
        if self.manifest.typos.is_none() {
            return Ok(Vec::new());
        }
        let quoted = crate::typos::quoted_spans(query);
        let mut need = Vec::new();
        let mut words: Vec<String> = Vec::new();
        for tok in plan.analyzer.analyze(query) {
            if tok.kind != TokenKind::Word
                || quoted
                    .iter()
                    .any(|&(s, e)| tok.offset_from > s && tok.offset_from < e)
            {
                continue;
            }
            let word = crate::analyzer::fold(&query[tok.offset_from..tok.offset_to]);
            if !is_typo_word(&word, TYPO_MIN_CHARS) || words.contains(&word) {
                continue;
            }
            if let Some(si) = self.locate(&tok.text) {
                match terms(si) {
                    Some(t) if t.get(&tok.text).is_some() => continue, // indexed: not a typo
                    Some(_) => {}
                    None => {
                        need.push(FileRef::Terms(si as u32));
                        continue;
                    }
                }
            }
            if let Some(p) = plan.prefix.as_ref().filter(|p| p.text == word) {
                // A word still being typed, while indexed words start with it.
                let missing: Vec<usize> = p
                    .shards
                    .iter()
                    .copied()
                    .filter(|&i| terms(i).is_none())
                    .collect();
                if !missing.is_empty() {
                    need.extend(missing.into_iter().map(|i| FileRef::Terms(i as u32)));
                    continue;
                }
                let get = |i: usize| terms(i).ok_or(SearchError::MissingTermShard(String::new()));
                if self.prefix_expansions(p, &get).is_ok_and(|e| !e.is_empty()) {
                    continue;
                }
            }
            words.push(word);
        }
        if need.is_empty() && !words.is_empty() {
            match dir {
                None => need.push(FileRef::TypoDir),
                Some(dir) => {
                    for k in words.iter().flat_map(|w| deletion_keys(w)) {
                        let i = dir.shard_for(&k);
                        let file = FileRef::Typos(i as u32);
                        if shards(i).is_none() && !need.contains(&file) {
                            need.push(file);
                        }
                    }
                }
            }
        }
        if !need.is_empty() {
            // Duplicates only among term shards (two words in one shard); no sort (wasm size).
            let mut unique = Vec::with_capacity(need.len());
            for n in need {
                if !unique.contains(&n) {
                    unique.push(n);
                }
            }
            return Err(unique);
        }
        let Some(dir) = dir.filter(|_| !words.is_empty()) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for from in words {
            let mut seen: Vec<usize> = Vec::new();
            for k in deletion_keys(&from) {
                let i = dir.shard_for(&k);
                if !seen.contains(&i) {
                    seen.push(i);
                }
            }
            let found = seen
                .iter()
                .flat_map(|&i| shards(i).map_or(&[][..], |s| &s.words[..]));
            if let Some(e) = best_correction(&from, found) {
                out.push(Correction {
                    to: e.word.clone(),
                    from,
                });
            }
        }
        Ok(out)
    }

    /// `plan` with each correction's word searched too, its weight damped by
    /// [`crate::typos::TYPO_DAMPING`] (the misspelled term stays: it matches nothing). Dropped quotes
    /// are no word to search.
    pub fn corrected_plan(
        &self,
        mut plan: QueryPlan,
        corrections: &[crate::typos::Correction],
    ) -> QueryPlan {
        for c in corrections.iter().filter(|c| !c.is_dropped_quotes()) {
            let from = plan.analyzer.stem_word(&c.from);
            let to = plan.analyzer.stem_word(&c.to);
            let weight = plan
                .terms
                .iter()
                .find(|t| t.text == from)
                .map_or(1.0, |t| t.weight)
                * crate::typos::TYPO_DAMPING;
            let at = plan.terms.partition_point(|t| t.text < to);
            if plan.terms.get(at).is_some_and(|t| t.text == to) {
                continue; // already a query term
            }
            let shard = self.locate(&to);
            if let Some(si) = shard {
                if let Err(i) = plan.shards.binary_search(&si) {
                    plan.shards.insert(i, si);
                }
            }
            plan.terms.insert(
                at,
                QueryTerm {
                    text: to,
                    weight,
                    shard,
                    alternate: false,
                },
            );
        }
        plan
    }
}

#[cfg(test)]
mod typo_tests {
    //! Issue 6: words the index lacks are corrected to the indexed words they most likely meant.
    use super::*;
    use crate::format::TermShard;
    use crate::search::*;
    use crate::typos::{Correction, TypoDirectory, TypoShard, TypoWord};

    const TEXTS: [&str; 5] = [
        "Vitamin D deficiency and cancer",
        "Vitals monitoring in intensive care",
        "Authentication with tokens",
        "Call getUserById to read a user",
        "Cancer screening guidelines",
    ];

    /// The example index with its words in one typo shard.
    fn index() -> (Searcher, Vec<TermShard>, TypoDirectory, TypoShard) {
        let (s, shards) = crate::search::test_index::index(&TEXTS, 3);
        let mut manifest = s.manifest.clone();
        manifest.typos = Some("y/d.bin".into());
        let mut words: Vec<String> = Vec::new();
        for t in TEXTS {
            for tok in Analyzer::english().analyze(t) {
                let w = crate::analyzer::fold(&t[tok.offset_from..tok.offset_to]);
                if tok.kind == TokenKind::Word
                    && crate::typos::is_typo_word(&w, 3)
                    && !words.contains(&w)
                {
                    words.push(w);
                }
            }
        }
        words.sort_unstable();
        let typo = TypoShard {
            words: words
                .into_iter()
                .map(|word| TypoWord { word, frequency: 1 })
                .collect(),
        };
        let dir = TypoDirectory {
            shard_files: vec!["y/s-0.bin".into()],
            separators: Vec::new(),
        };
        (Searcher::new(manifest).unwrap(), shards, dir, typo)
    }

    fn corrections(query: &str, prefix: bool) -> Vec<Correction> {
        let (s, shards, dir, typo) = index();
        let plan = s.plan_prefix(query, prefix, None);
        s.corrections(query, &plan, |i| shards.get(i), Some(&dir), |_| Some(&typo))
            .unwrap()
    }

    fn pairs(c: &[Correction]) -> Vec<(&str, &str)> {
        c.iter().map(|c| (c.from.as_str(), c.to.as_str())).collect()
    }

    #[test]
    fn issue_6_misspelled_words_are_corrected_to_indexed_words() {
        let c = corrections("Vitamn D deficency", false);
        assert_eq!(
            pairs(&c),
            vec![("vitamn", "vitamin"), ("deficency", "deficiency")]
        );
        assert_eq!(
            crate::typos::corrected_query("Vitamn D deficency", &c),
            "vitamin D deficiency"
        );
        // Indexed words, short words, identifiers and quoted words are left alone.
        assert!(corrections("vitamin cancer", false).is_empty());
        assert!(corrections("cnacer", false).len() == 1);
        assert!(corrections("vit", false).is_empty());
        assert!(corrections("getUserByIdd", false).is_empty());
        assert!(corrections("\"vitamn\" levels", false).is_empty());
        // Nothing within reach: nothing corrected.
        assert!(corrections("zzzzqqqq", false).is_empty());
    }

    #[test]
    fn issue_6_a_word_still_being_typed_is_not_a_typo() {
        // "scree" starts "screening": prefix search finds it, typo tolerance stays out of the way.
        assert!(corrections("cancer scree", true).is_empty());
        // Nor is one that runs past an indexed stem ("screenig" starts "screen", the stem of
        // "screening": prefix search finds that).
        assert!(corrections("cancer screenig", true).is_empty());
        // Once nothing indexed starts with it or is started by it, it is corrected.
        assert_eq!(
            pairs(&corrections("cancer screeming", true)),
            vec![("screeming", "screening")]
        );
    }

    #[test]
    fn issue_6_corrections_name_their_files_round_by_round() {
        let (s, shards, dir, typo) = index();
        let q = "vitamn levels";
        let plan = s.plan(q);
        let none = |_: usize| -> Option<&TermShard> { None };
        let need = s.corrections(q, &plan, none, None, |_| None).unwrap_err();
        assert!(
            need.iter().all(|n| matches!(n, FileRef::Terms(_))),
            "{need:?}"
        );
        let terms = |i: usize| shards.get(i);
        assert_eq!(
            s.corrections(q, &plan, terms, None, |_| None).unwrap_err(),
            vec![FileRef::TypoDir]
        );
        assert_eq!(
            s.corrections(q, &plan, terms, Some(&dir), |_| None)
                .unwrap_err(),
            vec![FileRef::Typos(0)]
        );
        assert_eq!(
            s.corrections(q, &plan, terms, Some(&dir), |_| Some(&typo))
                .unwrap()
                .len(),
            1
        );
        // An index without typo files corrects nothing and needs nothing.
        let (plain, _) = crate::search::test_index::index(&TEXTS, 3);
        assert_eq!(
            plain.corrections(q, &plan, none, None, |_| None),
            Ok(Vec::new())
        );
    }

    #[test]
    fn issue_6_a_corrected_word_ranks_below_the_word_typed_right() {
        let (s, shards, _, _) = index();
        let opts = SearchOptions::default();
        let c = vec![Correction {
            from: "vitamn".into(),
            to: "vitamin".into(),
        }];
        let fixed = s.corrected_plan(s.plan("vitamn"), &c);
        let hits = s.rank(&fixed, |i| shards.get(i), &opts).unwrap();
        assert_eq!(hits.iter().map(|h| h.page).collect::<Vec<_>>(), vec![0]);
        let exact = s
            .rank(&s.plan("vitamin"), |i| shards.get(i), &opts)
            .unwrap();
        let ratio = hits[0].score / exact[0].score;
        assert!((ratio - crate::typos::TYPO_DAMPING).abs() < 1e-4, "{ratio}");
    }
}
