//! Reading a query: its analyzer (the reader's language), its weighted terms, the exact-match keys
//! of a whole title or endpoint, an identifier's other spellings, and the term shards all of them
//! need ([`QueryPlan`]).

use super::phrases::phrases;
use super::phrases::Phrase;
use super::prefix::PrefixTerm;
use super::{FileRef, SearchError, SearchOptions, Searcher};
use crate::analyzer::{normalize_exact, Analyzer, TokenKind};

/// Weight multiplier of a query term that is a whole identifier (`x-request-id`, `getuserbyid`), so that
/// the exact identifier outranks pages that only contain its parts.
pub const IDENTIFIER_BOOST: f32 = 1.5;

/// Score multiplier (1 + boost) for a page whose whole title equals the query.
pub const EXACT_TITLE_BOOST: f32 = 1.0;

/// Score multiplier (1 + boost) for an API page whose `METHOD /path` or operationId equals the query.
pub const EXACT_ENDPOINT_BOOST: f32 = 2.0;

/// Prefixes of the exact-match keys stored in the `exact` field.
pub const EXACT_TITLE_PREFIX: &str = "~t:";
pub const EXACT_ENDPOINT_PREFIX: &str = "~e:";
pub const EXACT_OPERATION_PREFIX: &str = "~o:";
/// The prefix of a page's URL key (on its first chunk): what reading a page by URL looks up
/// ([`Searcher::plan_url`]), never a query's words.
pub const EXACT_URL_PREFIX: &str = "~u:";

/// A page URL as reading by URL compares it: its path and its anchor. A scheme and host are
/// dropped (`https://docs.example.com/a/b` is `/a/b`: citations may be absolute), as are a query, a
/// trailing `/` and a trailing `.md` (the Markdown copy of a page some sites serve); the anchor is
/// the fragment, when not empty.
pub fn url_parts(url: &str) -> (&str, Option<&str>) {
    let (rest, anchor) = match url.trim().split_once('#') {
        Some((r, a)) => (r, Some(a).filter(|a| !a.is_empty())),
        None => (url.trim(), None),
    };
    let rest = rest.split_once('?').map_or(rest, |(r, _)| r);
    let scheme = ["https://", "http://"].iter().find(|s| {
        rest.get(..s.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(s))
    });
    let path = match scheme {
        Some(s) => rest[s.len()..]
            .find('/')
            .map_or("/", |i| &rest[s.len() + i..]),
        None => rest,
    };
    (trim_path(path), anchor)
}

/// `path` without a trailing `.md`, then trailing `/`s (`/` itself stays).
fn trim_path(path: &str) -> &str {
    let path = path.strip_suffix(".md").unwrap_or(path);
    match path.trim_end_matches('/') {
        "" if path.starts_with('/') => "/",
        p => p,
    }
}

/// [`url_parts`]' path percent-decoded, then trimmed again (`/guide%2F` is `/guide`): how reading by
/// URL compares paths.
pub(crate) fn decoded_path(path: &str) -> String {
    trim_path(&percent_decoded(path)).to_owned()
}

/// `url` without the site's URL in front when it has it (`https://org.github.io/proj/a` under
/// `https://org.github.io/proj` is `/a`): citations under a site URL with a path read as the index's
/// own URLs.
pub fn site_relative<'u>(url: &'u str, site_url: Option<&str>) -> &'u str {
    let url = url.trim();
    let site = site_url.map_or("", |s| s.trim().trim_end_matches('/'));
    match url.get(..site.len()) {
        Some(head) if !site.is_empty() && head.eq_ignore_ascii_case(site) => {
            let rest = &url[site.len()..];
            if rest.is_empty() || rest.starts_with(['/', '#', '?']) {
                rest
            } else {
                url
            }
        }
        _ => url,
    }
}

/// The URL key of a page at `url` ([`url_parts`]' path, percent-decoded); `None` for a URL without
/// a path (a record's `#id`).
pub fn url_key(url: &str) -> Option<String> {
    let (path, _) = url_parts(url);
    (!path.is_empty()).then(|| exact_key(EXACT_URL_PREFIX, &decoded_path(path)))
}

