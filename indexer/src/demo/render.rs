//! The HTML of one demo page: the article rendered from the page's Markdown (the text the index was
//! cut from, so lists, tables and code blocks stand where the page has them), with the section anchors
//! the index links to, and the sidebar as nested as the navigation.
//!
//! Everything here is the site's own content written by many hands: raw HTML is shown as its text,
//! never passed through; a link stays a link only to a page of the demo (relative links resolved
//! against the page, `#anchors` kept), an http(s) URL or a plain e-mail address, and is plain text
//! otherwise; images are not fetched (their alt text stands in).

use std::collections::BTreeMap;

use pulldown_cmark::{CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd};

use crate::chunk::heading_level;
use crate::chunk::{collapse_whitespace, heading_text_of, strip_html};
use crate::document::Page;
use crate::heading_id::{strip_marker, HeadingIds};

use super::{esc, href, page_dirs};

/// An API method as the sidebar and the endpoint line show it.
fn method_badge(method: &str) -> String {
    format!(
        "<span class=\"m {}\">{}</span>",
        esc(&method.to_ascii_lowercase()),
        esc(method)
    )
}

/// The article: title, the endpoint of an API page, then the Markdown as HTML (without a first H1
/// that repeats the title: a page titled by its own heading shows it once).
pub(super) fn article(p: &Page, markdown: &str) -> String {
    let mut html = format!("<article><h1>{}</h1>", esc(&p.title));
    if let Some(api) = &p.api {
        html.push_str(&format!(
            "<p class=\"endpoint\">{} <code>{}</code></p>",
            method_badge(&api.method),
            esc(&api.path)
        ));
    }
    let events = safe_events(markdown, &p.url, &p.title);
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html.push_str("</article>");
    html
}

/// Where a link in the page at `page_url` may go: `#anchor`, a page of the demo (a relative link
/// resolved against the page, optionally with `#anchor`), an http(s) URL, or a plain e-mail address
/// (`mailto:` is added by the renderer); `None` makes the link plain text.
fn link_target(dest: &str, link_type: LinkType, page_url: &str) -> Option<String> {
    let plain_address = |a: &str| {
        a.contains('@')
            && a.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '@' | '.' | '-' | '_' | '+'))
    };
    if matches!(link_type, LinkType::Email) {
        return plain_address(dest).then(|| dest.to_owned());
    }
    if let Some(address) = dest.strip_prefix("mailto:") {
        return plain_address(address).then(|| dest.to_owned());
    }
    if dest.chars().any(char::is_control) {
        return None;
    }
    if let Some(anchor) = dest.strip_prefix('#') {
        return (!anchor.is_empty()).then(|| dest.to_owned());
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (dest, None),
    };
    if href(path).is_some() && !path.starts_with('/') {
        // An http(s) URL, kept whole.
        return Some(dest.to_owned());
    }
    let scheme = path.split_once(':').is_some_and(|(s, _)| !s.contains('/'));
    if scheme || path.starts_with("//") || path.contains('\\') {
        return None;
    }
    let absolute = if path.starts_with('/') {
        path.to_owned()
    } else {
        let base = page_url.rsplit_once('/').map_or("", |(dir, _)| dir);
        format!("{base}/{path}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in absolute.split('/').filter(|p| !p.is_empty() && *p != ".") {
        if part == ".." {
            parts.pop()?;
        } else {
            parts.push(part);
        }
    }
    let resolved = format!("/{}", parts.join("/"));
    page_dirs(&resolved)?;
    let anchor_ok = anchor.is_none_or(|a| {
        a.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
    });
    anchor_ok.then(|| match anchor {
        Some(a) if !a.is_empty() => format!("{resolved}#{a}"),
        _ => resolved,
    })
}

