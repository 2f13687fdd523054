//! The pages a build would index, as plain text: here is a site (or JSONL file), give me one JSON
//! record per page (`{"id","url","title","kind","language","text"}`, optionally `"vector"`).
//!
//! Useful for feeding the very same text to another engine (the benchmarks do, so every engine
//! indexes what aidocs indexes), and for seeing what ingestion made of a page. Not an index: nothing
//! here is ranked or sharded. Visibility is applied exactly as in `build` (the same `ingest`), so a
//! public export never holds internal or private text.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use crate::build::BuildError;
use crate::document::{Diagnostic, Page};
use crate::embed::{chunk_text, text_hash, text_key, Embedder, EmbeddingCache};
use crate::ingest::{ingest, parse_isolated, IngestOptions};

/// One exported page.
#[derive(Debug, Serialize)]
pub struct PageRecord<'a> {
    pub id: &'a str,
    pub url: &'a str,
    pub title: &'a str,
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'a str>,
    /// Every section's heading path, text and code, in page order.
    pub text: String,
    /// The page's vector: the normalized mean of its chunks' full-model vectors (the vectors a
    /// hybrid build stores), so another engine can rank with the same document vectors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vector: Option<Vec<f32>>,
}

/// What an export wrote.
#[derive(Debug, Default)]
pub struct PagesSummary {
    pub pages: usize,
    pub chunks_embedded: usize,
    pub warnings: Vec<Diagnostic>,
}

/// Where page vectors come from: the model, and the build cache whose vectors it reuses.
pub struct VectorSource<'a> {
    pub embedder: &'a Embedder,
    pub cache_dir: &'a Path,
}

/// The plain text of a page: each section's heading path, body and code.
pub fn page_text(page: &Page) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in &page.chunks {
        if !c.heading_path.is_empty() {
            parts.push(c.heading_path.join(" > "));
        }
        for p in [&c.body, &c.code] {
            if !p.is_empty() {
                parts.push(p.clone());
            }
        }
    }
    parts.join("\n\n")
}

/// Writes one JSON line per indexed page of `input` to `out`, in ingestion order.
pub fn export_pages(
    input: &Path,
    opts: &IngestOptions,
    vectors: Option<VectorSource<'_>>,
    out: &mut impl Write,
) -> Result<PagesSummary, BuildError> {
    let ingested = ingest(input, opts).map_err(BuildError::Input)?;
    let mut summary = PagesSummary {
        warnings: ingested.diagnostics.clone(),
        ..PagesSummary::default()
    };
    let attempts: Vec<_> = ingested
        .pending
        .par_iter()
        .map(|p| parse_isolated(p, ingested.site.as_ref(), opts))
        .collect();
    // A page whose parse failed is reported and left out, as the build leaves it out.
    let mut parsed: Vec<(Page, Vec<Diagnostic>)> = Vec::with_capacity(attempts.len());
    for r in attempts {
        match r {
            Ok(done) => parsed.push(done),
            Err(d) => summary.warnings.push(d),
        }
    }
    let mut page_vectors: Vec<Option<Vec<f32>>> = vec![None; parsed.len()];
    if let Some(src) = vectors {
        let e = src.embedder;
        std::fs::create_dir_all(src.cache_dir).map_err(|source| BuildError::Write {
            path: src.cache_dir.to_path_buf(),
            source,
        })?;
        let mut cache =
            EmbeddingCache::open(&EmbeddingCache::path_in(src.cache_dir, &e.model_id), e.dims)?;
        let keyed: Vec<Vec<([u8; 32], String)>> = parsed
            .iter()
            .map(|(page, _)| {
                page.chunks
                    .iter()
                    .map(|c| {
                        let t = chunk_text(&page.title, c);
                        (text_key(&e.model_id, &text_hash(&t)), t)
                    })
                    .collect()
            })
            .collect();
        let mut todo: Vec<&([u8; 32], String)> = keyed
            .iter()
            .flatten()
            .filter(|(k, _)| cache.get(k).is_none())
            .collect();
        todo.sort_by_key(|(k, _)| *k);
        todo.dedup_by_key(|(k, _)| *k);
        for batch in todo.chunks(256) {
            let texts: Vec<&str> = batch.iter().map(|(_, t)| t.as_str()).collect();
            let vecs = e.embed(&texts)?;
            cache.insert_all(batch.iter().map(|(k, _)| *k).zip(vecs).collect())?;
        }
        summary.chunks_embedded = todo.len();
        for (slot, chunks) in page_vectors.iter_mut().zip(&keyed) {
            let mut mean = vec![0f32; e.dims];
            for (k, _) in chunks {
                if let Some(v) = cache.get(k) {
                    mean.iter_mut().zip(v).for_each(|(m, x)| *m += x);
                }
            }
            let norm = mean.iter().map(|x| x * x).sum::<f32>().sqrt();
            if norm > 0.0 {
                mean.iter_mut().for_each(|m| *m /= norm);
                *slot = Some(mean);
            }
        }
    }
    for ((page, warnings), vector) in parsed.iter().zip(page_vectors) {
        summary.warnings.extend(warnings.iter().cloned());
        let record = PageRecord {
            id: &page.id,
            url: &page.url,
            title: &page.title,
            kind: page.kind.name(),
            language: page.language.as_deref(),
            text: page_text(page),
            vector,
        };
        let line = serde_json::to_string(&record).map_err(|e| BuildError::Write {
            path: "<stdout>".into(),
            source: std::io::Error::other(e),
        })?;
        writeln!(out, "{line}").map_err(|source| BuildError::Write {
            path: "<stdout>".into(),
            source,
        })?;
        summary.pages += 1;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Visibility;

    fn fixture(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("fixtures")
            .join(name)
    }

    fn options(audience: Visibility) -> IngestOptions {
        IngestOptions::new(audience)
    }

    fn export(audience: Visibility) -> Vec<serde_json::Value> {
        let mut out = Vec::new();
        export_pages(&fixture("example-site"), &options(audience), None, &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn exported_pages_are_the_indexed_pages_and_keep_their_text() {
        let pages = export(Visibility::Public);
        assert!(pages.len() > 3, "{pages:?}");
        for p in &pages {
            for field in ["id", "url", "title", "kind", "text"] {
                assert!(p[field].is_string(), "{field} missing in {p}");
            }
            assert!(p.get("vector").is_none());
        }
        let all: String = pages.iter().map(|p| p["text"].as_str().unwrap()).collect();
        assert!(all.to_lowercase().contains("refresh"), "{all}");
    }

    #[test]
    fn a_public_export_holds_no_internal_or_private_text() {
        let public = export(Visibility::Public);
        let internal = export(Visibility::Internal);
        assert!(internal.len() > public.len());
        let public = serde_json::to_string(&public).unwrap().to_lowercase();
        let internal = serde_json::to_string(&internal).unwrap().to_lowercase();
        assert!(internal.contains("canary-internal-7f3a"), "{internal}");
        // The canaries of tests/tests/visibility.rs.
        for canary in ["7f3a", "55d1", "3d9e", "4b1f", "91c2", "0b7e", "a1e0"] {
            assert!(
                !public.contains(canary),
                "{canary} leaked into the public export"
            );
            if ["91c2", "0b7e", "a1e0"].contains(&canary) {
                assert!(
                    !internal.contains(canary),
                    "{canary} leaked into the internal export"
                );
            }
        }
    }
}
