// aidocs-search: open an index built by `aidocs-index build` and search it with the wasm engine,
// in a browser, a Web Worker, Node or an edge runtime.
//
// This module owns the I/O; the wasm engine (wasm-search/) verifies, decodes, caches and ranks with the
// same Rust code as the native CLI, and returns the same results JSON.
//   - Only the files a query needs are fetched: the manifest once, the term shards its words fall in
//     (the manifest's filters rule out absent words without a fetch), then the metadata shards of the
//     pages returned.
//   - Concurrent requests for one file are coalesced; payloads are inflated with DecompressionStream
//     where the platform has it (bounded by the length the header declares), in wasm otherwise.
//   - A new build deployed mid-session is detected (a file of the old manifest is gone, or a metadata
//     shard no longer matches) and the manifest reloaded, never mixed with the old one.
//   - Every failure is an AidocsSearchError with a stable `code` and the `file` it concerns; the index
//     stays usable afterwards.

import initWasm, { initSync, SearchEngine, verifyEnvelope, hasInflate, rootKind, partitionManifest } from '../wasm/aidocs_search.js';

export const MANIFEST_FILE = 'manifest.bin';
const HEADER_LEN = 20;
const KIND_MANIFEST = 1;
const KIND_PARTITIONS = 11;
const DEFAULT_CACHE_BYTES = 8 << 20;
/** Codes after which the manifest is revalidated: they are what a deploy of a new build looks like. */
const STALE_CODES = new Set(['not_found', 'unknown_file', 'meta_mismatch', 'checksum_mismatch']);

/** Every failure of this package: `code` is stable (see README), `file` names the index file if any. */
export class AidocsSearchError extends Error {
  constructor(code, message, file = null, options = undefined) {
    super(message, options);
    this.name = 'AidocsSearchError';
    this.code = code;
    this.file = file;
  }
}

function fromWasm(e) {
  if (e instanceof AidocsSearchError) return e;
  if (typeof e === 'string') {
    const [code, file, message] = e.split('\x1f');
    return new AidocsSearchError(code, message ?? e, file || null);
  }
  if (e instanceof WebAssembly.RuntimeError) {
    return new AidocsSearchError('wasm_trap', `search engine trapped: ${e.message}`, null, { cause: e });
  }
  return new AidocsSearchError('internal', String(e?.message ?? e), null, { cause: e });
}

let wasmReady = null;
/** Whether the loaded module inflates payloads itself (known once it is loaded). */
let wasmInflates = false;


/**
 * Whether a reader in `language` needs a Snowball stemmer the lean module leaves out: every language
 * the analyzer stems except English, whose stemmer Chinese, Japanese and Korean pages use for their
 * Latin words (the list mirrors `core::analyzer::language_stemming`).
 */
export function needsStemmer(language) {
  const primary = String(language ?? '').split(/[-_]/)[0].toLowerCase();
  return STEMMED_LANGUAGES.has(primary);
}
const STEMMED_LANGUAGES = new Set('fr es de pt it nl sv da no nb nn fi ru uk pl cs tr id ro hu ca el ar hi'.split(' '));

/**
 * Loads the wasm module once. `source`: nothing (the file next to this package), a URL, the bytes,
 * or a compiled WebAssembly.Module (edge runtimes that import .wasm as a module). Without a source,
 * the lean module (`aidocs_search_bg.wasm`) is loaded where DecompressionStream inflates payloads
 * and the reader's `language` is English, Chinese, Japanese, Korean or unknown; the full module
 * (`aidocs_search_full_bg.wasm`: an inflater and the Snowball stemmers of the other languages, about
 * 75 KB more gzipped) where DecompressionStream is missing, `inflate` is 'wasm' or the language needs
 * a stemmer (or `stemmers` is true: a server answering readers of every language; or `evidence` is
 * true: `context` selects evidence for agents, which the lean module leaves out; or `explain` is
 * true: `search`'s `explain` option, for developers tuning ranking). A page loads one module: the first `openIndex` decides (with the lean module loaded, a
 * query in a language whose pages were stemmed by a stemmer it lacks fails with `missing_stemmer`,
 * and one asking for explanations with `no_explain`).
 */
