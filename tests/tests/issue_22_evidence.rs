//! Issue 22: evidence under a token budget, measured against the reference tokenizer (cl100k, by
//! `tiktoken-rs`) on every corpus at hand: the fixtures always, the real sites, CoNaLa and SciFact
//! when `../shared/data` is present.

use std::path::{Path, PathBuf};

use aidocs_core::search::evidence_markdown;
use aidocs_core::{EvidenceOptions, QueryVector, SearchOptions};
use aidocs_e2e::{fixture, lexical_build, shared_data};
use aidocs_index::export::LanguageLayout;
use aidocs_reader::LocalIndex;

struct Corpus {
    name: String,
    _guard: tempfile::TempDir,
    out: PathBuf,
    queries: Vec<String>,
}

/// `{"text"}` of the first `n` lines of a JSONL query file.
fn query_texts(file: &Path, n: usize) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .take(n)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["text"].as_str().unwrap().to_owned()
        })
        .collect()
}

/// Every `step`-th page title of an index: known-item queries for a site without judged ones.
fn titles(out: &Path, step: usize) -> Vec<String> {
    let index = LocalIndex::open(out).unwrap();
    let mut t = Vec::new();
    for i in 0..index.searcher.meta_shard_count() {
        for p in &index.meta_shard(i).unwrap().pages {
            t.push(p.title.clone());
        }
    }
    t.into_iter().step_by(step).collect()
}

fn corpora() -> Vec<Corpus> {
    let mut out = Vec::new();
    let mut add = |name: &str, input: PathBuf, queries: Option<Vec<String>>| {
        let (guard, dir) = lexical_build(&input, LanguageLayout::default());
        let queries = queries.unwrap_or_else(|| titles(&dir, 5));
        out.push(Corpus {
            name: name.to_owned(),
            _guard: guard,
            out: dir,
            queries,
        });
    };
    let mut fixed = vec![
        "authentication api key".to_owned(),
        "how do I paginate list users".to_owned(),
        "rate limits".to_owned(),
        "\"request id\"".to_owned(),
        "webhook signature verify".to_owned(),
        "getUserById".to_owned(),
        "zzqx unknownword".to_owned(),
    ];
    fixed.extend(titles_of_fixture("example-site"));
    add("example-site", fixture("example-site"), Some(fixed));
    add("versioned-site", fixture("versioned-site"), None);
    for site in ["mintlify-docs", "pipecat-docs"] {
        if let Some(dir) = shared_data(&format!("sites/{site}")) {
            add(site, dir, None);
        }
    }
    if let Some(dir) = shared_data("conala-pydocs") {
        let q = query_texts(&dir.join("queries.dev.jsonl"), 60);
        add("conala-pydocs", dir.join("docs.jsonl"), Some(q));
    }
    if let Some(dir) = shared_data("scifact") {
        let q = query_texts(&dir.join("queries.jsonl"), 40);
        add("scifact", dir.join("docs.jsonl"), Some(q));
    }
    out
}

fn titles_of_fixture(name: &str) -> Vec<String> {
    let (_g, dir) = lexical_build(&fixture(name), LanguageLayout::default());
    titles(&dir, 1)
}

fn cl100k() -> tiktoken_rs::CoreBPE {
    tiktoken_rs::cl100k_base().expect("cl100k loads")
}