/// The Markdown's events, made safe to render and given the index's anchors: H1 to H4 get the id the
/// chunker gave them (the same text, the same [`HeadingIds`] in the same order), the text without a
/// custom id's marker.
fn safe_events<'a>(markdown: &'a str, page_url: &str, title: &str) -> Vec<Event<'a>> {
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS,
    );
    let mut ids = HeadingIds::default();
    let mut out: Vec<Event> = Vec::new();
    // Index in `out` of the open heading's start, its level and its text so far.
    let mut heading: Option<(usize, HeadingLevel, String)> = None;
    // Whether each open link was kept (a refused one renders its text only).
    let mut links: Vec<bool> = Vec::new();
    for event in parser {
        let event = match event {
            Event::Html(h) | Event::InlineHtml(h) => Event::Text(CowStr::from(strip_html(&h))),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => match link_target(&dest_url, link_type, page_url) {
                Some(dest) => {
                    links.push(true);
                    Event::Start(Tag::Link {
                        link_type,
                        dest_url: CowStr::from(dest),
                        title,
                        id,
                    })
                }
                None => {
                    links.push(false);
                    continue;
                }
            },
            Event::End(TagEnd::Link) => {
                if links.pop() == Some(true) {
                    Event::End(TagEnd::Link)
                } else {
                    continue;
                }
            }
            // Images are not copied: their alt text, emphasised, stands in.
            Event::Start(Tag::Image { .. }) => Event::Start(Tag::Emphasis),
            Event::End(TagEnd::Image) => Event::End(TagEnd::Emphasis),
            other => other,
        };
        if let (Some((_, _, text)), Some(piece)) = (heading.as_mut(), heading_text_of(&event)) {
            text.push_str(&piece);
        }
        // A custom id's marker is the id's, not text to show (in a heading, or in raw HTML).
        let event = match event {
            Event::Text(t) if t.contains(crate::heading_id::MARKS) => {
                Event::Text(CowStr::from(strip_marker(&t)))
            }
            Event::Code(t) if t.contains(crate::heading_id::MARKS) => {
                Event::Code(CowStr::from(strip_marker(&t)))
            }
            other => other,
        };
        match &event {
            Event::Start(Tag::Heading { level, .. }) => {
                heading = Some((out.len(), *level, String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((at, level, text)) = heading.take() {
                    let rendered = ids.next(heading_level(level), &collapse_whitespace(&text));
                    let (text, anchor) = (rendered.text, rendered.id);
                    // A heading readers are never shown (counted for the ids after it).
                    if !rendered.shown {
                        out.truncate(at);
                        continue;
                    }
                    if level == HeadingLevel::H1 && at == 0 && text == title {
                        // The page's first block repeats its title: the article's <h1> shows it.
                        out.truncate(at);
                        continue;
                    }
                    if let Some(anchor) = anchor.filter(|a| !a.is_empty()) {
                        if let Event::Start(Tag::Heading { id, .. }) = &mut out[at] {
                            *id = Some(CowStr::from(anchor));
                        }
                    }
                }
            }
            _ => {}
        }
        out.push(event);
    }
    out
}

/// One entry of the sidebar: a page, or a group of entries under a label.
enum NavItem {
    Page(usize),
    Group(String, Vec<NavItem>),
}

/// Pages (in navigation order) grouped by their breadcrumbs into a tree: a group appears where its
/// first page does, and nested groups stay inside their parent.
fn nav_tree(pages: &[&Page]) -> Vec<NavItem> {
    let mut root: Vec<NavItem> = Vec::new();
    for (i, p) in pages.iter().enumerate() {
        let mut level = &mut root;
        for label in &p.breadcrumb {
            let at = level
                .iter()
                .position(|item| matches!(item, NavItem::Group(l, _) if l == label));
            let at = match at {
                Some(at) => at,
                None => {
                    level.push(NavItem::Group(label.clone(), Vec::new()));
                    level.len() - 1
                }
            };
            let NavItem::Group(_, items) = &mut level[at] else {
                unreachable!("position() found a group")
            };
            level = items;
        }
        level.push(NavItem::Page(i));
    }
    root
}

/// The sidebar of one language and version of the site (Mintlify shows each its own navigation),
/// its tree built once for all its pages.
pub(super) struct Sidebar<'p> {
    pages: Vec<&'p Page>,
    tree: Vec<NavItem>,
}

impl<'p> Sidebar<'p> {
    /// One sidebar per (language, version), each with its pages in navigation order.
    pub(super) fn per_language_and_version(
        pages: &[&'p Page],
    ) -> BTreeMap<(Option<String>, Option<String>), Sidebar<'p>> {
        let mut groups: BTreeMap<_, Vec<&Page>> = BTreeMap::new();
        for p in pages {
            groups
                .entry((p.language.clone(), p.version.clone()))
                .or_default()
                .push(*p);
        }
        groups
            .into_iter()
            .map(|(key, pages)| {
                let tree = nav_tree(&pages);
                (key, Sidebar { pages, tree })
            })
            .collect()
    }

