#!/usr/bin/env node
// Bytes a cold query fetches through the JS wrapper and the wasm engine, by kind of file (index data
// only; add the code: wasm, glue, search.js). Each query opens the index afresh, so every figure is a
// first query. Prints medians over the first N queries of a JSONL file ({"id","text"} per line).
//   node scripts/cold-bytes.mjs INDEX_DIR QUERIES.jsonl [--mode lexical|vector|hybrid] [--nprobe N] [--n 100]
// Needs the built module (npm run build --prefix site-plugin).
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openIndex } from '../site-plugin/src/search.js';

const { values: v, positionals: [dir, qfile] } = parseArgs({
  allowPositionals: true,
  options: { mode: { type: 'string', default: 'hybrid' }, nprobe: { type: 'string' }, n: { type: 'string', default: '100' } },
});
if (!dir || !qfile) {
  console.error('usage: node scripts/cold-bytes.mjs INDEX_DIR QUERIES.jsonl [--mode M] [--nprobe N] [--n 100]');
  process.exit(2);
}
const KINDS = { 'manifest.bin': 'manifest', t: 'term shards', m: 'metadata shards', q: 'term rows', v: 'vector directory, partitions, projection' };
const queries = readFileSync(qfile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).slice(0, Number(v.n));
const per = [];
for (const q of queries) {
  const bytes = {};
  let requests = 0;
  const load = async (name) => {
    const b = new Uint8Array(await readFile(join(dir, name)));
    const kind = KINDS[name.includes('/') ? name.split('/')[0] : name] ?? name;
    bytes[kind] = (bytes[kind] ?? 0) + b.length;
    requests += 1;
    return b;
  };
  const index = await openIndex(load);
  await index.search(q.text, { mode: v.mode, nprobe: v.nprobe == null ? undefined : Number(v.nprobe) });
  index.close();
  per.push({ bytes, requests });
}
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
console.log(`${dir}, mode ${v.mode}, ${per.length} cold queries (medians):`);
for (const kind of [...new Set(per.flatMap((p) => Object.keys(p.bytes)))]) {
  console.log(`  ${kind}: ${median(per.map((p) => p.bytes[kind] ?? 0))} B`);
}
console.log(`  total: ${median(per.map((p) => Object.values(p.bytes).reduce((s, x) => s + x, 0)))} B in ${median(per.map((p) => p.requests))} requests`);