/// The budget holds by the reference count on every corpus and budget, piece by piece and in all;
/// pieces keep their invariants (one page's sections merged when adjacent, within the page cap).
#[test]
fn issue_22_evidence_never_exceeds_its_budget_by_the_reference_tokenizer() {
    let bpe = cl100k();
    for c in corpora() {
        let index = LocalIndex::open(&c.out).unwrap();
        let (mut est, mut reference, mut pieces, mut found) = (0u64, 0u64, 0usize, 0usize);
        for budget in [100u32, 300, 1000, 2000, 4000] {
            for q in &c.queries {
                let opts = SearchOptions {
                    typos: true,
                    evidence: EvidenceOptions::new(budget),
                    ..Default::default()
                };
                let outcome = index.query(q, QueryVector::Static, &opts).unwrap();
                let e = outcome.evidence.expect("asked for evidence");
                let md = evidence_markdown(&e);
                let counted = bpe.encode_ordinary(&md).len() as u32;
                assert!(
                    e.tokens <= budget,
                    "{}: {q:?} at {budget}: {}",
                    c.name,
                    e.tokens
                );
                assert!(
                    counted <= budget,
                    "{}: {q:?} at {budget}: cl100k counts {counted}\n{md}",
                    c.name
                );
                assert!(
                    counted <= e.tokens,
                    "{}: {q:?}: {counted} > {}",
                    c.name,
                    e.tokens
                );
                est += u64::from(e.tokens);
                reference += u64::from(counted);
                pieces += e.pieces.len();
                found += usize::from(!e.pieces.is_empty());
                let cap = (budget / 2).max(96).min(budget);
                let mut by_page: Vec<(u32, u32)> = Vec::new();
                for (n, p) in e.pieces.iter().enumerate() {
                    assert!(!p.text.trim().is_empty());
                    assert!(p.chunks.windows(2).all(|w| w[1] == w[0] + 1));
                    let single = aidocs_core::Evidence {
                        pieces: vec![p.clone()],
                        ..e.clone()
                    };
                    let own = bpe.encode_ordinary(&evidence_markdown(&single)).len() as u32;
                    assert!(
                        own <= p.tokens,
                        "{}: piece {n} of {q:?}: {own} > {}",
                        c.name,
                        p.tokens
                    );
                    match by_page.iter_mut().find(|(pg, _)| *pg == p.page) {
                        Some((_, t)) => *t += p.tokens,
                        None => by_page.push((p.page, p.tokens)),
                    }
                    for o in &e.pieces[n + 1..] {
                        let touch = o.page == p.page
                            && (o.chunks[0] == p.chunks[p.chunks.len() - 1] + 1
                                || p.chunks[0] == o.chunks[o.chunks.len() - 1] + 1);
                        assert!(!touch, "{}: adjacent pieces of one page not merged", c.name);
                    }
                }
                assert!(
                    by_page.iter().all(|(_, t)| *t <= cap),
                    "{}: page over its cap",
                    c.name
                );
            }
        }
        // Section by section: the estimate stays at or above cl100k's count for every section of
        // more than 20 tokens (a handful of shorter ones, a line of Hindi names or of French, are
        // up to 3 under; a piece's header, counted high, covers them, as the asserts above check).
        let (mut sections, mut under) = (0usize, Vec::new());
        for e in walkdir::WalkDir::new(c.out.join("x")).into_iter().flatten() {
            if !e.file_type().is_file() {
                continue;
            }
            let text = aidocs_core::PageText::decode(&std::fs::read(e.path()).unwrap()).unwrap();
            for t in text.sections {
                let (r, est) = (
                    bpe.encode_ordinary(&t).len() as u32,
                    aidocs_core::tokens::estimate(&t),
                );
                sections += 1;
                if est < r {
                    assert!(
                        r <= 20 && r - est <= 3,
                        "{}: estimate {est} < cl100k {r}: {t:?}",
                        c.name
                    );
                    under.push(t);
                }
            }
        }
        eprintln!(
            "{}: {sections} sections, {} short ones under the reference: {under:?}",
            c.name,
            under.len()
        );
        eprintln!(
            "{}: {} queries × 5 budgets: {found} with evidence, {pieces} pieces; estimate {est} tokens, cl100k {reference} ({:.2}× the reference)",
            c.name,
            c.queries.len(),
            est as f64 / reference.max(1) as f64
        );
    }
}

/// The section text files are written by the same visibility-filtered build as every other file: a
/// public build's hold no internal or private text (nor does its evidence, asked for the canaries
/// by name), an internal build's hold internal text and never private text.
#[test]
fn issue_22_text_files_hold_what_the_audience_may_read_and_nothing_else() {
    use aidocs_index::Visibility;
    const INTERNAL: &str = "CANARY-INTERNAL-7f3a";
    const PRIVATE: &str = "CANARY-PRIVATE-91c2";
    let texts = |dir: &Path| -> String {
        let mut all = String::new();
        for e in walkdir::WalkDir::new(dir.join("x")).into_iter().flatten() {
            if e.file_type().is_file() {
                let t = aidocs_core::PageText::decode(&std::fs::read(e.path()).unwrap()).unwrap();
                all.push_str(&t.sections.join("\n"));
            }
        }
        all.to_lowercase()
    };
    for (audience, internal_visible) in [(Visibility::Public, false), (Visibility::Internal, true)]
    {
        let (_tmp, out) = example_for(audience);
        let all = texts(&out);
        assert!(
            all.contains("refresh token"),
            "{audience:?}: the text files hold the pages' text"
        );
        assert_eq!(
            all.contains(&INTERNAL.to_lowercase()),
            internal_visible,
            "{audience:?}"
        );
        assert!(!all.contains(&PRIVATE.to_lowercase()), "{audience:?}");
        let index = LocalIndex::open(&out).unwrap();
        for q in [INTERNAL, PRIVATE, "internal", "private"] {
            let opts = SearchOptions {
                evidence: EvidenceOptions::new(4000),
                ..Default::default()
            };
            let e = index
                .query(q, QueryVector::Static, &opts)
                .unwrap()
                .evidence
                .unwrap();
            let md = evidence_markdown(&e).to_lowercase();
            assert!(!md.contains(&PRIVATE.to_lowercase()), "{audience:?} {q}");
            if !internal_visible {
                assert!(!md.contains(&INTERNAL.to_lowercase()), "{audience:?} {q}");
            }
        }
    }
}

