//! The HTML of one demo page: the article rendered from the page's Markdown (the text the index was
//! cut from, so lists, tables and code blocks stand where the page has them), with the section anchors
//! the index links to, and the sidebar as nested as the navigation.
//!
//! Everything here is the site's own content written by many hands: raw HTML is shown as its text,
//! never passed through; links are kept only to site pages and http(s) URLs; images are not fetched
//! (their alt text stands in).

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::chunk::{strip_html, Slugger};
use crate::model::Page;

use super::{esc, href};

/// The article: title, the endpoint of an API page, then the Markdown as HTML.
pub(super) fn article(p: &Page, markdown: &str) -> String {
    let mut html = format!("<article><h1>{}</h1>", esc(&p.title));
    if let Some(api) = &p.api {
        html.push_str(&format!(
            "<p class=\"endpoint\"><span class=\"m {}\">{}</span> <code>{}</code></p>",
            esc(&api.method.to_ascii_lowercase()),
            esc(&api.method),
            esc(&api.path)
        ));
    }
    pulldown_cmark::html::push_html(&mut html, safe_events(markdown).into_iter());
    html.push_str("</article>");
    html
}

/// The Markdown's events, made safe to render and given the index's anchors: H2 and H3 get the id the
/// chunker gave their section (the same text, the same [`Slugger`] in the same order).
fn safe_events(markdown: &str) -> Vec<Event<'_>> {
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS,
    );
    let mut slugger = Slugger::default();
    let mut out: Vec<Event> = Vec::new();
    // Index in `out` of the open H2/H3 start and its text so far.
    let mut heading: Option<(usize, String)> = None;
    for event in parser {
        let event = match event {
            Event::Html(h) | Event::InlineHtml(h) => Event::Text(CowStr::from(strip_html(&h))),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest = if href(&dest_url).is_some() || dest_url.starts_with('#') {
                    dest_url
                } else {
                    CowStr::from("")
                };
                Event::Start(Tag::Link {
                    link_type,
                    dest_url: dest,
                    title,
                    id,
                })
            }
            // Images are not copied: their alt text, emphasised, stands in.
            Event::Start(Tag::Image { .. }) => Event::Start(Tag::Emphasis),
            Event::End(TagEnd::Image) => Event::End(TagEnd::Emphasis),
            other => other,
        };
        match &event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H2 | HeadingLevel::H3,
                ..
            }) => {
                heading = Some((out.len(), String::new()));
            }
            Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                if let Some((_, text)) = heading.as_mut() {
                    text.push_str(t);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some((_, text)) = heading.as_mut() {
                    text.push(' ');
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((at, text)) = heading.take() {
                    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    let anchor = slugger.slug(&text);
                    if let Event::Start(Tag::Heading { id, .. }) = &mut out[at] {
                        *id = Some(CowStr::from(anchor));
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

/// The sidebar: top-level groups as headed lists, nested groups as labelled lists inside them.
pub(super) fn sidebar(pages: &[&Page], current: &str) -> String {
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
    let mut loose = Vec::new();
    let tree = nav_tree(pages);
    for item in &tree {
        match item {
            NavItem::Group(label, sub) => {
                if !loose.is_empty() {
                    html.push_str("<ul>");
                    items(&mut html, &std::mem::take(&mut loose), pages, current);
                    html.push_str("</ul>");
                }
                html.push_str(&format!("<h4>{}</h4><ul>", esc(label)));
                items(&mut html, sub, pages, current);
                html.push_str("</ul>");
            }
            NavItem::Page(i) => loose.push(NavItem::Page(*i)),
        }
    }
    if !loose.is_empty() {
        html.push_str("<ul>");
        items(&mut html, &loose, pages, current);
        html.push_str("</ul>");
    }
    html.push_str("</nav>");
    html
}

/// One page in the sidebar: a link when [`href`] allows one, plain text otherwise; an API page
/// carries its method.
pub(super) fn nav_link(p: &Page, current: &str) -> String {
    let badge = p
        .api
        .as_ref()
        .map(|a| {
            format!(
                "<span class=\"m {}\">{}</span> ",
                esc(&a.method.to_ascii_lowercase()),
                esc(&a.method)
            )
        })
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

    fn page(title: &str, url: &str, breadcrumb: &[&str]) -> Page {
        test_page(title, url, breadcrumb)
    }

    /// Issue 24: lists, tables and code blocks render where the page has them, with the language.
    #[test]
    fn issue_24_article_renders_markdown_in_place() {
        let md = "Intro.\n\n- one\n- two\n\n```bash\nnpm i\n```\n\nBetween.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Setup step\n\nText.\n";
        let html = article(&page("T", "/t", &[]), md);
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
        let html = article(&page("T", "/t", &[]), md);
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
        let html = article(&page("T", "/t", &[]), md);
        assert!(
            !html.contains("<script") && !html.contains("<img") && !html.contains("javascript:"),
            "{html}"
        );
        assert!(html.contains("<em>alt text</em>"), "{html}");
    }

    /// Issue 24: a nested group stays inside its parent, which is not split around it.
    #[test]
    fn issue_24_sidebar_nests_groups_as_the_navigation_does() {
        let pages = [
            page("Intro", "/intro", &["Guides"]),
            page("Deep", "/deep", &["Guides", "Advanced"]),
            page("Outro", "/outro", &["Guides"]),
            page("Ref", "/ref", &["API"]),
        ];
        let refs: Vec<&Page> = pages.iter().collect();
        let html = sidebar(&refs, "/intro");
        assert_eq!(html.matches("<h4>Guides</h4>").count(), 1, "{html}");
        let at = |s: &str| html.find(s).unwrap();
        assert!(at("Intro") < at("Advanced") && at("Advanced") < at("Deep"));
        assert!(at("Deep") < at("Outro") && at("Outro") < at("<h4>API</h4>"));
        assert!(html.contains("aria-current=\"page\">Intro"));
    }
}
