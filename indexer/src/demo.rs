//! `aidocs-index demo`: renders a docs site to static HTML (a sidebar from the navigation, each page's
//! sections with the same anchors the index links to, the `<aidocs-search>` box), builds its public
//! index into `_search/` with the search box's assets in `_search/ui/` (as `build --search-box` does).
//! Then `serve` shows it.
//!
//! This is a preview of what the search box does on a real site, not a site generator: page bodies are
//! rendered from the Markdown the index was cut from (components reduced to their text and visible
//! attributes), under the site's name, logo and primary colour from `docs.json`.

mod render;

use std::path::{Component, Path, PathBuf};

use crate::assets::{install, locate, AssetsError, UI_DIR};
use crate::build::{build, BuildError, BuildOptions, BuildSummary};
use crate::document::{Page, Visibility};
use crate::ingest::{ingest, parse_isolated_with_markdown, IngestOptions, Site, Source};
use crate::site::Branding;
use crate::visibility::Declared;

/// Where the index and the assets go inside the demo directory.
pub const INDEX_DIR: &str = "_search";

#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error(transparent)]
    Build(#[from] BuildError),
    #[error("{path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Assets(#[from] AssetsError),
}

fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), DemoError> {
    let io = |source| DemoError::Write {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    // Never through a symlink left in the output (a dangling one passes `exists()`).
    if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(io(std::io::Error::other(
            "not a regular file; not overwritten",
        )));
    }
    std::fs::write(path, bytes).map_err(io)
}

/// The directories under the output directory of the file a page URL is written to (`/a/b` →
/// `a/b/index.html`, `/` → `index.html`). Only for a site-relative path whose every component is a
/// plain name (no `.`, `..`, empty component, backslash, colon, `%`, `?`, `#` or control character)
/// outside the index directory; `None` for anything else (a `javascript:` or `data:` URL, `//host`,
/// `/a/../..`): no page is written for it.
fn page_dirs(url: &str) -> Option<Vec<&str>> {
    let rest = url.strip_prefix('/')?;
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.is_empty() {
        return Some(Vec::new());
    }
    let dirs: Vec<&str> = rest
        .split('/')
        .map(|c| {
            let odd = c.is_empty()
                || c == "."
                || c == ".."
                || c.chars()
                    .any(|ch| ch.is_control() || matches!(ch, '\\' | ':' | '%' | '?' | '#'));
            let plain = matches!(
                Path::new(c).components().collect::<Vec<_>>().as_slice(),
                [Component::Normal(n)] if *n == std::ffi::OsStr::new(c)
            );
            (!odd && plain).then_some(c)
        })
        .collect::<Option<_>>()?;
    (dirs[0] != INDEX_DIR).then_some(dirs)
}

/// What the sidebar links a page with: its URL if it is a page written here (see [`page_dirs`]) or an
/// http(s) URL; `None` for anything else, which is shown as plain text.
fn href(url: &str) -> Option<&str> {
    if url.chars().any(char::is_control) {
        return None;
    }
    let scheme = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let web = scheme.starts_with("http://") || scheme.starts_with("https://");
    (web || page_dirs(url).is_some()).then_some(url)
}

/// Writes a page at `url` under `out`, creating its directories one by one and never through a symlink
/// or over something that is not a regular file, so that every file written stays inside `out`.
/// `Ok(false)`: not written (an unsafe URL, or a symlink on the way).
fn write_page(out: &Path, url: &str, html: &str) -> Result<bool, DemoError> {
    let Some(dirs) = page_dirs(url) else {
        return Ok(false);
    };
    let mut dir = out.to_path_buf();
    for name in std::iter::once(None).chain(dirs.into_iter().map(Some)) {
        if let Some(name) = name {
            dir.push(name);
        }
        let io = |source| DemoError::Write {
            path: dir.clone(),
            source,
        };
        match std::fs::symlink_metadata(&dir) {
            Ok(m) if m.is_dir() => {}
            // The output directory itself may be a symlink the user chose; nothing below it may.
            Ok(m) if name.is_none() && m.file_type().is_symlink() && dir.is_dir() => {}
            Ok(_) => return Ok(false),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(&dir).map_err(io)?
            }
            Err(e) => return Err(io(e)),
        }
    }
    let file = dir.join("index.html");
    match std::fs::symlink_metadata(&file) {
        Ok(m) if !m.is_file() => return Ok(false),
        _ => {}
    }
    write(&file, html.as_bytes())?;
    Ok(true)
}

