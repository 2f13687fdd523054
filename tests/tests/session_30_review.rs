//! Session 30: what Mintlify's build reads of a file before it renders it. Its metadata comes from
//! the `front-matter` package, whose block is not always the one its MDX compiler skips; a file its
//! parser refuses is a placeholder. Canaries (their last eight letters distinct) are scanned for in
//! every byte of the output, beside public controls.

use aidocs_e2e::{assert_shown, build_listed_site, canaries_in, indexed_urls};

/// Every declaration that withholds counts, in the block the compiler skips and in the one
/// `front-matter` applies; what only opens or names a page comes from the one applied.
#[test]
fn session_30_frontmatter_is_read_where_mintlify_reads_it() {
    let (_tmp, out, summary) = build_listed_site(
        &["a", "b", "c", "d", "e", "f", "g"],
        &[
            // `= yaml =` fences: not frontmatter to the compiler, metadata to `front-matter`.
            (
                "a.mdx",
                "= yaml =\ntitle: Yamlfenced\nhidden: true\n= yaml =\n\nleakyamlfenceqa words.\n",
            ),
            // A first line that merely contains `---`: the first `---` pair anywhere applies.
            (
                "b.mdx",
                "Intro --- overview\n\nleakunanchorqb words.\n\n---\nnoindex: true\n---\n\nMore.\n",
            ),
            // An opener with a trailing space: the compiler skips the block, `front-matter`
            // reads the next exact pair.
            (
                "c.mdx",
                "--- \n---\nhidden: true\n---\n\nleaktrailingqc words.\n",
            ),
            // Controls. Ordinary frontmatter is the first pair: an `hidden: true` between two
            // later rules is text.
            (
                "d.mdx",
                "---\ntitle: D\n---\n\ncontrolshownword.\n\n---\n\nhidden: true\n\n---\n",
            ),
            // The block the compiler skips is not applied: its `hidden: false` opens nothing, its
            // title names nothing, and the page (listed, not hidden) is public.
            (
                "e.mdx",
                "--- \ntitle: Skippedtitleqe\nhidden: false\n---\n\ntrailingshownword.\n",
            ),
            // TOML frontmatter is skipped by the compiler (never shown) and applies nothing.
            ("f.mdx", "+++\ntomlkeyqf = \"x\"\n+++\n\ntomlshownword.\n"),
            // Metadata that does not parse fails Mintlify's build: the page is skipped, and the
            // warning names the line.
            (
                "g.mdx",
                "Notes --- draft\n\nleakbadyamlqg words.\n\n---\ntitle: [unclosed\n---\n",
            ),
        ],
    );
    let leaks = canaries_in(
        &out,
        &[
            "leakyamlfenceqa",
            "leakunanchorqb",
            "leaktrailingqc",
            "leakbadyamlqg",
        ],
    );
    assert!(
        leaks.is_empty(),
        "withheld text reached the output: {leaks:?}"
    );
    assert_shown(
        &out,
        &["controlshownword", "trailingshownword", "tomlshownword"],
    );
    assert!(canaries_in(&out, &["tomlkeyqf", "skippedtitleqe"]).is_empty());
    assert_eq!(indexed_urls(&out), ["/d", "/e", "/f"]);
    let warning = (summary.warnings.iter())
        .find(|w| w.file == "g.mdx")
        .expect("the page whose metadata does not parse is named");
    assert_eq!(warning.line, Some(7), "{warning:?}");
}

/// A page or snippet with an HTML comment: MDX has none, and Mintlify's parser (`getAST` in
/// `@mintlify/common`, `.md` too) refuses the file, serving "A parsing error occurred" in its place
/// (`preparseMdxTree`): readers see none of its text, so none is indexed. The page keeps its title
/// (its layout shows it), with a warning. A comment in code or in JavaScript is no HTML comment.
#[test]
fn session_30_pages_mintlify_cannot_parse_show_none_of_their_text() {
    let (_tmp, out, summary) = build_listed_site(
        &["a", "b", "c", "d", "e"],
        &[
            (
                "a.mdx",
                "---\ntitle: Commentedtitle\n---\n\nunparsedwordqa here.\n\n<!-- a note -->\n",
            ),
            (
                "b.md",
                "---\ntitle: Markdown page\n---\n\nunparsedmdwordqb\n\n<!-- a comment -->\n",
            ),
            // A snippet that does not parse shows the placeholder where it is included.
            (
                "c.mdx",
                "---\ntitle: C\n---\n\nincludingpagewordqc\n\n<Snippet file=\"broken.mdx\" />\n",
            ),
            ("snippets/broken.mdx", "unparsedsnippetqd <!-- c -->\n"),
            (
                "d.mdx",
                "---\ntitle: D\n---\n\nparsedcontrolword `<!-- code -->` and {\"<!--\"}.\n\n```html\n<!-- fenced -->\n```\n",
            ),
            // A `.md` page is read as MDX reads it: a fence indented four spaces is a fence (MDX
            // has no indented code), and an expression's string is JavaScript.
            (
                "e.md",
                "parsedmdcontrolword\n\n    ```html\n    <!-- c -->\n    ```\n\n{\"<!-- s -->\"}\n",
            ),
        ],
    );
    let unparsed = canaries_in(
        &out,
        &["unparsedwordqa", "unparsedmdwordqb", "unparsedsnippetqd"],
    );
    assert!(unparsed.is_empty(), "text readers never see: {unparsed:?}");
    assert_shown(
        &out,
        &[
            "commentedtitle",
            "includingpagewordqc",
            "parsedcontrolword",
            "parsedmdcontrolword",
        ],
    );
    assert_eq!(indexed_urls(&out), ["/a", "/b", "/c", "/d", "/e"]);
    for file in ["a.mdx", "b.md", "c.mdx"] {
        assert!(
            (summary.warnings.iter()).any(|w| w.file == file
                && w.message.contains("Mintlify cannot parse")
                && w.message.contains("HTML comment")),
            "no parse warning for {file}: {:?}",
            summary.warnings
        );
    }
    assert!(!(summary.warnings.iter()).any(|w| w.file == "d.mdx" || w.file == "e.md"));
}