/// `s` with its `%XX` escapes decoded, when they decode to UTF-8 (else `s` as it is): a link in
/// `llms.txt` or a browser's address bar escapes what a page's URL and anchors hold as they are
/// (`/guide%20%28new%29` is `/guide (new)`, `#%E4%BD%A0` is `#你`).
pub fn percent_decoded(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('%') {
        return s.into();
    }
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match (
            b[i],
            b.get(i + 1).and_then(|&c| hex(c)),
            b.get(i + 2).and_then(|&c| hex(c)),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_or(s.into(), Into::into)
}

/// The exact-match term for `text` under `prefix`: a hash of the normalized text, so that long titles
/// cost a few bytes in the term shards and filters.
pub fn exact_key(prefix: &str, text: &str) -> String {
    let mut key = prefix.to_owned();
    crate::text::push_hex(
        &mut key,
        crate::filter::term_hash(&normalize_exact(text)),
        16,
    );
    key
}

/// What files an exact-match key under a term of its text (format v12): it sorts right after the
/// term, before any longer term.
pub const EXACT_ANCHOR_SEPARATOR: char = '\u{1}';
// `is_exact_key` looks for it as one byte.
const _: () = assert!(EXACT_ANCHOR_SEPARATOR.is_ascii());

/// Whether an indexed term is an exact-match or URL key, not a word: prefix expansion and the
/// static encoder's fit leave keys out.
pub fn is_exact_key(term: &str) -> bool {
    // A byte loop, not `contains` (memchr): every reader's wasm module.
    term.starts_with('~') || term.bytes().any(|b| b == EXACT_ANCHOR_SEPARATOR as u8)
}

/// The term an exact-match key for `text` is filed under (format v12): of the terms `analyzer`
/// (the query side's, [`Searcher::query_analyzer`]) makes of its normalized text, the longest (the
/// first in term order among those as long; a long term is a rare one, so few keys gather beside
/// it). A query's keys then sort beside one of its own words, in a term shard the query reads
/// anyway: typing costs no request for them (issue 21). `None` when the text makes no term.
pub fn exact_key_anchor(text: &str, analyzer: &Analyzer) -> Option<String> {
    let mut anchor: Option<String> = None;
    analyzer.for_each_token(&normalize_exact(text), |t| {
        let longer = (anchor.as_ref())
            .is_none_or(|a| t.text.len() > a.len() || (t.text.len() == a.len() && t.text < *a));
        if longer {
            anchor = Some(t.text);
        }
    });
    anchor
}

/// [`exact_key`] filed under its text's anchor term ([`exact_key_anchor`]): the key a v12 index
/// stores and a query looks up; the bare key when the text makes no term.
pub fn anchored_exact_key(prefix: &str, text: &str, analyzer: &Analyzer) -> String {
    filed_under(
        exact_key_anchor(text, analyzer).as_deref(),
        exact_key(prefix, text),
    )
}

/// `key` filed under `anchor`, when there is one.
fn filed_under(anchor: Option<&str>, key: String) -> String {
    match anchor {
        Some(anchor) => {
            let mut filed = String::with_capacity(anchor.len() + 1 + key.len());
            filed.push_str(anchor);
            filed.push(EXACT_ANCHOR_SEPARATOR);
            filed.push_str(&key);
            filed
        }
        None => key,
    }
}

/// The most pages one URL key may name (keys collide only by accident or by a hostile site).
pub const MAX_URL_PAGES: usize = 8;

/// A query term and how it scores.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryTerm {
    pub text: String,
    pub weight: f32,
    /// Index of the term shard whose range holds the term; `None` when no shard can hold it
    /// (out of every range, or ruled out by the shard's filter).
    pub shard: Option<usize>,
    /// Another way of writing one of the query's identifiers ([`separator_forms`]): scored, but not
    /// encoded into the static query vector (the identifier as typed already is, and its rows would
    /// cost a fetch).
    pub alternate: bool,
}

