// Types of aidocs-search's query API (src/search.js).

/** A stable error code: see the README's "Errors" table. */
export type AidocsErrorCode =
  | 'not_found' | 'fetch_failed' | 'bad_magic' | 'unsupported_version' | 'wrong_kind' | 'unknown_kind'
  | 'unknown_codec' | 'length_mismatch' | 'checksum_mismatch' | 'inflate_failed' | 'too_large'
  | 'invalid_payload' | 'analyzer_mismatch' | 'missing_shard' | 'meta_mismatch' | 'unknown_file'
  | 'bad_option' | 'model_mismatch' | 'model_not_found' | 'unknown_ticket' | 'not_ready' | 'missing_stemmer' | 'no_evidence' | 'no_explain' | 'positions_mismatch' | 'closed'
  | 'wasm_trap' | 'wasm_load_failed' | 'internal';

export class AidocsSearchError extends Error {
  readonly name: 'AidocsSearchError';
  readonly code: AidocsErrorCode;
  /** The index file the error concerns (`manifest.bin`, `t/<hash>.bin`, `m/<hash>.bin`), if any. */
  readonly file: string | null;
}

/** Fetches one index file by name (`manifest.bin`, `t/…`, `m/…`). Resolve `null` or throw for "not found". */
export type ShardLoader = (name: string, hints?: { fresh?: boolean }) => Promise<Uint8Array | ArrayBuffer | null>;

export type Kind = 'docs' | 'api' | 'custom';

export interface ContextOptions extends Omit<SearchOptions, 'k' | 'prefix' | 'facets' | 'explain'> {
  /** The most tokens the evidence's Markdown may take (estimated above cl100k's count), 100–64000 (default 2000). */
  tokens?: number;
  /** The top pages the evidence is drawn from, 1–50 (default 10). */
  pages?: number;
  /** The URL the site's root is at: citations become absolute under it (counted in the budget). */
  siteUrl?: string;
}

export interface EvidencePiece {
  n: number;
  page_id: string;
  title: string;
  /** The first section's title (empty for the page's summary). */
  section: string;
  heading_path: string[];
  /** The page URL with the first section's anchor: the citation. */
  url: string;
  breadcrumb: string[];
  kind: Kind;
  api?: { method: string; path: string; operationId: string };
  score: number;
  tokens: number;
  truncated: boolean;
  text: string;
}

export interface Evidence {
  query: string;
  budget: number;
  tokens: number;
  mode: 'lexical' | 'vector' | 'hybrid';
  corrected: boolean;
  excerpts_only: boolean;
  pieces: EvidencePiece[];
  /** The pieces under numbered citation headers (non-enumerable). */
  readonly markdown: string;
}

export interface SearchOptions {
  /** Results wanted, 1–1000 (default 10). */
  k?: number;
  /** Only pages of these kinds. */
  kind?: Kind | Kind[];
  /** Only pages carrying every one of these tags. */
  tags?: string[];
  /** Only pages carrying at least one of these tags. */
  tagsAny?: string[];
  /** Only pages carrying none of these tags. */
  tagsNone?: string[];
  /** Count the matching pages by kind, tag, group, language and version (`SearchResults.facets`). */
  facets?: boolean;
  /** Only pages in this navigation group (full path `Tab > Group` or its last part). */
  group?: string;
  /** Only pages in this docs version (the navigation's `versions`), and pages in none. Ignored when the index has no page in it. */
  version?: string;
  minScore?: number;
  /** Attach a per-term score breakdown to each result (the full module only: `openIndex`'s `explain` option). */
  explain?: boolean;
  /**
   * `lexical` (BM25F, the default), `vector` (semantic: the query encoded by the index's static
   * encoder, cosine over the probed vector partitions) or `hybrid` (both, fused). An index built
   * without vectors ranks lexically in every mode.
   */
  mode?: 'lexical' | 'vector' | 'hybrid';
  /** Vector partitions probed by vector and hybrid queries (default: the index's default; 0 = all). */
  nprobe?: number;
  /** The last word, with no space after it, also matches longer words (what a search box wants as the reader types). */
  prefix?: boolean;
  /**
   * Correct words the index lacks to the indexed words they most likely meant (one edit from 4
   * letters, two from 8; never identifiers or words in double quotes). Default true. The results'
   * `corrections` say what was corrected ("showing results for …").
   */
  typos?: boolean;
  /**
   * The reader's language (`fr`, `zh-CN`): only pages in it, and pages without a language; the
   * query's words are stemmed as that language's pages were. Ignored when the index has no page in
   * that language. `summary.languages` lists the index's languages. On a site built as one index
   * per language, the index searched is the one `OpenOptions.language` opened.
   */
  language?: string;
  /**
   * A full encoder (`aidocs-search/full-encoder`) that embeds the query exactly instead of the static
   * encoder, in vector and hybrid modes; `null` forces the static encoder. Default: the index's `encoder`.
   */
  encoder?: QueryEncoder | null;
}

/** What the `encoder` option needs: the model name and an embedding of the query text. */
export interface QueryEncoder {
  readonly modelName?: string;
  embed(text: string): Float32Array;
}

export interface SectionResult {
  anchor: string;
  title: string;
  /** `page-url#anchor`, or the page URL for the page's own summary section. */
  url: string;
  score: number;
  excerpt: string;
}

