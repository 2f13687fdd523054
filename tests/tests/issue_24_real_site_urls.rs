//! Issue 24: no result at a URL the site does not have. Every page URL the index would emit for
//! the two real Mintlify sites in `../shared/data/sites` is checked against their navigation, read
//! here independently of the indexer: a page listed in `docs.json` (or a `$ref` file) is at
//! `/<path>` (`index` at its folder); an operation page exists only where the navigation asks
//! Mintlify to generate it. The count of phantom URLs is printed and must be 0. Both sites are
//! valid MDX (Mintlify builds them), so no page may fall back to reading broken MDX as text.

use std::collections::BTreeSet;
use std::path::Path;

use aidocs_e2e::{page_url_of, shared_data};
use aidocs_index::ingest::IngestOptions;
use aidocs_index::Visibility;
use serde_json::Value;

/// Every string in a `pages`/`root` position of the navigation (following `$ref` files), and
/// whether any navigation element names a spec or lists an operation.
fn nav_pages(site: &Path, file: &str, v: &Value, out: &mut BTreeSet<String>, generated: &mut bool) {
    match v {
        Value::String(s) => {
            let s = s.trim();
            let words: Vec<&str> = s.split_whitespace().collect();
            if words.len() >= 2 && words.last().is_some_and(|p| p.starts_with('/')) {
                *generated = true; // "GET /x": an operation page Mintlify generates
            } else {
                out.insert(s.trim_start_matches('/').to_owned());
            }
        }
        Value::Array(a) => a
            .iter()
            .for_each(|x| nav_pages(site, file, x, out, generated)),
        Value::Object(o) => {
            if o.contains_key("openapi") {
                *generated = true;
            }
            if let Some(r) = o.get("$ref").and_then(Value::as_str) {
                let dir = Path::new(file).parent().unwrap_or(Path::new(""));
                let rel = dir.join(r);
                let text = std::fs::read_to_string(site.join(&rel)).unwrap();
                let loaded: Value = serde_json::from_str(&text).unwrap();
                nav_pages(site, &rel.to_string_lossy(), &loaded, out, generated);
            }
            for (k, x) in o {
                if k == "root" || !x.is_string() {
                    nav_pages(site, file, x, out, generated);
                }
            }
        }
        _ => {}
    }
}

#[test]
fn issue_24_every_url_of_the_real_sites_is_a_page_of_their_navigation() {
    for name in ["mintlify-docs", "pipecat-docs"] {
        let Some(site) = shared_data(&format!("sites/{name}")) else {
            eprintln!("skipped: ../shared/data/sites/{name} is not present");
            continue;
        };
        let config: Value =
            serde_json::from_str(&std::fs::read_to_string(site.join("docs.json")).unwrap())
                .unwrap();
        let mut keys = BTreeSet::new();
        let mut generated = false;
        nav_pages(
            &site,
            "docs.json",
            config.get("navigation").unwrap(),
            &mut keys,
            &mut generated,
        );
        let urls: BTreeSet<String> = keys.iter().map(|k| page_url_of(k)).collect();

        let mut jsonl = Vec::new();
        let summary = aidocs_index::pages::export_pages(
            &site,
            &IngestOptions::new(Visibility::Public),
            None,
            &mut jsonl,
        )
        .unwrap();
        // Both sites build on Mintlify: their pages are valid MDX, so no fallback may fire.
        let broken: Vec<String> = summary
            .warnings
            .iter()
            .filter(|w| w.message.contains("never closes"))
            .map(ToString::to_string)
            .collect();
        assert!(
            broken.is_empty(),
            "{name}: valid MDX read as broken: {broken:#?}"
        );
        let emitted: Vec<(String, String)> = String::from_utf8(jsonl)
            .unwrap()
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                (
                    v["url"].as_str().unwrap().to_owned(),
                    v["kind"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let phantom: Vec<&(String, String)> = emitted
            .iter()
            .filter(|(url, kind)| !(urls.contains(url) || kind == "api" && generated))
            .collect();
        eprintln!(
            "{name}: {} page URLs emitted, {} in the navigation, {} phantom",
            emitted.len(),
            urls.len(),
            phantom.len()
        );
        assert!(
            phantom.is_empty(),
            "{name}: URLs the site does not have: {phantom:#?}"
        );
    }
}
