//! Issue 18: random small sites (declarations in random spellings, globs in random forms, navigation
//! keys written in random ways, include graphs, OpenAPI path items and operations) against an
//! oracle written apart from the indexer: no withheld canary reaches any output or cache byte, and
//! every public one does. CI runs a fixed seed and budget; `AIDOCS_PROPTEST_CASES=N` and
//! `AIDOCS_PROPTEST_SEED=S` run more.

mod fixed_seed;

use std::collections::BTreeSet;
use std::path::Path;

use aidocs_e2e::{build_with, canaries_in};
use aidocs_index::Visibility;
use proptest::prelude::*;

const LEVELS: [Visibility; 3] = [
    Visibility::Public,
    Visibility::Internal,
    Visibility::Private,
];

/// A visibility declaration as some author might write it.
#[derive(Debug, Clone)]
enum Decl {
    None,
    /// key spelling, value spelling, level
    Plain(usize, usize, usize),
    /// `[v]`, `~`, `!x v`, `secret`, `1`: present, not understood
    Unreadable(usize, usize),
    /// `<<: *defaults` carrying the level
    Merge(usize),
}

impl Decl {
    fn frontmatter(&self) -> String {
        let word = |l: usize| ["public", "internal", "private"][l];
        match self {
            Decl::None => "title: Page\n".into(),
            Decl::Plain(k, v, l) => {
                let key = ["visibility", "Visibility", "VISIBILITY", "visibility "][*k % 4];
                let w = word(*l);
                let value = match v % 4 {
                    0 => w.to_owned(),
                    1 => w.to_uppercase(),
                    2 => format!("\"  {w} \""),
                    _ => format!("'{}'", w[..1].to_uppercase() + &w[1..]),
                };
                format!("title: Page\n{key}: {value}\n")
            }
            Decl::Unreadable(f, l) => {
                let w = word(*l);
                let value = match f % 5 {
                    0 => format!("[{w}]"),
                    1 => "~".into(),
                    2 => format!("!x {w}"),
                    3 => "secret".into(),
                    _ => "1".into(),
                };
                format!("title: Page\nvisibility: {value}\n")
            }
            Decl::Merge(l) => format!(
                "defaults: &d\n  visibility: {}\n<<: *d\ntitle: Page\n",
                word(*l)
            ),
        }
    }

    /// The oracle: what the declaration means (unreadable withholds).
    fn level(&self) -> Visibility {
        match self {
            Decl::None => Visibility::Public,
            Decl::Plain(_, _, l) | Decl::Merge(l) => LEVELS[*l],
            Decl::Unreadable(..) => Visibility::Private,
        }
    }
}

fn decl() -> impl Strategy<Value = Decl> {
    prop_oneof![
        3 => Just(Decl::None),
        4 => (0..4usize, 0..4usize, 0..3usize).prop_map(|(k, v, l)| Decl::Plain(k, v, l)),
        2 => (0..5usize, 0..3usize).prop_map(|(f, l)| Decl::Unreadable(f, l)),
        1 => (0..3usize).prop_map(Decl::Merge),
    ]
}

/// A glob of `aidocs.json`: on one page (exact forms) or a whole directory.
#[derive(Debug, Clone)]
struct GlobRule {
    level: usize, // 1 internal, 2 private
    /// page index, or a directory when `dir` is set
    target: usize,
    dir: bool,
    form: usize,
}

#[derive(Debug, Clone)]
struct PageSpec {
    dir: usize,
    decl: Decl,
    nav_form: usize,
    /// snippet indexes this page includes, and how (import or <Snippet>)
    includes: Vec<(usize, bool)>,
}

#[derive(Debug, Clone)]
struct SnippetSpec {
    decl: Decl,
    glob: Option<usize>, // level of a glob on it
    /// another snippet it includes
    next: Option<usize>,
}

#[derive(Debug, Clone)]
struct OpSpec {
    item: usize, // path item declaration form
    op: usize,   // operation declaration form
}

#[derive(Debug, Clone)]
struct SiteSpec {
    pages: Vec<PageSpec>,
    snippets: Vec<SnippetSpec>,
    globs: Vec<GlobRule>,
    ops: Vec<OpSpec>,
}