export interface SearchResult {
  id: string;
  url: string;
  title: string;
  kind: Kind;
  score: number;
  breadcrumb: string[];
  sections: SectionResult[];
  api?: { method: string; path: string; operationId: string };
  explain?: {
    bm25: number;
    terms: { term: string; idf: number; weight: number; contribution: number; fields: { field: string; tf: number; len: number }[] }[];
    boosts: { boost: string; value: number }[];
  };
}

/**
 * A typed word (folded to lowercase) and the indexed word searched in its place; or `{ from: '"',
 * to: '' }` when no page had a quoted phrase of the query and its words were searched unquoted.
 */
export interface Correction {
  from: string;
  to: string;
}

/** The results, and the corrections applied to the query: typos, dropped quotes (empty when none). */
export interface SearchResults extends Array<SearchResult> {
  readonly corrections: Correction[];
  /** The query with its corrected words replaced, when any was corrected ("showing results for …"). */
  readonly correctedQuery: string | null;
  /**
   * With `facets`: how many matching pages have each value, commonest first (at most 20 per facet),
   * each facet counted with every filter but its own; null without.
   */
  readonly facets: Facets | null;
}

/** `[value, count]` pairs per facet. */
export interface Facets {
  kind: [Kind, number][];
  tag: [string, number][];
  group: [string, number][];
  language: [string, number][];
  version: [string, number][];
}

export interface OpenOptions {
  /** Bound on decoded shards kept in memory, in bytes of inflated payload (default 8 MiB). */
  cacheBytes?: number;
  /** Where the wasm module comes from (default: next to this package). */
  wasm?: string | URL | BufferSource | WebAssembly.Module;
  /** fetch implementation for URL sources. */
  fetch?: typeof fetch;
  /** `auto` inflates with DecompressionStream where available; `wasm` always inflates inside the module. */
  inflate?: 'auto' | 'wasm';
  /**
   * The reader's language. On a site built as one index per language it picks the index opened
   * (that language's, else the default one). One whose pages are stemmed by a Snowball stemmer
   * other than English's (`fr`, `es`, `de`, `pt`…) loads the full module, which has them; the lean
   * one has English only.
   */
  language?: string;
  /** Load the full module (every Snowball stemmer) whatever the language: a server answering readers of every language. */
  stemmers?: boolean;
  /** Load the full module, which `context` needs (the lean one leaves evidence out). */
  evidence?: boolean;
  /** Load the full module, which `search`'s `explain` needs (the lean one leaves explanations out). */
  explain?: boolean;
  /** Called when a newly deployed build replaced the one in use. */
  onReload?: (buildId: string) => void;
  /** A full encoder for every vector and hybrid search of this index (see SearchOptions.encoder). */
  encoder?: QueryEncoder | null;
}

export class AidocsIndex {
  readonly buildId: string;
  /** The manifest opened: `manifest.bin`, or on a site built as one index per language the partition of `OpenOptions.language` (`l/<hash>.bin`). */
  readonly manifestFile: string;
  readonly summary: { buildId: string; generator: string; vectorModel: string | null; languages: string[]; pages: number; chunks: number; termShards: number; metaShards: number };
  readonly cache: { bytes: number; entries: number; limit: number; evictions: number };
  /** Files fetched so far, their bytes, and manifest reloads. */
  readonly stats: { requests: number; bytes: number; reloads: number };
  search(query: string, options?: SearchOptions): Promise<SearchResults>;
  /** The results as the JSON text `aidocs-index query` prints. */
  searchRaw(query: string, options?: SearchOptions): Promise<string>;
  /** The results JSON text, the typo corrections' JSON text (`[{"from","to"}]`) and the corrected query. */
  searchRawDetailed(query: string, options?: SearchOptions & { tokens?: number; pages?: number; siteUrl?: string; /** `query` is a page's URL: `evidence` is its text (or its `#anchor` section's), `raw` the page read. */ read?: boolean }): Promise<{ raw: string; corrections: string; correctedQuery: string | null; facets: string; evidence: { json: string; markdown: string } | null }>;
  /** The evidence to read for `query` within `tokens` (default 2000), with citations; `markdown` is what the budget bounds. */
  context(query: string, options?: ContextOptions): Promise<Evidence>;
  /** Warms the shards `partial` will need (resolves to the number of files fetched); `language` as in search options. */
  preload(partial: string, options?: { language?: string }): Promise<number>;
  clearCache(): void;
  close(): void;
}

/** Opens an index from the base URL of its directory or from a loader. */
export function openIndex(source: string | URL | ShardLoader, options?: OpenOptions): Promise<AidocsIndex>;
/** A loader fetching files relative to `base`. */
export function urlLoader(base: string, fetchImpl?: typeof fetch): ShardLoader;
/** Loads the wasm module (done by openIndex; call early to overlap it with other work). */
export function loadWasm(source?: string | URL | BufferSource | WebAssembly.Module, options?: { inflate?: 'auto' | 'wasm'; language?: string; stemmers?: boolean; evidence?: boolean; explain?: boolean }): Promise<void>;
/** Whether a reader in `language` needs a stemmer only the full module has. */
export function needsStemmer(language?: string): boolean;
export const MANIFEST_FILE: 'manifest.bin';
