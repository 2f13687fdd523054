//! Session 29: an attacker's review against Mintlify's published build code (`@mintlify/common`,
//! `@mintlify/prebuild`). Each site holds withheld canaries (their last eight letters distinct),
//! scanned for in every byte of the output, and public controls.

use std::path::Path;

use aidocs_core::SearchOptions;
use aidocs_e2e::{
    assert_shown, build_lexical, build_listed_site, build_one_page, canaries_in, write_file,
};
use aidocs_reader::LocalIndex;

/// The section URLs a query finds, best first.
fn section_urls(out: &Path, query: &str) -> Vec<String> {
    let index = LocalIndex::open(out).expect("the index opens");
    let results = index
        .search(query, &SearchOptions::default())
        .expect("the query runs");
    results
        .iter()
        .flat_map(|r| r.sections.iter().map(|s| s.url.clone()))
        .collect()
}

/// A block of a capitalized name Mintlify does not render and the page neither imports nor exports
/// is removed with its content (`remarkMdxRemoveUnknownJsx`, after the table of contents was
/// taken: its headings still count for the `-2`s after them), in `.mdx` and `.md` pages, with a
/// warning. A component the page imports or exports, a Mintlify component and an unknown name
/// inside a paragraph keep their text.
#[test]
fn session_29_unknown_components_are_removed_as_mintlify_removes_them() {
    let (_tmp, out, summary) = build_listed_site(
        &["a", "b", "c", "d"],
        &[
            ("a.mdx", "---\ntitle: A\n---\n\nimport { Shown } from '/snippets/shown.jsx'\nexport const Local = ({ children }) => <div>{children}</div>;\nexport { Other as Aliased };\n\nIntro.\n\n<Draft>\n\n## Setup\n\nleakdraftqa details.\n\n</Draft>\n\n## Setup\n\nsetupvisibleword details.\n\n<Shown>\n\nimportedshownword\n\n</Shown>\n\n<Local>\n\nexportedshownword\n\n</Local>\n\n<Aliased>\n\naliasedshownword\n\n</Aliased>\n\n<Note>\n\nnoteshownword\n\n</Note>\n\nWords <Inline>inlineshownword</Inline> here.\n\n<Draft>\n  <Draft>leaknestedqb</Draft>\n  leakafternestqc\n</Draft>\n\nclosingshownword.\n\n<Banner title=\"leakselfclosingqm\" />\n"),
            ("b.md", "---\ntitle: B\n---\n\nMarkdown page.\n\n<InternalOnly>\n\nleakmdunknownqd\n\n</InternalOnly>\n\nmdshownword.\n"),
            ("c.mdx", "---\ntitle: C\n---\n\n<Snippet file=\"s.mdx\" />\n\n<Steps>\n<Step title=\"One\">stepshownword</Step>\n</Steps>\n"),
            ("snippets/s.mdx", "snippetshownword\n"),
            ("snippets/t.mdx", "<PageDefined>\n\nsnippetusespageword\n\n</PageDefined>\n\n<SnippetDefined>\n\nsnippetownword\n\n</SnippetDefined>\n\nexport const SnippetDefined = ({ children }) => <div>{children}</div>;\n"),
            // Defined by a default export and by a declarator after the first; used inside a
            // snippet; JSX in an attribute's value over several lines (JavaScript, never a block
            // of the page).
            ("d.mdx", "---\ntitle: D\n---\n\nexport default function Wrap({ children }) { return <div>{children}</div>; }\nexport const One = () => null, PageDefined = ({ children }) => <div>{children}</div>;\n\n<Wrap>\n\ndefaultexportword\n\n</Wrap>\n\n<PageDefined>\n\nseconddeclaratorword\n\n</PageDefined>\n\n<Snippet file=\"t.mdx\" />\n\n<Accordion title={\n<Em>\nmultilineattrword\n</Em>\n}>\nBody.\n</Accordion>\n"),
        ],
    );
    assert!(canaries_in(
        &out,
        &[
            "leakdraftqa",
            "leaknestedqb",
            "leakafternestqc",
            "leakmdunknownqd",
            "leakselfclosingqm"
        ]
    )
    .is_empty());
    assert_shown(
        &out,
        &[
            "setupvisibleword",
            "importedshownword",
            "exportedshownword",
            "aliasedshownword",
            "noteshownword",
            "inlineshownword",
            "closingshownword",
            "mdshownword",
            "snippetshownword",
            "stepshownword",
            "defaultexportword",
            "seconddeclaratorword",
            "snippetusespageword",
            "snippetownword",
            "multilineattrword",
        ],
    );
    // The removed block's heading took `#setup`: the page's own is `#setup-2`.
    assert_eq!(
        section_urls(&out, "setupvisibleword")
            .first()
            .map(String::as_str),
        Some("/a#setup-2")
    );
    let warned = |name: &str| {
        summary.warnings.iter().any(|w| {
            w.message
                .contains(&format!("`<{name}>` is no Mintlify component"))
        })
    };
    assert!(warned("Draft") && warned("InternalOnly"));
    for known in [
        "Shown",
        "Local",
        "Inline",
        "Snippet",
        "Wrap",
        "PageDefined",
        "Em",
    ] {
        assert!(!warned(known), "{known} was taken for unknown");
    }
    // An attribute whose JSX gives no text leaves none (not the reader's own lead).
    assert!(canaries_in(&out, &["text:"]).is_empty());
}

