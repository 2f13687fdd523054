//! `aidocs-wasm-search`: the browser and edge query side.
//!
//! Here is a manifest and the shards a query needs; give me the same results JSON `aidocs-index query`
//! prints. The JS wrapper in `site-plugin/src/search.js` owns all I/O (fetch or an injected loader,
//! `DecompressionStream`, request coalescing, stale-build detection); this module verifies, decodes,
//! caches within a byte bound and ranks with `aidocs-core`, the code the CLI runs.
//!
//! Errors cross to JS as one string, `code \x1f file \x1f message`, which the wrapper turns into an
//! `AidocsSearchError` with stable `code` and `file` fields. Nothing here panics on bad bytes: every
//! decoder returns typed errors, and a random-mutation test in `tests/` holds that.

pub mod cache;
pub mod engine;

/// talc rather than the default dlmalloc: smaller in the module every reader downloads. The module
/// is single-threaded (no atomics), which `WasmDynamicTalc` requires.
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use aidocs_core::envelope::ShardKind;
use aidocs_core::text::{concat, split_ascii};
use engine::{Engine, EngineError, QueryOptions};
use wasm_bindgen::prelude::*;

fn js_err(e: EngineError) -> JsValue {
    JsValue::from_str(&concat(&[
        e.code(),
        "\u{1f}",
        e.file(),
        "\u{1f}",
        &e.message(),
    ]))
}

/// Whether this build inflates payloads itself (the `aidocs_search_full_bg.wasm` module, for
/// platforms without DecompressionStream and `inflate: 'wasm'`); the lean module leaves that to its JS.
#[wasm_bindgen(js_name = hasInflate)]
pub fn has_inflate() -> bool {
    cfg!(feature = "inflate")
}

/// Verifies a fetched file's envelope before the caller inflates it; returns the codec (0 stored, 1 zlib).
/// `kind`: 1 manifest, 2 terms, 3 meta, 4 vector directory, 5 vectors, 6 term rows, 7 projection,
/// 8 typo directory, 9 typos, 10 positions, 11 partition table.
#[wasm_bindgen(js_name = verifyEnvelope)]
pub fn verify_envelope(name: &str, file: &[u8], kind: u8) -> Result<u8, JsValue> {
    let kind = ShardKind::from_byte(kind).map_err(|source| {
        js_err(EngineError::Shard {
            file: name.to_owned(),
            source,
        })
    })?;
    engine::verify(name, file, kind).map_err(js_err)
}

/// What `manifest.bin` is, from its header: 1 an index manifest, 11 a language partition table
/// (format v8: then `partitionManifest` names the manifest to open).
#[wasm_bindgen(js_name = rootKind)]
pub fn root_kind(file: &[u8]) -> Result<u8, JsValue> {
    aidocs_core::partitions::root_kind(file)
        .map(|k| k as u8)
        .map_err(|source| {
            js_err(EngineError::Shard {
                file: aidocs_core::MANIFEST_FILE.to_owned(),
                source,
            })
        })
}

/// The manifest file a reader in `language` opens (`l/<hash>.bin`), from a `manifest.bin` that is
/// a language partition table; `undefined` when it is an index manifest. `raw`: its payload when
/// the caller inflated it.
#[wasm_bindgen(js_name = partitionManifest)]
pub fn partition_manifest(
    file: &[u8],
    raw: Option<Vec<u8>>,
    language: Option<String>,
) -> Result<Option<String>, JsValue> {
    engine::partition_manifest(file, raw, language.as_deref().filter(|l| !l.is_empty()))
        .map_err(js_err)
}

/// One opened index.
#[wasm_bindgen]
pub struct SearchEngine {
    inner: Engine,
}

#[wasm_bindgen]
impl SearchEngine {
    /// Opens an index from its manifest (`name`: `manifest.bin` when omitted, or a language
    /// partition's); `raw` is its payload when the caller inflated it. `cache_limit` bounds the
    /// decoded shards kept (bytes of inflated payload).
    #[wasm_bindgen(constructor)]
    pub fn new(
        file: &[u8],
        raw: Option<Vec<u8>>,
        cache_limit: u32,
        name: Option<String>,
    ) -> Result<SearchEngine, JsValue> {
        let name = name.unwrap_or_else(|| aidocs_core::MANIFEST_FILE.to_owned());
        Engine::open_named(&name, file, raw, cache_limit as usize)
            .map(|inner| SearchEngine { inner })
            .map_err(js_err)
    }

