#!/usr/bin/env node
// Query-side figures of the wasm engine, in Node and in headless Chromium, over built indexes.
// Prints figures; asserts nothing. Run through scripts/bench-wasm.sh, which builds the indexes.
//   node scripts/bench-wasm.mjs NAME=INDEX_DIR:QUERIES.jsonl:TYPED_QUERY ...
// For each index: warm-query latency p50/p95 over the queries (every query run once to warm the cache,
// then timed), bytes and requests of a cold first query, and per keystroke of a typed query (each
// prefix searched as a search box would, with prefix search on), counted by a static server on
// 127.0.0.1.
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve, dirname, extname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const plugin = join(repo, 'site-plugin');
const { openIndex } = await import(join(plugin, 'src', 'search.js'));

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.round((s.length - 1) * p))];
};
const gz = (f) => gzipSync(readFileSync(f), { level: 9 }).length;
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;

// MODE=hybrid|vector|lexical: the ranking mode of every query (hybrid and vector use the index's static
// query encoder; an index built without vectors ranks lexically).
const MODE = process.env.MODE ?? 'lexical';
// The warm pass opens its index with this shard cache (WARM_CACHE_MB, default 64): the engine's default
// 8 MB holds a few dozen hybrid queries' shards on a 10,000-page site, not 300, and a pass that refetches
// measures the network, not the engine. Refetches during the timed pass are printed either way.
const WARM_CACHE = Number(process.env.WARM_CACHE_MB ?? 64) << 20;
const corpora = process.argv.slice(2).map((a) => {
  const [name, rest] = a.split('=');
  const [dir, queries, typed] = rest.split(':');
  const qs = readFileSync(queries, 'utf8').trim().split('\n').map((l) => JSON.parse(l).text);
  return { name, dir: resolve(dir), queries: qs, typed };
});

// --- sizes a page pays -------------------------------------------------------------------------------
const wasmFile = join(plugin, 'wasm', 'aidocs_search_bg.wasm');
const glue = join(plugin, 'wasm', 'aidocs_search.js');
const wrapper = join(plugin, 'src', 'search.js');
console.log(`wasm module: ${kb(readFileSync(wasmFile).length)} (${kb(gz(wasmFile))} gzipped, after wasm-opt -Oz)`);
console.log(`JS: wasm-bindgen glue ${kb(gz(glue))} gzipped, search.js ${kb(gz(wrapper))} gzipped`);

// --- Node ----------------------------------------------------------------------------------------------
async function nodeRun(c) {
  let loads = 0;
  const index = await openIndex((name) => ((loads += 1), readFile(join(c.dir, name))), { cacheBytes: WARM_CACHE });
  for (const q of c.queries) await index.searchRaw(q, { mode: MODE });
  const times = [];
  const before = loads;
  for (const q of c.queries) {
    const t0 = performance.now();
    await index.searchRaw(q, { mode: MODE });
    times.push(performance.now() - t0);
  }
  return { p50: pct(times, 0.5), p95: pct(times, 0.95), n: times.length, cache: index.cache, refetches: loads - before };
}

// --- Chromium through a byte-counting server ------------------------------------------------------
const MIME = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.bin': 'application/octet-stream' };
function startServer() {
  const counter = { bytes: 0, requests: 0, files: [] };
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file;
    if (path === '/') file = null;
    else if (path.startsWith('/plugin/')) file = join(plugin, path.slice(8));
    else if (path.startsWith('/index/')) {
      const [, , name, ...rest] = path.split('/');
      const c = corpora.find((x) => x.name === name);
      file = c && join(c.dir, ...rest);
    }
    try {
      const body = file ? await readFile(file) : Buffer.from('<!doctype html><title>bench</title>');
      counter.bytes += body.length;
      counter.requests += 1;
      counter.files.push(path);
      res.writeHead(200, { 'content-type': MIME[file ? extname(file) : '.html'] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ server, counter, port: server.address().port })));
}

