#!/usr/bin/env node
// Which files each keystroke of a typed query fetches (issue 21: requests per keystroke), from a cold
// index, as the search box searches a keystroke (lexical unless MODE is set, the last word also a
// prefix). Files come from disk through the engine's `fetch` option; nothing is served.
//   node scripts/typed-requests.mjs INDEX_DIR "typed query" [language]
// Per keystroke: the number of files and each one's kind (t term shard, k a term shard of exact-match
// keys, m metadata shard, p positions, y typos, ...). Term shards of keys are told apart by their first
// term (`~`), read with `aidocs-index inspect` (target/release, or AIDOCS_INDEX_BIN). Prints figures;
// asserts nothing. Needs the built wasm module (npm run build in site-plugin).
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [dirArg, typed, language = 'en'] = process.argv.slice(2);
if (!dirArg || !typed) {
  console.error('usage: node scripts/typed-requests.mjs INDEX_DIR "typed query" [language]');
  process.exit(2);
}
const dir = resolve(dirArg);
const { openIndex } = await import(join(repo, 'site-plugin', 'src', 'search.js'));

// Term shards whose first term is an exact-match key (`~t:`, `~e:`, `~o:`...).
const keyShards = new Set();
const bin = process.env.AIDOCS_INDEX_BIN ?? join(repo, 'target', 'release', 'aidocs-index');
if (existsSync(bin)) {
  for (const line of execFileSync(bin, ['inspect', dir], { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n')) {
    const m = line.match(/^\s+terms (\S+)\s+\d+ B\s+\d+ items\s+(\S+)/);
    if (m && m[2].startsWith('~')) keyShards.add(m[1]);
  }
} else {
  console.error(`(${bin} is missing: exact-key term shards are counted as term shards)`);
}
const kind = (name) => (keyShards.has(name) ? 'k' : name.split('/')[0].slice(0, 2));

let log = [];
const fetchImpl = async (url) => {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\/index\//, ''));
  log.push(name);
  return new Response(await readFile(join(dir, name)));
};
const wasm = await readFile(join(repo, 'site-plugin', 'wasm', 'aidocs_search_bg.wasm'));
const index = await openIndex('http://localhost/index/', { fetch: fetchImpl, wasm, language });
const mode = process.env.MODE ?? 'lexical';
const totals = {};
let searches = 0;
let requests = 0;
const perKey = [];
for (let i = 1; i <= typed.length; i++) {
  const q = typed.slice(0, i);
  if (q.endsWith(' ')) continue;
  log = [];
  await index.searchRaw(q, { mode, prefix: true });
  searches++;
  requests += log.length;
  perKey.push(log.length);
  for (const n of log) totals[kind(n)] = (totals[kind(n)] ?? 0) + 1;
  console.log(`${JSON.stringify(q).padEnd(40)} ${String(log.length).padStart(3)}  ${log.map(kind).join(' ')}`);
}
perKey.sort((a, b) => a - b);
const median = perKey[Math.floor((perKey.length - 1) / 2)];
const byKind = Object.entries(totals).map(([k, n]) => `${k} ${n}`).join(', ');
console.log(`${requests} requests for ${searches} searches (median ${median} per keystroke): ${byKind}`);