/// The demo's style; `--primary` is the site's `colors.primary`.
const CSS: &str = "body{margin:0;font:16px/1.6 system-ui,sans-serif;color:#111827;background:#fff}\
header{display:flex;gap:1rem;align-items:center;padding:.6rem 1.2rem;border-bottom:1px solid #e5e7eb;position:sticky;top:0;background:#fff;z-index:1}\
header .brand{display:flex;gap:.5rem;align-items:center;font-weight:700;margin-right:auto;color:inherit;text-decoration:none}\
header .brand img{height:28px;width:auto}header aidocs-search{width:320px}\
.layout{display:grid;grid-template-columns:270px 1fr;max-width:1240px;margin:0 auto}\
.sidebar{padding:1rem;border-right:1px solid #e5e7eb;font-size:.92rem}.sidebar h4{margin:1.2rem 0 .3rem;font-size:.75rem;text-transform:uppercase;color:#6b7280}\
.sidebar ul{list-style:none;margin:0;padding:0}.sidebar ul ul{margin-left:.7rem;padding-left:.5rem;border-left:1px solid #e5e7eb}\
.sidebar .group>span{display:block;padding:.3rem .4rem .1rem;font-weight:600;color:#374151}\
.sidebar a{display:block;padding:.2rem .4rem;color:#374151;text-decoration:none;border-radius:6px}\
.sidebar a[aria-current]{background:color-mix(in srgb,var(--primary) 12%,#fff);color:var(--primary);font-weight:600}\
article{padding:1rem 2.5rem;min-width:0}article a{color:var(--primary)}\
pre{background:#f3f4f6;padding:.8rem;border-radius:8px;overflow:auto}code{font-size:.9em}\
table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #e5e7eb;padding:.35rem .6rem;text-align:left}th{background:#f9fafb}\
blockquote{margin:1rem 0;padding:.2rem 1rem;border-left:3px solid var(--primary);background:#f9fafb}\
.m{font:600 .7rem ui-monospace,monospace;color:#fff;background:#6b7280;border-radius:4px;padding:.05rem .3rem}\
.m.get{background:#059669}.m.post{background:#2563eb}.m.put,.m.patch{background:#d97706}.m.delete{background:#dc2626}\
:target{scroll-margin-top:4rem;background:#fef9c3}";

/// How the demo presents the site: its name, and the logo copied into the demo (site-relative URL).
struct Brand {
    name: String,
    logo_url: Option<String>,
    primary: String,
}

fn page_html(brand: &Brand, p: &Page, nav: &str, article: &str, api_base: &str) -> String {
    let logo = brand
        .logo_url
        .as_deref()
        .map(|u| format!("<img src=\"{}\" alt=\"\">", esc(u)))
        .unwrap_or_default();
    format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
<title>{title} · {site}</title><style>:root{{--primary:{primary}}}{CSS}</style>\
<script type=\"module\" src=\"/{INDEX_DIR}/{UI_DIR}/dist/element.js\"></script></head><body>\
<header><a class=\"brand\" href=\"/\">{logo}<span>{site}</span></a><aidocs-search index=\"/{INDEX_DIR}/\" api-base=\"{api}\" placeholder=\"Search docs\"></aidocs-search></header>\
<div class=\"layout\">{nav}{article}</div></body></html>\n",
        title = esc(&p.title),
        lang = esc(p.language.as_deref().unwrap_or("en")),
        site = esc(&brand.name),
        primary = esc(&brand.primary),
        api = esc(api_base),
    )
}

/// The largest logo the demo inlines: it is repeated in every page.
const MAX_LOGO_BYTES: u64 = 256 << 10;

/// The site's branding for the demo: `docs.json`'s name (else the folder's), primary colour (else a
/// neutral blue), and its logo when it is an image file inside the site that no visibility rule
/// withholds (as written or as resolved), at most [`MAX_LOGO_BYTES`]. The logo is inlined as a
/// `data:` URL in an `<img>`, never written as a file of the demo: an SVG opened on the demo's own
/// origin could run script, and an `<img>` never runs it.
fn brand(site_dir: &Path, site: Option<&Site>) -> Brand {
    let branding = site.map(|s| s.branding.clone()).unwrap_or_default();
    let Branding {
        name,
        logo,
        primary,
        ..
    } = branding;
    let name = name.unwrap_or_else(|| {
        site_dir
            .file_name()
            .map(|n| n.to_string_lossy().replace('-', " "))
            .unwrap_or_else(|| "Docs".into())
    });
    let logo_url = site
        .zip(logo)
        .and_then(|(site, logo)| logo_data_url(site, &logo));
    Brand {
        name,
        logo_url,
        primary: primary.unwrap_or_else(|| "#1d4ed8".into()),
    }
}

/// `data:image/...;base64,...` of the logo at `logo` (site-relative, as written), or `None` when it
/// is not a public image file of the site within the size limit.
fn logo_data_url(site: &Site, logo: &str) -> Option<String> {
    let ext = Path::new(logo).extension()?.to_str()?.to_ascii_lowercase();
    let mime = match ext.as_str() {
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        _ => return None,
    };
    let file = site.root.resolve(&site.root.root.join(logo)).ok()?;
    let declared = site.rules.for_paths([logo, file.rel.as_str()]);
    if declared.visibility() != Visibility::Public {
        return None;
    }
    let bytes = crate::visibility::read_bounded_bytes(&file.path, MAX_LOGO_BYTES).ok()?;
    Some(format!("data:{mime};base64,{}", base64(&bytes)))
}