    #[wasm_bindgen(getter, js_name = buildId)]
    pub fn build_id(&self) -> String {
        self.inner.manifest().build_id.clone()
    }

    /// `{"buildId","generator","vectorModel","languages","pages","chunks","termShards","metaShards"}`
    /// (`vectorModel` is null for a lexical-only index; `languages` is empty on a one-language site).
    pub fn summary(&self) -> String {
        let m = self.inner.manifest();
        let mut s = String::new();
        let mut w = aidocs_core::json::JsonWriter::new(&mut s);
        w.begin_object()
            .string_field("buildId", &m.build_id)
            .string_field("generator", &m.generator)
            .key("vectorModel");
        match &m.vectors {
            Some(v) => w.string(&v.model),
            None => w.null(),
        };
        w.key("languages")
            .strings(m.languages.iter().map(String::as_str))
            .key("pages")
            .uint(m.pages.len() as u64)
            .key("chunks")
            .uint(u64::from(m.num_chunks))
            .key("termShards")
            .uint(self.inner.searcher().term_shard_count() as u64)
            .key("metaShards")
            .uint(self.inner.searcher().meta_shard_count() as u64)
            .end_object();
        s
    }

    /// Term shard files worth warming while the user types `partial` in the reader's `language`.
    #[wasm_bindgen(js_name = filesForPreload)]
    pub fn files_for_preload(&self, partial: &str, language: Option<String>) -> Vec<String> {
        self.inner
            .files_for_preload(partial, language.as_deref().filter(|l| !l.is_empty()))
    }

    /// The envelope kind byte of an index file (2 terms, 3 meta, 4 vector directory, 5 vectors,
    /// 6 term rows, 7 projection, 8 typo directory, 9 typos, 10 positions), or an `unknown_file` error.
    #[wasm_bindgen(js_name = kindOf)]
    pub fn kind_of(&self, name: &str) -> Result<u8, JsValue> {
        self.inner.kind_of(name).map(|k| k as u8).map_err(js_err)
    }

    /// Verifies, decodes and caches a fetched shard (`raw` = payload inflated by the caller).
    pub fn add(&mut self, name: &str, file: &[u8], raw: Option<Vec<u8>>) -> Result<(), JsValue> {
        self.inner.add(name, file, raw).map_err(js_err)
    }

    /// Starts a search and returns its ticket: `need` names the files it lacks, and once it names
    /// none, `corrections`, `correctedQuery`, `facets` and `results` read it. `tags` are joined by
    /// U+001F; `mode` is lexical, vector or hybrid; `nprobe` < 0 = the default; `prefix`: the last
    /// word, with nothing after it, also matches longer words (what a search box wants while the
    /// reader types); `typos`: words the index lacks are corrected (see `corrections`); `language`:
    /// the reader's (it also picks the analyzer a multilingual index reads the query with);
    /// `tags_any`, `tags_none`: tags of which one is required, tags excluded (joined by U+001F);
    /// `facets`: count the matches by kind, tag, group, language and version (see `facets`);
    /// `version`: the docs version (only its pages and pages in none); `vector`: the full model's
    /// embedding of the query (e.g. from `aidocs-wasm-encoder`, in the model's own space), which
    /// vector and hybrid modes then use instead of the static encoder (`bad_option` on an index
    /// without vectors or a vector of the wrong width); `evidence_tokens`: also select evidence of
    /// that many tokens from the top `evidence_pages` pages (see `evidence`; the search then reads
    /// their section text in one more round), citing pages under `evidence_site` when given;
    /// `evidence_pages` 0: `query` is a page's URL (`#anchor` for one section) and the evidence
    /// is its text, in reading order (`read` in JS).
    #[allow(clippy::too_many_arguments)] // flat arguments keep the JS glue small
    pub fn begin(
        &mut self,
        query: &str,
        k: u32,
        kinds: &str,
        tags: &str,
        group: &str,
        min_score: f32,
        explain: bool,
        mode: &str,
        nprobe: i32,
        prefix: Option<bool>,
        typos: Option<bool>,
        language: Option<String>,
        tags_any: Option<String>,
        tags_none: Option<String>,
        facets: Option<bool>,
        version: Option<String>,
        vector: Option<Vec<f32>>,
        evidence_tokens: Option<u32>,
        evidence_pages: Option<u32>,
        evidence_site: Option<String>,
    ) -> Result<u32, JsValue> {
        let split = |t: Option<String>| -> Vec<String> {
            split_ascii(&t.unwrap_or_default(), 0x1f)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect()
        };
        let opts = QueryOptions {
            k,
            kinds: kinds.to_owned(),
            tags: split(Some(tags.to_owned())),
            group: (!group.is_empty()).then(|| group.to_owned()),
            min_score,
            explain,
            mode: mode.to_owned(),
            nprobe: u32::try_from(nprobe).ok(),
            prefix: prefix.unwrap_or(false),
            typos: typos.unwrap_or(false),
            language: language.filter(|l| !l.is_empty()),
            tags_any: split(tags_any),
            tags_none: split(tags_none),
            facets: facets.unwrap_or(false),
            version: version.filter(|v| !v.is_empty()),
            evidence_tokens,
            evidence_pages,
            evidence_site,
        };
        self.inner.begin(query, &opts, vector).map_err(js_err)
    }