    /// Top-level groups as headed lists, nested groups as labelled lists inside them; `current` is
    /// marked.
    pub(super) fn html(&self, current: &str) -> String {
        fn items(out: &mut String, list: &[NavItem], pages: &[&Page], current: &str) {
            for item in list {
                match item {
                    NavItem::Page(i) => out.push_str(&nav_link(pages[*i], current)),
                    NavItem::Group(label, sub) => {
                        out.push_str(&format!(
                            "<li class=\"group\"><span>{}</span><ul>",
                            esc(label)
                        ));
                        items(out, sub, pages, current);
                        out.push_str("</ul></li>");
                    }
                }
            }
        }
        let mut html = String::from("<nav class=\"sidebar\" aria-label=\"Documentation\">");
        let mut loose: Vec<NavItem> = Vec::new();
        let flush = |html: &mut String, loose: &mut Vec<NavItem>| {
            if !loose.is_empty() {
                html.push_str("<ul>");
                items(html, loose, &self.pages, current);
                html.push_str("</ul>");
                loose.clear();
            }
        };
        for item in &self.tree {
            match item {
                NavItem::Group(label, sub) => {
                    flush(&mut html, &mut loose);
                    html.push_str(&format!("<h4>{}</h4><ul>", esc(label)));
                    items(&mut html, sub, &self.pages, current);
                    html.push_str("</ul>");
                }
                NavItem::Page(i) => loose.push(NavItem::Page(*i)),
            }
        }
        flush(&mut html, &mut loose);
        html.push_str("</nav>");
        html
    }
}

/// One page in the sidebar: a link when [`href`] allows one, plain text otherwise; an API page
/// carries its method.
pub(super) fn nav_link(p: &Page, current: &str) -> String {
    let badge = p
        .api
        .as_ref()
        .map(|a| format!("{} ", method_badge(&a.method)))
        .unwrap_or_default();
    let inner = format!("{badge}{}", esc(&p.title));
    match href(&p.url) {
        Some(h) => {
            let cur = if p.url == current {
                " aria-current=\"page\""
            } else {
                ""
            };
            format!("<li><a href=\"{}\"{cur}>{inner}</a></li>", esc(h))
        }
        None => format!("<li><span>{inner}</span></li>"),
    }
}

