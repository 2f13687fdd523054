//! The build's chunk vectors: from the vector cache where it has them, embedded by the full model
//! where it does not, and, under an embedding budget (`--embed-budget`), the section's heading for
//! the chunks left for a later build.
//!
//! Embedding every chunk of a large site of long pages with the full model takes hours on a few
//! cores (issue 20: about 9 chunks/s of 256 tokens on 2 cores). A budget bounds what one build
//! embeds: the first chunk of every page (its summary) before the pages' other sections, each in
//! chunk order, and a chunk past the budget takes the vector of its section's heading (`title.
//! heading path`, or the page title), which the build embeds anyway for the static query encoder.
//! Each later build with a budget embeds the next chunks, since the cache keeps what earlier ones
//! embedded; once every chunk is embedded, the output is byte-identical to a build without one. A
//! build without a budget embeds everything, and its output does not depend on what the cache holds.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Instant;

use aidocs_core::Analyzer;

use crate::build::{progress_bar, BuildError};
use crate::document::Page;
use crate::embed::{chunk_text, text_hash, text_key, Embedder, EmbeddingCache, MAX_TOKENS};
use crate::tantivy_cache::{IndexContents, IndexError, StoredChunk};
use crate::vectors::{ChunkVectors, ShortExamples};

/// What a build's embedding did, for its summary.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct EmbedCounts {
    /// Chunks whose text this build embedded (the others came from the cache, or were deferred).
    pub chunks: usize,
    /// Tokens the model read for them (each text cut to the model's window, `[CLS]` and `[SEP]`
    /// included).
    pub tokens: usize,
    /// Seconds the model took for them (tokenizing included).
    pub seconds: f64,
    /// Chunks past the budget: they carry their section heading's vector until a build embeds them.
    pub deferred: usize,
    /// Titles and headings embedded for the static query encoder's fit.
    pub short_texts: usize,
}

