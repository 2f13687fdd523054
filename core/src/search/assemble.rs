//! Results: ranked pages joined with their metadata shards (titles, URLs, anchors, excerpts).

use super::{Explanation, PageHit, SearchError, Searcher};
use crate::format::{Kind, MetaShard, PageMeta};

/// A search result with its metadata, the shape the CLI and the wasm API both return.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    pub page: u32,
    pub id: String,
    pub url: String,
    pub title: String,
    pub kind: Kind,
    pub score: f32,
    pub breadcrumb: Vec<String>,
    pub sections: Vec<SectionResult>,
    pub explanation: Option<Explanation>,
    pub api: Option<crate::format::ApiMeta>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SectionResult {
    pub anchor: String,
    pub title: String,
    pub url: String,
    pub score: f32,
    pub excerpt: String,
}

impl Searcher {
    /// Metadata shard indexes needed to display `hits`, sorted, without duplicates.
    pub fn meta_shards_for(&self, hits: &[PageHit]) -> Vec<usize> {
        super::sorted_unique(hits.iter().filter_map(|h| self.meta_shard_for(h.page)))
    }

    /// Joins ranked pages with their metadata.
    pub fn assemble<'s>(
        &self,
        hits: Vec<PageHit>,
        meta: impl Fn(usize) -> Option<&'s MetaShard>,
    ) -> Result<Vec<SearchResult>, SearchError> {
        let mut out = Vec::with_capacity(hits.len());
        for hit in hits {
            let page_meta = self.page_meta(hit.page, &meta)?;
            let entry = &self.manifest.pages[hit.page as usize];
            let first_chunk = self.page_first_chunk[hit.page as usize];
            let sections = hit
                .sections
                .iter()
                .map(|s| {
                    let c = &page_meta.chunks[(s.chunk - first_chunk) as usize];
                    SectionResult {
                        anchor: c.anchor.clone(),
                        title: c.title.clone(),
                        url: if c.anchor.is_empty() {
                            page_meta.url.clone()
                        } else {
                            crate::text::concat(&[&page_meta.url, "#", &c.anchor])
                        },
                        score: s.score,
                        excerpt: c.excerpt.clone(),
                    }
                })
                .collect();
            out.push(SearchResult {
                page: hit.page,
                id: page_meta.id.clone(),
                url: page_meta.url.clone(),
                title: page_meta.title.clone(),
                kind: entry.kind,
                score: hit.score,
                breadcrumb: page_meta.breadcrumb.clone(),
                sections,
                explanation: hit.explanation,
                api: page_meta.api.clone(),
            });
        }
        Ok(out)
    }

    /// Page `page`'s metadata in the shard `meta` gives for its slot, checked to describe the page
    /// as the page table does (one entry per chunk).
    pub(super) fn page_meta<'s>(
        &self,
        page: u32,
        meta: &impl Fn(usize) -> Option<&'s MetaShard>,
    ) -> Result<&'s PageMeta, SearchError> {
        let no_meta =
            || SearchError::MetaMismatch(crate::message!["page ", page, ": no metadata shard"]);
        let mi = self.meta_shard_for(page).ok_or_else(no_meta)?;
        let file = self.meta_entry(mi).ok_or_else(no_meta)?.file;
        let shard = meta(mi).ok_or_else(|| SearchError::MissingMetaShard(file.clone()))?;
        page.checked_sub(shard.first_page)
            .and_then(|i| shard.pages.get(i as usize))
            .filter(|p| p.chunks.len() == self.manifest.pages[page as usize].chunk_count as usize)
            .ok_or(SearchError::MetaMismatch(file))
    }
}