async function browserRun(page, counter, c) {
  // Cold: a fresh page, the module loaded, then one query; then each keystroke of a typed query.
  await page.goto(`${c.base}/`);
  const before = { ...counter };
  await page.evaluate(async () => {
    const m = await import('/plugin/src/search.js');
    await m.loadWasm();
    window.__m = m;
  });
  const moduleBytes = counter.bytes - before.bytes;
  const mark = () => ({ bytes: counter.bytes, requests: counter.requests });
  let m0 = mark();
  await page.evaluate(async (base) => {
    window.__index = await window.__m.openIndex(base);
  }, `${c.base}/index/${c.name}/`);
  const manifest = counter.bytes - m0.bytes;
  m0 = mark();
  await page.evaluate(([q, mode]) => window.__index.searchRaw(q, { mode }), [c.queries[0], MODE]);
  const first = { bytes: counter.bytes - m0.bytes, requests: counter.requests - m0.requests };
  // A new page for the typed query, so that its keystrokes start cold as well.
  await page.evaluate(async (base) => {
    window.__index.close();
    window.__index = await window.__m.openIndex(base);
  }, `${c.base}/index/${c.name}/`);
  const keys = [];
  for (let i = 1; i <= c.typed.length; i++) {
    const prefix = c.typed.slice(0, i);
    if (prefix.endsWith(' ')) continue;
    const k0 = mark();
    // As the search box searches a keystroke: the last word, unfinished, is also a prefix.
    await page.evaluate(([q, mode]) => window.__index.searchRaw(q, { mode, prefix: true }), [prefix, MODE]);
    keys.push({ prefix, bytes: counter.bytes - k0.bytes, requests: counter.requests - k0.requests });
  }
  await page.evaluate(async ([base, cacheBytes]) => {
    window.__index.close();
    window.__index = await window.__m.openIndex(base, { cacheBytes });
  }, [`${c.base}/index/${c.name}/`, WARM_CACHE]);
  await page.evaluate(async ([qs, mode]) => {
    for (const q of qs) await window.__index.searchRaw(q, { mode });
  }, [c.queries, MODE]);
  const w0 = mark();
  const times = await page.evaluate(async ([qs, mode]) => {
    const t = [];
    for (const q of qs) {
      const t0 = performance.now();
      await window.__index.searchRaw(q, { mode });
      t.push(performance.now() - t0);
    }
    return t;
  }, [c.queries, MODE]);
  return { moduleBytes, manifest, first, keys, p50: pct(times, 0.5), p95: pct(times, 0.95), refetches: counter.requests - w0.requests };
}

const { chromium } = await import(join(plugin, 'node_modules', 'playwright-core', 'index.mjs'));
const { server, counter, port } = await startServer();
const userDir = await mkdtemp(join(tmpdir(), 'aidocs-bench-'));
const browser = await chromium.launchPersistentContext(userDir, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (const c of corpora) {
    c.base = `http://127.0.0.1:${port}`;
    const n = await nodeRun(c);
    const page = await browser.newPage();
    const b = await browserRun(page, counter, c);
    await page.close();
    console.log(`\n== ${c.name} (${c.queries.length} queries, mode ${MODE})`);
    console.log(`warm query, Node:     p50 ${n.p50.toFixed(3)} ms  p95 ${n.p95.toFixed(3)} ms  (cache ${kb(n.cache.bytes)} in ${n.cache.entries} shards; ${n.refetches} refetches)`);
    console.log(`warm query, Chromium: p50 ${b.p50.toFixed(3)} ms  p95 ${b.p95.toFixed(3)} ms  (${b.refetches} refetches)`);
    console.log(`module load (wasm + JS, uncompressed as served): ${kb(b.moduleBytes)}`);
    console.log(`manifest: ${kb(b.manifest)}; first query ${JSON.stringify(c.queries[0].slice(0, 50))}: ${kb(b.first.bytes)} in ${b.first.requests} requests`);
    console.log(`typed query ${JSON.stringify(c.typed)}, from a cold index (bytes / requests per keystroke):`);
    console.log(b.keys.map((k) => `  ${JSON.stringify(k.prefix).padEnd(c.typed.length + 4)} ${kb(k.bytes).padStart(9)}  ${k.requests}`).join('\n'));
    const total = b.keys.reduce((a, k) => a + k.bytes, 0);
    console.log(`  all keystrokes: ${kb(total)} in ${b.keys.reduce((a, k) => a + k.requests, 0)} requests`);
  }
} finally {
  await browser.close();
  server.close();
  await rm(userDir, { recursive: true, force: true });
}
