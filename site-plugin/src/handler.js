// The search API as a Fetch-standard handler: `(Request) => Promise<Response>`, for Cloudflare Workers,
// Deno, Bun and Node 20 (through `toNodeListener`). Same engine and results JSON as the CLI.
//
//   GET /search?q=refresh+tokens&k=10&kind=docs,api&mode=lexical|vector|hybrid&typos=1|0&lang=fr&version=v2&facets=1
//   200 {"query": "...", "corrections": [{"from", "to"}], "results": [...]}   (from "\"", to "": quotes dropped)
//   400 {"error": {"code": "missing_query" | "query_too_long" | "bad_k" | "bad_kind" | "bad_mode" | "bad_typos" | "bad_lang" | "bad_facets" | "bad_version", "message"}}
//   GET /context?q=how+do+I+rotate+keys&tokens=2000&pages=10 (and kind, mode, typos, lang, version as above)
//   200 the evidence JSON of `aidocs-index context --json` ({"query","budget","tokens","mode","corrected",
//       "excerpts_only","pieces":[{"n","title","section","url",…,"text"}]}), or with `Accept: text/markdown`
//       (or format=markdown) the Markdown with numbered citations; 400 also "bad_tokens" | "bad_pages" | "bad_format"
//   POST /mcp: the Model Context Protocol (Streamable HTTP, stateless; tools search_docs, get_context, read_page and read_section: ./mcp.js)
//   404 / 405 for other paths and methods; 503 {"error": {"code", "message"}} when the index cannot be used.
// Nothing a request sends can crash the worker: every failure is one of the responses above.
import { openIndex } from './search.js';
import { handleMcp, MCP_MAX_BODY, EVIDENCE_LIMITS, LANGUAGE_TAG } from './mcp.js';

export const MAX_QUERY_CHARS = 512;
export const MAX_K = 50;
const KINDS = new Set(['docs', 'api', 'custom']);
const MODES = new Set(['lexical', 'vector', 'hybrid']);

function json(status, body, headers) {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

const error = (status, code, message, headers) => json(status, { error: { code, message } }, headers);

function corsHeaders(cors) {
  if (!cors) return {};
  const origin = cors === true ? '*' : String(cors);
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
    'access-control-allow-headers': 'content-type, accept, mcp-protocol-version',
    'access-control-max-age': '86400',
    vary: 'origin',
  };
}

/** `/context`'s own parameters: `{ tokens, pages, markdown }` or a 400 response. */
function parseContext(params, accept, headers) {
  const int = (name, fallback, lo, hi) => {
    if (!params.has(name)) return fallback;
    const raw = params.get(name);
    const v = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
    return v >= lo && v <= hi ? v : error(400, `bad_${name}`, `${name} must be an integer from ${lo} to ${hi}, got ${JSON.stringify(raw)}`, headers);
  };
  const tokens = int('tokens', 2000, EVIDENCE_LIMITS.minTokens, EVIDENCE_LIMITS.maxTokens);
  if (tokens instanceof Response) return tokens;
  const pages = int('pages', 10, 1, EVIDENCE_LIMITS.maxPages);
  if (pages instanceof Response) return pages;
  const format = params.get('format');
  if (format != null && format !== 'json' && format !== 'markdown') return error(400, 'bad_format', `format must be json or markdown, got ${JSON.stringify(format)}`, headers);
  const markdown = format === 'markdown' || (format == null && /\btext\/markdown\b/i.test(accept ?? ''));
  return { tokens, pages, markdown };
}

/** The route next to `path` named `name` (`/search` → `/context`, `/api/search` → `/api/context`). */
const sibling = (path, name) => path.replace(/[^/]*$/, name);