/// An exact-match key and its boost.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactKey {
    pub key: String,
    pub boost: f32,
    pub label: &'static str,
    pub shard: Option<usize>,
}

/// What a query needs: its terms, exact keys, and the term shards to fetch.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryPlan {
    /// The analyzer the query was read with: the index's, in the reader's language.
    pub analyzer: Analyzer,
    pub terms: Vec<QueryTerm>,
    pub exact: Vec<ExactKey>,
    /// The last word as a prefix ([`Searcher::plan_prefix`]).
    pub prefix: Option<PrefixTerm>,
    /// Term shard indexes to fetch, sorted, without duplicates.
    pub shards: Vec<usize>,
    /// The query's quoted phrases of two words or more (`"refresh token"`): only chunks with their
    /// words next to each other, in order, in one field rank ([`Searcher::resolve_phrases`]).
    pub phrases: Vec<Phrase>,
}

impl Searcher {
    /// Analyzes the query and lists the term shards it needs.
    pub fn plan(&self, query: &str) -> QueryPlan {
        self.plan_prefix(query, false, None)
    }

    /// The plan of reading the page at `url` ([`url_key`]): no terms, the URL key as its one exact
    /// key, and the term shard that may hold it.
    pub fn plan_url(&self, url: &str) -> QueryPlan {
        let exact: Vec<ExactKey> = url_key(url)
            .map(|key| ExactKey {
                shard: self.locate(&key),
                key,
                boost: 0.0,
                label: "url",
            })
            .into_iter()
            .collect();
        QueryPlan {
            analyzer: self.query_analyzer(None),
            terms: Vec::new(),
            shards: exact.iter().filter_map(|e| e.shard).collect(),
            exact,
            prefix: None,
            phrases: Vec::new(),
        }
    }