/// Standard base64 with padding (RFC 4648), for the logo's `data:` URL.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Renders `site` into `out`, builds its public index into `out/_search`, copies the assets from `plugin`
/// (or the package [`locate`] finds).
pub fn render_demo(
    site: &Path,
    out: &Path,
    plugin: Option<&Path>,
) -> Result<BuildSummary, DemoError> {
    let plugin = locate(plugin, site)?;
    let mut opts = BuildOptions::new(site, out.join(INDEX_DIR));
    opts.audience = Visibility::Public;
    opts.cache_dir = Some(out.with_extension("cache"));
    // The site's public vectors, shared with its `build`s (issue 25): the demo embeds nothing they
    // already did.
    opts.embeddings_dir = Some(crate::build::default_embeddings_dir(&opts));
    // Semantic search when the model is installed (the search box asks for hybrid ranking), a warning
    // and a lexical index otherwise.
    opts.embeddings = crate::build::Embeddings::Auto;
    let summary = build(&opts)?;

    // The same public pages the index holds, in navigation order.
    let ingest_opts = IngestOptions {
        chunk: opts.chunk,
        ..IngestOptions::new(Visibility::Public)
    };
    let ingested = ingest(site, &ingest_opts).map_err(BuildError::Input)?;
    let mut pages: Vec<(usize, Page, String)> = ingested
        .pending
        .iter()
        .filter_map(|p| {
            let order = match &p.source {
                Source::Mdx { nav, .. } | Source::Operation { nav, .. } => {
                    nav.as_ref().map_or(usize::MAX, |n| n.order)
                }
                _ => usize::MAX,
            };
            // A page whose parse fails is left out here as the build left it out.
            let (page, markdown, _) =
                parse_isolated_with_markdown(p, ingested.site.as_ref(), &ingest_opts).ok()?;
            // A JSONL record is plain text, not Markdown: every ASCII punctuation mark is escaped
            // (CommonMark's backslash escapes), so its paragraphs render as they are written.
            let markdown = match p.source {
                Source::Record { .. } => crate::mdx::escape_markdown(&markdown, &[]),
                _ => markdown,
            };
            Some((order, page, markdown))
        })
        .collect();
    pages.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.url.cmp(&b.1.url)));
    let brand = brand(site, ingested.site.as_ref());
    let api_base = ingested
        .site
        .as_ref()
        .and_then(api_base)
        .unwrap_or_else(|| "https://api.example.com".into());
    // A page whose URL is not a plain site-relative path (a JSONL record may say `javascript:…`,
    // `data:…` or `/../..`) is not written, and the sidebar shows it without a link.
    let in_order: Vec<&Page> = pages.iter().map(|(_, p, _)| p).collect();
    let sidebars = render::Sidebar::per_language_and_version(&in_order);
    for (_, p, markdown) in &pages {
        if page_dirs(&p.url).is_none() {
            continue;
        }
        let html = page_html(
            &brand,
            p,
            &sidebars
                .get(&(p.language.clone(), p.version.clone()))
                .map(|s| s.html(&p.url))
                .unwrap_or_default(),
            &render::article(p, markdown),
            &api_base,
        );
        write_page(out, &p.url, &html)?;
    }
    if !out.join("index.html").exists() {
        if let Some((_, first, _)) = pages.iter().find(|(_, p, _)| page_dirs(&p.url).is_some()) {
            let html = format!(
                "<!doctype html><meta http-equiv=\"refresh\" content=\"0; url={0}\"><a href=\"{0}\">{1}</a>\n",
                esc(&first.url),
                esc(&first.title)
            );
            write(&out.join("index.html"), html.as_bytes())?;
        }
    }
    install(&plugin, &out.join(INDEX_DIR), &format!("/{INDEX_DIR}/"))?;
    Ok(summary)
}

