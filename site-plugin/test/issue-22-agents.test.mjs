// node --test: issue 22, docs for agents from the same public shards: `index.context`, the handler's
// `GET /context` and `POST /mcp`, the last driven by the official MCP TypeScript SDK client
// (`@modelcontextprotocol/sdk`) against the handler behind a real Node server. The index is the v9
// compatibility fixture (the example site, with its section text files).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSearchHandler, toNodeListener } from '../src/handler.js';
import { openIndex } from '../src/search.js';
import { MCP_MAX_BODY } from '../src/mcp.js';

const V9 = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'compat', 'v9');
const loader = (name) => readFile(join(V9, name)).then((b) => new Uint8Array(b));

async function serve(t, options = {}) {
  const server = createServer(toNodeListener(createSearchHandler({ loadShard: loader, ...options })));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${server.address().port}`;
}

async function mcpClient(t, base) {
  const client = new Client({ name: 'aidocs-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  t.after(() => client.close());
  return client;
}

test('issue_22 index.context selects cited evidence within its budget', async () => {
  const index = await openIndex(loader, { evidence: true });
  const e = await index.context('refresh tokens', { tokens: 300 });
  assert.equal(e.query, 'refresh tokens');
  assert.equal(e.budget, 300);
  assert.ok(e.tokens <= 300 && e.tokens > 0, `${e.tokens}`);
  assert.equal(e.excerpts_only, false);
  assert.equal(e.pieces[0].page_id, 'guides/refresh-tokens');
  assert.equal(e.pieces[0].n, 1);
  assert.match(e.pieces[0].text, /refresh token/i);
  assert.ok(e.markdown.startsWith('### [1] Refresh tokens\n/guides/refresh-tokens\n'), e.markdown);
  assert.ok(!Object.keys(e).includes('markdown'));
  // The engine checks the budget.
  await assert.rejects(index.context('refresh tokens', { tokens: 10 }), (err) => err.code === 'bad_option');
  await assert.rejects(index.context('refresh tokens', { pages: 0 }), (err) => err.code === 'bad_option');
  // Numbers wasm would wrap are refused before it sees them.
  for (const tokens of [2 ** 32 + 100, -4294967000, 64.9, '500']) {
    await assert.rejects(index.context('refresh tokens', { tokens }), (err) => err.code === 'bad_option', String(tokens));
  }
  // Citations under the site's URL, counted in the budget.
  const cited = await index.context('refresh tokens', { tokens: 300, siteUrl: 'https://docs.acme.test/' });
  assert.equal(cited.pieces[0].url, 'https://docs.acme.test/guides/refresh-tokens');
  assert.ok(cited.markdown.startsWith('### [1] Refresh tokens\nhttps://docs.acme.test/guides/refresh-tokens\n'));
  assert.ok(cited.tokens <= 300);
  // The smallest budget still holds a piece.
  assert.ok((await index.context('refresh tokens', { tokens: 100 })).pieces.length > 0);
  // A search reads no text file; evidence reads one per top page, after the metadata.
  const fresh = await openIndex(loader, { evidence: true });
  const results = await fresh.search('create a user');
  const searched = fresh.stats.requests;
  const e2 = await fresh.context('create a user');
  const pages = new Set(results.slice(0, 10).map((r) => r.id));
  assert.equal(fresh.stats.requests - searched, pages.size, 'one text file per top page, nothing else');
  assert.ok(e2.pieces.every((p) => pages.has(p.page_id)));
});

test('issue_22 concurrent evidence searches share their text files', async () => {
  const index = await openIndex(loader, { evidence: true });
  const queries = ['refresh tokens', 'refresh tokens', 'authentication refresh', 'create a user', 'refresh'];
  const all = await Promise.all(queries.map((q) => index.context(q, { tokens: 800 })));
  const alone = await openIndex(loader, { evidence: true });
  for (const [i, e] of all.entries()) {
    assert.ok(e.pieces.length > 0, queries[i]);
    assert.deepEqual(e, await alone.context(queries[i], { tokens: 800 }), queries[i]);
  }
});

test('issue_22 GET /context answers JSON, or Markdown for Accept: text/markdown, and validates like /search', async (t) => {
  const base = await serve(t, { cors: true });
  const res = await fetch(`${base}/context?q=refresh+tokens&tokens=400`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^application\/json/);
  assert.match(res.headers.get('vary'), /accept/);
  const e = await res.json();
  assert.ok(e.tokens <= 400);
  assert.equal(e.pieces[0].url, '/guides/refresh-tokens');
  const md = await fetch(`${base}/context?q=refresh+tokens&tokens=400`, { headers: { accept: 'text/markdown' } });
  assert.match(md.headers.get('content-type'), /^text\/markdown/);
  assert.ok((await md.text()).startsWith('### [1] Refresh tokens'));
  assert.ok((await (await fetch(`${base}/context?q=refresh+tokens&format=markdown`)).text()).startsWith('### [1]'));
  for (const [query, code] of [
    ['q=refresh&tokens=10', 'bad_tokens'],
    ['q=refresh&tokens=64', 'bad_tokens'],
    ['q=refresh&tokens=99999999', 'bad_tokens'],
    ['q=refresh&tokens=1e3', 'bad_tokens'],
    ['q=refresh&pages=0', 'bad_pages'],
    ['q=refresh&format=html', 'bad_format'],
    ['tokens=300', 'missing_query'],
    [`q=${'a'.repeat(600)}`, 'query_too_long'],
    ['q=refresh&mode=psychic', 'bad_mode'],
  ]) {
    const r = await fetch(`${base}/context?${query}`);
    assert.equal(r.status, 400, query);
    assert.equal((await r.json()).error.code, code, query);
  }
  const head = await fetch(`${base}/context?q=refresh`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
  // Routes next to a custom path, and off when asked.
  // Origins: any by default; with allowedOrigins, others are refused.
  const guarded = await serve(t, { allowedOrigins: ['https://docs.acme.test'] });
  assert.equal((await fetch(`${guarded}/context?q=refresh`, { headers: { origin: 'https://evil.example' } })).status, 403);
  assert.equal((await fetch(`${guarded}/context?q=refresh`, { headers: { origin: 'https://docs.acme.test' } })).status, 200);
  assert.equal((await fetch(`${guarded}/context?q=refresh`)).status, 200);
  const sited = await serve(t, { siteUrl: 'https://docs.acme.test' });
  assert.equal((await (await fetch(`${sited}/context?q=refresh+tokens`)).json()).pieces[0].url, 'https://docs.acme.test/guides/refresh-tokens');
  assert.throws(() => createSearchHandler({ loadShard: loader, siteUrl: 'javascript:alert(1)' }), TypeError);
  const custom = await serve(t, { path: '/api/search', mcpPath: null });
  assert.equal((await fetch(`${custom}/api/context?q=refresh`)).status, 200);
  assert.equal((await fetch(`${custom}/api/mcp`, { method: 'POST', body: '{}' })).status, 404);
});

test('issue_22 the MCP SDK client lists the tools and calls each one', async (t) => {
  const base = await serve(t, { siteUrl: 'https://docs.acme.test/' });
  const client = await mcpClient(t, base);
  assert.equal(client.getServerVersion().name, 'aidocs-search');
  assert.ok(client.getServerCapabilities().tools);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name), ['search_docs', 'get_context', 'read_page', 'read_section']);
  assert.ok(tools.every((x) => x.inputSchema.type === 'object' && x.inputSchema.required.length === 1));

  const found = await client.callTool({ name: 'search_docs', arguments: { query: 'getUserById', k: 3, kind: 'api' } });
  assert.ok(!found.isError);
  assert.match(found.content[0].text, /^1\. Retrieve a user \(api\) https:\/\/docs\.acme\.test\/api-reference\/users\/retrieve-a-user/);
  assert.match(found.content[0].text, /GET \/v1\/users\/\{id\} \(getUserById\)/);

  const context = await client.callTool({ name: 'get_context', arguments: { query: 'how do refresh tokens expire', tokens: 500 } });
  assert.ok(!context.isError);
  const text = context.content[0].text;
  assert.match(text, /^### \[1\] Refresh tokens( › [^\n]+)?\nhttps:\/\/docs\.acme\.test\/guides\/refresh-tokens(#[a-z-]+)?\n/);
  assert.match(text, /30 days/);

  const none = await client.callTool({ name: 'search_docs', arguments: { query: 'zzqqxx vvwwyy' } });
  assert.match(none.content[0].text, /^No page of this documentation matches/);
  // Quoted words no page has in that order: said before the results an agent then reads.
  const unquoted = await client.callTool({ name: 'search_docs', arguments: { query: '"sdk refresh"' } });
  assert.match(unquoted.content[0].text, /^No page has the quoted words in that order; showing results for "sdk refresh"\.\n1\. /);

  // Bad arguments are tool errors the model can read; an unknown tool is a protocol error.
  for (const args of [{}, { query: '' }, { query: 'x', k: 0 }, { query: 'x', kind: 'blog' }, { query: 'x', extra: 1 }, { query: 'x', language: 'not a tag!' }, { query: 'x', constructor: 1 }, JSON.parse('{"query":"x","__proto__":1}')]) {
    const r = await client.callTool({ name: 'search_docs', arguments: args });
    assert.equal(r.isError, true, JSON.stringify(args));
  }
  const tooBig = await client.callTool({ name: 'get_context', arguments: { query: 'x', tokens: 100000 } });
  assert.equal(tooBig.isError, true);
  await assert.rejects(client.callTool({ name: 'read_minds', arguments: {} }), /unknown tool/);
});

// The current indexer's build of the example site (its pages carry URL keys since ingest version 6).
const CURRENT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'wasm-search', 'tests', 'fixture');
const current = (name) => readFile(join(CURRENT, name)).then((b) => new Uint8Array(b));

/** The page at `url` read through `searchRawDetailed`: its evidence, `markdown`, `json` and `page`. */
async function read(index, url, opts = {}) {
  const { raw, evidence } = await index.searchRawDetailed(url, { ...opts, read: true });
  const [page] = JSON.parse(raw);
  return Object.assign(JSON.parse(evidence.json), { markdown: evidence.markdown, json: evidence.json, page: page ? { id: page.id, title: page.title, url: page.url } : null });
}

test('issue_22 searchRawDetailed with read and the MCP read_page and read_section tools read a page or a section by its URL', async (t) => {
  const index = await openIndex(current, { evidence: true });
  // A page: every section in reading order, under one citation; the URL as results give it, or
  // absolute, with a trailing slash.
  const results = await index.search('refresh tokens');
  const page = results.find((r) => r.id === 'guides/refresh-tokens');
  for (const url of [page.url, `https://docs.acme.test${page.url}/`]) {
    const got = await read(index, url, { tokens: 4000 });
    assert.deepEqual(got.page, { id: page.id, title: page.title, url: page.url }, url);
    assert.equal(got.pieces.length, 1);
    assert.equal(got.pieces[0].truncated, false);
    assert.match(got.pieces[0].text, /30 days/);
    assert.ok(got.markdown.startsWith(`### [1] ${page.title}\n${page.url}\n`), got.markdown);
    assert.ok(got.tokens <= 4000);
    assert.equal(JSON.parse(got.json).pieces[0].text, got.pieces[0].text);
  }
  // A section by its anchor: only that section; a budget cuts and holds.
  const section = page.sections.find((s) => s.anchor);
  const one = await read(index, section.url);
  assert.ok(one.pieces[0].url.endsWith(`#${section.anchor}`), one.pieces[0].url);
  assert.ok(one.pieces[0].text.length < (await read(index, page.url)).pieces[0].text.length);
  const small = await read(index, page.url, { tokens: 100 });
  assert.ok(small.tokens <= 100);
  // Nothing at a URL no page has; the page, without a piece, for an anchor it lacks.
  assert.equal((await read(index, '/no/such/page')).page, null);
  const lacking = await read(index, `${page.url}#no-such-section`);
  assert.equal(lacking.page.id, page.id);
  assert.equal(lacking.pieces.length, 0);
  assert.equal((await read(index, '')).page, null);
  await assert.rejects(read(index, page.url, { tokens: 10 }), (err) => err.code === 'bad_option');
  // Reading takes no page count: evidence from 0 pages is refused as before.
  await assert.rejects(index.context('refresh', { pages: 0 }), (err) => err.code === 'bad_option');
  // A page read costs its URL's term shard, its metadata and its text: three files on a cold index.
  const cold = await openIndex(current, { evidence: true });
  const before = cold.stats.requests;
  await read(cold, page.url);
  assert.equal(cold.stats.requests - before, 3);

  // The same through MCP, with the official SDK client; citations absolute under siteUrl.
  const server = createServer(toNodeListener(createSearchHandler({ loadShard: current, siteUrl: 'https://docs.acme.test/' })));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  const client = await mcpClient(t, `http://127.0.0.1:${server.address().port}`);
  const whole = await client.callTool({ name: 'read_page', arguments: { url: `https://docs.acme.test${page.url}`, tokens: 4000 } });
  assert.ok(!whole.isError, whole.content[0].text);
  assert.ok(whole.content[0].text.startsWith(`### [1] ${page.title}\nhttps://docs.acme.test${page.url}\n`), whole.content[0].text);
  assert.match(whole.content[0].text, /30 days/);
  // read_page reads the whole page even when the URL names a section.
  const withAnchor = await client.callTool({ name: 'read_page', arguments: { url: section.url } });
  assert.equal(withAnchor.content[0].text, (await client.callTool({ name: 'read_page', arguments: { url: page.url } })).content[0].text);
  const part = await client.callTool({ name: 'read_section', arguments: { url: section.url } });
  assert.ok(!part.isError);
  assert.match(part.content[0].text, new RegExp(`^### \\[1\\] [^\n]+\nhttps://docs\\.acme\\.test${section.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\n`));
  const missing = await client.callTool({ name: 'read_page', arguments: { url: '/no/such/page' } });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /^No page of this documentation is at "\/no\/such\/page"/);
  const noAnchor = await client.callTool({ name: 'read_section', arguments: { url: page.url } });
  assert.equal(noAnchor.isError, true);
  assert.match(noAnchor.content[0].text, /needs the section's #anchor/);
  const noSection = await client.callTool({ name: 'read_section', arguments: { url: `${page.url}#nope` } });
  assert.equal(noSection.isError, true);
  assert.match(noSection.content[0].text, /has no section "#nope" with text that fits 8000 tokens/);
  for (const args of [{}, { url: '' }, { url: 'x', tokens: 99 }, { url: 'x', query: 'y' }, { url: 'x'.repeat(3000) }]) {
    assert.equal((await client.callTool({ name: 'read_page', arguments: args })).isError, true, JSON.stringify(args));
  }
});