    /// The pages whose first chunk carries the plan's URL key (more than one only when URL keys
    /// collide, which the metadata settles), in page order, each with its first chunk. `terms(i)`:
    /// term shard `i`.
    pub fn url_hits<'s>(
        &self,
        plan: &QueryPlan,
        terms: impl Fn(usize) -> Option<&'s crate::TermShard>,
    ) -> Result<Vec<super::PageHit>, SearchError> {
        let get = self.getter(&terms);
        let mut hits: Vec<super::PageHit> = Vec::new();
        for ek in &plan.exact {
            let Some(si) = ek.shard else { continue };
            let Some(tp) = get(si)?.get(&ek.key) else {
                continue;
            };
            for p in &tp.postings {
                let page = self.page_of(p.chunk);
                if hits.iter().any(|h| h.page == page) || hits.len() >= MAX_URL_PAGES {
                    continue;
                }
                hits.push(super::PageHit {
                    page,
                    score: 1.0,
                    matched_chunks: 1,
                    sections: vec![super::ChunkHit {
                        chunk: p.chunk,
                        score: 1.0,
                    }],
                    explanation: None,
                });
            }
        }
        crate::sort::sort_by(&mut hits, |a, b| a.page.cmp(&b.page));
        Ok(hits)
    }

    /// [`Self::plan`], and with `prefix` the query's last word, when nothing follows it and it has at
    /// least [`PREFIX_MIN_CHARS`](super::PREFIX_MIN_CHARS) letters, also as the start of longer indexed terms: `authen` finds
    /// `authentication` (indexed as its stem `authent`), `getuserb` the identifier `getuserbyid`. A
    /// typed word longer than the stem it will have (`authenticati`) matches that stem too. At most
    /// [`PREFIX_MAX_SHARDS`](super::PREFIX_MAX_SHARDS) term shards are read for it. `language`: the reader's, which picks the
    /// analyzer ([`Self::query_analyzer`]).
    pub fn plan_prefix(&self, query: &str, prefix: bool, language: Option<&str>) -> QueryPlan {
        let mut plan = self.plan_words(query, self.query_analyzer(language));
        if prefix {
            plan.prefix = self.prefix_term(query, &plan);
            if let Some(p) = &plan.prefix {
                plan.shards = super::sorted_unique(plan.shards.iter().chain(&p.shards).copied());
            }
        }
        plan
    }

    /// The query's words and identifiers as weighted terms, its exact-match keys, its identifiers'
    /// other spellings where they cost no fetch, its quoted phrases, and the term shards all need.
    pub(super) fn plan_words(&self, query: &str, analyzer: Analyzer) -> QueryPlan {
        // Each term once, in term order, with its highest weight (a sorted list, not a B-tree map:
        // issue 21, the B-tree's code in every reader's module).
        let mut weights: Vec<(String, f32)> = Vec::new();
        let mut forms: Vec<String> = Vec::new();
        for t in analyzer.analyze(query) {
            let w = if t.kind == TokenKind::Identifier {
                forms.extend(separator_forms(&query[t.offset_from..t.offset_to]));
                IDENTIFIER_BOOST
            } else {
                1.0
            };
            match weights.binary_search_by(|(text, _)| text.as_str().cmp(&t.text)) {
                Ok(i) => weights[i].1 = weights[i].1.max(w),
                Err(i) => weights.insert(i, (t.text, w.max(0.0))),
            }
        }
        let mut terms: Vec<QueryTerm> = weights
            .into_iter()
            .map(|(text, weight)| QueryTerm {
                shard: self.locate(&text),
                text,
                weight,
                alternate: false,
            })
            .collect();
        let norm = normalize_exact(query);
        let mut exact = Vec::new();
        let (anchors, bare) = self.exact_key_anchors(&norm);
        if !norm.is_empty() {
            for (prefix, boost, label) in [
                (EXACT_TITLE_PREFIX, EXACT_TITLE_BOOST, "exact title"),
                (
                    EXACT_ENDPOINT_PREFIX,
                    EXACT_ENDPOINT_BOOST,
                    "exact endpoint",
                ),
                (
                    EXACT_OPERATION_PREFIX,
                    EXACT_ENDPOINT_BOOST,
                    "exact operationId",
                ),
            ] {
                let key = exact_key(prefix, &norm);
                let filed = anchors.iter().map(|a| filed_under(Some(a), key.clone()));
                for key in filed.chain(bare.then_some(key.clone())) {
                    exact.push(ExactKey {
                        shard: self.locate(&key),
                        key,
                        boost,
                        label,
                    });
                }
            }
        }
        let mut shards = super::sorted_unique(
            (terms.iter().filter_map(|t| t.shard)).chain(exact.iter().filter_map(|e| e.shard)),
        );
        // An identifier's other forms are asked for only where that costs no fetch of its own: in a
        // shard the query reads anyway, or one whose filter says the site may use the form.
        for form in forms {
            let Some(i) = self.locate(&form) else {
                continue;
            };
            if terms.iter().any(|t| t.text == form)
                || !(shards.binary_search(&i).is_ok()
                    || self.term_entry(i, |s| s.filter.is_some()) == Some(true))
            {
                continue;
            }
            if let Err(at) = shards.binary_search(&i) {
                shards.insert(at, i);
            }
            let at = terms.partition_point(|t| t.text < form);
            terms.insert(
                at,
                QueryTerm {
                    text: form,
                    weight: IDENTIFIER_BOOST,
                    shard: Some(i),
                    alternate: true,
                },
            );
        }
        QueryPlan {
            analyzer,
            terms,
            exact,
            prefix: None,
            shards,
            phrases: phrases(query, analyzer),
        }
    }

    /// The terms the keys of the normalized text `norm` are filed under, and whether its bare key
    /// is looked up too. A v12 index files each key under the term its page's analyzer makes
    /// ([`anchored_exact_key`]), and writes a page in a language its keys bare as well. A reader
    /// looks under the default analyzer's anchor (pages without a language); on an index of one
    /// language (one language's partition, a site in one language) under that language's too; on
    /// an index of several languages (one index for all) bare, one lookup rather than one per
    /// language; and bare wherever an analyzer makes no term of the text or lacks its stemmer (the
    /// lean module has English only: its anchor would not be the writer's). Before v12, bare only.
    fn exact_key_anchors(&self, norm: &str) -> (Vec<String>, bool) {
        let m = &self.manifest;
        if !m.anchored_exact_keys {
            return (Vec::new(), true);
        }
        let mut anchors: Vec<String> = Vec::new();
        let mut bare = m.languages.len() > 1;
        let own = m.languages.first().filter(|_| m.languages.len() == 1);
        for tag in [None].into_iter().chain(own.map(|l| Some(l.as_str()))) {
            let analyzer = Analyzer::for_index(m.analyzer_version, tag)
                .unwrap_or_default()
                .for_query();
            match exact_key_anchor(norm, &analyzer) {
                _ if analyzer.missing_stemmer().is_some() => bare = true,
                Some(a) if !anchors.contains(&a) => anchors.push(a),
                Some(_) => {}
                None => bare = true,
            }
        }
        (anchors, bare)
    }

    /// The analyzer a query in the reader's `language` is read with: the one the index analyzed that
    /// language's pages with, when it has pages in it (`fr`, `zh-CN` for `zh`), else the one of pages
    /// without a language (English).
    pub fn query_analyzer(&self, language: Option<&str>) -> Analyzer {
        let tag = language
            .and_then(|l| self.language_id(l))
            .and_then(|i| self.manifest.languages.get(i as usize))
            .map(String::as_str);
        Analyzer::for_index(self.manifest.analyzer_version, tag)
            .unwrap_or_default()
            .for_query()
    }

    /// A query whose analyzer lacks its language's stemmer is refused, never ranked with unstemmed
    /// words against stemmed pages.
    pub(super) fn check_stemmer(
        &self,
        plan: &QueryPlan,
        opts: &SearchOptions,
    ) -> Result<(), SearchError> {
        match plan.analyzer.missing_stemmer() {
            Some(stemmer) => Err(SearchError::MissingStemmer {
                language: opts.language.clone().unwrap_or_default(),
                stemmer,
            }),
            None => Ok(()),
        }
    }

    /// The index's language a reader's language tag selects: equal ignoring case, or one is the
    /// other's primary subtag (`zh-CN` reads `zh` pages; `pt` reads `pt-BR` pages).
    pub fn language_id(&self, lang: &str) -> Option<u32> {
        let primary = crate::analyzer::primary_subtag;
        let langs = &self.manifest.languages;
        langs
            .iter()
            .position(|l| l.eq_ignore_ascii_case(lang))
            .or_else(|| langs.iter().position(|l| primary(l) == primary(lang)))
            .map(|i| i as u32)
    }

    /// The term shard that may hold `term`: the one whose range holds it, unless its filter rules
    /// the term out (`None`: no fetch can find it).
    pub(super) fn locate(&self, term: &str) -> Option<usize> {
        let i = self.term_shard_for(term)?;
        let ruled_out = self.term_entry(i, |s| {
            s.filter.as_ref().is_some_and(|f| !f.may_contain(term))
        });
        (ruled_out == Some(false)).then_some(i)
    }

    /// Files worth fetching while the user is still typing `partial`: the term shards of its
    /// complete words and the one where its last word, read as a prefix, would sort (no filter can
    /// rule a prefix out); on a paged index (format v11), first the directory pages naming them.
    pub fn preload_files(&self, partial: &str, language: Option<&str>) -> Vec<FileRef> {
        self.missed();
        let plan = self.plan_prefix(partial, false, language);
        let mut last = None;
        plan.analyzer
            .for_each_token(partial, |t| last = Some(t.text));
        let last = last.and_then(|t| self.term_shard_for(&t));
        let shards = super::sorted_unique(plan.shards.into_iter().chain(last));
        let mut files = self.missed();
        files.extend(shards.into_iter().map(|i| FileRef::Terms(i as u32)));
        files
    }
}

