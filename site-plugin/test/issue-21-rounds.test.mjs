// node --test, in a process of its own (the module loads once per process): what the first query
// waits for. The manifest is fetched while the module loads, not after it (issue 21: one sequential
// round trip fewer before the first results).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndex } from '../src/search.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURE = join(repo, 'wasm-search', 'tests', 'fixture');
const WASM = join(repo, 'site-plugin', 'wasm', 'aidocs_search_bg.wasm');

test('issue 21: openIndex asks for manifest.bin while the module is still on its way', async (t) => {
  const events = [];
  const module = await readFile(WASM);
  // A slow network for the module: it is answered 300 ms after it is asked for.
  const server = createServer((req, res) => {
    events.push('module requested');
    setTimeout(() => {
      events.push('module answered');
      res.writeHead(200, { 'content-type': 'application/wasm' }).end(module);
    }, 300);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const wasm = `http://127.0.0.1:${server.address().port}/m.wasm`;
  const loader = (label) => async (name) => {
    events.push(`${label} requested ${name}`);
    if (label === 'missing') return null;
    return new Uint8Array(await readFile(join(FIXTURE, name)));
  };
  // Two indexes open at once over the one module load: one whose manifest is there, one whose
  // manifest is missing (its failure, known while the module loads, must wait for it and then be
  // one typed error: an unhandled rejection meanwhile would fail this test file).
  const [index, missing] = await Promise.all([
    openIndex(loader('good'), { wasm }),
    openIndex(loader('missing'), { wasm }).catch((e) => e),
  ]);
  assert.equal(events.filter((e) => e === 'module requested').length, 1, events.join(', '));
  for (const label of ['good', 'missing']) {
    assert.ok(
      events.indexOf(`${label} requested manifest.bin`) < events.indexOf('module answered'),
      `the manifest waited for the module: ${events.join(', ')}`,
    );
  }
  assert.equal(index.stats.requests, 1);
  const [first] = await index.search('refresh tokens', { k: 3 });
  assert.equal(first.id, 'guides/refresh-tokens');
  assert.equal(missing.code, 'not_found');
  assert.equal(missing.file, 'manifest.bin');
});