/// Vectors for every chunk of `contents`, from the cache where possible; the rest are embedded (texts
/// from the pages this build parsed, or parsed again) and added to the cache batch by batch, so an
/// interrupted build resumes. With `budget`, at most that many chunks are embedded (the order is
/// [`budget_order`]'s) and the others take their section heading's vector (the module's doc).
#[allow(clippy::too_many_arguments)]
pub(crate) fn embed_chunks(
    e: &Embedder,
    contents: &IndexContents,
    cache_dir: &Path,
    parsed: &HashMap<&str, &Page>,
    reparse: impl Fn(&str) -> Option<Page>,
    sentences: usize,
    budget: Option<usize>,
    progress: bool,
) -> Result<(ChunkVectors, EmbedCounts), BuildError> {
    let cache_path = EmbeddingCache::path_in(cache_dir, &e.model_id);
    let mut cache = EmbeddingCache::open(&cache_path, e.dims)?;
    // Chunk ordinals without a cached vector, then those this build embeds and those it defers.
    let uncached: Vec<usize> = (0..contents.chunks.len())
        .filter(|&i| {
            let h = &contents.chunks[i].text_hash;
            h.is_empty() || cache.get(&text_key(&e.model_id, h)).is_none()
        })
        .collect();
    let (now, deferred) = budget_order(&contents.chunks, uncached, budget);
    // (chunk ordinal, text) of the chunks embedded now.
    let mut reparsed: HashMap<String, Option<Page>> = HashMap::new();
    let mut todo: Vec<(usize, String)> = Vec::with_capacity(now.len());
    for i in now {
        let c = &contents.chunks[i];
        let page: Option<&Page> = match parsed.get(c.page.id.as_str()) {
            Some(p) => Some(*p),
            None => reparsed
                .entry(c.page.id.clone())
                .or_insert_with(|| reparse(&c.page.id))
                .as_ref(),
        };
        let text = page
            .and_then(|p| {
                p.chunks
                    .get(c.index as usize)
                    .map(|ch| chunk_text(&p.title, ch))
            })
            .unwrap_or_else(|| format!("{}\n{}", c.title, c.excerpt));
        todo.push((i, text));
    }
    drop(reparsed);
    let mut counts = EmbedCounts {
        deferred: deferred.len(),
        ..EmbedCounts::default()
    };
    let started = Instant::now();
    let pb = progress_bar(progress && !todo.is_empty(), todo.len() as u64, "embedding");
    for batch in todo.chunks(256) {
        let encoded: Vec<Vec<u32>> = (batch.iter())
            .map(|(_, t)| e.vocab().encode(t, MAX_TOKENS))
            .collect();
        counts.tokens += encoded.iter().map(Vec::len).sum::<usize>();
        let vecs = e.embed_ids(&encoded)?;
        let items = batch
            .iter()
            .zip(vecs)
            .map(|((_, t), v)| (text_key(&e.model_id, &text_hash(t)), v))
            .collect::<Vec<_>>();
        // Chunks whose stored hash predates vectors are keyed by their stored hash too.
        let mut extra = Vec::new();
        for ((i, _), (_, v)) in batch.iter().zip(&items) {
            let h = &contents.chunks[*i].text_hash;
            if !h.is_empty() {
                extra.push((text_key(&e.model_id, h), v.clone()));
            }
        }
        cache.insert_all(items)?;
        cache.insert_all(extra)?;
        pb.inc(batch.len() as u64);
    }
    pb.finish_and_clear();
    counts.chunks = todo.len();
    counts.seconds = started.elapsed().as_secs_f64();
    let (short, short_embedded, short_keys) =
        embed_short_texts(e, contents, &mut cache, sentences, progress)?;
    counts.short_texts = short_embedded;
    // Each chunk's vector: its text's, or its section heading's while it is deferred.
    let key_of: HashMap<usize, [u8; 32]> = (todo.iter())
        .map(|(i, t)| (*i, text_key(&e.model_id, &text_hash(t))))
        .chain((deferred.iter()).map(|(i, head)| (*i, text_key(&e.model_id, &text_hash(head)))))
        .collect();
    let mut rows = Vec::with_capacity(contents.chunks.len());
    for (i, c) in contents.chunks.iter().enumerate() {
        let key = (key_of.get(&i).copied()).unwrap_or_else(|| text_key(&e.model_id, &c.text_hash));
        let v = cache.get(&key).ok_or_else(|| {
            BuildError::Index(IndexError::Corrupt(format!(
                "no vector for chunk {i} after embedding; delete {} and rebuild",
                cache_path.display()
            )))
        })?;
        rows.push(v.to_vec());
    }
    // What this build uses, and nothing else, stays in the vector cache (a deferred chunk's
    // heading is among the short texts).
    let mut keep: HashSet<[u8; 32]> = short_keys.into_iter().collect();
    for (i, c) in contents.chunks.iter().enumerate() {
        match key_of.get(&i) {
            Some(k) => keep.insert(*k),
            None => keep.insert(text_key(&e.model_id, &c.text_hash)),
        };
        if !c.text_hash.is_empty() {
            keep.insert(text_key(&e.model_id, &c.text_hash));
        }
    }
    cache.retain(&keep)?;
    Ok((
        ChunkVectors {
            model: crate::embed::MODEL_NAME.to_owned(),
            dims: e.dims,
            rows,
            short,
        },
        counts,
    ))
}

