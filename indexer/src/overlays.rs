//! Here is a site, tell me which of its OpenAPI specs Mintlify changes with an OpenAPI Overlay
//! before it makes pages of them: those specs' text as published is not the file's, and this
//! build does not apply overlays, so their operations are withheld (what is present but not
//! understood withholds).
//!
//! As `categorizeFilePaths` (`@mintlify/prebuild`) and `resolveOverlaysForSpec`
//! (`@mintlify/common`) find them: a `.json`, `.yaml` or `.yml` file of the site whose top level
//! has an `overlay` key applies to the spec its `extends` names (resolved against the overlay's
//! folder); an `openapi` object in docs.json with `overlays` applies them to its `source`.

use std::collections::BTreeMap;

use crate::visibility::{normalize_rel, SiteRoot};

/// Spec (site-relative) → the overlay that changes it (a file, or `docs.json`).
pub fn overlaid_specs(
    site: &SiteRoot,
    declared: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut out = declared.clone();
    for (rel, path) in site.published_files() {
        let lower = rel.to_lowercase();
        let json = lower.ends_with(".json");
        if !(json || lower.ends_with(".yaml") || lower.ends_with(".yml")) {
            continue;
        }
        let Ok(text) = site.resolve(&path).and_then(|f| site.read(&f)) else {
            continue;
        };
        if !text.contains("overlay") {
            continue;
        }
        // Mintlify reads `.json` files with its YAML reader too; nesting is bounded first (a YAML
        // parser is quadratic in it).
        let value: Option<serde_json::Value> = if crate::visibility::check_nesting(&text).is_err() {
            None
        } else if json {
            serde_json::from_str(&text)
                .ok()
                .or_else(|| serde_norway::from_str(&text).ok())
        } else {
            serde_norway::from_str(&text).ok()
        };
        let Some(serde_json::Value::Object(doc)) = value else {
            continue;
        };
        if !doc.contains_key("overlay") {
            continue;
        }
        let Some(extends) = doc.get("extends").and_then(|v| v.as_str()) else {
            continue;
        };
        if extends.contains("://") {
            continue;
        }
        // Resolved as `resolveExtends` does: against the overlay's folder, a `..` above the
        // root dropped.
        let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
        let joined = if extends.starts_with('/') {
            extends.to_owned()
        } else {
            format!("/{dir}/{extends}")
        };
        let clamped = crate::ingest::posix_normalize(&joined);
        if let Some(spec) = normalize_rel(clamped.trim_start_matches('/')) {
            out.entry(spec).or_insert(rel);
        }
    }
    out
}