/// The first `servers[].url` of the site's public OpenAPI specs, for the search box's "Copy curl":
/// only from a spec the build read through the site's rules (inside the site, not withheld by a glob),
/// whose document and server object declare nothing more restrictive than public.
fn api_base(site: &Site) -> Option<String> {
    site.operations.0.keys().find_map(|display| {
        let (file, text) = site.root.read_path(&site.root.root.join(display)).ok()?;
        let doc = crate::openapi::parse_document(&text, &file.path).ok()?;
        let server = doc.get("servers")?.get(0)?;
        let declared = site
            .rules
            .for_paths([display.as_str(), file.rel.as_str()])
            .combine(Declared::from_openapi(&doc))
            .combine(Declared::from_openapi(server));
        if declared.visibility() != Visibility::Public {
            return None;
        }
        let url = server.get("url")?.as_str()?;
        crate::ingest::safe_url(url).then(|| url.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_18_demo_api_base_only_from_public_specs() {
        let dir = tempfile::tempdir().unwrap();
        let site_with = |spec: &str, aidocs: &str| {
            std::fs::write(dir.path().join("openapi.json"), spec).unwrap();
            let root = crate::visibility::SiteRoot::new(dir.path(), 1 << 20).unwrap();
            let rules = crate::visibility::VisibilityRules::parse(
                &serde_json::from_str(aidocs).unwrap(),
                aidocs.into(),
                "aidocs.json",
            )
            .unwrap();
            let mut operations = crate::openapi::LoadedOperations::default();
            operations.0.insert("openapi.json".into(), Vec::new());
            Site {
                root,
                rules,
                operations,
                branding: Default::default(),
                variables: Default::default(),
            }
        };
        let public =
            r#"{"openapi":"3.0.0","servers":[{"url":"https://api.public.example"}],"paths":{}}"#;
        assert_eq!(
            api_base(&site_with(public, "{}")).as_deref(),
            Some("https://api.public.example")
        );
        for (spec, aidocs) in [
            (
                r#"{"openapi":"3.0.0","x-internal":true,"servers":[{"url":"https://internal.example"}]}"#,
                "{}",
            ),
            (
                r#"{"openapi":"3.0.0","servers":[{"url":"https://internal.example","x-visibility":"internal"}]}"#,
                "{}",
            ),
            (
                r#"{"openapi":"3.0.0","servers":[{"url":"https://internal.example"}]}"#,
                r#"{"visibility":{"internal":["openapi.json"]}}"#,
            ),
            (
                r#"{"openapi":"3.0.0","servers":[{"url":"javascript:alert(1)"}]}"#,
                "{}",
            ),
        ] {
            assert_eq!(api_base(&site_with(spec, aidocs)), None, "{spec} {aidocs}");
        }
    }

    #[test]
    fn issue_18_demo_unsafe_page_urls_get_no_link_and_no_file() {
        for bad in [
            "javascript:alert(1)",
            "JavaScript:alert(document.cookie)",
            "data:text/html,<script>alert(1)</script>",
            "//evil.example/x",
            "/\\evil.example/x",
            "/a/../../etc/passwd",
            "/..",
            "/a//b",
            "/a/./b",
            "/a\\..\\b",
            "/C:/Windows",
            "/a%2f..%2f/b",
            "/a\n/b",
            "/\t/evil.example",
            "relative/path",
            "",
            "/_search/ui",
        ] {
            assert_eq!(href(bad), None, "{bad:?} is linked");
            assert_eq!(page_dirs(bad), None, "{bad:?} gets a file");
            let item = render::nav_link(&render::test_page("Title", bad, &[]), "/");
            assert!(!item.contains("<a") && !item.contains("href"), "{item}");
        }
        assert_eq!(page_dirs("/guides/intro/"), Some(vec!["guides", "intro"]));
        assert_eq!(page_dirs("/"), Some(vec![]));
        assert_eq!(page_dirs("/zh/快速开始"), Some(vec!["zh", "快速开始"]));
        assert_eq!(href("/guides/intro"), Some("/guides/intro"));
        assert_eq!(
            href("https://example.com/a?b=1"),
            Some("https://example.com/a?b=1")
        );
        assert_eq!(href("HTTP://example.com/"), Some("HTTP://example.com/"));
        assert_eq!(page_dirs("https://example.com/a"), None);
        assert_eq!(
            render::nav_link(&render::test_page("T", "/a\"b", &[]), "/a\"b"),
            "<li><a href=\"/a&quot;b\" aria-current=\"page\">T</a></li>"
        );

        // Written files stay inside `out`, even through a symlink left in it.
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        assert!(write_page(&out, "/guides/intro", "<p>ok</p>").unwrap());
        assert!(out.join("guides/intro/index.html").is_file());
        assert!(!write_page(&out, "javascript:alert(1)", "x").unwrap());
        assert!(!write_page(&out, "/a/../../outside", "x").unwrap());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, out.join("link")).unwrap();
            assert!(!write_page(&out, "/link/page", "x").unwrap());
            std::os::unix::fs::symlink(outside.join("f.html"), out.join("guides/index.html"))
                .unwrap();
            assert!(!write_page(&out, "/guides", "x").unwrap());
        }
        let mut written = Vec::new();
        for e in walkdir::WalkDir::new(dir.path()) {
            let e = e.unwrap();
            if e.file_type().is_file() {
                written.push(e.path().to_path_buf());
            }
        }
        assert_eq!(written, vec![out.join("guides/intro/index.html")]);
    }
}