/// Text written to be counted low: the estimate stays at or above cl100k's count on base64 and PEM
/// blocks, words without vowels, mathematical letters, emoji and scripts BPE merges little, and
/// random lowercase words (fixed seed, 200 strings of each kind).
#[test]
fn issue_22_estimate_holds_on_hostile_text() {
    let bpe = cl100k();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let pick = |r: u64, set: &[char]| set[(r % set.len() as u64) as usize];
    let b64: Vec<char> = ('A'..='Z')
        .chain('a'..='z')
        .chain('0'..='9')
        .chain(['+', '/'])
        .collect();
    let consonants: Vec<char> = "bcdfghjklmnpqrstvwxz".chars().collect();
    let lower: Vec<char> = ('a'..='z').collect();
    let scripts: Vec<char> = "աբգդեզէըթժիլխծկհձղճմյնշոչպջռսվտրցւփքօֆაბგდევზთიკლმნოპჟრსტუფქღყშჩცძწჭხჯჰกขคงจฉชซอะาเแโใไאבגדהוזחטיכלמנסעפצקרשתابتثجحخدذرزسشصضطظعغفقكلمنهوي𝐀𝐁𝐂𝐚𝐛𝐜😀🎉🚀👍🏽".chars().collect();
    let mut worst = (f64::MAX, String::new());
    let mut under = Vec::new();
    for kind in 0..4 {
        for _ in 0..200 {
            let len = 40 + (next() % 400) as usize;
            let text: String = match kind {
                // base64 / a PEM body, 64 characters a line
                0 => (0..len)
                    .map(|i| {
                        if i % 65 == 64 {
                            '\n'
                        } else {
                            pick(next(), &b64)
                        }
                    })
                    .collect(),
                // words without vowels
                1 => (0..len)
                    .map(|i| {
                        if i % 7 == 6 {
                            ' '
                        } else {
                            pick(next(), &consonants)
                        }
                    })
                    .collect(),
                // random lowercase words (vowels by chance)
                2 => (0..len)
                    .map(|i| {
                        if i % 8 == 7 {
                            ' '
                        } else {
                            pick(next(), &lower)
                        }
                    })
                    .collect(),
                // other scripts, mathematical letters, emoji
                _ => (0..len / 2)
                    .map(|i| {
                        if i % 6 == 5 {
                            ' '
                        } else {
                            pick(next(), &scripts)
                        }
                    })
                    .collect(),
            };
            let r = bpe.encode_ordinary(&text).len() as f64;
            let e = f64::from(aidocs_core::tokens::estimate(&text));
            if e / r < worst.0 {
                worst = (e / r, text.chars().take(60).collect());
            }
            if e < r {
                under.push(format!(
                    "kind {kind}: {e} < {r}: {:?}",
                    text.chars().take(60).collect::<String>()
                ));
            }
        }
    }
    eprintln!(
        "hostile text: lowest estimate/cl100k {:.2} on {:?}",
        worst.0, worst.1
    );
    assert!(
        under.is_empty(),
        "{} under: {:?}",
        under.len(),
        &under[..under.len().min(5)]
    );
}

/// The example site built lexically for `audience`: its directory's guard and the index.
fn example_for(audience: aidocs_index::Visibility) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("www/out");
    aidocs_e2e::build_with(
        &fixture("example-site"),
        &out,
        &tmp.path().join("cache"),
        |o| {
            o.audience = audience;
            o.embeddings = aidocs_index::build::Embeddings::Off;
        },
    );
    (tmp, out)
}

