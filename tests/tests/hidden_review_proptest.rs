//! Hidden-content review (session 22): random sites that hide pages every way Mintlify documents
//! (docs.json elements `hidden` / `searchable` / `public`, frontmatter `hidden` / `noindex` /
//! `public` / `groups` in random spellings, `.mintignore`, `seo.indexing`) against an oracle
//! written apart from the indexer from Mintlify's documentation: a public build holds a page's
//! canary exactly when Mintlify's search shows the page to a reader who is not signed in. CI runs a
//! fixed seed and budget; `AIDOCS_PROPTEST_CASES=N` and `AIDOCS_PROPTEST_SEED=S` run more.

mod fixed_seed;

use std::path::Path;

use aidocs_e2e::{build_with, canaries_in};
use proptest::prelude::*;

/// A navigation group's flags: `hidden` (0 absent, 1 `true`, 2 `"yes"`, 3 `false`), `searchable`
/// (0 absent, 1 `true`, 2 `"Searchable": true`, 3 `"true"`), `public` (0 absent, 1 `true`,
/// 2 `false`, 3 `"Public": true`); an optional child group.
#[derive(Debug, Clone)]
struct Group {
    hidden: usize,
    searchable: usize,
    public: usize,
    child: Option<Box<Group>>,
}

/// A page's frontmatter: `hidden` (0 absent, 1 `true`, 2 `false`, 3 `Hidden: false`, 4 `yes`,
/// 5 `"false"`, 6 `0`), `noindex` (0 absent, 1 `true`, 2 `false`), `public` (0 absent, 1 `true`,
/// 2 `false`, 3 `Public: true`), `groups`, ignored by `.mintignore`, and where it is listed (group
/// index, in the child or not), twice for some.
#[derive(Debug, Clone)]
struct PageSpec {
    hidden: usize,
    noindex: usize,
    public: usize,
    groups: bool,
    ignored: bool,
    listings: Vec<(usize, bool)>,
}

#[derive(Debug, Clone)]
struct SiteSpec {
    groups: Vec<Group>,
    pages: Vec<PageSpec>,
    seo_all: bool,
}

fn group() -> impl Strategy<Value = Group> {
    let flags = (0..4usize, 0..4usize, 0..4usize);
    (flags.clone(), proptest::option::of(flags)).prop_map(
        |((hidden, searchable, public), child)| Group {
            hidden,
            searchable,
            public,
            child: child.map(|(hidden, searchable, public)| {
                Box::new(Group {
                    hidden,
                    searchable,
                    public,
                    child: None,
                })
            }),
        },
    )
}

fn site_spec() -> impl Strategy<Value = SiteSpec> {
    let page = (
        (0..7usize, 0..3usize, 0..4usize),
        (
            proptest::bool::weighted(0.15),
            proptest::bool::weighted(0.15),
        ),
        proptest::collection::vec((0..3usize, any::<bool>()), 1..3),
    )
        .prop_map(
            |((hidden, noindex, public), (groups, ignored), listings)| PageSpec {
                hidden,
                noindex,
                public,
                groups,
                ignored,
                listings,
            },
        );
    (
        proptest::collection::vec(group(), 3),
        proptest::collection::vec(page, 1..7),
        proptest::bool::weighted(0.2),
    )
        .prop_map(|(groups, pages, seo_all)| SiteSpec {
            groups,
            pages,
            seo_all,
        })
}

