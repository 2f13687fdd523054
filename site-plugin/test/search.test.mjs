// node --test: the JS wrapper over the wasm engine (built by `npm run build`), on the checked-in fixture
// index of the example site (wasm-search/tests/fixture) and the v1 compatibility index (another build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, crc32, gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { openIndex, AidocsSearchError, needsStemmer } from '../src/search.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURE = join(repo, 'wasm-search', 'tests', 'fixture');
const OTHER_BUILD = join(repo, 'tests', 'compat', 'v1');
const EXPECTED = readFileSync(join(FIXTURE, 'expected.jsonl'), 'utf8').trim().split('\n');
// (id, text, kinds) as in wasm-search/tests/fixture/mod.rs
const QUERIES = [...readFileSync(join(FIXTURE, 'mod.rs'), 'utf8').matchAll(/\("(w\d+)", "((?:[^"\\]|\\.)*)", "([^"]*)"\)/g)].map(
  (m) => [m[1], JSON.parse(`"${m[2]}"`), m[3]],
);

/** A loader over a directory that counts requests per file and can be redirected or damaged. */
function dirLoader(dir) {
  const l = {
    dir,
    calls: new Map(),
    override: new Map(),
    delay: 0,
    async load(name) {
      l.calls.set(name, (l.calls.get(name) ?? 0) + 1);
      if (l.delay) await new Promise((r) => setTimeout(r, l.delay));
      if (l.override.has(name)) return l.override.get(name);
      return new Uint8Array(await readFile(join(l.dir, name)));
    },
  };
  l.fn = (name) => l.load(name);
  return l;
}

const line = (id, raw) => `{"query_id":"${id}","results":${raw}}`;

test('fixture queries give the native CLI results, through DecompressionStream and through wasm inflate', async () => {
  assert.ok(QUERIES.length >= 10);
  // This process loads the lean module (DecompressionStream inflates)...
  const index = await openIndex(dirLoader(FIXTURE).fn);
  for (const [i, [id, text, kinds]] of QUERIES.entries()) {
    assert.equal(line(id, await index.searchRaw(text, { kind: kinds || undefined, typos: false })), EXPECTED[i], `auto ${id}`);
  }
  index.close();
  // ...so an index that asks for wasm inflate gets a typed error, never a silent JS inflate.
  await assert.rejects(openIndex(dirLoader(FIXTURE).fn, { inflate: 'wasm' }), (e) => e.code === 'bad_option' && /first openIndex/.test(e.message));
  // A fresh process with inflate: 'wasm' loads the module that carries the inflater.
  const script = `
    import { openIndex, AidocsSearchError } from ${JSON.stringify(new URL('../src/search.js', import.meta.url).href)};
    import { readFile } from 'node:fs/promises';
    const index = await openIndex(async (n) => new Uint8Array(await readFile(${JSON.stringify(FIXTURE)} + '/' + n)), { inflate: 'wasm' });
    const out = [];
    for (const [id, text, kinds] of ${JSON.stringify(QUERIES)}) out.push('{"query_id":"' + id + '","results":' + (await index.searchRaw(text, { kind: kinds || undefined, typos: false })) + '}');
    process.stdout.write(out.join('\\n'));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.split('\n'), EXPECTED);
});

test('the module readers load leaves the inflater and the stemmers out; the full one carries them', async () => {
  const wasm = join(repo, 'site-plugin', 'wasm');
  const lean = gzipSync(readFileSync(join(wasm, 'aidocs_search_bg.wasm')), { level: 9 }).length;
  const full = gzipSync(readFileSync(join(wasm, 'aidocs_search_full_bg.wasm')), { level: 9 }).length;
  assert.ok(full - lean > 50000, `lean ${lean} B, full ${full} B gzipped`);
});

test('issue 21: the lean module refuses explanations (no_explain); openIndex with explain loads the full one, which explains', async () => {
  // This process loads the lean module (the first openIndex of this file decides).
  const index = await openIndex(dirLoader(FIXTURE).fn);
  await assert.rejects(index.search('refresh tokens', { explain: true }), (e) => e instanceof AidocsSearchError && e.code === 'no_explain' && /openIndex's `explain` option/.test(e.message));
  assert.equal((await index.search('refresh tokens', { k: 1 }))[0].id, 'guides/refresh-tokens', 'the index stays usable');
  index.close();
  const script = `
    import { openIndex } from ${JSON.stringify(new URL('../src/search.js', import.meta.url).href)};
    import { readFile } from 'node:fs/promises';
    const index = await openIndex(async (n) => new Uint8Array(await readFile(${JSON.stringify(FIXTURE)} + '/' + n)), { explain: true });
    const [top] = await index.search('refresh tokens', { k: 1, explain: true });
    process.stdout.write(JSON.stringify(top.explain));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const explain = JSON.parse(r.stdout);
  assert.ok(explain.bm25 > 0 && explain.terms.some((t) => t.term === 'refresh'), r.stdout);
});