/// The other ways an identifier is written: `getUserById`, `get_user_by_id`, `get-user-by-id` and
/// `getuserbyid` are one name, and a reader types whichever they remember. Whole identifiers are
/// indexed as written, so the query also asks for the joined, snake and kebab forms of its parts
/// where that costs no extra fetch (see `plan_words`). Only names of plain parts joined by `_` or `-`
/// or by case: paths, dotted names and `C++` keep their one form.
pub fn separator_forms(raw: &str) -> Vec<String> {
    let mut forms: Vec<String> = Vec::new();
    if raw
        .chars()
        .any(|c| !c.is_alphanumeric() && c != '_' && c != '-')
    {
        return forms;
    }
    let parts = crate::analyzer::split_identifier(raw);
    if parts.len() < 2 {
        return forms;
    }
    let whole = crate::analyzer::fold(raw);
    for sep in ["", "_", "-"] {
        let mut form = String::new();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                form.push_str(sep);
            }
            form.push_str(&crate::analyzer::fold(part));
        }
        if form != whole && form.len() <= crate::analyzer::MAX_TOKEN_BYTES && !forms.contains(&form)
        {
            forms.push(form);
        }
    }
    forms
}

#[cfg(test)]
mod url_tests {
    //! Issue 22: URLs as agents and `llms.txt` write them.
    use super::*;

