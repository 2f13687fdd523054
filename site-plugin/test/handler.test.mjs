// node --test: the Fetch handler behind a real Node server on 127.0.0.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, Agent } from 'node:http';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSearchHandler, toNodeListener } from '../src/handler.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'wasm-search', 'tests', 'fixture');

async function serve(t, options) {
  const server = createServer(toNodeListener(createSearchHandler(options)));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${server.address().port}`;
}

const fsLoader = (name) => readFile(join(FIXTURE, name)).then((b) => new Uint8Array(b));

test('GET /search answers with the results JSON, cache and CORS headers', async (t) => {
  const base = await serve(t, { loadShard: fsLoader, cors: true, cacheControl: 'public, max-age=30' });
  const res = await fetch(`${base}/search?q=refresh+tokens&k=3&kind=docs`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), 'public, max-age=30');
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.match(res.headers.get('content-type'), /^application\/json/);
  const body = await res.json();
  assert.equal(body.query, 'refresh tokens');
  assert.equal(body.results.length, 3);
  assert.equal(body.results[0].id, 'guides/refresh-tokens');
  assert.ok(body.results.every((r) => r.kind === 'docs'));
  const api = await (await fetch(`${base}/search?q=getUserById&kind=api`)).json();
  assert.deepEqual(api.results[0].api, { method: 'GET', path: '/v1/users/{id}', operationId: 'getUserById' });
  assert.equal((await fetch(`${base}/search?q=x`, { method: 'OPTIONS' })).status, 204);
  // Issue 6: a misspelled query is corrected and says so; typos=0 turns that off; lang is accepted.
  const typo = await (await fetch(`${base}/search?q=refesh+tokens&k=3&lang=en-US`)).json();
  assert.deepEqual(typo.corrections, [{ from: 'refesh', to: 'refresh' }]);
  assert.equal(typo.results[0].id, 'guides/refresh-tokens');
  const strict = await (await fetch(`${base}/search?q=refesh+tokens&k=3&typos=0`)).json();
  assert.deepEqual(strict.corrections, []);
  assert.equal(strict.facets, undefined);
  // Issue 6: facets=1 adds the matches' counts by kind, tag, group and language; a French reader
  // is answered (the handler loads the module with every stemmer).
  const faceted = await (await fetch(`${base}/search?q=user&k=2&facets=1&lang=fr&version=v2`)).json();
  assert.equal(faceted.results.length, 2);
  assert.deepEqual(faceted.facets.version, [], 'an unversioned site counts no version');
  assert.deepEqual(faceted.facets.kind, [['docs', 4], ['api', 3]]);
  assert.ok(faceted.facets.tag.some(([t, n]) => t === 'Users' && n === 3), JSON.stringify(faceted.facets));
});

test('bad requests get a 400 with a JSON error body', async (t) => {
  const base = await serve(t, { loadShard: fsLoader });
  const cases = [
    ['/search', 400, 'missing_query'],
    ['/search?q=', 400, 'missing_query'],
    ['/search?q=%20%20', 400, 'missing_query'],
    [`/search?q=${'a'.repeat(513)}`, 400, 'query_too_long'],
    ['/search?q=x&k=0', 400, 'bad_k'],
    ['/search?q=x&k=51', 400, 'bad_k'],
    ['/search?q=x&k=abc', 400, 'bad_k'],
    ['/search?q=x&k=1e2', 400, 'bad_k'],
    ['/search?q=x&kind=blog', 400, 'bad_kind'],
    ['/search?q=x&mode=semantic', 400, 'bad_mode'],
    ['/search?q=x&typos=yes', 400, 'bad_typos'],
    ['/search?q=x&facets=true', 400, 'bad_facets'],
    ['/search?q=x&lang=%3Cscript%3E', 400, 'bad_lang'],
    [`/search?q=x&version=${'v'.repeat(65)}`, 400, 'bad_version'],
    ['/nope?q=x', 404, 'not_found'],
  ];
  for (const [path, status, code] of cases) {
    const res = await fetch(base + path);
    assert.equal(res.status, status, path);
    const body = await res.json();
    assert.equal(body.error.code, code, path);
    assert.ok(body.error.message.length > 10, path);
  }
  const post = await fetch(`${base}/search?q=x`, { method: 'POST', body: 'x' });
  assert.equal(post.status, 405);
  assert.equal((await post.json()).error.code, 'method_not_allowed');
  // 512 characters (not bytes) is still fine.
  assert.equal((await fetch(`${base}/search?q=${encodeURIComponent('é'.repeat(512))}`)).status, 200);
});

test('issue 6: on a site built as one index per language, each lang is answered from its partition', async (t) => {
  const LANGUAGES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'compat', 'v8-languages');
  const fetched = [];
  const base = await serve(t, {
    loadShard: (name) => {
      fetched.push(name);
      return readFile(join(LANGUAGES, name)).then((b) => new Uint8Array(b));
    },
  });
  for (const [lang, q, url] of [
    ['fr', 'domaines personnalisés', '/fr/custom-domain'],
    ['fr-CA', 'renouveler les clés', '/fr/api-keys'],
    ['zh', '自定义域名', '/zh/custom-domain'],
    ['', 'custom domain', '/custom-domain'],
    ['de', 'rotate keys', '/api-keys'],
  ]) {
    const res = await fetch(`${base}/search?q=${encodeURIComponent(q)}&k=3${lang ? `&lang=${lang}` : ''}`);
    assert.equal(res.status, 200, lang);
    const body = await res.json();
    assert.equal(body.results[0].url, url, `${lang}: ${JSON.stringify(body.results.map((r) => r.url))}`);
  }
  // Three partitions; a partition manifest is fetched once per distinct lang (then shared), and a
  // repeated lang fetches nothing more.
  const manifests = fetched.filter((n) => n.startsWith('l/'));
  assert.equal(new Set(manifests).size, 3);
  assert.equal(manifests.length, 5, manifests.join());
  const before = fetched.length;
  await fetch(`${base}/search?q=${encodeURIComponent('domaines personnalisés')}&lang=fr`);
  assert.equal(fetched.length, before);
});

test('an index failure is a 503 with a clear body, and the handler recovers', async (t) => {
  let broken = true;
  const base = await serve(t, {
    loadShard: async (name) => {
      if (broken) throw new Error('KV namespace unreachable');
      return fsLoader(name);
    },
  });
  const res = await fetch(`${base}/search?q=tokens`);
  assert.equal(res.status, 503);
  assert.equal(res.headers.get('retry-after'), '5');
  const body = await res.json();
  assert.equal(body.error.code, 'fetch_failed');
  assert.match(body.error.message, /manifest\.bin: KV namespace unreachable/);
  broken = false;
  assert.equal((await fetch(`${base}/search?q=tokens`)).status, 200);
  // A corrupted shard is a 503 too, never a crash, and the next clean request works.
  const damaged = await serve(t, {
    loadShard: async (name) => (name.startsWith('t/') ? new Uint8Array([65, 73, 68, 88, 1]) : fsLoader(name)),
  });
  const bad = await fetch(`${damaged}/search?q=tokens`);
  assert.equal(bad.status, 503);
  assert.equal((await bad.json()).error.code, 'length_mismatch');
});

test('10,000 requests at concurrency 32 end with zero errors', async (t) => {
  const base = await serve(t, { loadShard: fsLoader });
  const queries = ['refresh tokens', 'getUserById', 'POST /v1/users', 'x-request-id', 'install the sdk', 'authentication', 'users', 'zzz nothing'];
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  t.after(() => agent.destroy());
  const get = (path) =>
    new Promise((resolve, reject) => {
      const req = httpRequest(base + path, { agent }, (res) => {
        let n = 0;
        res.on('data', (c) => (n += c.length));
        res.on('end', () => resolve({ status: res.statusCode, bytes: n }));
      });
      req.on('error', reject);
      req.end();
    });
  const total = 10_000;
  let next = 0;
  let errors = 0;
  const latencies = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < total) {
        const i = next++;
        const s = performance.now();
        const r = await get(`/search?q=${encodeURIComponent(queries[i % queries.length])}&k=10`).catch(() => ({ status: 0 }));
        latencies.push(performance.now() - s);
        if (r.status !== 200) errors++;
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.round((latencies.length - 1) * q)].toFixed(2);
  t.diagnostic(`handler load: ${total} requests, concurrency 32: ${(total / secs).toFixed(0)} req/s, p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, errors ${errors}`);
  assert.equal(errors, 0);
});

// Issue 4: a server that can hold the model answers mode=hybrid with the full encoder.
const V3 = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'compat', 'v3');
const MODEL_DIR = process.env.AIDOCS_MODEL_DIR ?? join(process.env.HOME ?? '', '.cache', 'aidocs', 'models', 'all-MiniLM-L6-v2');
let encoderMissing = false;
try {
  await readFile(join(dirname(fileURLToPath(import.meta.url)), '..', 'wasm-encoder', 'aidocs_encoder_bg.wasm'));
  await readFile(join(MODEL_DIR, 'config.json'));
} catch {
  encoderMissing = !process.env.AIDOCS_REQUIRE_MODEL && 'the encoder module or the model is missing';
}

test('issue 4: the handler ranks mode=hybrid with a full encoder', { skip: encoderMissing }, async (t) => {
  const { loadFullEncoder } = await import('../src/full-encoder.js');
  const encoder = await loadFullEncoder({ modelDir: MODEL_DIR });
  let embedded = 0;
  const counting = { modelName: encoder.modelName, embed: (q) => (embedded++, encoder.embed(q)) };
  const loadShard = (name) => readFile(join(V3, name)).then((b) => new Uint8Array(b));
  const base = await serve(t, { loadShard, encoder: counting });
  const body = await (await fetch(`${base}/search?q=renew+my+credentials&mode=hybrid`)).json();
  assert.equal(body.results[0].id, 'guides/refresh-tokens');
  assert.equal(embedded, 1);
  await (await fetch(`${base}/search?q=renew+my+credentials`)).json();
  assert.equal(embedded, 1, 'lexical requests never run the model');
});
