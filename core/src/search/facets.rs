//! Filters and facet counts (issue 6): kind, tags (all, any, none), navigation group, language and
//! version, each facet counted with every filter but its own.

use super::{SearchOptions, Searcher};

/// How many of a query's matching pages have each value of each facet (issue 6), for a search box
/// to offer as filters. A facet's counts apply every filter but its own, so a reader who picked
/// `api` still sees how many `docs` pages match. Counted over the pages the ranking considered:
/// every page with a matching word (lexical), the fused candidates (hybrid), the probed partitions'
/// pages (vector); `min_score` applies. Values by count, then name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facets {
    pub kind: Vec<(String, u32)>,
    pub tag: Vec<(String, u32)>,
    pub group: Vec<(String, u32)>,
    pub language: Vec<(String, u32)>,
    /// Docs versions (format v8 indexes of versioned sites).
    pub version: Vec<(String, u32)>,
}

/// The filters of [`SearchOptions`], one per facet, in [`Facets`] order.
pub(super) const FACET_KIND: usize = 0;
pub(super) const FACET_TAG: usize = 1;
pub(super) const FACET_GROUP: usize = 2;
pub(super) const FACET_LANGUAGE: usize = 3;
pub(super) const FACET_VERSION: usize = 4;
pub(super) const FACETS: usize = 5;

impl Searcher {
    pub(super) fn page_allowed(&self, page: u32, opts: &SearchOptions) -> bool {
        self.page_filters(page, opts).iter().all(|&ok| ok)
    }

    /// Whether `page` passes each facet's filter (kind, tags, group, language).
    pub(super) fn page_filters(&self, page: u32, opts: &SearchOptions) -> [bool; FACETS] {
        let entry = &self.manifest.pages[page as usize];
        let mut ok = [true; FACETS];
        ok[FACET_KIND] = opts.kinds.is_empty() || opts.kinds.contains(&entry.kind);
        if let Some(group) = &opts.group {
            ok[FACET_GROUP] = entry.group.is_some_and(|g| {
                let name = &self.manifest.groups[g as usize];
                // The last part of the breadcrumb (after the last ` > `), found byte-wise: a
                // string pattern's searcher would cost every reader's module a kilobyte.
                let last = (name.as_bytes().windows(3).rposition(|w| w == b" > "))
                    .map_or(name.as_str(), |at| &name[at + 3..]);
                name.eq_ignore_ascii_case(group) || last.eq_ignore_ascii_case(group)
            });
        }
        if let (Some(page_lang), Some(want)) = (
            entry.language,
            opts.language.as_deref().and_then(|l| self.language_id(l)),
        ) {
            ok[FACET_LANGUAGE] = page_lang == want;
        }
        if let (Some(page_version), Some(want)) = (
            entry.version,
            opts.version.as_deref().and_then(|v| {
                let versions = &self.manifest.versions;
                versions.iter().position(|x| x.eq_ignore_ascii_case(v))
            }),
        ) {
            ok[FACET_VERSION] = page_version as usize == want;
        }
        if !(opts.tags.is_empty() && opts.tags_any.is_empty() && opts.tags_none.is_empty()) {
            let set = self.manifest.tagsets.get(entry.tagset as usize);
            let has = |tag: &String| {
                set.is_some_and(|s| {
                    s.iter()
                        .any(|&t| self.manifest.tags[t as usize].eq_ignore_ascii_case(tag))
                })
            };
            ok[FACET_TAG] = opts.tags.iter().all(has)
                && (opts.tags_any.is_empty() || opts.tags_any.iter().any(has))
                && !opts.tags_none.iter().any(has);
        }
        ok
    }