fn site_spec() -> impl Strategy<Value = SiteSpec> {
    let page = (
        0..3usize,
        decl(),
        0..6usize,
        prop::collection::vec((0..4usize, any::<bool>()), 0..3),
    )
        .prop_map(|(dir, decl, nav_form, includes)| PageSpec {
            dir,
            decl,
            nav_form,
            includes,
        });
    let snippet = (
        decl(),
        prop::option::of(1..3usize),
        prop::option::of(0..4usize),
    )
        .prop_map(|(decl, glob, next)| SnippetSpec { decl, glob, next });
    let glob =
        (1..3usize, 0..6usize, any::<bool>(), 0..5usize).prop_map(|(level, target, dir, form)| {
            GlobRule {
                level,
                target,
                dir,
                form,
            }
        });
    let op = (0..6usize, 0..6usize).prop_map(|(item, op)| OpSpec { item, op });
    (
        prop::collection::vec(page, 2..7),
        prop::collection::vec(snippet, 4..=4),
        prop::collection::vec(glob, 0..4),
        prop::collection::vec(op, 1..4),
    )
        .prop_map(|(pages, snippets, globs, ops)| SiteSpec {
            pages,
            snippets,
            globs,
            ops,
        })
}

/// `i` as letters (`0` → `a`, `27` → `bb`), so canaries hold no digits.
fn letters(i: usize) -> String {
    let a = (b'a' + (i % 26) as u8) as char;
    let b = (b'a' + (i / 26 % 26) as u8) as char;
    format!("{b}{a}")
}

fn page_canary(i: usize) -> String {
    format!("zzpage{}qz", letters(i))
}
fn snippet_canary(i: usize) -> String {
    format!("zzsnip{}qz", letters(i))
}
fn op_canary(i: usize) -> String {
    format!("zzopsx{}qz", letters(i))
}