    /// The index files a search still needs (not cached): fetch them, `add` them, and call again;
    /// an empty list means its results are ready. Each call is one round (typo files, the ranking's
    /// files, the vector partitions, the results' metadata), decided by the query session in core.
    pub fn need(&mut self, ticket: u32) -> Result<Vec<String>, JsValue> {
        self.inner.need(ticket).map_err(js_err)
    }

    /// The facet counts of a search with `facets`, as JSON
    /// (`{"kind":[["docs",12]],"tag":[…],"group":[…],"language":[…]}`; `null` without; call before
    /// `results`).
    pub fn facets(&self, ticket: u32) -> Result<String, JsValue> {
        self.inner.facets_json(ticket).map_err(js_err)
    }

    /// The typo corrections a search applied, as JSON (`[{"from","to"}]`; `{"from":"\"","to":""}` when
    /// no page had its quoted phrases and their words ranked unquoted).
    pub fn corrections(&self, ticket: u32) -> Result<String, JsValue> {
        self.inner.corrections_json(ticket).map_err(js_err)
    }

    /// The searched `query` with its corrected words replaced and, when they were dropped, without its
    /// quotes ("showing results for …"), or undefined when nothing was corrected (call before
    /// `results`).
    #[wasm_bindgen(js_name = correctedQuery)]
    pub fn corrected_query(&self, ticket: u32, query: &str) -> Result<Option<String>, JsValue> {
        self.inner.corrected_query(ticket, query).map_err(js_err)
    }

    /// The evidence of a search begun with `evidence_tokens` (call before `results`): as JSON (what
    /// `aidocs-index context --json` prints; `null` without), or with `markdown` as the Markdown with
    /// numbered citations `aidocs-index context` prints (empty without).
    pub fn evidence(&self, ticket: u32, query: &str, markdown: bool) -> Result<String, JsValue> {
        if markdown {
            self.inner.evidence_markdown(ticket).map_err(js_err)
        } else {
            self.inner.evidence_json(ticket, query).map_err(js_err)
        }
    }

    /// The results JSON of a search (consumes the ticket).
    pub fn results(&mut self, ticket: u32) -> Result<String, JsValue> {
        self.inner.results(ticket).map_err(js_err)
    }

    pub fn release(&mut self, ticket: u32) {
        self.inner.release(ticket)
    }

    #[wasm_bindgen(getter, js_name = cacheBytes)]
    pub fn cache_bytes(&self) -> u32 {
        self.inner.cache().used() as u32
    }
    #[wasm_bindgen(getter, js_name = cacheEntries)]
    pub fn cache_entries(&self) -> u32 {
        self.inner.cache().len() as u32
    }
    #[wasm_bindgen(getter, js_name = cacheLimit)]
    pub fn cache_limit(&self) -> u32 {
        self.inner.cache().limit() as u32
    }
    #[wasm_bindgen(getter, js_name = cacheEvictions)]
    pub fn cache_evictions(&self) -> u32 {
        self.inner.cache().evictions() as u32
    }

    #[wasm_bindgen(js_name = clearCache)]
    pub fn clear_cache(&mut self) {
        self.inner.clear_cache()
    }
}
