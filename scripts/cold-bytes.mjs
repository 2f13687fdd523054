#!/usr/bin/env node
// Bytes a cold query fetches through the JS wrapper and the wasm engine, by kind of file, then the code
// every reader also loads (wasm, glue, search.js, gzip -9) and the sum. Each query opens the index
// afresh, so every figure is a first query; the next query of the file then runs on the same index
// (a follow-up query). Prints medians over the first N queries of a JSONL file ({"id","text"} per line),
// and the sequential rounds of requests (a round starts when a request is made with none in flight).
//   node scripts/cold-bytes.mjs INDEX_DIR QUERIES.jsonl [--mode lexical|vector|hybrid] [--nprobe N] [--n 100]
//                               [--language L]
// `--language`: the reader's (the search box passes the page's): it filters pages, picks the analyzer
// and, for a language with a stemmer other than English's, the full module, which is what is counted.
// Needs the built module (npm run build --prefix site-plugin).
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync, brotliCompressSync, constants as zlib } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { openIndex, needsStemmer } from '../site-plugin/src/search.js';

const { values: v, positionals: [dir, qfile] } = parseArgs({
  allowPositionals: true,
  options: { mode: { type: 'string', default: 'hybrid' }, nprobe: { type: 'string' }, n: { type: 'string', default: '100' }, language: { type: 'string' } },
});
if (!dir || !qfile) {
  console.error('usage: node scripts/cold-bytes.mjs INDEX_DIR QUERIES.jsonl [--mode M] [--nprobe N] [--n 100]');
  process.exit(2);
}
const KINDS = { 'manifest.bin': 'manifest', l: 'language partition manifest', d: 'directory pages', p: 'position shards', t: 'term shards', m: 'metadata shards', q: 'term rows', v: 'vector directory, partitions, projection', y: 'typo directory and shards' };
const queries = readFileSync(qfile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).slice(0, Number(v.n));
const per = [];
for (const [i, q] of queries.entries()) {
  let bytes = {};
  let requests = 0;
  // Sequential rounds: a request made while none is in flight starts one (a round's requests all
  // start before any of them ends).
  let rounds = 0;
  let inFlight = 0;
  const load = async (name) => {
    if (inFlight === 0) rounds += 1;
    inFlight += 1;
    const b = new Uint8Array(await readFile(join(dir, name)).finally(() => { inFlight -= 1; }));
    const kind = KINDS[name.includes('/') ? name.split('/')[0] : name] ?? name;
    bytes[kind] = (bytes[kind] ?? 0) + b.length;
    requests += 1;
    return b;
  };
  const opts = { mode: v.mode, nprobe: v.nprobe == null ? undefined : Number(v.nprobe), language: v.language };
  const index = await openIndex(load, { language: v.language });
  await index.search(q.text, opts);
  const first = { bytes, requests, rounds };
  bytes = {};
  requests = 0;
  await index.search(queries[(i + 1) % queries.length].text, opts);
  index.close();
  per.push({ ...first, followBytes: Object.values(bytes).reduce((s, x) => s + x, 0), followRequests: requests });
}
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const sum = (o) => Object.values(o).reduce((s, x) => s + x, 0);
console.log(`${dir}, mode ${v.mode}${v.language ? `, reader's language ${v.language}` : ''}, ${per.length} cold queries (medians):`);
for (const kind of [...new Set(per.flatMap((p) => Object.keys(p.bytes)))]) {
  console.log(`  ${kind}: ${median(per.map((p) => p.bytes[kind] ?? 0))} B`);
}
const data = median(per.map((p) => sum(p.bytes)));
console.log(`  index data: ${data} B in ${median(per.map((p) => p.requests))} requests, ${median(per.map((p) => p.rounds))} sequential rounds (manifest included; max ${Math.max(...per.map((p) => p.rounds))})`);
const root = fileURLToPath(new URL('../site-plugin/', import.meta.url));
const module = needsStemmer(v.language) ? 'wasm/aidocs_search_full_bg.wasm' : 'wasm/aidocs_search_bg.wasm';
const files = [module, 'dist/search.js'].map((f) => readFileSync(join(root, f)));
const code = files.map((b) => gzipSync(b, { level: 9 }).length);
// Most static hosts serve brotli where the browser accepts it; index files are zlib inside their
// envelope either way (a server cannot shrink them further).
const br = files.map((b) => brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length);
console.log(`  code (gzip -9): wasm ${code[0]} + search.js with its glue ${code[1]} = ${sum(code)} B (brotli 11: ${sum(br)} B)`);
console.log(`  cold query, everything included: ${data + sum(code)} B (with brotli-served code: ${data + sum(br)} B)`);
console.log(`  follow-up query (the next query on the same index): ${median(per.map((p) => p.followBytes))} B in ${median(per.map((p) => p.followRequests))} requests`);