/// An OpenAPI declaration form: (JSON members, the oracle's level).
fn openapi_decl(form: usize) -> (&'static str, Visibility) {
    match form {
        0 => ("", Visibility::Public),
        1 => (r#""x-internal": true,"#, Visibility::Internal),
        2 => (r#""X-Internal": "TRUE","#, Visibility::Internal),
        3 => (r#""x-visibility": "private","#, Visibility::Private),
        4 => (r#""x-visibility": ["public"],"#, Visibility::Private),
        _ => (r#""x-internal": false,"#, Visibility::Public),
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Writes the site; returns (expected present canaries, expected absent canaries) for `audience`.
fn write_site(spec: &SiteSpec, site: &Path, audience: Visibility) -> (Vec<String>, Vec<String>) {
    let allowed =
        |v: Visibility| v == Visibility::Public || (v == audience && v != Visibility::Private);
    let page_path = |i: usize| {
        (
            format!("d{}", spec.pages[i].dir),
            format!("p{}", letters(i)),
        )
    };

    // Globs, written and interpreted.
    let mut private = Vec::new();
    let mut internal = Vec::new();
    let mut page_glob = vec![Visibility::Public; spec.pages.len()];
    for g in &spec.globs {
        let level = LEVELS[g.level];
        let written = if g.dir {
            let d = format!("d{}", g.target % 3);
            for (i, p) in spec.pages.iter().enumerate() {
                if p.dir == g.target % 3 {
                    page_glob[i] = page_glob[i].max(level);
                }
            }
            match g.form % 5 {
                0 => format!("{d}/**"),
                1 => format!("/{d}/**"),
                2 => format!("{d}/"),
                3 => format!("/{d}/"),
                _ => d,
            }
        } else {
            if g.target >= spec.pages.len() {
                continue;
            }
            page_glob[g.target] = page_glob[g.target].max(level);
            let (d, n) = page_path(g.target);
            match g.form % 5 {
                0 => format!("{d}/{n}.mdx"),
                1 => format!("/{d}/{n}.mdx"),
                2 => format!("{d}/{n}"),
                3 => format!("/{d}/{n}"),
                _ => format!("**/{n}.mdx"),
            }
        };
        if level == Visibility::Private {
            private.push(written);
        } else {
            internal.push(written);
        }
    }
    for (j, s) in spec.snippets.iter().enumerate() {
        match s.glob {
            Some(2) => private.push(format!("snippets/s{j}")),
            Some(_) => internal.push(format!("/snippets/s{j}.mdx")),
            None => {}
        }
    }
    write(
        site,
        "aidocs.json",
        &serde_json::json!({"visibility": {"private": private, "internal": internal}}).to_string(),
    );

    // Snippets.
    let snippet_level: Vec<Visibility> = spec
        .snippets
        .iter()
        .map(|s| {
            s.decl
                .level()
                .max(s.glob.map_or(Visibility::Public, |l| LEVELS[l]))
        })
        .collect();
    for (j, s) in spec.snippets.iter().enumerate() {
        let mut body = format!("---\n{}---\n", s.decl.frontmatter());
        if let Some(n) = s.next.filter(|&n| n != j) {
            body.push_str(&format!("import N from '/snippets/s{n}.mdx'\n\n<N />\n\n"));
        }
        body.push_str(&format!("{}\n", snippet_canary(j)));
        write(site, &format!("snippets/s{j}.mdx"), &body);
    }

    // Pages and navigation.
    let mut nav = Vec::new();
    let mut present = Vec::new();
    let mut absent = Vec::new();
    let mut snippet_seen: BTreeSet<usize> = BTreeSet::new();
    for (i, p) in spec.pages.iter().enumerate() {
        let (d, n) = page_path(i);
        nav.push(match p.nav_form {
            0 => format!("{d}/{n}"),
            1 => format!("./{d}/{n}"),
            2 => format!("{d}/../{d}/{n}"),
            3 => format!("/{d}/{n}"),
            4 => format!("{d}/{n}.mdx"),
            _ => format!("other/../{d}/{n}"),
        });
        let mut body = format!("---\n{}---\n", p.decl.frontmatter());
        for (k, (s, import)) in p.includes.iter().enumerate() {
            if *import {
                body.push_str(&format!("import S{k} from '/snippets/s{s}.mdx'\n"));
            }
        }
        body.push_str(&format!("\n{} text.\n\n", page_canary(i)));
        for (k, (s, import)) in p.includes.iter().enumerate() {
            if *import {
                body.push_str(&format!("<S{k} />\n\n"));
            } else {
                body.push_str(&format!("<Snippet file=\"s{s}.mdx\" />\n\n"));
            }
        }
        write(site, &format!("{d}/{n}.mdx"), &body);
        // A navigation entry written with its extension lists no page (as on Mintlify): the
        // file is unlisted, and out of search.
        let visible = allowed(p.decl.level().max(page_glob[i])) && p.nav_form != 4;
        if visible {
            present.push(page_canary(i));
            // Snippets reached through allowed files only.
            for (s, _) in &p.includes {
                let mut cur = Some(*s);
                let mut chain = BTreeSet::new();
                while let Some(c) = cur {
                    if !chain.insert(c) || !allowed(snippet_level[c]) {
                        break;
                    }
                    snippet_seen.insert(c);
                    cur = spec.snippets[c].next.filter(|&n| n != c);
                }
            }
        } else {
            absent.push(page_canary(i));
        }
    }
    for j in 0..spec.snippets.len() {
        if snippet_seen.contains(&j) {
            present.push(snippet_canary(j));
        } else {
            absent.push(snippet_canary(j));
        }
    }

    // One spec: each operation under its own path item.
    let mut paths = Vec::new();
    for (i, o) in spec.ops.iter().enumerate() {
        let (item, item_level) = openapi_decl(o.item);
        let (op, op_level) = openapi_decl(o.op);
        paths.push(format!(
            r#""/op{i}": {{{item} "get": {{{op} "operationId": "op{i}", "summary": "{}"}}}}"#,
            op_canary(i)
        ));
        if allowed(item_level.max(op_level)) {
            present.push(op_canary(i));
        } else {
            absent.push(op_canary(i));
        }
    }
    write(
        site,
        "openapi.json",
        &format!(
            r#"{{"openapi": "3.0.0", "info": {{"title": "API"}}, "paths": {{{}}}}}"#,
            paths.join(",")
        ),
    );
    write(
        site,
        "docs.json",
        // A navigation group that names the spec and lists no operation: Mintlify generates a page
        // for every operation of it.
        &serde_json::json!({"navigation": {"groups": [
            {"group": "Docs", "pages": nav},
            {"group": "API", "openapi": "openapi.json"}
        ]}})
        .to_string(),
    );
    (present, absent)
}

fn check(spec: &SiteSpec, audience: Visibility) -> Result<(), TestCaseError> {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    let (present, absent) = write_site(spec, &site, audience);
    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    build_with(&site, &out, &cache, |o| {
        o.audience = audience;
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    let absent: Vec<&str> = absent.iter().map(String::as_str).collect();
    for dir in [&out, &cache] {
        let found = canaries_in(dir, &absent);
        prop_assert!(
            found.is_empty(),
            "{audience:?}: withheld text found: {found:?}"
        );
    }
    for c in &present {
        prop_assert!(
            !canaries_in(&out, &[c]).is_empty(),
            "{audience:?}: visible `{c}` is missing from the output"
        );
    }
    Ok(())
}

#[test]
fn issue_18_random_sites_leak_nothing_and_lose_nothing() {
    let (mut runner, cases, seed) = fixed_seed::runner(24, 18);
    let result = runner.run(&(site_spec(), any::<bool>()), |(spec, internal)| {
        let audience = if internal {
            Visibility::Internal
        } else {
            Visibility::Public
        };
        check(&spec, audience)
    });
    eprintln!("issue 18 property: {cases} generated sites, seed {seed}");
    if let Err(e) = result {
        panic!("{e}");
    }
}