    /// Issue 22: an escaped URL keys as its page's (llms.txt escapes spaces and parentheses; a
    /// browser, non-ASCII anchors); half an escape or one that is not UTF-8 stays as written.
    #[test]
    fn issue_22_percent_escaped_urls_key_as_their_pages() {
        assert_eq!(percent_decoded("/a%20b%28c%29"), "/a b(c)");
        assert_eq!(percent_decoded("#%E4%BD%A0%e5%a5%bd"), "#你好");
        for raw in ["/a%2", "/a%zz", "/a%FF", "/100%", "/plain"] {
            assert_eq!(percent_decoded(raw), raw);
        }
        assert_eq!(url_key("/guide%20%28new%29"), url_key("/guide (new)"));
        assert_eq!(
            url_key("https://x.y/guide%20(new)/"),
            url_key("/guide (new)")
        );
        // Trimmed again once decoded: an escaped trailing `/` or `.md`.
        for url in [
            "/guide%20(new)%2F",
            "/guide%20(new)%2Emd",
            "/guide (new).md/",
        ] {
            assert_eq!(url_key(url), url_key("/guide (new)"), "{url}");
        }
    }
}

#[cfg(test)]
mod language_tests {
    //! Issue 6: a reader's language selects that language's pages.
    use super::*;

    use crate::search::*;

    #[test]
    fn issue_6_a_readers_language_selects_its_pages() {
        let texts = [
            "Quickstart guide",
            "Guide de démarrage",
            "Quickstart API reference",
        ];
        let (s, shards) = crate::search::test_index::index(&texts, 8);
        let mut m = s.manifest.clone();
        m.languages = vec!["en".into(), "fr".into()];
        m.pages[0].language = Some(0);
        m.pages[1].language = Some(1);
        m.pages[2].language = None; // no language: every reader sees it
        let s = Searcher::new(m).unwrap();
        let pages = |q: &str, lang: Option<&str>| -> Vec<u32> {
            let opts = SearchOptions {
                language: lang.map(str::to_owned),
                ..Default::default()
            };
            let mut p: Vec<u32> = s
                .rank(&s.plan(q), |i| shards.get(i), &opts)
                .unwrap()
                .into_iter()
                .map(|h| h.page)
                .collect();
            p.sort_unstable();
            p
        };
        assert_eq!(pages("guide", None), vec![0, 1]);
        assert_eq!(pages("guide", Some("fr")), vec![1]);
        assert_eq!(pages("guide", Some("FR-ca")), vec![1]);
        assert_eq!(pages("quickstart", Some("en-US")), vec![0, 2]);
        assert_eq!(pages("quickstart", Some("fr")), vec![2]);
        // A language the index lacks filters nothing.
        assert_eq!(pages("guide", Some("de")), vec![0, 1]);
        assert_eq!(s.language_id("zh"), None);
        assert_eq!(s.language_id("en"), Some(0));
    }