/// What Tailwind (which Mintlify builds from each page's classes) and the browser hide: an
/// arbitrary property (`[display:none]`, `[visibility:hidden]`), `collapse`, a `<dialog>` without
/// `open`, and string literals joined in a class expression (`{"hid" + "den"}` is `hidden`).
/// Controls: a variant that shows it again (`md:[display:block]`, `md:visible`), `<dialog open>`.
#[test]
fn session_29_what_tailwind_and_the_browser_hide() {
    let (_tmp, out) = build_one_page(
        "---\ntitle: A\n---\n\nStart.\n\n<div className=\"[display:none]\">leakarbnoneqe</div>\n\n<div className=\"p-2 [visibility:hidden]\">leakarbvisqf</div>\n\n<div className=\"collapse\">leakcollapseqg</div>\n\n<dialog>\n\n## Usage\n\nleakdialogqh\n\n</dialog>\n\n<div className={\"hid\" + \"den\"}>leakjoinedqi</div>\n\n<div className=\"[display:none] md:[display:block]\">arbshownagainword</div>\n\n<div className=\"collapse md:visible\">collapseshownagainword</div>\n\n<dialog open>dialogopenword</dialog>\n\n<div className={\"p-\" + \"4\"}>joinedshownword</div>\n\n## Usage\n\nusagevisibleword.\n",
    );
    assert!(canaries_in(
        &out,
        &[
            "leakarbnoneqe",
            "leakarbvisqf",
            "leakcollapseqg",
            "leakdialogqh",
            "leakjoinedqi"
        ]
    )
    .is_empty());
    assert_shown(
        &out,
        &[
            "arbshownagainword",
            "collapseshownagainword",
            "dialogopenword",
            "joinedshownword",
        ],
    );
    assert_eq!(
        section_urls(&out, "usagevisibleword")
            .first()
            .map(String::as_str),
        Some("/a#usage-2")
    );
}

/// An element's own boolean `hidden: false` shows its pages under a hidden element (Mintlify's
/// `generatePathToHiddenFromSearchDict`: an explicit boolean decides over the ancestors'); one
/// under an element whose `hidden` is not understood stays withheld, as does a `"false"` string.
#[test]
fn session_29_hidden_false_under_a_hidden_element() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("site");
    write_file(
        &root,
        "docs.json",
        r#"{"navigation": {"groups": [
            {"group": "G", "hidden": true, "pages": ["a", {"group": "Inner", "hidden": false, "pages": ["b"]}, {"group": "Text", "hidden": "false", "pages": ["c"]}]},
            {"group": "H", "hidden": "maybe", "pages": [{"group": "Inner2", "hidden": false, "pages": ["d"]}]},
            {"group": "V", "pages": ["e"]}
        ]}}"#,
    );
    for (page, word) in [
        ("a", "leakhiddengroupqj"),
        ("b", "unhiddenshownword"),
        ("c", "leakstringfalseqk"),
        ("d", "leakunreadableql"),
        ("e", "visiblegroupword"),
    ] {
        write_file(
            &root,
            &format!("{page}.mdx"),
            &format!("---\ntitle: {word}\n---\n{word} here.\n"),
        );
    }
    let out = tmp.path().join("www/out");
    build_lexical(&root, &out, &tmp.path().join("cache"));
    assert_eq!(aidocs_e2e::indexed_urls(&out), ["/b", "/e"]);
    assert!(canaries_in(
        &out,
        &["leakhiddengroupqj", "leakstringfalseqk", "leakunreadableql"]
    )
    .is_empty());
}

/// Attributes Mintlify's components show as text: a card's `cta`, a tooltip's `headline` and
/// `cta`, a frame's `caption` (Markdown: a link shows its text) and `hint`, a field's `pre` and
/// `post` labels.
#[test]
fn session_29_component_attributes_readers_see() {
    let (_tmp, out) = build_one_page(
        "---\ntitle: A\n---\n\n<Card title=\"T\" href=\"/a\" cta=\"cardctaword\">Body.</Card>\n\nA <Tooltip headline=\"tipheadlineword\" tip=\"t\" cta=\"tipctaword\" href=\"/a\">word</Tooltip>.\n\n<Frame caption=\"See [captionlinkword](/x) here\" hint=\"framehintword\">\n  <img src=\"/x.png\" />\n</Frame>\n\n<ParamField path=\"id\" type=\"string\" pre={[\"prelabelword\"]} post={[\"postlabelword\"]}>The id.</ParamField>\n",
    );
    assert_shown(
        &out,
        &[
            "cardctaword",
            "tipheadlineword",
            "tipctaword",
            "captionlinkword",
            "framehintword",
            "prelabelword",
            "postlabelword",
        ],
    );
    // The caption's link target is no text on the page.
    let llms = std::fs::read_to_string(out.join("llms-full.txt")).unwrap();
    assert!(llms.contains("See captionlinkword here"), "{llms}");
}