test('issue 21: every error code the engine or the wrapper can give is typed and documented', () => {
  const read = (p) => readFileSync(join(repo, p), 'utf8');
  const codes = new Set();
  // The engine's codes (`EngineError::code`, `ShardError::code`), then the wrappers' own.
  for (const [file, from, to] of [['wasm-search/src/engine.rs', 'fn code', 'fn file'], ['core/src/error.rs', 'fn code', '/// A payload that breaks']]) {
    const src = read(file);
    const body = src.slice(src.indexOf(from), src.indexOf(to));
    assert.ok(body.length > 100, file);
    for (const m of body.matchAll(/=> "([a-z_]+)"/g)) codes.add(m[1]);
  }
  for (const file of ['site-plugin/src/search.js', 'site-plugin/src/full-encoder.js']) {
    for (const m of read(file).matchAll(/AidocsSearchError\(\s*'([a-z_]+)'/g)) codes.add(m[1]);
  }
  assert.ok(codes.has('no_explain') && codes.has('checksum_mismatch') && codes.has('wasm_trap'), [...codes].join());
  const dts = read('site-plugin/src/search.d.ts');
  const union = dts.slice(dts.indexOf('export type AidocsErrorCode'), dts.indexOf('export class AidocsSearchError'));
  const readme = read('README.md');
  const table = readme.slice(readme.indexOf('### Errors in the browser'), readme.indexOf('### Visibility'));
  for (const code of codes) {
    assert.ok(union.includes(`'${code}'`), `${code} is missing from search.d.ts's AidocsErrorCode`);
    assert.ok(table.includes(`\`${code}\``), `${code} is missing from the README's error table`);
  }
});

test('issue 6: needsStemmer names exactly the languages core stems with a stemmer other than English', () => {
  // The table in core/src/analyzer.rs (`language_stemming`): `"fr" => ("french", …)` arms.
  const src = readFileSync(join(repo, 'core', 'src', 'analyzer.rs'), 'utf8');
  const body = src.slice(src.indexOf('fn language_stemming'), src.indexOf('fn snowball'));
  const stemmed = [...body.matchAll(/^\s*((?:"[a-z]+"(?:\s*\|\s*)?)+)\s*=>\s*\("/gm)].flatMap((m) => [...m[1].matchAll(/"([a-z]+)"/g)].map((x) => x[1]));
  assert.ok(stemmed.length > 20, stemmed.join());
  for (const tag of stemmed) assert.equal(needsStemmer(tag), true, tag);
  for (const tag of ['en', 'zh', 'cn', 'ja', 'jp', 'ko', 'kr']) {
    assert.ok(body.includes(`"${tag}"`), tag);
    assert.equal(needsStemmer(tag), false, tag);
  }
});

test('issue 6: a reader whose language needs a stemmer other than English gets the full module', () => {
  for (const l of ['fr', 'fr-CA', 'es', 'pt_BR', 'DE', 'ru']) assert.equal(needsStemmer(l), true, l);
  for (const l of [undefined, '', 'en', 'en-GB', 'zh', 'zh-Hans', 'cn', 'ja', 'jp', 'ko', 'vi']) {
    assert.equal(needsStemmer(l), false, String(l));
  }
});

test('loads the manifest, then only the shards a query needs', async () => {
  const l = dirLoader(FIXTURE);
  const index = await openIndex(l.fn);
  assert.deepEqual([...l.calls.keys()], ['manifest.bin']);
  const results = await index.search('refresh tokens', { k: 3 });
  assert.equal(results[0].id, 'guides/refresh-tokens');
  assert.equal(results[0].sections[0].url.startsWith('/guides/refresh-tokens'), true);
  const files = readFileSync(join(FIXTURE, 'mod.rs'), 'utf8').match(/include_bytes!\("[tm]\//g).length;
  assert.ok(index.stats.requests > 1 && index.stats.requests < files + 1, `${index.stats.requests} requests`);
  const before = index.stats.requests;
  await index.search('refresh tokens', { k: 3 });
  assert.equal(index.stats.requests, before, 'a repeated query is served from the cache');
  await index.search('zzzqqqxx', { typos: false });
  assert.equal(index.stats.requests, before, 'absent words cost no fetch (filters)');
  // With typo tolerance (the default) an absent word reads the typo directory and shards instead.
  const fixed = await index.search('refesh tokens', { k: 3 });
  assert.deepEqual(fixed.corrections, [{ from: 'refesh', to: 'refresh' }]);
  assert.equal(fixed.correctedQuery, 'refresh tokens');
  assert.equal(fixed[0].id, 'guides/refresh-tokens');
  assert.ok([...l.calls.keys()].some((n) => n.startsWith('y/')), [...l.calls.keys()].join());
  assert.deepEqual((await index.search('refresh tokens')).corrections, []);
});

test('a quoted phrase no page has ranks its words unquoted and says so', async () => {
  const index = await openIndex(dirLoader(FIXTURE).fn);
  const relaxed = await index.search('"sdk refresh"', { k: 3 });
  assert.ok(relaxed.length > 0);
  assert.deepEqual(relaxed.corrections, [{ from: '"', to: '' }]);
  assert.equal(relaxed.correctedQuery, 'sdk refresh');
  assert.deepEqual(relaxed.map((r) => r.id), (await index.search('sdk refresh', { k: 3 })).map((r) => r.id));
  const kept = await index.search('"refresh token"', { k: 3 });
  assert.ok(kept.length > 0);
  assert.deepEqual(kept.corrections, []);
});

test('concurrent requests for the same shard are coalesced', async () => {
  const l = dirLoader(FIXTURE);
  const index = await openIndex(l.fn);
  l.delay = 20;
  const all = await Promise.all(Array.from({ length: 8 }, () => index.searchRaw('authentication token header')));
  assert.equal(new Set(all).size, 1);
  for (const [name, n] of l.calls) assert.equal(n, 1, `${name} fetched ${n} times`);
});

test('a URL source fetches over HTTP', async (t) => {
  const server = createServer(async (req, res) => {
    try {
      const body = await readFile(join(FIXTURE, decodeURIComponent(new URL(req.url, 'http://x').pathname.replace(/^\/idx\//, ''))));
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const index = await openIndex(`http://127.0.0.1:${server.address().port}/idx`);
  const [first] = await index.search('getUserById');
  assert.equal(first.id, 'api/getUserById');
  assert.equal(first.api.method, 'GET');
  assert.ok(index.stats.bytes > 0);
  const missing = await openIndex(`http://127.0.0.1:${server.address().port}/nope/`).catch((e) => e);
  assert.ok(missing instanceof AidocsSearchError);
  assert.equal(missing.code, 'not_found');
  assert.equal(missing.file, 'manifest.bin');
});

test('a new build deployed mid-session is detected and reloaded, not mixed', async () => {
  const l = dirLoader(OTHER_BUILD);
  const reloads = [];
  const index = await openIndex(l.fn, { onReload: (id) => reloads.push(id) });
  const oldBuild = index.buildId;
  await index.search('refresh tokens');
  index.clearCache();
  l.dir = FIXTURE; // the deploy: old shard files are gone, manifest.bin is the new build's
  const i = QUERIES.findIndex(([id]) => id === 'w6');
  assert.equal(line('w6', await index.searchRaw(QUERIES[i][1])), EXPECTED[i]);
  assert.notEqual(index.buildId, oldBuild);
  assert.deepEqual(reloads, [index.buildId]);
  assert.equal(index.stats.reloads, 1);
});

const LANGUAGES = join(repo, 'tests', 'compat', 'v8-languages');

test('issue 6: on a site built as one index per language, openIndex opens the reader\'s partition only', async () => {
  // This process has the lean module: English and Chinese need no other stemmer.
  for (const [language, query, url, partition] of [
    ['zh-CN', '自定义域名', '/zh/custom-domain', 'zh'],
    ['en', 'custom domain', '/custom-domain', 'en'],
    [undefined, 'custom domain', '/custom-domain', 'en'],
    ['de', 'domain', '/custom-domain', 'en'],
  ]) {
    const l = dirLoader(LANGUAGES);
    const index = await openIndex(l.fn, { language });
    assert.match(index.manifestFile, /^l\/[0-9a-f]{12}\.bin$/);
    assert.deepEqual([...l.calls.keys()], ['manifest.bin', index.manifestFile]);
    assert.equal(index.stats.requests, 2);
    assert.deepEqual(index.summary.languages, [partition]);
    const results = await index.search(query, { language });
    assert.equal(results[0].url, url, `${language}: ${results.map((r) => r.url)}`);
    assert.equal([...l.calls.keys()].filter((n) => n.startsWith('l/')).length, 1, 'one partition manifest');
    index.close();
  }
  // A damaged table is a typed error naming manifest.bin.
  const l = dirLoader(LANGUAGES);
  const table = new Uint8Array(readFileSync(join(LANGUAGES, 'manifest.bin')));
  table[table.length - 1] ^= 0xff;
  l.override.set('manifest.bin', table);
  const err = await openIndex(l.fn, { language: 'zh' }).catch((e) => e);
  assert.ok(err instanceof AidocsSearchError, String(err));
  assert.equal(err.file, 'manifest.bin');
  assert.equal(err.code, 'checksum_mismatch');
});

test('issue 6: a deploy that turns one index into one per language reloads the reader\'s partition', async () => {
  const l = dirLoader(join(repo, 'tests', 'compat', 'v8'));
  const index = await openIndex(l.fn, { language: 'zh' });
  assert.equal(index.manifestFile, 'manifest.bin');
  await index.search('refresh tokens');
  index.clearCache();
  l.dir = LANGUAGES; // the deploy: the old build's term shards are gone
  await index.search('refresh tokens', { language: 'zh' });
  assert.equal(index.stats.reloads, 1);
  const results = await index.search('自定义域名', { language: 'zh' });
  assert.match(index.manifestFile, /^l\//);
  assert.deepEqual(index.summary.languages, ['zh']);
  assert.equal(results[0].url, '/zh/custom-domain');
});

test('bad files are typed errors naming the file, and the index stays usable', async () => {
  const l = dirLoader(FIXTURE);
  const index = await openIndex(l.fn);
  const good = await index.searchRaw('refresh tokens');
  index.clearCache();
  const names = [...readFileSync(join(FIXTURE, 'mod.rs'), 'utf8').matchAll(/\("([tm]\/[0-9a-f]+\.bin)"/g)].map((m) => m[1]);
  const bytes = (n) => new Uint8Array(readFileSync(join(FIXTURE, n)));
  const cases = [
    ['truncated', (b) => b.subarray(0, b.length >> 1), 'length_mismatch'],
    ['flipped', (b) => { const c = b.slice(); c[c.length - 1] ^= 0x21; return c; }, 'checksum_mismatch'],
    ['version', (b) => { const c = b.slice(); c[4] = 99; return c; }, 'unsupported_version'],
    ['html', () => new TextEncoder().encode('<!doctype html><p>oops</p>'), 'bad_magic'],
  ];
  for (const [what, damage, code] of cases) {
    for (const n of names) l.override.set(n, damage(bytes(n)));
    const err = await index.search('refresh tokens').catch((e) => e);
    assert.ok(err instanceof AidocsSearchError, `${what}: ${err}`);
    assert.equal(err.name, 'AidocsSearchError');
    assert.equal(err.code, code, `${what}: ${err.message}`);
    assert.ok(names.includes(err.file) && err.message.includes(err.file), `${what}: ${err.message}`);
    l.override.clear();
    assert.equal(await index.searchRaw('refresh tokens'), good, `usable after ${what}`);
    index.clearCache();
  }
  l.load = async (name) => {
    if (name.startsWith('m/')) throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    return new Uint8Array(await readFile(join(FIXTURE, name)));
  };
  const err = await index.search('refresh tokens').catch((e) => e);
  assert.equal(err.code, 'not_found');
  assert.match(err.file, /^m\//);
  for (const [opts, code] of [[{ k: 0 }, 'bad_option'], [{ k: 1.5 }, 'bad_option'], [{ mode: 'semantic' }, 'bad_option'], [{ kind: 'blog' }, 'bad_option']]) {
    assert.equal((await index.search('x', opts).catch((e) => e)).code, code, JSON.stringify(opts));
  }
  index.close();
  assert.equal((await index.search('x').catch((e) => e)).code, 'closed');
});

test('a damaged manifest fails to open with a typed error', async () => {
  const m = new Uint8Array(readFileSync(join(FIXTURE, 'manifest.bin')));
  for (const [bytes, code] of [[m.subarray(0, 30), 'length_mismatch'], [new Uint8Array(0), 'bad_magic']]) {
    const err = await openIndex(async () => bytes).catch((e) => e);
    assert.equal(err.code, code);
    assert.equal(err.file, 'manifest.bin');
  }
  // A re-sealed (valid CRC) payload that inflates to more than its header declares.
  const payload = deflateSync(Buffer.alloc(4096, 7));
  const forged = new Uint8Array(20 + payload.length);
  forged.set([0x41, 0x49, 0x44, 0x58, 1, 0, 1, 1]);
  const dv = new DataView(forged.buffer);
  dv.setUint32(8, 100, true);
  dv.setUint32(12, payload.length, true);
  dv.setUint32(16, crc32(payload), true);
  forged.set(payload, 20);
  const err = await openIndex(async () => forged).catch((e) => e);
  assert.equal(err.code, 'length_mismatch', err.message);
});

test('the cache stays within its byte bound', async () => {
  const index = await openIndex(dirLoader(FIXTURE).fn, { cacheBytes: 1500 });
  for (let round = 0; round < 2; round++) {
    for (const [i, [id, text, kinds]] of QUERIES.entries()) {
      assert.equal(line(id, await index.searchRaw(text, { kind: kinds || undefined, typos: false })), EXPECTED[i]);
      assert.ok(index.cache.bytes <= 1500, JSON.stringify(index.cache));
    }
  }
  assert.ok(index.cache.evictions > 0);
});

test('preload warms the shards of a query being typed', async () => {
  const cold = await openIndex(dirLoader(FIXTURE).fn);
  await cold.search('refresh tokens');
  const coldRequests = cold.stats.requests;
  const index = await openIndex(dirLoader(FIXTURE).fn);
  assert.ok((await index.preload('refresh tok')) > 0);
  const before = index.stats.requests;
  await index.search('refresh tokens');
  const after = index.stats.requests - before;
  assert.ok(after < coldRequests - 1, `${after} requests after preload, ${coldRequests - 1} without`);
});

test('random damage to any file is an error or a valid result, never a crash', async () => {
  const names = ['manifest.bin', ...[...readFileSync(join(FIXTURE, 'mod.rs'), 'utf8').matchAll(/\("([tm]\/[0-9a-f]+\.bin)"/g)].map((m) => m[1])];
  let seed = 0x2545f491;
  const rnd = (n) => {
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  let errors = 0;
  for (let c = 0; c < 400; c++) {
    const target = names[rnd(names.length)];
    const b = new Uint8Array(readFileSync(join(FIXTURE, target)));
    const bad = rnd(2) ? b.subarray(0, rnd(b.length)) : b.map((x, i) => (i === rnd(b.length) ? x ^ (1 << rnd(8)) : x));
    const l = dirLoader(FIXTURE);
    l.override.set(target, bad);
    const [, text] = QUERIES[c % QUERIES.length];
    try {
      const index = await openIndex(l.fn);
      const r = await index.search(text).catch((e) => e);
      if (r instanceof Error) {
        errors++;
        assert.ok(r instanceof AidocsSearchError, String(r));
        l.override.clear();
        assert.ok(Array.isArray(await index.search(text)), 'usable after the error');
      } else {
        assert.ok(Array.isArray(r));
      }
    } catch (e) {
      errors++;
      assert.ok(e instanceof AidocsSearchError, String(e));
      assert.notEqual(e.code, 'wasm_trap');
    }
  }
  assert.ok(errors > 100, `${errors} errors`);
});

// Issue 4: the full encoder (the model in wasm) for Node and edge runtimes, on the v3 compatibility
// index (built with all-MiniLM-L6-v2). Needs `npm run build:encoder` and the model (./dev.sh setup);
// skipped without them unless AIDOCS_REQUIRE_MODEL is set (./dev.sh test sets it).
const V3 = join(repo, 'tests', 'compat', 'v3');
const MODEL_DIR = process.env.AIDOCS_MODEL_DIR ?? join(process.env.HOME ?? '', '.cache', 'aidocs', 'models', 'all-MiniLM-L6-v2');
const ENCODER_WASM = join(repo, 'site-plugin', 'wasm-encoder', 'aidocs_encoder_bg.wasm');
let haveEncoder = true;
try {
  readFileSync(ENCODER_WASM, { flag: 'r' }).length;
  readFileSync(join(MODEL_DIR, 'config.json'));
} catch {
  haveEncoder = false;
}
const encoderSkip = !haveEncoder && !process.env.AIDOCS_REQUIRE_MODEL && 'the encoder module or the model is missing';

test('issue 4: the full encoder embeds in wasm and ranks through the index projection', { skip: encoderSkip }, async () => {
  const { loadFullEncoder } = await import('../src/full-encoder.js');
  const encoder = await loadFullEncoder({ modelDir: MODEL_DIR });
  assert.equal(encoder.modelName, 'all-MiniLM-L6-v2');
  const v = encoder.embed('How do I renew my credentials?');
  assert.equal(v.length, 384);
  assert.ok(Math.abs(v.reduce((s, x) => s + x * x, 0) - 1) < 1e-4, 'unit length');

  const l = dirLoader(V3);
  const index = await openIndex(l.fn, { encoder });
  assert.equal(index.summary.vectorModel, 'all-MiniLM-L6-v2');
  const full = await index.search('renew my credentials', { mode: 'vector' });
  assert.equal(full[0].id, 'guides/refresh-tokens');
  assert.ok([...l.calls.keys()].some((n) => n.startsWith('v/')), 'the projection and partitions were loaded');
  assert.ok(![...l.calls.keys()].some((n) => n.startsWith('q/')), 'no static-encoder rows with the full encoder');
  // `encoder: null` forces the static encoder for one search.
  const stat = await index.search('renew my credentials', { mode: 'hybrid', encoder: null });
  assert.equal(stat[0].id, 'guides/refresh-tokens');
  assert.ok([...l.calls.keys()].some((n) => n.startsWith('q/')));
  // Lexical searches never run the model.
  let embedded = 0;
  const counting = { modelName: encoder.modelName, embed: (t) => (embedded++, encoder.embed(t)) };
  await index.search('refresh tokens', { encoder: counting });
  assert.equal(embedded, 0);
  encoder.free();
});

test('issue 4: a query encoder of another model is refused, a missing model is a clear error', async () => {
  const index = await openIndex(dirLoader(V3).fn);
  const other = { modelName: 'bge-small-en', embed: () => new Float32Array(384) };
  await assert.rejects(index.search('renew', { mode: 'hybrid', encoder: other }), (e) => e.code === 'model_mismatch' && /bge-small-en/.test(e.message));
  const wrongWidth = { embed: () => new Float32Array(7).fill(0.3) };
  await assert.rejects(index.search('renew', { mode: 'vector', encoder: wrongWidth }), (e) => e.code === 'bad_option');
  // The index is still usable.
  assert.equal((await index.search('refresh tokens'))[0].id, 'guides/refresh-tokens');
  if (haveEncoder) {
    const { loadFullEncoder } = await import('../src/full-encoder.js');
    await assert.rejects(loadFullEncoder({ modelDir: '/nonexistent/model' }), (e) => e.code === 'model_not_found' && /config\.json/.test(e.message));
    await assert.rejects(
      loadFullEncoder({ files: { config: '{"not":"bert"}', vocab: '[PAD]\n[UNK]\n[CLS]\n[SEP]\n', weights: new Uint8Array(8) } }),
      (e) => e.code === 'bad_model' && e.file === 'config.json',
    );
  }
});