/// Reads `url` with a budget of `tokens`: the page read (its URL) and the evidence.
fn read_url(index: &LocalIndex, url: &str, tokens: u32) -> (Option<String>, aidocs_core::Evidence) {
    let mut evidence = EvidenceOptions::new(tokens).unwrap();
    evidence.read = true;
    let opts = SearchOptions {
        evidence: Some(evidence),
        ..Default::default()
    };
    let o = index.query(url, QueryVector::Static, &opts).unwrap();
    assert!(o.results.len() <= 1, "{url}: one page at most");
    (
        o.results.first().map(|r| r.url.clone()),
        o.evidence.unwrap(),
    )
}

/// Issue 22 (MCP `read_page` / `read_section`): every page of a site is read by its URL (as the
/// index cites it, absolute, with a trailing slash or `.md`), whole and in reading order, and each
/// section by its `#anchor`; a budget cuts the text and holds; a URL no page has, or an anchor the
/// page lacks, reads nothing; pages a public build withholds cannot be read by their URLs.
#[test]
fn issue_22_read_gives_a_page_or_a_section_by_its_url() {
    use aidocs_index::Visibility;
    let (_public_guard, public) = example_for(Visibility::Public);
    let (_internal_guard, internal) = example_for(Visibility::Internal);
    let index = LocalIndex::open(&public).unwrap();
    let mut pages = Vec::new();
    for i in 0..index.searcher.meta_shard_count() {
        pages.extend(index.meta_shard(i).unwrap().pages.iter().cloned());
    }
    assert!(pages.len() >= 5, "the fixture's public pages");
    let mut first_chunk = 0u32;
    let mut sections_read = 0;
    for p in &pages {
        let chunks: Vec<u32> = (first_chunk..first_chunk + p.chunks.len() as u32).collect();
        first_chunk += p.chunks.len() as u32;
        for form in [
            p.url.clone(),
            format!("https://docs.example.com{}/", p.url),
            format!("{}.md", p.url),
        ] {
            let (read, e) = read_url(&index, &form, 64_000);
            assert_eq!(read.as_deref(), Some(p.url.as_str()), "{form}");
            assert_eq!(e.pieces.len(), 1, "{form}");
            let piece = &e.pieces[0];
            assert_eq!(piece.chunks, chunks, "{form}: every section, in order");
            assert!(!piece.truncated && !piece.text.is_empty(), "{form}");
            assert_eq!(piece.page_id, p.id);
        }
        for (i, c) in p.chunks.iter().enumerate() {
            if c.anchor.is_empty() {
                continue;
            }
            let (read, e) = read_url(&index, &format!("{}#{}", p.url, c.anchor), 64_000);
            assert_eq!(read.as_deref(), Some(p.url.as_str()));
            let piece = &e.pieces[0];
            assert!(piece.chunks.contains(&chunks[i]), "{}#{}", p.url, c.anchor);
            for &k in &piece.chunks {
                assert_eq!(p.chunks[(k - chunks[0]) as usize].anchor, c.anchor);
            }
            assert!(piece.url.ends_with(&format!("#{}", c.anchor)));
            sections_read += 1;
        }
        // A small budget cuts the page and holds, by the reference tokenizer too.
        let (_, e) = read_url(&index, &p.url, 100);
        let md = evidence_markdown(&e);
        assert!(
            e.tokens <= 100 && cl100k().encode_ordinary(&md).len() <= 100,
            "{}",
            p.url
        );
        // An anchor the page lacks: the page, and no piece.
        let (read, e) = read_url(&index, &format!("{}#no-such-section", p.url), 2000);
        assert_eq!(read.as_deref(), Some(p.url.as_str()));
        assert!(e.pieces.is_empty());
    }
    assert!(
        sections_read >= 3,
        "sections with anchors were read ({sections_read})"
    );
    // Citations under a site URL with a path read as the index's own URLs.
    let p = &pages[1];
    let mut evidence = EvidenceOptions::new(2000).unwrap();
    evidence.read = true;
    evidence.site_url = Some("https://org.github.io/proj/".into());
    let opts = SearchOptions {
        evidence: Some(evidence),
        ..Default::default()
    };
    let cited = format!("https://org.github.io/proj{}", p.url);
    let o = index.query(&cited, QueryVector::Static, &opts).unwrap();
    assert_eq!(o.results[0].url, p.url, "{cited}");
    assert!(o.evidence.unwrap().pieces[0].url.starts_with(&cited));
    for nothing in [
        "/no-such-page",
        "",
        "#",
        "https://docs.example.com/nope?x#y",
        "/\u{0}/é/..",
        &"/a".repeat(5000),
    ] {
        let (read, e) = read_url(&index, nothing, 2000);
        assert_eq!(read, None, "{nothing:?}");
        assert!(e.pieces.is_empty(), "{nothing:?}");
    }
    // The internal build's extra pages are not readable in the public one.
    let inside = LocalIndex::open(&internal).unwrap();
    let mut withheld = 0;
    for i in 0..inside.searcher.meta_shard_count() {
        for p in &inside.meta_shard(i).unwrap().pages {
            if pages.iter().any(|q| q.url == p.url) {
                continue;
            }
            withheld += 1;
            assert_eq!(
                read_url(&inside, &p.url, 2000).0.as_deref(),
                Some(p.url.as_str())
            );
            let (read, e) = read_url(&index, &p.url, 2000);
            assert_eq!(read, None, "{} is withheld from the public build", p.url);
            assert!(e.pieces.is_empty());
        }
    }
    assert!(withheld > 0, "the fixture has internal pages");
}

