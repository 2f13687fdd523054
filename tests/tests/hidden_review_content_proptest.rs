//! What the page never shows stays out of the index, for generated nestings: trees of elements
//! that hide what they wrap (`<Visibility for="agents">`, `<div hidden>`, `<template>`, a style or
//! class that hides) and elements that show it, with code fences and comments whose text looks
//! like a closing tag, go through the MDX-to-text pass (and the Markdown one, for the elements that
//! are HTML too). A canary is in the text exactly when no
//! element around it hides it. CI runs a fixed seed and budget; `AIDOCS_PROPTEST_CASES=N` and
//! `AIDOCS_PROPTEST_SEED=S` run more.

mod fixed_seed;

use aidocs_index::mdx::{to_markdown, Dialect, IncludePolicy, SnippetResolver};
use aidocs_index::openapi::LoadedOperations;
use aidocs_index::visibility::{SiteRoot, VisibilityRules};
use aidocs_index::Visibility;
use proptest::prelude::*;

/// (opening tag, name, whether the page hides what it wraps)
const ELEMENTS: &[(&str, &str, bool)] = &[
    ("<Visibility for=\"agents\">", "Visibility", true),
    ("<Visibility for=\"humans\">", "Visibility", false),
    ("<Visibility for={audience}>", "Visibility", true),
    ("<div hidden>", "div", true),
    ("<div hidden={false}>", "div", false),
    ("<div>", "div", false),
    ("<div className=\"hidden md:block\">", "div", false),
    ("<div className=\"p-2 hidden\">", "div", true),
    ("<div class=\"p-2 hidden\">", "div", true),
    ("<p style={{ display: 'none' }}>", "p", true),
    ("<p>", "p", false),
    ("<template>", "template", true),
    ("<noscript>", "noscript", true),
    ("<Note>", "Note", false),
    ("<Accordion title=\"More\">", "Accordion", false),
];

#[derive(Debug, Clone)]
enum Node {
    /// A canary word (its number).
    Text(usize),
    /// A code fence or comment whose text looks like the closing tag of `ELEMENTS[i]`.
    Decoy(usize, bool),
    Element(usize, Vec<Node>),
}

fn tree() -> impl Strategy<Value = Vec<Node>> {
    let leaf = prop_oneof![
        (0usize..1_000).prop_map(Node::Text),
        (0..ELEMENTS.len(), any::<bool>()).prop_map(|(i, fence)| Node::Decoy(i, fence)),
    ];
    let node = leaf.prop_recursive(5, 48, 4, |inner| {
        prop_oneof![
            1 => inner.clone(),
            2 => (0..ELEMENTS.len(), prop::collection::vec(inner, 0..4))
                .prop_map(|(i, children)| Node::Element(i, children)),
        ]
    });
    prop::collection::vec(node, 1..5)
}

/// Renders the nodes, numbering canaries in order; `shown` collects whether each is visible.
fn render(nodes: &[Node], hidden: bool, out: &mut String, shown: &mut Vec<(String, bool)>) {
    for node in nodes {
        match node {
            Node::Text(n) => {
                let canary = format!("canary{}x{n}", shown.len());
                out.push_str(&format!("\n\n{canary}\n\n"));
                shown.push((canary, !hidden));
            }
            Node::Decoy(i, true) => {
                out.push_str(&format!("\n\n```html\n</{}>\n```\n\n", ELEMENTS[*i].1));
            }
            Node::Decoy(i, false) => {
                let name = ELEMENTS[*i].1;
                out.push_str(&format!(
                    "\n\n<!-- </{name}> -->\n\nSee [a](/q?a</{name}>) and [b](/x \"</{name}>\").\n\n"
                ));
            }
            Node::Element(i, children) => {
                let (open, name, hides) = ELEMENTS[*i];
                out.push_str(&format!("\n\n{open}\n"));
                render(children, hidden || hides, out, shown);
                out.push_str(&format!("\n</{name}>\n\n"));
            }
        }
    }
}

#[test]
fn hidden_review_content_nestings_hide_exactly_what_the_page_hides() {
    let dir = tempfile::tempdir().unwrap();
    let site = SiteRoot::new(dir.path(), 1 << 20).unwrap();
    let rules = VisibilityRules::default();
    let operations = LoadedOperations::default();
    let variables = aidocs_index::mdx::variables::Variables::default();
    let (mut runner, cases, seed) = fixed_seed::runner(2_000, 22);
    let result = runner.run(&tree(), |nodes| {
        let mut src = String::from("# Page\n\nopening words\n");
        let mut shown = Vec::new();
        render(&nodes, false, &mut src, &mut shown);
        src.push_str("\n\nclosing words\n");
        let mut resolver = SnippetResolver::new(IncludePolicy {
            site: &site,
            rules: &rules,
            operations: &operations,
            audience: Visibility::Public,
            variables: &variables,
        });
        // A Markdown page reads the elements that have no expression (and no `className`, which
        // HTML does not know) as HTML, hiding the same.
        let html = !src.contains('{') && !src.contains("className");
        for dialect in [Dialect::Mdx, Dialect::Markdown] {
            if dialect == Dialect::Markdown && !html {
                continue;
            }
            let out = to_markdown(&src, dialect, &site.root, &mut resolver);
            for (canary, visible) in &shown {
                // Whole words only: `canary1x2` is not `canary1x23`.
                let found = out
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| w == canary);
                prop_assert_eq!(
                    found,
                    *visible,
                    "{:?}: {} in {:?} from {:?}",
                    dialect,
                    canary,
                    out,
                    src
                );
            }
            prop_assert!(out.contains("opening words") && out.contains("closing words"));
        }
        Ok(())
    });
    eprintln!("hidden review property: {cases} generated nestings, seed {seed}");
    if let Err(e) = result {
        panic!("{e}");
    }
}
