// Headless Chromium behind a byte-counting static server on 127.0.0.1: what a reader's browser
// fetches, for every engine the same way. Text files (HTML, JS, JSON, wasm) are served gzip -9 as a
// static host would; files compressed already (Pagefind's pf_* files, aidocs shards) as they are.
//
// Each engine's site root holds `engine.js`, an ES module whose `open()` resolves to
// `{ search(text, vector?) → ids }`: the peers' adapters bundled with their library by esbuild (what a
// site ships), aidocs' and Pagefind's loaders importing their own runtime files as deployed.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';

const requireFromPlugin = createRequire(new URL('../../site-plugin/package.json', import.meta.url));
const { chromium } = requireFromPlugin('playwright-core');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.css': 'text/css', '.wasm': 'application/wasm' };

/** Serves `root`; `counter.bytes` / `counter.requests` grow with every response body sent. */
export async function serve(root) {
  const counter = { bytes: 0, requests: 0 };
  const gz = new Map();
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    const type = TYPES[extname(file)];
    let body;
    try {
      if (type) {
        if (!gz.has(file)) gz.set(file, gzipSync(await readFile(file), { level: 9 }));
        body = gz.get(file);
      } else body = await readFile(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    // Cross-origin isolated, so the page's clock has microsecond resolution (else Chromium rounds
    // performance.now() to 100 µs, coarser than a warm query).
    const headers = {
      'content-type': type ?? 'application/octet-stream',
      'cache-control': 'no-store',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    };
    if (type) headers['content-encoding'] = 'gzip';
    counter.bytes += body.length;
    counter.requests += 1;
    res.writeHead(200, headers).end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${server.address().port}`, counter, close: () => new Promise((r) => server.close(r)) };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--js-flags=--max-old-space-size=8192'],
  });
}

const since = (c, before) => ({ bytes: c.bytes - before.bytes, requests: c.requests - before.requests });

async function openEngine(page, srv, arg) {
  await page.goto(`${srv.base}/`);
  const before = { ...srv.counter };
  const t0 = Date.now();
  await page.evaluate(async (a) => {
    const m = await import('/engine.js');
    window.engine = await m.open(a);
  }, arg);
  return { ...since(srv.counter, before), ms: Date.now() - t0 };
}

/**
 * Measures one engine on its site root:
 * - `pageLoad`: the engine's code and start-up (`open()`), in a fresh page;
 * - `firstQuery`: what the first query then fetches;
 * - `runs`: every query of `variants` ({name: [[id, text, vector?]]}), in page order, as ranked ids;
 * - `warm`: p50/p95 ms of the first `latencyQueries` clean queries, each timed on its second run
 *   right after its first (its files fetched and cached);
 * - `typed`: per typed query, the bytes and requests of each keystroke (a fresh page each; the
 *   engine's `search(text, vector, typing)` hears `typing` on every keystroke but the last);
 * - `slow`: time to first results on a slow phone network (`slowFirstResults`).
 */
export async function measure(browser, root, { variants, typed, arg, latencyQueries = 100, slowQueries = 20 }) {
  const srv = await serve(root);
  try {
    const page = await browser.newPage();
    const pageLoad = await openEngine(page, srv, arg);
    const search = (q, v) => page.evaluate(async ([q, v]) => window.engine.search(q, v), [q, v ?? null]);
    const clean = variants.clean;
    let before = { ...srv.counter };
    const first = await search(clean[0][1], clean[0][2]);
    const firstQuery = since(srv.counter, before);
    const runs = {};
    for (const [name, qs] of Object.entries(variants)) {
      const m = new Map();
      for (const [id, text, vec] of qs) m.set(id, id === clean[0][0] && name === 'clean' ? first : await search(text, vec));
      runs[name] = m;
    }
    const timed = clean.slice(0, latencyQueries);
    const lat = await page.evaluate(async (qs) => {
      const out = [];
      for (const [, q, v] of qs) {
        // Each query's second run, right after its first: its files fetched and still cached (aidocs
        // bounds its shard cache, 8 MB by default, so queries run long before may need refetching).
        await window.engine.search(q, v ?? null);
        const t = performance.now();
        await window.engine.search(q, v ?? null);
        out.push(performance.now() - t);
      }
      return out;
    }, timed);
    lat.sort((a, b) => a - b);
    const pct = (p) => lat[Math.min(lat.length - 1, Math.round((lat.length - 1) * p))];
    await page.close();
    const typing = [];
    for (const text of typed) {
      const p = await browser.newPage();
      const load = await openEngine(p, srv, arg);
      const keys = [];
      for (let i = 1; i <= text.length; i++) {
        before = { ...srv.counter };
        const t = Date.now();
        // `typing`: every keystroke but the last (an engine's search box may rank those cheaper).
        await p.evaluate(async ([q, typing]) => window.engine.search(q, null, typing), [text.slice(0, i), i < text.length]);
        keys.push({ ...since(srv.counter, before), ms: Date.now() - t });
      }
      await p.close();
      typing.push({
        text,
        pageLoad: load,
        bytes: keys.reduce((a, k) => a + k.bytes, 0),
        requests: keys.reduce((a, k) => a + k.requests, 0),
        maxKeyBytes: Math.max(...keys.map((k) => k.bytes)),
        keys,
      });
    }
    // Its own failure (a peer too slow for the throttled network) does not cost the row the rest.
    const slow = slowQueries > 0 ? await slowFirstResults(browser, srv, arg, clean.slice(0, slowQueries)).catch((e) => ({ failed: String(e?.message ?? e).slice(0, 200) })) : undefined;
    return { pageLoad, firstQuery, runs, warm: { queries: lat.length, p50: pct(0.5), p95: pct(0.95) }, typed: typing, slow };
  } finally {
    await srv.close();
  }
}

/**
 * The figures of Lighthouse's mobile network profile (Chromium's "Slow 4G"): 150 ms round trip,
 * 1.6 Mbps down, 750 kbps up, applied per page as DevTools network emulation (request latency
 * 150 ms; Lighthouse's own applied throttling adds ×3.75 latency and a 4× CPU slowdown, which this
 * does not). The bench server speaks HTTP/1.1: Chromium opens at most 6 connections to it, so a
 * round of more requests queues, which the time shows and the round count does not.
 */
export const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) * 0.9, uploadThroughput: (750e3 / 8) * 0.9 };

/**
 * Time to first results as a reader on a slow phone network feels it: for each of `queries`, a fresh
 * browser context (nothing cached), the page loaded, then from the moment the reader searches (the
 * engine not yet loaded) until the first query's results are in: the engine's code, its start-up and
 * the query's files, all throttled to `SLOW_4G`. Also the sequential round trips on that critical
 * path: a request's round is one more than the latest round among the requests that had finished
 * before it was sent (requests in flight together share a round). Medians over the queries.
 */
export async function slowFirstResults(browser, srv, arg, queries) {
  const times = [];
  const rounds = [];
  const requests = [];
  for (const [, text, vec] of queries) {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
      const sent = new Map();
      const done = new Map();
      cdp.on('Network.requestWillBeSent', (e) => {
        if (!e.request.url.endsWith('/favicon.ico')) sent.set(e.requestId, e.timestamp);
      });
      const end = (e) => done.set(e.requestId, e.timestamp);
      cdp.on('Network.loadingFinished', end);
      cdp.on('Network.loadingFailed', end);
      await page.goto(`${srv.base}/`);
      // A bound, so that one engine too heavy for the network cannot stall the whole run.
      page.setDefaultTimeout(600_000);
      const ms = await page.evaluate(async ([q, v, a]) => {
        const t = performance.now();
        const m = await import('/engine.js');
        const engine = await m.open(a);
        await engine.search(q, v);
        return performance.now() - t;
      }, [text, vec ?? null, arg]);
      // Network timestamps are monotonic seconds; keep the requests sent after the page (the first
      // request to finish) had loaded.
      const all = [...sent].map(([id, t]) => ({ t, end: done.get(id) ?? Infinity })).sort((a, b) => a.t - b.t);
      const pageDone = all.length ? Math.min(...all.map((r) => r.end)) : 0;
      const after = all.filter((r) => r.t > pageDone);
      for (const r of after) {
        r.round = 1 + Math.max(0, ...after.filter((x) => x.end <= r.t).map((x) => x.round));
      }
      times.push(ms);
      rounds.push(Math.max(0, ...after.map((r) => r.round)));
      requests.push(after.length);
    } finally {
      await context.close();
    }
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.floor((s.length - 1) / 2)] : 0;
  };
  return { queries: times.length, p50ms: median(times), rounds: median(rounds), requests: median(requests) };
}