fn canary(i: usize) -> String {
    let letters: String = format!("{i:03}")
        .chars()
        .map(|c| (b'a' + c.to_digit(10).unwrap() as u8) as char)
        .collect();
    format!("hidprop{letters}qz")
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A group's docs.json keys besides `group` and `pages`.
fn group_keys(g: &Group) -> String {
    let mut keys = String::new();
    keys.push_str(
        [
            "",
            r#""hidden": true, "#,
            r#""hidden": "yes", "#,
            r#""hidden": false, "#,
        ][g.hidden],
    );
    keys.push_str(
        [
            "",
            r#""searchable": true, "#,
            r#""Searchable": true, "#,
            r#""searchable": "true", "#,
        ][g.searchable],
    );
    keys.push_str(
        [
            "",
            r#""public": true, "#,
            r#""public": false, "#,
            r#""Public": true, "#,
        ][g.public],
    );
    keys
}

/// What Mintlify's documentation says of one listing, along the path of groups to it: hidden from
/// search (the nearest hidden element decides, `searchable: true` exactly keeps it), public (the
/// nearest element with a `public` key decides, only `public: true` exactly opens).
fn listing_oracle(path: &[&Group]) -> (bool, bool) {
    let (mut hidden, mut public) = (false, false);
    for g in path {
        if matches!(g.hidden, 1 | 2) {
            hidden = g.searchable != 1;
        }
        if g.public != 0 {
            public = g.public == 1;
        }
    }
    (hidden, public)
}

/// The canaries a public build must hold and must not hold.
fn write_site(spec: &SiteSpec, root: &Path) -> (Vec<String>, Vec<String>) {
    let mut group_pages: Vec<(Vec<String>, Vec<String>)> =
        vec![Default::default(); spec.groups.len()];
    let mut ignore = String::new();
    for (i, p) in spec.pages.iter().enumerate() {
        if p.ignored {
            ignore.push_str(&format!("/p{i}.mdx\n"));
        }
        let rel = format!("p{i}");
        for &(g, in_child) in &p.listings {
            let g = g % spec.groups.len();
            if in_child && spec.groups[g].child.is_some() {
                group_pages[g].1.push(rel.clone());
            } else {
                group_pages[g].0.push(rel.clone());
            }
        }
        let mut fm = String::from("title: Page\n");
        fm.push_str(
            [
                "",
                "hidden: true\n",
                "hidden: false\n",
                "Hidden: false\n",
                "hidden: yes\n",
                "hidden: \"false\"\n",
                "hidden: 0\n",
            ][p.hidden],
        );
        fm.push_str(["", "noindex: true\n", "noindex: false\n"][p.noindex]);
        fm.push_str(["", "public: true\n", "public: false\n", "Public: true\n"][p.public]);
        if p.groups {
            fm.push_str("groups: [\"admin\"]\n");
        }
        write(
            root,
            &format!("p{i}.mdx"),
            &format!("---\n{fm}---\n# Page {i}\n\n{}\n", canary(i)),
        );
    }
    let groups: Vec<String> = (spec.groups.iter().zip(&group_pages).enumerate())
        .map(|(gi, (g, (pages, child_pages)))| {
            let quoted = |v: &[String]| {
                v.iter()
                    .map(|p| format!("\"{p}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let mut items = quoted(pages);
            if let Some(c) = &g.child {
                let child = format!(
                    r#"{{"group": "G{gi}c", {}"pages": [{}]}}"#,
                    group_keys(c),
                    quoted(child_pages)
                );
                items = if items.is_empty() {
                    child
                } else {
                    format!("{items}, {child}")
                };
            }
            format!(
                r#"{{"group": "G{gi}", {}"pages": [{items}]}}"#,
                group_keys(g)
            )
        })
        .collect();
    let seo = if spec.seo_all {
        r#""seo": {"indexing": "all"}, "#
    } else {
        ""
    };
    write(
        root,
        "docs.json",
        &format!(
            r#"{{{seo}"navigation": {{"groups": [{}]}}}}"#,
            groups.join(", ")
        ),
    );
    write(root, ".mintignore", &ignore);

    // The oracle.
    let mut listings_of: Vec<Vec<(bool, bool)>> = vec![Vec::new(); spec.pages.len()];
    for (i, p) in spec.pages.iter().enumerate() {
        for &(g, in_child) in &p.listings {
            let g = &spec.groups[g % spec.groups.len()];
            let path: Vec<&Group> = match (&g.child, in_child) {
                (Some(c), true) => vec![g, c],
                _ => vec![g],
            };
            listings_of[i].push(listing_oracle(&path));
        }
    }
    // Any truthy `public`, whatever the key's case, says the site signs readers in: on a group,
    // or on a page Mintlify serves (an ignored file is none).
    let group_declares = |g: &Group| matches!(g.public, 1 | 3);
    let authenticated = spec
        .groups
        .iter()
        .any(|g| group_declares(g) || g.child.as_deref().is_some_and(group_declares))
        || spec
            .pages
            .iter()
            .any(|p| matches!(p.public, 1 | 3) && !p.ignored);
    let (mut present, mut absent) = (Vec::new(), Vec::new());
    for (i, p) in spec.pages.iter().enumerate() {
        let nav_hidden = listings_of[i].iter().any(|l| l.0);
        let nav_public = listings_of[i].iter().all(|l| l.1);
        let hidden = match p.hidden {
            1 | 4 => true,
            2 => false,
            _ => nav_hidden,
        };
        let public = match p.public {
            0 => !authenticated || nav_public,
            1 => true,
            _ => false,
        };
        let shown = !p.ignored
            && p.hidden != 5 // text where a boolean belongs: not understood, withheld
            && p.noindex != 1
            && !p.groups
            && public
            && (!hidden || spec.seo_all);
        if shown {
            present.push(canary(i));
        } else {
            absent.push(canary(i));
        }
    }
    (present, absent)
}

fn check(spec: &SiteSpec) -> Result<(), TestCaseError> {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    let (present, absent) = write_site(spec, &site);
    let (out, cache) = (tmp.path().join("www/_search"), tmp.path().join("cache"));
    build_with(&site, &out, &cache, |o| {
        o.embeddings = aidocs_index::build::Embeddings::Off;
    });
    let absent: Vec<&str> = absent.iter().map(String::as_str).collect();
    let found = canaries_in(&out, &absent);
    prop_assert!(found.is_empty(), "hidden text found: {found:?}");
    for c in &present {
        prop_assert!(
            !canaries_in(&out, &[c]).is_empty(),
            "shown `{c}` is missing"
        );
    }
    Ok(())
}

#[test]
fn hidden_review_random_sites_show_what_mintlify_shows() {
    let (mut runner, cases, seed) = fixed_seed::runner(48, 22);
    let result = runner.run(&site_spec(), |spec| check(&spec));
    eprintln!("hidden review property: {cases} generated sites, seed {seed}");
    if let Err(e) = result {
        panic!("{e}");
    }
}