export function loadWasm(source, { inflate, language, stemmers, evidence, explain } = {}) {
  const needInflater = inflate === 'wasm' || !canStream;
  const needFull = needInflater || Boolean(stemmers) || Boolean(evidence) || Boolean(explain) || needsStemmer(language);
  wasmReady ??= (async () => {
    if (source instanceof WebAssembly.Module || ArrayBuffer.isView(source) || source instanceof ArrayBuffer) {
      initSync({ module: source });
    } else {
      const file = needFull ? '../wasm/aidocs_search_full_bg.wasm' : '../wasm/aidocs_search_bg.wasm';
      const url = source ? new URL(source, globalThis.location?.href) : new URL(file, import.meta.url);
      if (url.protocol === 'file:') {
        // A variable specifier: bundlers and edge runtimes (wrangler, miniflare) must not try to resolve
        // a Node built-in for a code path they never take (they pass the module as `wasm`).
        const fsModule = 'node:fs/promises';
        const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
        initSync({ module: await readFile(url) });
      } else {
        await initWasm({ module_or_path: url });
      }
    }
    wasmInflates = hasInflate();
  })().catch((e) => {
    wasmReady = null;
    throw new AidocsSearchError('wasm_load_failed', `could not load the search module: ${e?.message ?? e}`, null, { cause: e });
  });
  return wasmReady.then(() => {
    if (needInflater && !wasmInflates) {
      throw new AidocsSearchError(
        'bad_option',
        canStream
          ? "inflate: 'wasm' needs the module with an inflater, but this page already loaded the lean one: pass inflate: 'wasm' to the first openIndex"
          : 'this platform has no DecompressionStream: load aidocs_search_full_bg.wasm (the `wasm` option)',
      );
    }
  });
}

/** A loader that fetches `name` relative to `base` (a URL or a path on the current site). */
export function urlLoader(base, fetchImpl = globalThis.fetch) {
  const root = new URL(base.endsWith('/') ? base : `${base}/`, globalThis.location?.href);
  return async (name, { fresh = false } = {}) => {
    let res;
    try {
      res = await fetchImpl(new URL(name, root), fresh ? { cache: 'no-cache' } : undefined);
    } catch (e) {
      throw new AidocsSearchError('fetch_failed', `${name}: ${e?.message ?? e}`, name, { cause: e });
    }
    if (res.status === 404 || res.status === 410) {
      throw new AidocsSearchError('not_found', `${name}: not found (HTTP ${res.status})`, name);
    }
    if (!res.ok) throw new AidocsSearchError('fetch_failed', `${name}: HTTP ${res.status}`, name);
    return new Uint8Array(await res.arrayBuffer());
  };
}

async function callLoader(load, name, fresh) {
  let bytes;
  try {
    bytes = await load(name, { fresh });
  } catch (e) {
    if (e instanceof AidocsSearchError) throw e;
    const notFound = e?.code === 'ENOENT' || e?.status === 404;
    throw new AidocsSearchError(notFound ? 'not_found' : 'fetch_failed', `${name}: ${e?.message ?? e}`, name, { cause: e });
  }
  if (bytes == null) throw new AidocsSearchError('not_found', `${name}: not found`, name);
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (!(bytes instanceof Uint8Array)) {
    throw new AidocsSearchError('fetch_failed', `${name}: the loader must resolve to a Uint8Array`, name);
  }
  return bytes;
}

const canStream = typeof DecompressionStream === 'function' && typeof Blob === 'function';

