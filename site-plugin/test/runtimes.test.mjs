// node --test: the same search handler on every runtime it claims (issue 5): Node 20, Deno, Bun and
// Cloudflare's workerd (through miniflare, running examples/cloudflare-worker.js over an R2 bucket).
// Each answers the same requests with bodies byte-identical to Node's. The runtimes are devDependencies
// (npm ci installs them), except Deno, which ./dev.sh setup installs outside the lock file ($AIDOCS_DENO);
// AIDOCS_REQUIRE_RUNTIMES=1 (set by ./dev.sh test) turns a missing one into a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSearchHandler } from '../src/handler.js';

const plugin = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = join(plugin, '..', 'wasm-search', 'tests', 'fixture');
const ENV_BIN = { deno: process.env.AIDOCS_DENO };
const bin = (name) => ENV_BIN[name] ?? join(plugin, 'node_modules', '.bin', name);
const required = process.env.AIDOCS_REQUIRE_RUNTIMES === '1';

const REQUESTS = [
  '/search?q=refresh+tokens&k=3',
  '/search?q=getUserById&kind=api',
  '/search?q=create%20a%20user&k=5&kind=docs,api',
  '/search?q=%E4%B8%AD%E6%96%87%20%C3%A9t%C3%A9',
  '/search?q=nothing+matches+zzzz',
  '/search?k=3',
  `/search?q=${'a'.repeat(600)}`,
  '/search?q=x&k=99',
  '/elsewhere?q=x',
  // Issue 22: evidence (this fixture predates section text files: excerpts stand in) and its checks.
  '/context?q=refresh+tokens&tokens=300',
  '/context?q=refresh+tokens&tokens=300&format=markdown',
  '/context?q=refresh&tokens=1',
];

/** What Node's handler answers: the reference. */
async function reference() {
  const handler = createSearchHandler({ cors: true, loadShard: (n) => readFile(join(FIXTURE, n)).then((b) => new Uint8Array(b)) });
  const out = [];
  for (const path of REQUESTS) {
    const res = await handler(new Request(`http://127.0.0.1${path}`));
    out.push([res.status, await res.text()]);
  }
  return out;
}

async function collect(base) {
  const out = [];
  for (const path of REQUESTS) {
    const res = await fetch(base + path);
    out.push([res.status, await res.text()]);
  }
  return out;
}

function available(t, name) {
  if (existsSync(bin(name))) return true;
  if (required) assert.fail(`${name} is not installed at ${bin(name)}: run ./dev.sh setup`);
  t.skip(`${name} not installed (npm ci in site-plugin)`);
  return false;
}

/** Starts an example server on port 0 and resolves with its base URL once it prints it. */
async function startServer(t, cmd, args, env = {}) {
  const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  t.after(() => p.kill());
  let err = '';
  p.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/(http:\/\/127\.0\.0\.1:\d+)\//);
      if (m) resolve(m[1]);
    });
    p.on('exit', (code) => reject(new Error(`${cmd} exited ${code}: ${err}`)));
  });
}

test('Deno serves examples/deno-server.js with the same answers as Node', async (t) => {
  if (!available(t, 'deno')) return;
  const expected = await reference();
  const base = await startServer(t, bin('deno'), ['run', '--allow-net=127.0.0.1', '--allow-read', join(plugin, 'examples', 'deno-server.js'), FIXTURE, '0'], {
    DENO_NO_UPDATE_CHECK: '1',
    DENO_NO_PROMPT: '1',
  });
  assert.deepEqual(await collect(base), expected);
});

test('Bun serves examples/bun-server.js with the same answers as Node', async (t) => {
  if (!available(t, 'bun')) return;
  const expected = await reference();
  const base = await startServer(t, bin('bun'), [join(plugin, 'examples', 'bun-server.js'), FIXTURE, '0']);
  assert.deepEqual(await collect(base), expected);
});

test('workerd runs examples/cloudflare-worker.js over an R2 bucket with the same answers as Node', async (t) => {
  if (!available(t, 'miniflare')) return;
  const { Miniflare } = await import('miniflare');
  const expected = await reference();
  // The module graph wrangler would bundle; the worker imports the .wasm as a compiled module.
  const mf = new Miniflare({
    modulesRoot: plugin,
    modules: [
      { type: 'ESModule', path: join(plugin, 'examples', 'cloudflare-worker.js') },
      { type: 'ESModule', path: join(plugin, 'src', 'handler.js') },
      { type: 'ESModule', path: join(plugin, 'src', 'mcp.js') },
      { type: 'ESModule', path: join(plugin, 'src', 'search.js') },
      { type: 'ESModule', path: join(plugin, 'wasm', 'aidocs_search.js') },
      { type: 'CompiledWasm', path: join(plugin, 'wasm', 'aidocs_search_full_bg.wasm') },
    ],
    r2Buckets: ['SEARCH_INDEX'],
    compatibilityDate: '2025-01-01',
  });
  t.after(() => mf.dispose());
  const bucket = await mf.getR2Bucket('SEARCH_INDEX');
  const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
  for (const f of walk(FIXTURE)) {
    const b = readFileSync(f);
    await bucket.put(relative(FIXTURE, f), b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
  }
  const got = [];
  for (const path of REQUESTS) {
    const res = await mf.dispatchFetch(`http://127.0.0.1${path}`);
    got.push([res.status, await res.text()]);
  }
  assert.deepEqual(got, expected);
  // Issue 22: the official MCP client over the worker's /mcp.
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'aidocs-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: async (url, init) => {
        const res = await mf.dispatchFetch(String(url), init);
        return new Response(await res.arrayBuffer(), { status: res.status, headers: [...res.headers] });
      },
    }),
  );
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name), ['search_docs', 'get_context', 'read_page', 'read_section']);
  const found = await client.callTool({ name: 'search_docs', arguments: { query: 'refresh tokens', k: 2 } });
  assert.match(found.content[0].text, /^1\. Refresh tokens \(docs\) \/guides\/refresh-tokens/);
  const context = await client.callTool({ name: 'get_context', arguments: { query: 'refresh tokens', tokens: 300 } });
  assert.ok(!context.isError && context.content[0].text.startsWith('### [1] Refresh tokens'), context.content[0].text);
  const page = await client.callTool({ name: 'read_page', arguments: { url: '/guides/refresh-tokens', tokens: 2000 } });
  assert.ok(!page.isError && page.content[0].text.startsWith('### [1] Refresh tokens\n/guides/refresh-tokens\n'), page.content[0].text);
  assert.match(page.content[0].text, /30 days/);
});
