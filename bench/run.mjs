#!/usr/bin/env node
// aidocs-search against the static-search peers on the same corpus in the same run; writes
// BENCHMARKS.md (repository root) and bench/results/<corpus>.json. Every figure is computed here.
//
//   node bench/run.mjs [--cache DIR] [--engines aidocs-lexical,aidocs-hybrid,minisearch,...]
//
// Corpus: SciFact (5,183 abstracts, BEIR test qrels) from ../shared/data. Queries: the 300 test claims
// as written, with one deterministic one-edit typo each, and with the last word cut to 4 letters (both
// from `aidocs-index variants`, the code `aidocs-index eval` scores with). Needs the release indexer
// (`cargo build --release -p aidocs-index`), the built wasm module (`npm run build --prefix
// site-plugin`), `npm ci` in bench/, and for aidocs' hybrid rows the embedding model (`./dev.sh setup`;
// embeddings are cached in --cache, default bench/.cache).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import * as E from './lib/engines.mjs';
import { score, percentile } from './lib/metrics.mjs';
import { launch, pagefindRuns } from './lib/browser.mjs';

const bench = new URL('.', import.meta.url).pathname;
const repo = join(bench, '..');
const { values: v } = parseArgs({
  options: {
    cache: { type: 'string', default: join(bench, '.cache') },
    engines: { type: 'string' },
    work: { type: 'string', default: join(bench, '.work') },
  },
});
const bin = process.env.AIDOCS_INDEX_BIN ?? join(repo, 'target/release/aidocs-index');
for (const [what, path, fix] of [
  ['the release indexer', bin, 'cargo build --release -p aidocs-index'],
  ['the wasm module', join(repo, 'site-plugin/wasm/aidocs_search_bg.wasm'), 'npm run build --prefix site-plugin'],
  ['the peers', join(bench, 'node_modules/pagefind'), 'npm ci --prefix bench'],
  ['SciFact', join(repo, '../shared/data/scifact/docs.jsonl'), 'mount ../shared/data'],
]) {
  if (!existsSync(path)) {
    console.error(`missing ${what} (${path}): ${fix}`);
    process.exit(2);
  }
}

// ---- corpus and queries ----
const data = join(repo, '../shared/data/scifact');
const jsonl = (f) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const docs = jsonl(join(data, 'docs.jsonl')).map((d) => ({ id: String(d.id), title: d.title ?? '', text: d.text ?? '' }));
const qrels = new Map();
for (const line of readFileSync(join(data, 'qrels/test.tsv'), 'utf8').trim().split('\n').slice(1)) {
  const [q, d, r] = line.split('\t');
  if (!qrels.has(q)) qrels.set(q, new Map());
  qrels.get(q).set(d, Number(r));
}
const variant = (args) => {
  const r = spawnSync(bin, ['variants', '--queries', join(data, 'queries.jsonl'), ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((q) => qrels.has(String(q.id))).map((q) => [String(q.id), q.text]);
};
const variants = { clean: variant([]), typo: variant(['--typo']), prefix: variant(['--cut-last-word', '4']) };
const corpus = { name: 'scifact', docs, jsonl: join(data, 'docs.jsonl'), cache: join(v.cache, 'scifact') };

// ---- engines ----
const all = [E.aidocs('lexical'), E.aidocs('hybrid'), E.pagefind, E.minisearch, E.orama, E.lunrEngine, E.flexsearch];
const wanted = v.engines ? new Set(v.engines.split(',')) : null;
const engines = all.filter((e) => !wanted || wanted.has(e.key));

function dirStats(dir) {
  let files = 0;
  let bytes = 0;
  let gz = 0;
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else {
        files += 1;
        bytes += s.size;
        gz += gzipSync(readFileSync(p), { level: 9 }).length;
      }
    }
  };
  walk(dir);
  return { files, bytes, gz };
}

/** Cold first query of aidocs through the JS API: manifest and the shards the query fetches. */
async function aidocsFirstQuery(dir, mode, text) {
  const { openIndex } = await import(join(repo, 'site-plugin/src/search.js'));
  const seen = { bytes: 0, requests: 0 };
  const index = await openIndex(async (name) => {
    const b = new Uint8Array(readFileSync(join(dir, name)));
    seen.bytes += b.length;
    seen.requests += 1;
    return b;
  });
  await index.search(text, { k: 10, mode, prefix: true, typos: true });
  index.close();
  return seen;
}

const results = { date: new Date().toISOString(), machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30) }, node: process.version, versions: { ...E.versions, aidocs: spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim() }, corpus: { name: 'SciFact', docs: docs.length, queries: variants.clean.length }, engines: [] };
let browser = null;
for (const e of engines) {
  const dir = join(v.work, corpus.name, e.key);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`${e.name}: build… `);
  const t0 = performance.now();
  await e.build(corpus, dir);
  const buildMs = performance.now() - t0;
  const indexDir = e.browser ? join(dir, 'site', 'pagefind') : dir;
  const size = dirStats(indexDir);
  const row = { key: e.key, name: e.name, buildSeconds: buildMs / 1000, index: size, relevance: {} };
  process.stderr.write(`${(buildMs / 1000).toFixed(1)} s; queries… `);
  if (e.browser) {
    browser ??= await launch();
    for (const [name, qs] of Object.entries(variants)) {
      const r = await pagefindRuns(browser, join(dir, 'site'), qs);
      row.relevance[name] = score(r.runs, qrels);
      if (name === 'clean') {
        row.firstQuery = r.firstQuery;
        row.pageLoad = r.pageLoad;
      }
    }
  } else {
    const s = await e.open(dir);
    for (const [name, qs] of Object.entries(variants)) {
      const runs = new Map();
      const lat = [];
      for (const [id, text] of qs) {
        const t = performance.now();
        runs.set(id, await s.search(text));
        lat.push(performance.now() - t);
      }
      row.relevance[name] = score(runs, qrels);
      if (name === 'clean') {
        lat.sort((a, b) => a - b);
        row.nodeLatencyMs = { p50: percentile(lat, 0.5), p95: percentile(lat, 0.95) };
      }
    }
    if (e.key.startsWith('aidocs')) row.firstQuery = await aidocsFirstQuery(dir, e.key.split('-')[1], variants.clean[0][1]);
    else row.firstQuery = { bytes: size.gz, requests: size.files, note: 'the whole index, gzip -9 (library code not counted)' };
  }
  results.engines.push(row);
  process.stderr.write(`nDCG@10 ${row.relevance.clean.ndcg10.toFixed(4)}\n`);
}
await browser?.close();