/** Inflates a zlib payload with DecompressionStream, refusing more than the `rawLen` the header declares. */
async function inflate(name, file, rawLen) {
  const out = new Uint8Array(rawLen);
  let off = 0;
  try {
    const reader = new Blob([file.subarray(HEADER_LEN)]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (off + value.length > rawLen) {
        await reader.cancel();
        throw new AidocsSearchError('length_mismatch', `${name}: inflates to more than the ${rawLen} bytes its header declares`, name);
      }
      out.set(value, off);
      off += value.length;
    }
  } catch (e) {
    if (e instanceof AidocsSearchError) throw e;
    throw new AidocsSearchError('inflate_failed', `${name}: payload does not inflate: ${e?.message ?? e}`, name, { cause: e });
  }
  return off === rawLen ? out : out.subarray(0, off); // a short payload is reported by the engine
}

/** Verifies the envelope, then inflates in JS when the platform can; `raw` undefined = inflate in wasm. */
async function prepare(name, file, kind, inflateMode) {
  let codec;
  try {
    codec = verifyEnvelope(name, file, kind);
  } catch (e) {
    throw fromWasm(e);
  }
  if (codec !== 1 || inflateMode === 'wasm' || !canStream) return { file, raw: undefined };
  const rawLen = new DataView(file.buffer, file.byteOffset + 8, 4).getUint32(0, true);
  return { file, raw: await inflate(name, file, rawLen) };
}

/**
 * Fetches the manifest a reader in `language` opens: `manifest.bin` itself, or on a site written as
 * one index per language (format v8, where `manifest.bin` is the table of them) that language's
 * partition manifest (else the default one). `fetchFile(name, fresh)` resolves to the bytes;
 * `rootFetch`, when given, is `manifest.bin`'s fetch already under way.
 * Resolves to `{ name, file, raw }` (`raw` undefined: the engine inflates).
 */
async function fetchManifest(fetchFile, language, inflateMode, fresh, rootFetch) {
  const root = await (rootFetch ?? fetchFile(MANIFEST_FILE, fresh));
  let kind;
  try {
    kind = rootKind(root);
  } catch (e) {
    throw fromWasm(e);
  }
  if (kind !== KIND_PARTITIONS) return { name: MANIFEST_FILE, ...(await prepare(MANIFEST_FILE, root, KIND_MANIFEST, inflateMode)) };
  const table = await prepare(MANIFEST_FILE, root, KIND_PARTITIONS, inflateMode);
  let name;
  try {
    name = partitionManifest(table.file, table.raw, language ?? '');
  } catch (e) {
    throw fromWasm(e);
  }
  // Content-hashed: a partition manifest never changes under its name, so no revalidation.
  const bytes = await fetchFile(name, false);
  return { name, ...(await prepare(name, bytes, KIND_MANIFEST, inflateMode)) };
}

function normalizeOptions(opts) {
  const k = opts.k ?? 10;
  if (!Number.isInteger(k)) throw new AidocsSearchError('bad_option', `k must be an integer, got ${k}`);
  const kinds = Array.isArray(opts.kind) ? opts.kind.join(',') : (opts.kind ?? '');
  const tagList = (name, v) => {
    if (v == null) return '';
    if (!Array.isArray(v)) throw new AidocsSearchError('bad_option', `${name} must be an array of strings`);
    return v.map(String).join('\x1f');
  };
  const tags = opts.tags ?? (opts.tag ? [opts.tag] : []);
  if (!Array.isArray(tags)) throw new AidocsSearchError('bad_option', 'tags must be an array of strings');
  return {
    k,
    kinds: String(kinds),
    tags: tags.map(String).join('\x1f'),
    group: opts.group == null ? '' : String(opts.group),
    minScore: Number(opts.minScore ?? 0),
    explain: Boolean(opts.explain),
    mode: opts.mode == null ? '' : String(opts.mode),
    nprobe: opts.nprobe == null ? -1 : Number(opts.nprobe),
    prefix: Boolean(opts.prefix),
    typos: opts.typos ?? true,
    language: opts.language == null ? '' : String(opts.language),
    version: opts.version == null ? '' : String(opts.version),
    tagsAny: tagList('tagsAny', opts.tagsAny),
    tagsNone: tagList('tagsNone', opts.tagsNone),
    facets: Boolean(opts.facets),
    // Evidence (`context`; the engine checks the ranges: tokens 100-64000, pages 1-50; 0 pages is
    // how `read` asks for a page by URL, refused here for anything else).
    tokens: u32(opts.tokens, 'tokens'),
    pages: u32(opts.pages, 'pages'),
    siteUrl: opts.siteUrl == null ? undefined : String(opts.siteUrl),
  };
}

