// Headless Chromium behind a byte-counting static server on 127.0.0.1: what a reader's browser fetches.
// Text files (HTML, JS, JSON, CSS, wasm) are served gzip-compressed as a static host would; files that
// are compressed already (Pagefind's pf_* files, aidocs shards) as they are.
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
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    let body;
    try {
      body = await readFile(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    const type = TYPES[extname(file)];
    const headers = { 'content-type': type ?? 'application/octet-stream', 'cache-control': 'no-store' };
    if (type) {
      body = gzipSync(body, { level: 9 });
      headers['content-encoding'] = 'gzip';
    }
    counter.bytes += body.length;
    counter.requests += 1;
    res.writeHead(200, headers).end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${server.address().port}`, counter, close: () => server.close() };
}

export async function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

/**
 * Runs `queries` ([id, text]) through Pagefind in one page, as its UI would: search, then load the top
 * 10 results' data. Resolves to { runs: Map(id → ids), firstQuery: {bytes, requests}, pageLoad, latencies }.
 */
export async function pagefindRuns(browser, siteDir, queries) {
  const srv = await serve(siteDir);
  try {
    const page = await browser.newPage();
    await page.goto(`${srv.base}/`);
    const pageLoad = { ...srv.counter };
    const runs = new Map();
    const latencies = [];
    let firstQuery = null;
    await page.evaluate(async () => {
      window.pf = await import('/pagefind/pagefind.js');
      await window.pf.init();
    });
    for (const [id, text] of queries) {
      const t0 = performance.now();
      const urls = await page.evaluate(async (q) => {
        const r = await window.pf.search(q);
        const top = await Promise.all(r.results.slice(0, 10).map((x) => x.data()));
        return top.map((d) => d.url);
      }, text);
      latencies.push(performance.now() - t0);
      if (!firstQuery) firstQuery = { bytes: srv.counter.bytes - pageLoad.bytes, requests: srv.counter.requests - pageLoad.requests };
      runs.set(id, urls.map((u) => u.replace(/^\/d\//, '').replace(/\/$/, '')));
    }
    await page.close();
    return { runs, firstQuery, pageLoad, latencies };
  } finally {
    srv.close();
  }
}