/// The chunks of `uncached` (ordinals in order) a build embeds now, and those it defers with the
/// section heading that stands in for each: all now without a budget; with one, at most `budget`
/// now, pages' first chunks (their summaries) before their other sections, each in chunk order. A
/// chunk with no heading to stand in for it (no page title, no heading path) is embedded now, past
/// the budget.
fn budget_order(
    chunks: &[StoredChunk],
    uncached: Vec<usize>,
    budget: Option<usize>,
) -> (Vec<usize>, Vec<(usize, String)>) {
    let Some(budget) = budget.filter(|&b| b < uncached.len()) else {
        return (uncached, Vec::new());
    };
    let mut ranked = uncached.clone();
    // Stable: chunk order within each tier.
    ranked.sort_by_key(|&i| chunks[i].index != 0);
    let chosen: HashSet<usize> = ranked.into_iter().take(budget).collect();
    let (mut now, mut deferred) = (Vec::new(), Vec::new());
    for i in uncached {
        match section_head(&chunks[i]) {
            Some(head) if !chosen.contains(&i) => deferred.push((i, head)),
            _ => now.push(i),
        }
    }
    (now, deferred)
}

/// The short text that stands for a chunk's section: `title. heading path`, or the page title when
/// the section has no heading of its own (`None` when that is empty too). One of the short texts.
fn section_head(c: &StoredChunk) -> Option<String> {
    let title = c.page.title.trim();
    let path: Vec<&str> = (c.heading_path.iter())
        .map(String::as_str)
        .filter(|h| *h != title)
        .collect();
    match (title.is_empty(), path.is_empty()) {
        (_, false) => Some(format!("{title}. {}", path.join(" > "))),
        (false, true) => Some(title.to_owned()),
        (true, true) => None,
    }
}

/// Complete sentences at the start of `text` (at most `max`, 20 to 300 characters each): the ones cut
/// off by the excerpt's end are left out.
fn leading_sentences(text: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, ch) in text.char_indices() {
        if out.len() == max {
            break;
        }
        let end = i + ch.len_utf8();
        let boundary =
            matches!(ch, '.' | '?' | '!') && text[end..].starts_with(|c: char| c.is_whitespace());
        if boundary {
            let s = text[start..end].trim();
            if (20..=300).contains(&s.len()) {
                out.push(s);
            }
            start = end;
        }
    }
    out
}

/// The short texts of the site, each once: page titles, `title. heading path` of sections
/// ([`section_head`]), and the first complete sentences of each section. Queries look like these far
/// more than like whole chunks, so the static encoder is fitted on them too. Each comes with its
/// page's language.
fn short_texts(chunks: &[StoredChunk], sentences: usize) -> Vec<(String, Option<&str>)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for c in chunks {
        let mut texts = vec![c.page.title.trim().to_owned()];
        texts.extend(section_head(c));
        texts.extend(
            leading_sentences(&c.excerpt, sentences)
                .into_iter()
                .map(str::to_owned),
        );
        for t in texts {
            if !t.is_empty() && seen.insert(t.clone()) {
                out.push((t, c.page.language.as_deref()));
            }
        }
    }
    out
}