/** `v` when undefined or an integer a u32 holds (wasm would wrap any other number). */
function u32(v, name) {
  if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v < 2 ** 32)) throw new AidocsSearchError('bad_option', `${name} must be an integer, got ${v}`);
  return v;
}


/** One opened index. Create with `openIndex`. */
export class AidocsIndex {
  #load;
  #engine;
  #options;
  #inflight = new Map();
  #closed = false;
  #reloading = null;

  /** Network cost so far: files fetched, bytes, manifest reloads. */
  stats = { requests: 0, bytes: 0, reloads: 0 };

  constructor(load, engine, options) {
    this.#load = load;
    this.#engine = engine;
    this.#options = options;
  }

  /**
   * The manifest this index opened: `manifest.bin`, or on a site written as one index per language
   * the partition manifest of the `language` given to `openIndex` (`l/<hash>.bin`).
   */
  get manifestFile() {
    return this.#options.manifestName;
  }

  /** The build the index currently serves (changes after a reload). */
  get buildId() {
    return this.#engine.buildId;
  }

  /** `{buildId, generator, vectorModel, pages, chunks, termShards, metaShards}` (vectorModel null without vectors) */
  get summary() {
    return JSON.parse(this.#engine.summary());
  }

  /** Decoded shards held in memory, in bytes of inflated payload, and the bound. */
  get cache() {
    const e = this.#engine;
    return { bytes: e.cacheBytes, entries: e.cacheEntries, limit: e.cacheLimit, evictions: e.cacheEvictions };
  }

  #check() {
    if (this.#closed) throw new AidocsSearchError('closed', 'this index was closed');
  }

  /** Runs a wasm call; a trap (which the tests say cannot happen) reopens the engine instead of poisoning it. */
  #call(engine, fn) {
    try {
      return fn(engine);
    } catch (e) {
      const err = fromWasm(e);
      if (err.code === 'wasm_trap' && engine === this.#engine) {
        try {
          this.#engine = new SearchEngine(this.#options.manifest, undefined, this.#options.cacheBytes, this.#options.manifestName);
        } catch {
          /* the reported error below is the useful one */
        }
      }
      throw err;
    }
  }

