// The Model Context Protocol over the handler (issue 22): `POST /mcp`, the Streamable HTTP transport,
// stateless (no session id, no server-sent events: every request gets one JSON response), JSON-RPC 2.0
// with `initialize`, `ping`, `tools/list` and `tools/call`. The tools answer from the same public
// index as `/search` and `/context`:
//   search_docs  {query, k?, kind?, version?, language?}  ranked pages with their sections and URLs
//   get_context  {query, tokens?, pages?, kind?, version?, language?}  evidence within a token budget
//   read_page    {url, tokens?, language?}  one page's text, in reading order, within a token budget
//   read_section {url, tokens?, language?}  one section's text (the URL's #anchor)
// The first two rank hybrid where the index has vectors (lexical where it has none) and correct
// misspelled words; the reading tools look a page up by its URL as search results and citations give
// it (the path decides; the whole URL tells apart records of one path; under `siteUrl` its path too). Each returns text content with citations (URLs of the docs site), and `isError` with a message
// when the query cannot be answered. Nothing a client sends can crash the handler: malformed
// JSON-RPC gets its JSON-RPC error, oversized bodies a 413, other methods on the route a 405.

/** Protocol revisions this server speaks, newest first (it answers `initialize` with the client's when listed). */
export const MCP_PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'];
/** The largest request body accepted, in bytes. */
export const MCP_MAX_BODY = 64 * 1024;
/** Evidence budgets and pages the routes accept (the engine's own bounds: `EVIDENCE_TOKENS`, `MAX_EVIDENCE_PAGES`). */
export const EVIDENCE_LIMITS = { minTokens: 100, maxTokens: 64000, maxPages: 50 };
/** A language tag as `lang` and the tools' `language` take it (`fr`, `zh-CN`; empty for none). */
export const LANGUAGE_TAG = /^[A-Za-z]{0,8}(-[A-Za-z0-9]{1,8})*$/;

const KINDS = ['docs', 'api', 'custom'];