/// A page with only a title, a URL and a breadcrumb, for tests.
#[cfg(test)]
pub(super) fn test_page(title: &str, url: &str, breadcrumb: &[&str]) -> Page {
    Page {
        id: url.trim_start_matches('/').into(),
        url: url.into(),
        title: title.into(),
        description: String::new(),
        kind: aidocs_core::Kind::Docs,
        breadcrumb: breadcrumb.iter().map(|s| s.to_string()).collect(),
        group: None,
        tags: Vec::new(),
        language: None,
        version: None,
        api: None,
        exact_keys: Vec::new(),
        chunks: Vec::new(),
        source: String::new(),
        includes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::{chunk_markdown, ChunkConfig};

    /// Issue 24: lists, tables and code blocks render where the page has them, with the language.
    #[test]
    fn issue_24_article_renders_markdown_in_place() {
        let md = "Intro.\n\n- one\n- two\n\n```bash\nnpm i\n```\n\nBetween.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Setup step\n\nText.\n";
        let html = article(&test_page("T", "/t", &[]), md);
        let at = |s: &str| html.find(s).unwrap_or_else(|| panic!("{s} not in {html}"));
        assert!(at("<li>one</li>") < at("<pre><code class=\"language-bash\">npm i"));
        assert!(at("npm i") < at("Between.") && at("Between.") < at("<table>"));
        assert!(
            html.contains("<h2 id=\"setup-step\">Setup step</h2>"),
            "{html}"
        );
    }

    /// Issue 24: the anchors the demo writes are the anchors the index links to.
    #[test]
    fn issue_24_article_anchors_equal_the_chunks() {
        let md = "## A `code` heading\n\nx\n\n### Same\n\n## Same\n\n## <b>Html</b> & more\n\ny\n";
        let html = article(&test_page("T", "/t", &[]), md);
        for c in chunk_markdown("T", "", md, ChunkConfig::default()) {
            if !c.anchor.is_empty() {
                let id = format!("id=\"{}\"", esc(&c.anchor));
                assert!(html.contains(&id), "{id} in {html}");
            }
        }
    }

    /// Hostile content stays text: raw HTML, script URLs, images.
    #[test]
    fn issue_24_article_keeps_hostile_content_inert() {
        let md = "<script>alert(1)</script>\n\nHi <img src=x onerror=alert(2)> there [x](javascript:alert(3)) ![alt text](http://evil/x.png)\n";
        let html = article(&test_page("T", "/t", &[]), md);
        assert!(
            !html.contains("<script") && !html.contains("<img") && !html.contains("javascript:"),
            "{html}"
        );
        assert!(html.contains("<em>alt text</em>"), "{html}");
    }

    /// Links: refused ones are plain text (no `href=""`), cross-page anchors and relative links are
    /// resolved, e-mail autolinks only for plain addresses.
    #[test]
    fn issue_24_links_go_to_pages_urls_or_nowhere() {
        let md = "[a](/b#install) [r](./c) [up](../d) [x](javascript:alert(1)) [m](mailto:x@y.z) <a@b.io> </x@evil.com> [o](../../../../etc) [h](#top) [w](https://example.com/q?x=1#f)\n";
        let html = article(&test_page("T", "/guides/p", &[]), md);
        for ok in [
            "<a href=\"/b#install\">a</a>",
            "<a href=\"/guides/c\">r</a>",
            "<a href=\"/d\">up</a>",
            "<a href=\"mailto:a@b.io\">a@b.io</a>",
            "<a href=\"mailto:x@y.z\">m</a>",
            "<a href=\"#top\">h</a>",
            "<a href=\"https://example.com/q?x=1#f\">w</a>",
        ] {
            assert!(html.contains(ok), "{ok} not in {html}");
        }
        assert!(!html.contains("href=\"\""), "{html}");
        assert!(
            !html.contains("javascript") && !html.contains("href=\"mailto:/x"),
            "{html}"
        );
        assert!(
            html.contains(" x ") && html.contains(" o "),
            "refused links stay as text: {html}"
        );
    }

    /// A page titled by its own first H1 shows the title once; a later H1 stays, with the id Mintlify
    /// gives it.
    #[test]
    fn issue_24_first_heading_equal_to_the_title_is_not_repeated() {
        let html = article(
            &test_page("Getting started", "/g", &[]),
            "# Getting started\n\nText.\n\n# Other\n",
        );
        assert_eq!(html.matches("Getting started").count(), 1, "{html}");
        assert!(html.contains("<h1 id=\"other\">Other</h1>"), "{html}");
    }

    /// Issue 24: each language (and version) has its own sidebar; same-named groups never merge.
    #[test]
    fn issue_24_sidebars_are_per_language() {
        let mut fr = test_page("Intro FR", "/fr/intro", &["Guides", "Intro"]);
        fr.language = Some("fr".into());
        let en = test_page("Intro EN", "/intro", &["Guides", "Intro"]);
        let pages = [en, fr];
        let refs: Vec<&Page> = pages.iter().collect();
        let sidebars = Sidebar::per_language_and_version(&refs);
        let en_html = sidebars[&(None, None)].html("/intro");
        let fr_html = sidebars[&(Some("fr".into()), None)].html("/fr/intro");
        assert!(
            en_html.contains("Intro EN") && !en_html.contains("Intro FR"),
            "{en_html}"
        );
        assert!(
            fr_html.contains("Intro FR") && !fr_html.contains("Intro EN"),
            "{fr_html}"
        );
    }

    /// Issue 24: a nested group stays inside its parent, which is not split around it.
    #[test]
    fn issue_24_sidebar_nests_groups_as_the_navigation_does() {
        let pages = [
            test_page("Intro", "/intro", &["Guides"]),
            test_page("Deep", "/deep", &["Guides", "Advanced"]),
            test_page("Outro", "/outro", &["Guides"]),
            test_page("Ref", "/ref", &["API"]),
        ];
        let refs: Vec<&Page> = pages.iter().collect();
        let sidebars = Sidebar::per_language_and_version(&refs);
        let html = sidebars[&(None, None)].html("/intro");
        assert_eq!(html.matches("<h4>Guides</h4>").count(), 1, "{html}");
        let at = |s: &str| html.find(s).unwrap();
        assert!(at("Intro") < at("Advanced") && at("Advanced") < at("Deep"));
        assert!(at("Deep") < at("Outro") && at("Outro") < at("<h4>API</h4>"));
        assert!(html.contains("aria-current=\"page\">Intro"));
    }
}