/// Embeds [`short_texts`] through the vector cache; returns them with their analyzed terms, how many
/// were embedded now, and their cache keys.
fn embed_short_texts(
    e: &Embedder,
    contents: &IndexContents,
    cache: &mut EmbeddingCache,
    sentences: usize,
    progress: bool,
) -> Result<(ShortExamples, usize, Vec<[u8; 32]>), BuildError> {
    let texts = short_texts(&contents.chunks, sentences);
    let keys: Vec<_> = texts
        .iter()
        .map(|(t, _)| text_key(&e.model_id, &text_hash(t)))
        .collect();
    let todo: Vec<usize> = (0..texts.len())
        .filter(|&i| cache.get(&keys[i]).is_none())
        .collect();
    let pb = progress_bar(
        progress && !todo.is_empty(),
        todo.len() as u64,
        "embedding titles",
    );
    for batch in todo.chunks(256) {
        let batch_texts: Vec<&str> = batch.iter().map(|&i| texts[i].0.as_str()).collect();
        let vecs = e.embed(&batch_texts)?;
        cache.insert_all(batch.iter().map(|&i| keys[i]).zip(vecs).collect())?;
        pb.inc(batch.len() as u64);
    }
    pb.finish_and_clear();
    let mut short = ShortExamples {
        terms: Vec::with_capacity(texts.len()),
        vectors: Vec::with_capacity(texts.len()),
    };
    for ((t, language), key) in texts.iter().zip(&keys) {
        if let Some(v) = cache.get(key) {
            // Read as a query in the page's language is: these texts stand for queries.
            short.terms.push(
                Analyzer::for_language(*language)
                    .for_query()
                    .analyze(t)
                    .into_iter()
                    .map(|tok| tok.text)
                    .collect(),
            );
            short.vectors.push(v.to_vec());
        }
    }
    Ok((short, todo.len(), keys))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tantivy_cache::StoredPage;

    fn chunk(page: &str, title: &str, index: u32, path: &[&str]) -> StoredChunk {
        StoredChunk {
            page: StoredPage {
                id: page.into(),
                url: format!("/{page}"),
                title: title.into(),
                kind: "page".into(),
                breadcrumb: Vec::new(),
                group: None,
                tags: Vec::new(),
                api: None,
                language: None,
                version: None,
                description: String::new(),
            },
            index,
            chunk_count: 3,
            anchor: String::new(),
            title: String::new(),
            heading_path: path.iter().map(|h| h.to_string()).collect(),
            excerpt: String::new(),
            text: String::new(),
            lens: [0; aidocs_core::SCORED_FIELDS],
            text_hash: String::new(),
            words: Vec::new(),
        }
    }

    /// Pages `a` (three chunks), `b` (two) and `c` (two, with neither a title nor headings).
    fn site() -> Vec<StoredChunk> {
        vec![
            chunk("a", "A", 0, &[]),
            chunk("a", "A", 1, &["Setup"]),
            chunk("a", "A", 2, &["Setup", "Keys"]),
            chunk("b", "B", 0, &["B"]),
            chunk("b", "B", 1, &["Use"]),
            chunk("c", "", 0, &[]),
            chunk("c", "", 1, &[]),
        ]
    }

    #[test]
    fn issue_20_a_budget_embeds_pages_summaries_first_then_their_sections_in_order() {
        let chunks = site();
        let all: Vec<usize> = (0..chunks.len()).collect();
        // Without a budget, or with one the work fits in, everything now.
        for budget in [None, Some(7), Some(100)] {
            assert_eq!(
                budget_order(&chunks, all.clone(), budget),
                (all.clone(), Vec::new())
            );
        }
        // Three: the pages' first chunks; chunk 6 has no heading to stand in for it, so it is
        // embedded past the budget.
        let (now, later) = budget_order(&chunks, all.clone(), Some(3));
        assert_eq!(now, [0, 3, 5, 6]);
        assert_eq!(
            later,
            [
                (1, "A. Setup".to_owned()),
                (2, "A. Setup > Keys".to_owned()),
                (4, "B. Use".to_owned())
            ]
        );
        // Four: then the first other section, in chunk order.
        assert_eq!(
            budget_order(&chunks, all.clone(), Some(4)).0,
            [0, 1, 3, 5, 6]
        );
        // What the cache holds is not counted: a later build embeds the next ones.
        assert_eq!(
            budget_order(&chunks, vec![2, 4, 6], Some(1)),
            (vec![2, 6], vec![(4, "B. Use".to_owned())])
        );
        // Zero: only what cannot wait.
        assert_eq!(budget_order(&chunks, all, Some(0)).0, [5, 6]);
    }

    /// A deferred chunk's vector is one the build embeds anyway: its section head is one of the
    /// short texts.
    #[test]
    fn issue_20_every_section_head_is_a_short_text() {
        let chunks = site();
        let short: Vec<String> = short_texts(&chunks, 0).into_iter().map(|t| t.0).collect();
        assert_eq!(short, ["A", "A. Setup", "A. Setup > Keys", "B", "B. Use"]);
        for c in &chunks {
            if let Some(head) = section_head(c) {
                assert!(short.contains(&head), "{head}");
            }
        }
    }
}