    /// Counts `seen` pages (page, each filter passed, best score) into [`Facets`].
    pub(super) fn count_facets<'s>(
        &'s self,
        seen: &[(u32, [bool; FACETS], f32)],
        opts: &SearchOptions,
    ) -> Facets {
        // Sorted (value, count) vectors and a selection of the commonest, not a map and a sort:
        // each new map or sort instantiation is kilobytes of every reader's wasm.
        let mut counts: [Vec<(&'s str, u32)>; FACETS] = Default::default();
        for (page, ok, score) in seen {
            if *score < opts.min_score {
                continue;
            }
            let entry = &self.manifest.pages[*page as usize];
            for (f, count) in counts.iter_mut().enumerate() {
                // Every filter but this facet's own.
                if !ok.iter().enumerate().all(|(g, &pass)| pass || g == f) {
                    continue;
                }
                let mut add = |v: &'s str| match count.binary_search_by(|e| e.0.cmp(v)) {
                    Ok(i) => count[i].1 += 1,
                    Err(i) => count.insert(i, (v, 1)),
                };
                match f {
                    FACET_KIND => add(entry.kind.name()),
                    FACET_TAG => {
                        let set = self.manifest.tagsets.get(entry.tagset as usize);
                        for &t in set.into_iter().flatten() {
                            if let Some(tag) = self.manifest.tags.get(t as usize) {
                                add(tag);
                            }
                        }
                    }
                    // One value per page, an index into a manifest list.
                    _ => {
                        let m = &self.manifest;
                        let (id, names) = match f {
                            FACET_GROUP => (entry.group, &m.groups),
                            FACET_LANGUAGE => (entry.language, &m.languages),
                            _ => (entry.version, &m.versions),
                        };
                        if let Some(v) = id.and_then(|i| names.get(i as usize)) {
                            add(v);
                        }
                    }
                }
            }
        }
        let mut facets = counts.into_iter().map(|mut rest| {
            // The commonest first; ties keep name order (the first maximum wins).
            let mut out = Vec::new();
            while !rest.is_empty() && (opts.facet_limit == 0 || out.len() < opts.facet_limit) {
                let mut best = 0;
                for i in 1..rest.len() {
                    if rest[i].1 > rest[best].1 {
                        best = i;
                    }
                }
                let (value, n) = rest.remove(best);
                out.push((value.to_owned(), n));
            }
            out
        });
        let mut next = || facets.next().unwrap_or_default();
        Facets {
            kind: next(),
            tag: next(),
            group: next(),
            language: next(),
            version: next(),
        }
    }
}

#[cfg(test)]
mod facet_tests {
    //! Issue 6: facet counts for the current query and compound tag filters.
    use super::*;
    use crate::format::{Kind, TermShard};
    use crate::search::*;

    /// Five pages that all match "token": kinds, tags, groups and languages vary.
    fn searcher() -> (Searcher, Vec<TermShard>) {
        let texts = [
            "token refresh guide",
            "token api reference",
            "token api errors",
            "rotate a token",
            "jeton token",
        ];
        let (s, shards) = crate::search::test_index::index(&texts, 8);
        let mut m = s.manifest.clone();
        m.tags = vec!["auth".into(), "beta".into(), "errors".into()];
        m.tagsets = vec![vec![], vec![0], vec![0, 1], vec![2]];
        m.groups = vec!["Guides".into(), "API > Tokens".into()];
        m.languages = vec!["en".into(), "fr".into()];
        m.versions = vec!["v1".into(), "v2".into()];
        let pages = [
            (Kind::Docs, Some(0), 1, Some(0), Some(1)),
            (Kind::Api, Some(1), 2, Some(0), Some(1)),
            (Kind::Api, Some(1), 3, Some(0), Some(0)),
            (Kind::Docs, None, 0, Some(0), None),
            (Kind::Docs, Some(0), 1, Some(1), Some(1)),
        ];
        for (p, (kind, group, tagset, language, version)) in m.pages.iter_mut().zip(pages) {
            p.kind = kind;
            p.group = group;
            p.tagset = tagset;
            p.language = language;
            p.version = version;
        }
        (Searcher::new(m).unwrap(), shards)
    }

    fn run(s: &Searcher, shards: &[TermShard], opts: SearchOptions) -> (Vec<u32>, Facets) {
        let opts = SearchOptions {
            facets: true,
            ..opts
        };
        let plan = s.plan("token");
        let (hits, _, facets) = s
            .rank_faceted(
                &plan,
                |i| shards.get(i),
                None::<VectorQuery<'_, fn(usize) -> Option<&'static crate::vectors::VectorShard>>>,
                &opts,
            )
            .unwrap();
        let mut pages: Vec<u32> = hits.into_iter().map(|h| h.page).collect();
        pages.sort_unstable();
        (pages, facets.unwrap())
    }

    fn pairs(v: &[(&str, u32)]) -> Vec<(String, u32)> {
        v.iter().map(|&(a, n)| (a.to_owned(), n)).collect()
    }