// ---- report ----
mkdirSync(join(bench, 'results'), { recursive: true });
writeFileSync(join(bench, 'results', `${corpus.name}.json`), `${JSON.stringify(results, null, 2)}\n`);
const f4 = (x) => x.toFixed(4);
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const ours = results.engines.filter((r) => r.key.startsWith('aidocs'));
const peers = results.engines.filter((r) => !r.key.startsWith('aidocs'));
const lines = [];
lines.push('# Benchmarks', '');
lines.push(`Generated by \`node bench/run.mjs\` on ${results.date.slice(0, 10)}: ${results.machine.cpus} × ${results.machine.cpu}, ${results.machine.memGiB} GiB, Node ${results.node}.`);
lines.push(`Versions: ${results.versions.aidocs}, ${Object.entries(E.versions).map(([k, x]) => `${k} ${x}`).join(', ')}. Raw figures: \`bench/results/${corpus.name}.json\`. Do not edit by hand.`, '');
lines.push(`## Relevance: SciFact test (${results.corpus.docs} abstracts, ${results.corpus.queries} judged claims)`, '');
lines.push('Each engine gets the same title and text per document (Pagefind as one HTML page each). "typo": every claim with one deterministic one-edit typo; "prefix": the last word cut to 4 letters, as typed. aidocs runs with the search box\'s settings (prefix search and typo tolerance on); peers with their typo/prefix options on where they have them.', '');
lines.push('| engine | nDCG@10 | Recall@10 | MRR@10 | found@10 | empty answers | typo: found@10 | typo: nDCG@10 | prefix: found@10 |');
lines.push('|---|---|---|---|---|---|---|---|---|');
for (const r of results.engines) {
  const c = r.relevance.clean;
  lines.push(`| ${r.name} | ${f4(c.ndcg10)} | ${f4(c.recall10)} | ${f4(c.mrr10)} | ${f4(c.found10)} | ${c.empty} | ${f4(r.relevance.typo.found10)} | ${f4(r.relevance.typo.ndcg10)} | ${f4(r.relevance.prefix.found10)} |`);
}
lines.push('');
if (ours.length && peers.length) {
  const best = (f) => peers.reduce((a, b) => (f(b) > f(a) ? b : a));
  for (const [label, f] of [['nDCG@10', (r) => r.relevance.clean.ndcg10], ['typo found@10', (r) => r.relevance.typo.found10], ['prefix found@10', (r) => r.relevance.prefix.found10]]) {
    const b = best(f);
    lines.push(`- ${label}: ${ours.map((o) => `${o.name} ${f4(f(o))}`).join(', ')}; best peer ${b.name} ${f4(f(b))}; ratio ${ours.map((o) => (f(o) / f(b)).toFixed(3)).join(' / ')}.`);
  }
  lines.push('');
}
lines.push('## Index and first query', '');
const codeGz = ['site-plugin/wasm/aidocs_search_bg.wasm', 'site-plugin/wasm/aidocs_search.js', 'site-plugin/src/search.js'].reduce((a, f) => a + gzipSync(readFileSync(join(repo, f)), { level: 9 }).length, 0);
results.aidocsCodeGz = codeGz;
lines.push(`Build time on this machine from an empty cache (aidocs hybrid: the chunk embeddings come from the build cache; embedding SciFact from scratch takes about 15 CPU-minutes); files and bytes of the deployed index; bytes a reader fetches for a cold first query. aidocs and Pagefind fetch index files on demand (aidocs counted through its JS API: the manifest and shards, not its code, ${kb(codeGz)} gzipped: wasm, glue and search.js; Pagefind in headless Chromium through a byte-counting server, its code and wasm included); the in-memory engines download their whole index first (gzip -9 of the serialized index; their library code not counted).`, '');
lines.push('| engine | build | files | on disk | gzip -9 | first query fetches |');
lines.push('|---|---|---|---|---|---|');
for (const r of results.engines) {
  lines.push(`| ${r.name} | ${r.buildSeconds.toFixed(1)} s | ${r.index.files} | ${kb(r.index.bytes)} | ${kb(r.index.gz)} | ${kb(r.firstQuery.bytes)} in ${r.firstQuery.requests} requests |`);
}
lines.push('', '## Not measured yet', '');
lines.push('- The two real Mintlify sites and the 10,000- and 30,000-page corpora; every engine served the same way in Chromium (in-memory engines\' code and index through the same server); per-keystroke bytes; warm query latency in the browser; peak build memory; Orama hybrid with the same vectors.');
writeFileSync(join(repo, 'BENCHMARKS.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
void relative;