    #[test]
    fn issue_6_a_query_is_read_with_its_readers_language_analyzer() {
        let (s, shards) =
            crate::search::test_index::index(&["Guide de démarrage", "Quickstart"], 8);
        let mut m = s.manifest.clone();
        m.languages = vec!["en".into(), "fr".into()];
        m.pages[1].language = Some(1);
        let s = Searcher::new(m.clone()).unwrap();
        let terms = |lang: Option<&str>| -> Vec<String> {
            let plan = s.plan_prefix("les déploiements", false, lang);
            plan.terms.into_iter().map(|t| t.text).collect()
        };
        // English: `les` is a word, `deploiements` stems as English; French: `les` is a stopword
        // and the stemmer reads the accents.
        assert_eq!(terms(None), ["deploiement", "les"]);
        assert_eq!(terms(Some("en")), terms(None));
        let fr = Analyzer::for_language(Some("fr"));
        if cfg!(feature = "stemmers") {
            assert_eq!(
                terms(Some("fr-FR")),
                [fr.analyze("déploiements")[0].text.clone()]
            );
        }
        assert_eq!(
            fr.missing_stemmer().is_some(),
            cfg!(not(feature = "stemmers"))
        );
        // A language the index has no page in reads the query as English.
        assert_eq!(terms(Some("de")), terms(None));
        // A reader without the language's stemmer refuses to rank rather than rank unstemmed words.
        let opts = SearchOptions {
            language: Some("fr".into()),
            ..Default::default()
        };
        let ranked = s.rank(
            &s.plan_prefix("guide", false, Some("fr")),
            |i| shards.get(i),
            &opts,
        );
        if cfg!(feature = "stemmers") {
            assert!(ranked.is_ok());
        } else {
            assert_eq!(
                ranked.unwrap_err(),
                SearchError::MissingStemmer {
                    language: "fr".into(),
                    stemmer: "french"
                }
            );
        }
        // An index of analyzer version 2 reads every query as English, whatever the language.
        m.analyzer_version = 2;
        let v2 = Searcher::new(m).unwrap();
        let plan = v2.plan_prefix("les déploiements", false, Some("fr"));
        assert_eq!(plan.terms.len(), 2);
        assert!(plan.analyzer.missing_stemmer().is_none());
    }
}

#[cfg(test)]
mod exact_key_tests {
    use super::*;

    /// Format v12's lookups: a one-language index under the default analyzer's anchor and the
    /// language's (bare instead where this build lacks the language's stemmer, as the lean module
    /// lacks French), an index of several languages bare, an index before v12 bare only.
    #[test]
    fn exact_keys_looked_up_as_the_writer_filed_them() {
        let (mut s, _) = super::super::test_index::index(&["gérer les abonnements"], 4);
        let keys = |s: &Searcher| -> Vec<String> {
            (s.plan("Gérer les abonnements").exact.into_iter())
                .filter(|k| k.label == "exact title")
                .map(|k| k.key)
                .collect()
        };
        let bare = exact_key(EXACT_TITLE_PREFIX, "Gérer les abonnements");
        let english = Analyzer::english().for_query();
        let default_filed =
            anchored_exact_key(EXACT_TITLE_PREFIX, "Gérer les abonnements", &english);
        assert_eq!(keys(&s), std::slice::from_ref(&default_filed));
        s.manifest.languages = vec!["fr".into()];
        let french = Analyzer::for_language(Some("fr")).for_query();
        let want = match french.missing_stemmer() {
            Some(_) => vec![default_filed.clone(), bare.clone()],
            None => vec![
                default_filed.clone(),
                anchored_exact_key(EXACT_TITLE_PREFIX, "Gérer les abonnements", &french),
            ],
        };
        assert_eq!(keys(&s), want);
        s.manifest.languages = vec!["de".into(), "fr".into()];
        assert_eq!(keys(&s), [default_filed, bare.clone()]);
        s.manifest.anchored_exact_keys = false;
        assert_eq!(keys(&s), [bare]);
    }
}