    #[test]
    fn issue_6_facets_count_every_match_by_kind_tag_group_and_language() {
        let (s, shards) = searcher();
        let (pages, f) = run(&s, &shards, SearchOptions::default());
        assert_eq!(pages, [0, 1, 2, 3, 4]);
        assert_eq!(f.kind, pairs(&[("docs", 3), ("api", 2)]));
        // Commonest first, ties by name.
        assert_eq!(f.tag, pairs(&[("auth", 3), ("beta", 1), ("errors", 1)]));
        assert_eq!(f.group, pairs(&[("API > Tokens", 2), ("Guides", 2)]));
        assert_eq!(f.language, pairs(&[("en", 4), ("fr", 1)]));
        assert_eq!(f.version, pairs(&[("v2", 3), ("v1", 1)]));
        // Without `facets`, none are counted.
        let (_, _, none) = s
            .rank_faceted(
                &s.plan("token"),
                |i| shards.get(i),
                None::<VectorQuery<'_, fn(usize) -> Option<&'static crate::vectors::VectorShard>>>,
                &SearchOptions::default(),
            )
            .unwrap();
        assert!(none.is_none());
    }

    /// A group filter names the whole breadcrumb or its last part, in any case; a part before the
    /// last names nothing.
    #[test]
    fn issue_21_group_filter_by_breadcrumb_or_its_last_part() {
        let (s, shards) = searcher();
        for (group, want) in [
            ("API > Tokens", &[1u32, 2][..]),
            ("tokens", &[1, 2]),
            ("API", &[]),
            ("guides", &[0, 4]),
            (" > Tokens", &[]),
        ] {
            let opts = SearchOptions {
                group: Some(group.into()),
                ..Default::default()
            };
            assert_eq!(run(&s, &shards, opts).0, want, "{group}");
        }
    }

    #[test]
    fn issue_6_a_facet_ignores_its_own_filter_and_applies_the_others() {
        let (s, shards) = searcher();
        let api = SearchOptions {
            kinds: vec![Kind::Api],
            ..Default::default()
        };
        let (pages, f) = run(&s, &shards, api);
        assert_eq!(pages, [1, 2]);
        // The kind facet still counts docs pages (the reader may switch)...
        assert_eq!(f.kind, pairs(&[("docs", 3), ("api", 2)]));
        // ... the others count only the api pages.
        assert_eq!(f.tag, pairs(&[("auth", 1), ("beta", 1), ("errors", 1)]));
        assert_eq!(f.language, pairs(&[("en", 2)]));
        // A language filter narrows every facet but the language one.
        let fr = SearchOptions {
            language: Some("fr".into()),
            ..Default::default()
        };
        let (pages, f) = run(&s, &shards, fr);
        assert_eq!(pages, [4]);
        assert_eq!(f.language, pairs(&[("en", 4), ("fr", 1)]));
        assert_eq!(f.kind, pairs(&[("docs", 1)]));
        // A docs version keeps its pages and the pages in none (page 3); the version facet still
        // counts the other version; a version the index lacks filters nothing.
        let v1 = SearchOptions {
            version: Some("V1".into()),
            ..Default::default()
        };
        let (pages, f) = run(&s, &shards, v1);
        assert_eq!(pages, [2, 3]);
        assert_eq!(f.version, pairs(&[("v2", 3), ("v1", 1)]));
        assert_eq!(f.kind, pairs(&[("api", 1), ("docs", 1)]));
        let v9 = SearchOptions {
            version: Some("v9".into()),
            ..Default::default()
        };
        assert_eq!(run(&s, &shards, v9).0, [0, 1, 2, 3, 4]);
        // The limit keeps the commonest values.
        let (_, f) = run(
            &s,
            &shards,
            SearchOptions {
                facet_limit: 1,
                ..Default::default()
            },
        );
        assert_eq!(f.tag, pairs(&[("auth", 3)]));
    }

    #[test]
    fn issue_6_compound_tag_filters_all_any_none() {
        let (s, shards) = searcher();
        let tags = |all: &[&str], any: &[&str], none: &[&str]| -> Vec<u32> {
            let owned = |v: &[&str]| v.iter().map(|t| t.to_string()).collect();
            run(
                &s,
                &shards,
                SearchOptions {
                    tags: owned(all),
                    tags_any: owned(any),
                    tags_none: owned(none),
                    ..Default::default()
                },
            )
            .0
        };
        assert_eq!(tags(&["auth"], &[], &[]), [0, 1, 4]);
        assert_eq!(tags(&["auth", "beta"], &[], &[]), [1]);
        assert_eq!(tags(&[], &["beta", "errors"], &[]), [1, 2]);
        assert_eq!(tags(&[], &[], &["auth"]), [2, 3]);
        assert_eq!(tags(&["auth"], &[], &["BETA"]), [0, 4]); // tags match ignoring case
        assert_eq!(tags(&[], &["errors"], &["errors"]), Vec::<u32>::new());
    }
}