/// Records whose URLs share a path (a query or a host tells them apart) are read by their whole
/// URL; the path alone reads the first of them.
#[test]
fn issue_22_read_tells_records_of_one_path_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("records.jsonl");
    let records = [
        ("r1", "https://kb.x/a?id=1", "the first record"),
        ("r2", "https://kb.x/a?id=2", "the second record"),
        ("r3", "https://other.x/a", "a record on another host"),
    ];
    let lines: String = records
        .iter()
        .map(|(id, url, text)| {
            let r = serde_json::json!({"id": id, "title": id, "text": text, "url": url});
            format!("{r}\n")
        })
        .collect();
    std::fs::write(&input, lines).unwrap();
    let (_guard, out) = lexical_build(&input, LanguageLayout::default());
    let index = LocalIndex::open(&out).unwrap();
    for (id, url, text) in records {
        let (read, e) = read_url(&index, url, 2000);
        assert_eq!(read.as_deref(), Some(url));
        assert_eq!(e.pieces[0].page_id, id);
        assert!(e.pieces[0].text.contains(text), "{url}");
    }
    assert_eq!(read_url(&index, "/a", 2000).1.pieces[0].page_id, "r1");
}

/// Issue 22 (read-by-URL gap: escaped URLs): a page and a section are read by the links `llms.txt`
/// writes (spaces and parentheses percent-escaped) and by a browser's escaped form of a non-ASCII
/// anchor, as by their URLs as the index cites them.
#[test]
fn issue_22_read_takes_percent_escaped_urls() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(
        site.join("guide (new).mdx"),
        "---\ntitle: Guide new\n---\n\nThe new guide's opening words.\n\n## Démarrage rapide\n\nQuick start: escaped anchors read too.\n",
    )
    .unwrap();
    std::fs::write(
        site.join("other.mdx"),
        "---\ntitle: Other\n---\n\nAnother page.\n",
    )
    .unwrap();
    let out = tmp.path().join("www/out");
    aidocs_e2e::build_with(&site, &out, &tmp.path().join("cache"), |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    let index = LocalIndex::open(&out).unwrap();
    let (cited, _) = read_url(&index, "/guide (new)", 2000);
    let cited = cited.expect("the page by its own URL");
    // The link llms.txt writes for it.
    let llms = std::fs::read_to_string(out.join("llms.txt")).unwrap();
    let link = llms
        .lines()
        .find_map(|l| {
            l.split("](")
                .nth(1)?
                .split(')')
                .next()
                .filter(|u| u.contains("%20"))
        })
        .unwrap_or_else(|| panic!("an escaped link in {llms}"))
        .to_owned();
    for url in [
        link.as_str(),
        "/guide%20%28new%29",
        "https://docs.x/guide%20(new)/",
    ] {
        let (read, e) = read_url(&index, url, 2000);
        assert_eq!(read.as_deref(), Some(cited.as_str()), "{url}");
        assert!(e.pieces[0].text.contains("opening words"), "{url}");
    }
    let (_, e) = read_url(&index, "/guide%20(new)#d%C3%A9marrage-rapide", 2000);
    assert_eq!(e.pieces.len(), 1);
    assert!(
        e.pieces[0].text.contains("Quick start"),
        "{:?}",
        e.pieces[0]
    );
    assert!(!e.pieces[0].text.contains("opening words"));
    // Escapes that are not UTF-8, or half an escape, are read as written: no page.
    for url in ["/guide%20%28new%29%FF", "/guide%2", "/guide%zz(new)"] {
        assert_eq!(read_url(&index, url, 2000).0, None, "{url}");
    }
}