/** A raw POST to the MCP endpoint: status, content type and parsed body (null when empty). */
async function post(base, body, headers = {}) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: text ? JSON.parse(text) : null };
}

test('issue_22 the MCP endpoint answers malformed JSON-RPC with its errors and never more than it allows', async (t) => {
  const base = await serve(t);
  assert.equal((await post(base, '{not json')).body.error.code, -32700);
  assert.equal((await post(base, '[]')).body.error.code, -32600);
  assert.equal((await post(base, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).body.result.tools.length, 4);
  assert.equal((await post(base, '{"jsonrpc":"1.0","id":1,"method":"ping"}')).body.error.code, -32600);
  assert.equal((await post(base, '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}')).body.error.code, -32600);
  assert.equal((await post(base, '{"jsonrpc":"2.0","id":7,"method":"resources/list"}')).body.error.code, -32601);
  assert.equal((await post(base, '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":[1]}')).body.error.code, -32602);
  assert.deepEqual((await post(base, '{"jsonrpc":"2.0","id":"p","method":"ping"}')).body, { jsonrpc: '2.0', id: 'p', result: {} });
  // Notifications and responses are accepted without a body.
  const note = await post(base, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  assert.equal(note.status, 202);
  assert.equal(note.body, null);
  // An unknown protocol version in the header is refused; initialize falls back to the newest it speaks.
  assert.equal((await post(base, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'mcp-protocol-version': '1999-01-01' })).status, 400);
  const init = await post(base, '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}');
  assert.equal(init.body.result.protocolVersion, '2025-06-18');
  // Stateless: no event stream to open, no session to end.
  assert.equal((await fetch(`${base}/mcp`)).status, 405);
  assert.equal((await fetch(`${base}/mcp`, { method: 'DELETE' })).status, 405);
  // A body over the bound is refused, whatever length it declares (here: none, chunked).
  const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(MCP_MAX_BODY)}"}}`;
  assert.equal((await post(base, big)).status, 413);
  const chunked = await new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    for (let i = 0; i < 80; i++) req.write('x'.repeat(1024));
    req.end();
  });
  assert.equal(chunked, 413, 'answered, not reset');
  // Not UTF-8.
  assert.equal((await post(base, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).body.error.code, -32700);
});