/** Validates the query string; returns `{ q, k, kind, mode, typos, language, facets, version }` or a 400 response. */
function parseQuery(params, headers) {
  const q = params.get('q');
  if (q == null || q.trim() === '') return error(400, 'missing_query', 'the q parameter is required, e.g. /search?q=refresh+tokens', headers);
  if ([...q].length > MAX_QUERY_CHARS) {
    return error(400, 'query_too_long', `q has ${[...q].length} characters; the limit is ${MAX_QUERY_CHARS}`, headers);
  }
  let k = 10;
  if (params.has('k')) {
    const raw = params.get('k');
    k = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
    if (!(k >= 1 && k <= MAX_K)) return error(400, 'bad_k', `k must be an integer from 1 to ${MAX_K}, got ${JSON.stringify(raw)}`, headers);
  }
  const kind = (params.get('kind') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = kind.filter((x) => !KINDS.has(x));
  if (unknown.length) return error(400, 'bad_kind', `unknown kind ${JSON.stringify(unknown[0])}: expected docs, api or custom`, headers);
  const mode = params.get('mode') || 'lexical';
  if (!MODES.has(mode)) return error(400, 'bad_mode', `unknown mode ${JSON.stringify(mode)}: expected lexical, vector or hybrid`, headers);
  const typosRaw = params.get('typos') ?? '1';
  if (typosRaw !== '0' && typosRaw !== '1') return error(400, 'bad_typos', `typos must be 0 or 1, got ${JSON.stringify(typosRaw)}`, headers);
  const language = params.get('lang') ?? '';
  if (!LANGUAGE_TAG.test(language)) return error(400, 'bad_lang', `lang must be a language tag such as fr or zh-CN, got ${JSON.stringify(language)}`, headers);
  const facetsRaw = params.get('facets') ?? '0';
  if (facetsRaw !== '0' && facetsRaw !== '1') return error(400, 'bad_facets', `facets must be 0 or 1, got ${JSON.stringify(facetsRaw)}`, headers);
  const version = params.get('version') ?? '';
  if (version.length > 64) return error(400, 'bad_version', `version must be a docs version name of at most 64 characters, got ${version.length}`, headers);
  return { q, k, kind, mode, typos: typosRaw === '1', language, facets: facetsRaw === '1', version };
}

/** Distinct `lang` values the handler remembers an index for. */
const MAX_LANGUAGES = 64;

/**
 * Creates the handler. `loadShard(name) => Promise<Uint8Array | null>` reads index files (KV, R2, file
 * system, asset binding); `cors`: false, true (`*`) or an origin; `cacheControl` for 200 responses;
 * `path` the route (default `/search`); `wasm`, `cacheBytes` as for `openIndex`; `encoder`: a full
 * encoder (aidocs-search/full-encoder) for `mode=vector|hybrid`, where the runtime can hold the model.
 */
export function createSearchHandler({ loadShard, cors = false, cacheControl = 'public, max-age=60', path = '/search', contextPath, mcpPath, siteUrl, allowedOrigins, wasm, cacheBytes, encoder } = {}) {
  contextPath = contextPath === undefined ? sibling(path, 'context') : contextPath;
  mcpPath = mcpPath === undefined ? sibling(path, 'mcp') : mcpPath;
  // Citations for agents: page URLs under the site's URL (checked once: an http(s) URL, no query).
  if (siteUrl != null) {
    const u = new URL(String(siteUrl));
    if (!/^https?:$/.test(u.protocol) || u.search || u.hash) throw new TypeError(`createSearchHandler: siteUrl must be an http(s) URL without query or fragment, got ${siteUrl}`);
    siteUrl = u.href;
  }
  if (allowedOrigins != null && !Array.isArray(allowedOrigins)) throw new TypeError('createSearchHandler: allowedOrigins must be an array of origins');
  if (typeof loadShard !== 'function') throw new TypeError('createSearchHandler: loadShard(name) => Promise<Uint8Array> is required');
  // One opened index per language partition (a site built as one index per language), shared by
  // every `lang` that opens it; a single-language site's languages all share its one index.
  const byLanguage = new Map(); // lowercased `lang` → Promise<AidocsIndex>
  const byManifest = new Map(); // manifest file → AidocsIndex
  const index = (language) => {
    let key = language.toLowerCase();
    // A bound on what request parameters can make this map hold; past it, the default index.
    if (!byLanguage.has(key) && byLanguage.size >= MAX_LANGUAGES) key = '';
    let p = byLanguage.get(key);
    if (!p) {
      // The full module (every language's stemmer): one handler answers readers of every language.
      p = openIndex(loadShard, { wasm, cacheBytes, encoder, stemmers: true, language: key }).then(
        (opened) => {
          const same = byManifest.get(opened.manifestFile);
          if (same) {
            opened.close();
            return same;
          }
          byManifest.set(opened.manifestFile, opened);
          return opened;
        },
        (e) => {
          byLanguage.delete(key); // retry on the next request: the store may come back
          throw e;
        },
      );
      byLanguage.set(key, p);
    }
    return p;
  };
  return async function handle(request) {
    const headers = corsHeaders(cors);
    try {
      const url = new URL(request.url);
      const route = url.pathname === path ? 'search' : url.pathname === contextPath ? 'context' : url.pathname === mcpPath ? 'mcp' : null;
      if (!route) return error(404, 'not_found', `no route ${url.pathname}; try ${path}?q=...`, headers);
      // A browser page of another origin (DNS rebinding onto an internal server): refused when the
      // handler names the origins it serves.
      const origin = request.headers.get('origin');
      if (allowedOrigins && origin != null && !allowedOrigins.includes(origin)) return error(403, 'forbidden_origin', `origin ${origin} is not allowed`, headers);
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers });
      if (route === 'mcp') return await handleMcp(request, index, { headers, siteUrl });
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return error(405, 'method_not_allowed', `${request.method} is not allowed; use GET`, { ...headers, allow: 'GET, HEAD, OPTIONS' });
      }
      const p = parseQuery(url.searchParams, headers);
      if (p instanceof Response) return p;
      if (route === 'context') {
        const c = parseContext(url.searchParams, request.headers.get('accept'), headers);
        if (c instanceof Response) return c;
        let evidence;
        try {
          ({ evidence } = await (await index(p.language)).searchRawDetailed(p.q, { kind: p.kind, mode: p.mode, typos: p.typos, language: p.language, version: p.version || undefined, tokens: c.tokens, pages: c.pages, siteUrl }));
        } catch (e) {
          if (e?.code === 'bad_option') return error(400, 'bad_option', e.message, headers);
          return error(503, e?.code ?? 'index_unavailable', `the search index is unavailable: ${e?.message ?? e}`, { ...headers, 'retry-after': '5' });
        }
        const out = { ...headers, 'cache-control': cacheControl, vary: headers.vary ? 'origin, accept' : 'accept' };
        if (c.markdown) {
          return new Response(request.method === 'HEAD' ? null : evidence.markdown, { status: 200, headers: { 'content-type': 'text/markdown; charset=utf-8', ...out } });
        }
        return json(200, request.method === 'HEAD' ? '' : evidence.json, out);
      }
      let raw;
      let corrections;
      let facets;
      try {
        ({ raw, corrections, facets } = await (await index(p.language)).searchRawDetailed(p.q, { k: p.k, kind: p.kind, mode: p.mode, typos: p.typos, language: p.language, facets: p.facets, version: p.version || undefined }));
      } catch (e) {
        if (e?.code === 'bad_option') return error(400, 'bad_option', e.message, headers);
        return error(503, e?.code ?? 'index_unavailable', `the search index is unavailable: ${e?.message ?? e}`, { ...headers, 'retry-after': '5' });
      }
      const body = `{"query":${JSON.stringify(p.q)},"corrections":${corrections},"results":${raw}${p.facets ? `,"facets":${facets}` : ''}}`;
      return json(200, request.method === 'HEAD' ? '' : body, { ...headers, 'cache-control': cacheControl });
    } catch (e) {
      return error(500, 'internal', `unexpected failure: ${e?.message ?? e}`, headers);
    }
  };
}

/** Adapts a Fetch handler to Node's `http.createServer` listener. */
export function toNodeListener(handler) {
  return async (req, res) => {
    try {
      const url = `http://${req.headers.host ?? '127.0.0.1'}${req.url}`;
      // Only the headers the handler reads: hop-by-hop headers (connection, keep-alive) are not
      // valid on a Fetch Request.
      const headers = {};
      for (const h of ['accept', 'origin', 'if-none-match', 'content-type', 'mcp-protocol-version']) if (req.headers[h]) headers[h] = req.headers[h];
      // A body (POST /mcp) is read up to one byte past the handler's bound, which then refuses it.
      let body;
      if (req.method === 'POST') {
        const chunks = [];
        let size = 0;
        // Past the bound the rest is read and dropped (breaking off would reset the connection
        // before the 413 is sent); the server's request timeout bounds how long.
        for await (const chunk of req) {
          if (size <= MCP_MAX_BODY) chunks.push(chunk);
          size += chunk.length;
        }
        body = Buffer.concat(chunks).subarray(0, MCP_MAX_BODY + 1);
      }
      const response = await handler(new Request(url, { method: req.method, headers, body }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: { code: 'internal', message: String(e?.message ?? e) } }));
    }
  };
}