  #fetch(name, fresh = false) {
    const key = fresh ? `${name}\0fresh` : name;
    let p = this.#inflight.get(key);
    if (!p) {
      p = callLoader(this.#load, name, fresh).then((bytes) => {
        this.stats.requests += 1;
        this.stats.bytes += bytes.length;
        return bytes;
      });
      this.#inflight.set(key, p);
      const done = () => this.#inflight.delete(key);
      p.then(done, done);
    }
    return p;
  }

  async #fetchInto(engine, names) {
    await Promise.all(
      names.map(async (name) => {
        const kind = this.#call(engine, (e) => e.kindOf(name));
        const { file, raw } = await prepare(name, await this.#fetch(name), kind, this.#options.inflate);
        this.#call(engine, (e) => e.add(name, file, raw));
      }),
    );
  }

  /** Fetches the manifest again, bypassing caches; swaps the engine when the build changed. */
  async #revalidate() {
    this.#reloading ??= (async () => {
      const { name, file, raw } = await fetchManifest((n, fresh) => this.#fetch(n, fresh), this.#options.language, this.#options.inflate, true);
      const engine = this.#call(this.#engine, () => new SearchEngine(file, raw, this.#options.cacheBytes, name));
      if (engine.buildId === this.#engine.buildId) {
        engine.free();
        return false;
      }
      const old = this.#engine;
      this.#engine = engine;
      this.#options.manifest = file;
      this.#options.manifestName = name;
      this.stats.reloads += 1;
      old.free();
      this.#options.onReload?.(engine.buildId);
      return true;
    })().finally(() => {
      this.#reloading = null;
    });
    return this.#reloading;
  }

  /** The full encoder's embedding of `query`, or null where the static encoder (or lexical) applies. */
  #fullVector(encoder, query, o) {
    if (!encoder || (o.mode !== 'vector' && o.mode !== 'hybrid')) return null;
    if (typeof encoder.embed !== 'function') throw new AidocsSearchError('bad_option', 'encoder must have an embed(text) method (see aidocs-search/full-encoder)');
    const model = this.summary.vectorModel;
    if (model == null) return null; // no vectors: every mode ranks lexically
    if (encoder.modelName != null && encoder.modelName !== model) {
      throw new AidocsSearchError('model_mismatch', `the encoder runs ${encoder.modelName}, but this index's vectors come from ${model}`);
    }
    return encoder.embed(query);
  }

  async #searchRawOnce(engine, query, o, vector) {
    const ticket = this.#call(engine, (e) => e.begin(query, o.k, o.kinds, o.tags, o.group, o.minScore, o.explain, o.mode, o.nprobe, o.prefix, o.typos, o.language, o.tagsAny, o.tagsNone, o.facets, o.version, vector ?? undefined, o.tokens, o.pages, o.siteUrl));
    try {
      // The engine's query session decides the rounds (typo files, the ranking's files, the vector
      // partitions, the results' metadata, with evidence the text files); a file fetched for it reaches it even if
      // the cache evicts it meanwhile, so each round moves the search on.
      for (let round = 0; ; round++) {
        const names = this.#call(engine, (e) => e.need(ticket));
        if (names.length === 0) break;
        if (round >= 16) throw new AidocsSearchError('internal', `the search still needs files after ${round} rounds: ${names.join(', ')}`);
        await this.#fetchInto(engine, names);
      }
      const corrections = this.#call(engine, (e) => e.corrections(ticket));
      const correctedQuery = this.#call(engine, (e) => e.correctedQuery(ticket, query)) ?? null;
      const facets = this.#call(engine, (e) => e.facets(ticket));
      const evidence = o.tokens === undefined ? null : this.#call(engine, (e) => ({ json: e.evidence(ticket, query, false), markdown: e.evidence(ticket, query, true) }));
      return { raw: this.#call(engine, (e) => e.results(ticket)), corrections, correctedQuery, facets, evidence };
    } finally {
      if (engine === this.#engine) engine.release(ticket);
    }
  }

  /**
   * Searches and returns the results as the JSON text `aidocs-index query` prints (a JSON array).
   * Options as for `search`.
   */
  async searchRaw(query, opts = {}) {
    return (await this.#searchDetailed(query, opts)).raw;
  }

  /**
   * `{ raw, corrections, correctedQuery, facets }`: the results as `searchRaw` gives them, the
   * corrections applied as JSON text (`[{"from","to"}]`: typos, or `{"from":"\"","to":""}` for
   * quotes dropped), the query with them applied (null when
   * none), and with `facets` the facet counts as JSON text (`'null'` without). Options as for `search`;
   * `tokens` (and `pages`, `siteUrl`) as for `context` add `evidence: {json, markdown}`. With `read:
   * true` the query is a page's URL (site-relative, or absolute: the host is ignored; `#anchor` for
   * one section) and `evidence` that page's text in reading order within `tokens` (default 8000),
   * one piece, none when the page lacks the section; `raw` lists the page read, `[]` when no page is
   * at the URL (MCP's `read_page` and `read_section`; three rounds: the URL key's term shard, the
   * page's metadata, its text).
   */
  async searchRawDetailed(query, opts = {}) {
    return this.#searchDetailed(query, opts);
  }

  async #searchDetailed(query, opts) {
    this.#check();
    if (typeof query !== 'string') throw new AidocsSearchError('bad_option', 'query must be a string');
    const o = normalizeOptions(opts);
    // Evidence from 0 pages is how the engine is asked to read the page at a URL (`read`).
    const read = opts.read === true;
    if (o.pages === 0) throw new AidocsSearchError('bad_option', 'pages must be between 1 and 50, got 0');
    if (read) Object.assign(o, { pages: 0, mode: '', tokens: o.tokens ?? 8000 });
    const vector = read ? null : this.#fullVector(opts.encoder === undefined ? this.#options.encoder : opts.encoder, query, o);
    const engine = this.#engine;
    try {
      return await this.#searchRawOnce(engine, query, o, vector);
    } catch (err) {
      // The engine was swapped by a reload while this search ran: answer from the new build.
      if (engine !== this.#engine) return await this.#searchRawOnce(this.#engine, query, o, vector);
      if (!STALE_CODES.has(err.code)) throw err;
      // Either a new build was deployed (reload, then answer from it) or the file is really broken.
      const reloaded = await this.#revalidate().catch(() => false);
      if (!reloaded) throw err;
      return await this.#searchRawOnce(this.#engine, query, o, vector);
    }
  }

  /**
   * Searches. `opts`: `k` (1–1000, default 10), `kind` ('docs' | 'api' | 'custom' or an array),
   * `tags` (all required), `tagsAny` (at least one required), `tagsNone` (none allowed), `group`
   * (navigation group), `version` (docs version: its pages and pages in none), `facets` (the
   * resolved array's `facets` counts the matching pages by `kind`, `tag`, `group`, `language` and
   * `version`, as `[[value, count], …]` commonest first, each facet ignoring its own filter), `minScore`, `explain` (each result's terms, boosts and ranks:
   * the full module only, `openIndex`'s `explain` option; the lean one fails with `no_explain`), `mode` ('lexical',
   * 'vector' or 'hybrid': semantic ranking with the index's static query encoder; an index without
   * vectors ranks lexically), `nprobe` (vector partitions probed; 0 = all), `prefix` (the last word,
   * with no space after it, also matches longer words: what a search box wants as the reader types),
   * `typos` (default true: words the index lacks are corrected to the indexed words they most likely
   * meant; the resolved array's `corrections` and `correctedQuery` say what was corrected),
   * `language` (the reader's, e.g. 'fr' or 'zh-CN': only pages in it and pages without a language,
   * and the query's words are stemmed as that language's pages were; ignored when the index has none
   * in it; `summary.languages` lists the index's; on a site built as one index per language, the
   * index searched is the one `openIndex`'s `language` chose: open one per language to serve several),
   * `encoder` (a full
   * encoder from `aidocs-search/full-encoder` to embed the query exactly instead of the static
   * encoder; null = static; default the index's `encoder` option).
   * Resolves to the result objects of the native JSON shape.
   */
  async search(query, opts = {}) {
    const { raw, corrections, correctedQuery, facets } = await this.#searchDetailed(query, opts);
    const results = JSON.parse(raw);
    Object.defineProperty(results, 'corrections', { value: JSON.parse(corrections) });
    Object.defineProperty(results, 'correctedQuery', { value: correctedQuery });
    Object.defineProperty(results, 'facets', { value: JSON.parse(facets) });
    return results;
  }

  /**
   * The evidence an assistant should read for `query` within a token budget, with citations (issue
   * 22): the top pages' best sections, adjacent ones merged, copies dropped, at most half the budget
   * from one page. `opts`: `tokens` (100–64000, default 2000: the most the Markdown may take, as
   * estimated above what cl100k counts), `pages` (the top pages drawn from, 1–50, default 10),
   * `siteUrl` (citations absolute under it), and the filters,
   * `mode`, `language`, `version`, `typos` and `encoder` of `search`. Resolves to
   * `{query, budget, tokens, mode, corrected, excerpts_only, pieces: [{n, page_id, title, section,
   * heading_path, url, breadcrumb, kind, api?, score, tokens, truncated, text}]}` with a `markdown`
   * property: the pieces under numbered citation headers, what the budget bounds. The section text
   * is fetched only here, one file per top page (one more round after the results' metadata).
   * `searchRawDetailed` with `tokens` gives the same as text (`evidence: {json, markdown}`; its results
   * are then the pages evidence considered: at least `pages` of them, 12 sections each). Needs
   * the full module (`openIndex`'s `evidence` option; the lean one fails with `no_evidence`).
   */
  async context(query, opts = {}) {
    const { json, markdown } = (await this.#searchDetailed(query, { ...opts, tokens: opts.tokens ?? 2000 })).evidence;
    return Object.defineProperty(JSON.parse(json), 'markdown', { value: markdown });
  }

  /**
   * Warms the shards a query being typed will need (its complete words and the last word's prefix).
   * `options.language`: the reader's, as in `search` (it picks how a multilingual index reads words).
   * Resolves to the number of files fetched; failures here never affect later searches.
   */
  async preload(partial, options = {}) {
    this.#check();
    const engine = this.#engine;
    const language = options?.language == null ? '' : String(options.language);
    // On a large site's index (tables in directory pages) the first round names the pages, the
    // second the term shards they name.
    let fetched = 0;
    for (let round = 0; round < 2; round += 1) {
      const names = this.#call(engine, (e) => e.filesForPreload(String(partial ?? ''), language));
      if (names.length === 0) break;
      await this.#fetchInto(engine, names);
      fetched += names.length;
    }
    return fetched;
  }

  /** Drops decoded shards (the next queries fetch again). */
  clearCache() {
    this.#check();
    this.#engine.clearCache();
  }

  /** Releases the engine's memory; later calls fail with code `closed`. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#engine.free();
    this.#inflight.clear();
  }
}

/**
 * Opens an index. `source`: the base URL of the index directory (where `manifest.bin` is), or an async
 * loader `(name) => Promise<Uint8Array>` for runtimes where the files live in KV, R2, a file system or an
 * asset binding. `options`: `cacheBytes` (bound on decoded shards, default 8 MiB), `wasm` (module
 * source, see loadWasm), `fetch` (for URL sources), `inflate` ('auto' | 'wasm'), `language` (the
 * reader's: on a site built as one index per language it picks the index opened, that language's
 * or else the default one; one that needs a Snowball stemmer, such as 'fr', loads the full module), `stemmers` (true:
 * load the full module whatever the language, for a server answering every language), `evidence` (true:
 * load the full module, which `context` needs), `explain` (true: load the full module, which `search`'s
 * `explain` needs), `onReload(buildId)`,
 * `encoder` (a full encoder for vector and hybrid searches, see aidocs-search/full-encoder).
 */
export async function openIndex(source, options = {}) {
  const load = typeof source === 'function' ? source : urlLoader(String(source), options.fetch ?? globalThis.fetch);
  const cacheBytes = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
  if (!Number.isInteger(cacheBytes) || cacheBytes < 0 || cacheBytes > 2 ** 32 - 1) {
    throw new AidocsSearchError('bad_option', `cacheBytes must be an integer number of bytes, got ${cacheBytes}`);
  }
  let requests = 0;
  let bytes = 0;
  const fetchFile = async (name, fresh) => {
    const b = await callLoader(load, name, fresh);
    requests += 1;
    bytes += b.length;
    return b;
  };
  // The manifest is fetched while the module loads: one round trip on the first query's critical
  // path instead of two (issue 21). A failure of the module is reported first, then the manifest's;
  // never an unhandled rejection meanwhile.
  const rootFetch = fetchFile(MANIFEST_FILE, false);
  rootFetch.catch(() => {});
  await loadWasm(options.wasm, { inflate: options.inflate, language: options.language, stemmers: options.stemmers, evidence: options.evidence, explain: options.explain });
  const { name, file, raw } = await fetchManifest(fetchFile, options.language, options.inflate, false, rootFetch);
  let engine;
  try {
    engine = new SearchEngine(file, raw, cacheBytes, name);
  } catch (e) {
    throw fromWasm(e);
  }
  const index = new AidocsIndex(load, engine, { ...options, cacheBytes, manifest: file, manifestName: name });
  index.stats.requests = requests;
  index.stats.bytes = bytes;
  return index;
}
