//! Issue 24: the demo renders what the site shows. A site with `docs.json`'s name, logo and colours,
//! nested navigation groups, and pages with lists, tables, code blocks and component titles is
//! rendered with `aidocs-index demo`; the HTML has each in place, under the site's own brand.
//! (Screenshots of the example site in Chromium: `site-plugin/test/e2e.test.mjs`.)

use std::fs;
use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn demo_of(site: &Path, out: &Path) {
    aidocs_index::demo::render_demo(site, out, Some(&aidocs_e2e::repo().join("site-plugin")))
        .unwrap_or_else(|e| panic!("demo failed: {e}"));
}

#[test]
fn issue_24_demo_renders_structure_brand_and_nested_navigation() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("my-docs");
    write(
        &site,
        "docs.json",
        r##"{"name": "Acme Cloud", "logo": {"light": "/logo/light.svg", "dark": "/logo/dark.svg"},
            "colors": {"primary": "#166E3F"},
            "navigation": {"groups": [
              {"group": "Guides", "pages": ["intro", {"group": "Advanced", "pages": ["deep"]}, "outro"]}
            ]}}"##,
    );
    write(
        &site,
        "logo/light.svg",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    );
    write(
        &site,
        "intro.mdx",
        "---\ntitle: Intro\n---\nBefore the list.\n\n- first item\n- second item\n\n```bash\nnpm install acme\n```\n\nAfter the code.\n\n| Plan | Price |\n|---|---|\n| Free | 0 |\n\n<Accordion title=\"1. Platform ownership\">\nInside the accordion.\n</Accordion>\n\n## Set up\n\nText.\n",
    );
    write(&site, "deep.mdx", "---\ntitle: Deep\n---\nDeep page.\n");
    write(&site, "outro.mdx", "---\ntitle: Outro\n---\nLast page.\n");
    let out = dir.path().join("www");
    demo_of(&site, &out);
    let html = fs::read_to_string(out.join("intro/index.html")).unwrap();
    let at = |s: &str| {
        html.find(s)
            .unwrap_or_else(|| panic!("{s:?} is not in the page: {html}"))
    };
    // In place: the list, then the code with its language, then the table, then the component.
    assert!(at("Before the list.") < at("<li>first item</li>"));
    assert!(at("<li>second item</li>") < at("<pre><code class=\"language-bash\">npm install acme"));
    assert!(
        at("npm install acme") < at("After the code.") && at("After the code.") < at("<table>")
    );
    assert!(at("<th>Plan</th>") < at("<strong>1. Platform ownership</strong>"));
    assert!(at("<strong>1. Platform ownership</strong>") < at("Inside the accordion."));
    assert!(html.contains("<h2 id=\"set-up\">Set up</h2>"), "{html}");
    // The brand: docs.json's name (not the folder's), the logo copied, the primary colour.
    assert!(
        html.contains("<span>Acme Cloud</span>") && !html.contains("my docs"),
        "{html}"
    );
    // Inlined in an <img> (an SVG file served from the demo's origin could run script if opened).
    assert!(
        html.contains("<img src=\"data:image/svg+xml;base64,PHN2Zy"),
        "{html}"
    );
    assert!(html.contains("--primary:#166E3F"), "{html}");
    // One "Guides" group, with "Advanced" nested between its pages.
    assert_eq!(html.matches("<h4>Guides</h4>").count(), 1, "{html}");
    assert!(
        at(">Intro<") < at("<span>Advanced</span>") && at("<span>Advanced</span>") < at(">Deep<")
    );
    assert!(at(">Deep<") < at(">Outro<"));
}

/// A logo that is not an image inside the site, or that the site's rules withhold, is not copied;
/// a colour that is not a colour is not written into the style.
#[test]
fn issue_24_demo_brand_refuses_what_is_not_a_public_image_of_the_site() {
    let dir = tempfile::tempdir().unwrap();
    for (logo, aidocs) in [
        ("/../outside.svg", None),
        ("/secret.txt", None),
        (
            "/logo/internal.svg",
            Some(r#"{"visibility": {"internal": ["logo/**"]}}"#),
        ),
        // Withheld as written, public as resolved: the most restrictive wins.
        (
            "/private/a.svg",
            Some(r#"{"visibility": {"private": ["private/**"]}}"#),
        ),
    ] {
        let site = dir.path().join("site");
        let _ = fs::remove_dir_all(&site);
        write(dir.path(), "outside.svg", "<svg/>");
        write(&site, "secret.txt", "canary-logo-secret");
        write(
            &site,
            "logo/internal.svg",
            "<svg>canary-internal-logo</svg>",
        );
        write(&site, "logo/public.svg", "<svg>public</svg>");
        std::fs::create_dir_all(site.join("private")).unwrap();
        std::os::unix::fs::symlink("../logo/public.svg", site.join("private/a.svg")).unwrap();
        if let Some(a) = aidocs {
            write(&site, "aidocs.json", a);
        }
        write(
            &site,
            "docs.json",
            &format!(
                r#"{{"name": "X", "logo": "{logo}", "colors": {{"primary": "red;}}body{{display:none"}},
                    "navigation": {{"pages": ["index"]}}}}"#
            ),
        );
        write(&site, "index.mdx", "---\ntitle: Home\n---\nHello.\n");
        let out = dir.path().join("www");
        let _ = fs::remove_dir_all(&out);
        demo_of(&site, &out);
        let html = fs::read_to_string(out.join("index.html")).unwrap();
        assert!(!html.contains("<img"), "{logo}: {html}");
        assert!(!html.contains("display:none"), "{html}");
    }
}