/** A tool reading by URL (`read_page`, `read_section`): its schema. */
function readTool(name, title, description, url) {
  return {
    name,
    title,
    description,
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', description: url, minLength: 1, maxLength: 2048 },
        tokens: { type: 'integer', description: 'The most tokens the text may take (100-64000, default 8000; estimated above what cl100k counts).', minimum: EVIDENCE_LIMITS.minTokens, maximum: EVIDENCE_LIMITS.maxTokens },
        language: { type: 'string', maxLength: 35 },
      },
      required: ['url'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/** The tools, as `tools/list` returns them (JSON Schema inputs, bounded like the HTTP routes). */
export const MCP_TOOLS = [
  {
    name: 'search_docs',
    title: 'Search the documentation',
    description:
      "Searches this documentation site and returns the best pages, each with its URL and its matching sections' URLs and excerpts. Use it to find where something is documented; use get_context to read the text.",
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for: words, an identifier, an API path or a question.', minLength: 1, maxLength: 512 },
        k: { type: 'integer', description: 'Pages wanted (1-50, default 10).', minimum: 1, maximum: 50 },
        kind: { type: 'string', enum: KINDS, description: 'Only guides (docs), API operations (api) or custom records.' },
        version: { type: 'string', description: "Only this docs version's pages (and pages in no version).", maxLength: 64 },
        language: { type: 'string', description: 'The reader\'s language tag (e.g. fr, zh-CN).', maxLength: 35 },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'get_context',
    title: 'Read the documentation about a question',
    description:
      'Returns the sections of this documentation site that answer a question, as Markdown under numbered citations (page title, section, URL), within a token budget: the best sections first, adjacent ones merged, copies dropped, at most half the budget from one page.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'The question or topic.', minLength: 1, maxLength: 512 },
        tokens: { type: 'integer', description: 'The most tokens the answer may take (100-64000, default 2000; estimated above what cl100k counts).', minimum: EVIDENCE_LIMITS.minTokens, maximum: EVIDENCE_LIMITS.maxTokens },
        pages: { type: 'integer', description: 'The top pages to draw from (1-50, default 10).', minimum: 1, maximum: EVIDENCE_LIMITS.maxPages },
        kind: { type: 'string', enum: KINDS },
        version: { type: 'string', maxLength: 64 },
        language: { type: 'string', maxLength: 35 },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  readTool(
    'read_page',
    'Read a documentation page',
    'Returns the text of one page of this documentation site, by its URL (as search_docs and get_context cite it), as Markdown under its citation, in reading order, within a token budget (cut at the end when longer).',
    "The page's URL, site-relative (/guides/keys) or absolute; an #anchor is ignored.",
  ),
  readTool(
    'read_section',
    'Read a section of a documentation page',
    "Returns the text of one section of a page of this documentation site, by its URL with the section's #anchor (as search_docs and get_context cite it), as Markdown under its citation, within a token budget.",
    "The section's URL with its #anchor (/guides/keys#rotate-a-key), site-relative or absolute.",
  ),
];

const rpcError = (id, code, message) => ({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });
const rpcResult = (id, result) => ({ jsonrpc: '2.0', id, result });
const toolError = (message) => ({ content: [{ type: 'text', text: message }], isError: true });

/** A tool call's arguments checked against its schema: the options for the index, or an error message. */
function checkArguments(tool, args) {
  if (args == null) args = {};
  if (typeof args !== 'object' || Array.isArray(args)) return 'arguments must be an object';
  const schema = tool.inputSchema.properties;
  for (const key of Object.keys(args)) if (!Object.hasOwn(schema, key)) return `unknown argument ${JSON.stringify(key)}`;
  for (const [key, s] of Object.entries(schema)) {
    const v = args[key];
    if (v === undefined) {
      if (tool.inputSchema.required.includes(key)) return `${key} is required`;
      continue;
    }
    if (s.type === 'string') {
      if (typeof v !== 'string') return `${key} must be a string`;
      if (s.minLength && v.trim().length < s.minLength) return `${key} must not be empty`;
      if (s.maxLength && [...v].length > s.maxLength) return `${key} has more than ${s.maxLength} characters`;
      if (s.enum && !s.enum.includes(v)) return `${key} must be one of ${s.enum.join(', ')}`;
    } else if (s.type === 'integer') {
      if (!Number.isInteger(v) || v < s.minimum || v > s.maximum) return `${key} must be an integer from ${s.minimum} to ${s.maximum}`;
    }
  }
  if (args.language !== undefined && !LANGUAGE_TAG.test(args.language)) return 'language must be a language tag such as fr or zh-CN';
  return null;
}

/** `search_docs`' text: what was searched instead when the query was corrected, then one numbered entry per page with its URL, then its sections' URLs and excerpts. */
function resultsText(query, results, siteUrl) {
  if (results.length === 0) return `No page of this documentation matches ${JSON.stringify(query)}.`;
  // Every field from a page on one line: a page cannot start a line (a fake entry) of its own.
  const one = (v) => String(v ?? '').replace(/\s+/g, ' ').trim();
  const lines = [];
  // Say what was searched instead: corrected words, or quoted words no page has in that order.
  if (results.correctedQuery) {
    const quotes = (results.corrections ?? []).some((c) => c.from === '"');
    lines.push(`${quotes ? 'No page has the quoted words in that order; s' : 'S'}howing results for ${JSON.stringify(results.correctedQuery)}.`);
  }
  results.forEach((r, i) => {
    lines.push(`${i + 1}. ${one(r.title)} (${r.kind}) ${siteUrl(one(r.url))}`);
    if (r.api) lines.push(`   ${one(r.api.method)} ${one(r.api.path)}${r.api.operationId ? ` (${one(r.api.operationId)})` : ''}`);
    for (const s of r.sections) {
      const excerpt = one(s.excerpt);
      lines.push(`   - ${s.anchor ? one(s.title) : 'Overview'}: ${siteUrl(one(s.url))}${excerpt ? `\n     ${excerpt}` : ''}`);
    }
  });
  return lines.join('\n');
}

/**
 * The MCP endpoint: `(request, index(language), options) => Promise<Response>`. `index(language)` opens
 * (or reuses) the index a reader in `language` searches; `siteUrl`: the URL the site's root is at
 * (the handler's option), under which citations become absolute, as core makes them for evidence.
 */
export async function handleMcp(request, index, { headers = {}, siteUrl, serverName = 'aidocs-search', serverVersion = '0.1.0' } = {}) {
  const cite = (u) => (siteUrl && u.startsWith('/') ? siteUrl.replace(/\/+$/, '') + u : u);
  const reply = (status, body, extra = {}) =>
    new Response(body == null ? null : JSON.stringify(body), {
      status,
      headers: { ...(body == null ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...headers, ...extra },
    });
  if (request.method !== 'POST') {
    // Stateless: no server-sent event stream to open (GET) and no session to end (DELETE).
    return reply(405, rpcError(null, -32000, `${request.method} is not allowed on the MCP endpoint; POST JSON-RPC messages`), { allow: 'POST, OPTIONS' });
  }
  const version = request.headers.get('mcp-protocol-version');
  if (version != null && !MCP_PROTOCOL_VERSIONS.includes(version)) {
    return reply(400, rpcError(null, -32600, `unsupported MCP-Protocol-Version ${JSON.stringify(version)}; this server speaks ${MCP_PROTOCOL_VERSIONS.join(', ')}`));
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MCP_MAX_BODY) return reply(413, rpcError(null, -32600, `the request body is over ${MCP_MAX_BODY} bytes`));
  let text;
  try {
    // Read with a bound, whatever the declared length says.
    const reader = request.body?.getReader();
    const chunks = [];
    let size = 0;
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MCP_MAX_BODY) {
        await reader.cancel().catch(() => {});
        return reply(413, rpcError(null, -32600, `the request body is over ${MCP_MAX_BODY} bytes`));
      }
      chunks.push(value);
    }
    text = new TextDecoder('utf-8', { fatal: true }).decode(concat(chunks, size));
  } catch {
    return reply(400, rpcError(null, -32700, 'the request body is not UTF-8 text'));
  }
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return reply(400, rpcError(null, -32700, 'parse error: the body is not JSON'));
  }
  if (Array.isArray(message)) return reply(400, rpcError(null, -32600, 'batches are not supported: send one JSON-RPC message per request'));
  if (message == null || typeof message !== 'object' || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    // A response or notification sent to us without a method: nothing to answer.
    if (message && typeof message === 'object' && message.jsonrpc === '2.0' && !('method' in message) && ('result' in message || 'error' in message)) {
      return reply(202, null);
    }
    return reply(400, rpcError(message?.id, -32600, 'invalid request: expected a JSON-RPC 2.0 message with a method'));
  }
  const isNotification = !('id' in message);
  const id = message.id;
  if (!isNotification && !(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) {
    return reply(400, rpcError(null, -32600, 'invalid request: id must be a string or a number'));
  }
  if (isNotification) return reply(202, null); // notifications/initialized, cancelled: nothing to do when stateless
  const params = message.params ?? {};
  if (typeof params !== 'object' || Array.isArray(params)) return reply(200, rpcError(id, -32602, 'params must be an object'));
  switch (message.method) {
    case 'initialize': {
      const asked = params.protocolVersion;
      return reply(
        200,
        rpcResult(id, {
          protocolVersion: MCP_PROTOCOL_VERSIONS.includes(asked) ? asked : MCP_PROTOCOL_VERSIONS[0],
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: serverName, version: serverVersion },
          instructions: 'Search this documentation site with search_docs; read what answers a question, with citations, with get_context; read a whole page or one section by its URL with read_page or read_section.',
        }),
      );
    }
    case 'ping':
      return reply(200, rpcResult(id, {}));
    case 'tools/list':
      return reply(200, rpcResult(id, { tools: MCP_TOOLS }));
    case 'tools/call': {
      const tool = MCP_TOOLS.find((t) => t.name === params.name);
      if (!tool) return reply(200, rpcError(id, -32602, `unknown tool ${JSON.stringify(params.name)}: this server has ${MCP_TOOLS.map((t) => t.name).join(', ')}`));
      const args = params.arguments ?? {};
      const problem = checkArguments(tool, args);
      if (problem) return reply(200, rpcResult(id, toolError(`${tool.name}: ${problem}`)));
      // Agents ask in sentences: hybrid ranking where the index has vectors (the static encoder, or
      // the handler's full encoder), lexical where it has none; misspelled words corrected.
      const opts = { kind: args.kind ? [args.kind] : [], version: args.version, language: args.language, typos: true, mode: 'hybrid' };
      try {
        const opened = await index(args.language ?? '');
        if (tool.name === 'read_page' || tool.name === 'read_section') {
          const hash = args.url.indexOf('#');
          const anchor = hash < 0 ? '' : args.url.slice(hash + 1);
          if (tool.name === 'read_section' && anchor === '') {
            return reply(200, rpcResult(id, toolError('read_section: the url needs the section\'s #anchor (read_page reads a whole page)')));
          }
          const url = tool.name === 'read_page' && hash >= 0 ? args.url.slice(0, hash) : args.url;
          const { raw, evidence } = await opened.searchRawDetailed(url, { read: true, tokens: args.tokens ?? 8000, siteUrl, language: args.language });
          const [page] = JSON.parse(raw);
          if (!page) return reply(200, rpcResult(id, toolError(`No page of this documentation is at ${JSON.stringify(url)}: use a URL that search_docs or get_context gave.`)));
          if (!evidence.markdown) {
            const tokens = args.tokens ?? 8000;
            const why = tool.name === 'read_section'
              ? `has no section ${JSON.stringify(`#${anchor}`)} with text that fits ${tokens} tokens: read_page reads the whole page`
              : `has no text that fits ${tokens} tokens`;
            return reply(200, rpcResult(id, toolError(`The page ${cite(page.url)} ${why}.`)));
          }
          return reply(200, rpcResult(id, { content: [{ type: 'text', text: evidence.markdown }] }));
        }
        if (tool.name === 'search_docs') {
          const results = await opened.search(args.query, { ...opts, k: args.k ?? 10 });
          return reply(200, rpcResult(id, { content: [{ type: 'text', text: resultsText(args.query, results, cite) }] }));
        }
        const { evidence } = await opened.searchRawDetailed(args.query, { ...opts, tokens: args.tokens ?? 2000, pages: args.pages ?? 10, siteUrl });
        const text = evidence.markdown || `No section of this documentation answers ${JSON.stringify(args.query)}.`;
        return reply(200, rpcResult(id, { content: [{ type: 'text', text }] }));
      } catch (e) {
        return reply(200, rpcResult(id, toolError(`${tool.name} failed: ${e?.code ? `${e.code}: ` : ''}${e?.message ?? e}`)));
      }
    }
    default:
      return reply(200, rpcError(id, -32601, `method not found: ${message.method}`));
  }
}

function concat(chunks, size) {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
