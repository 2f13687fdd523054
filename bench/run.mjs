#!/usr/bin/env node
// aidocs-search against the static-search peers on the same corpora in the same run; writes
// BENCHMARKS.md (repository root) and bench/results/<corpus>.json. Every figure is computed here.
//
//   node bench/run.mjs [--corpora scifact,mintlify-docs,pipecat-docs,site-10k,site-30k]
//                      [--engines aidocs-lexical,aidocs-hybrid,pagefind,minisearch,orama,orama-hybrid,lunr,flexsearch]
//                      [--cache DIR] [--work DIR] [--latency-queries N] [--slow-queries N]
//
// For every corpus and engine: the index build (time and peak memory under /usr/bin/time, files and
// bytes on disk), then headless Chromium through a byte-counting static server (lib/browser.mjs): page
// load, first query, per-keystroke bytes of typed queries, every judged query (relevance), warm query
// latency. Needs the release indexer (`cargo build --release -p aidocs-index`), the built wasm module
// (`npm run build --prefix site-plugin`), `npm install` in bench/, Chromium, and the embedding model for the
// hybrid rows (`./dev.sh setup`; chunk embeddings are cached per corpus in --cache, default bench/.cache:
// the first run embeds every corpus, which takes long on 2 cores).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { all as allEngines, indexBin, versions } from './lib/engines.mjs';
import { CORPORA, prepare } from './lib/corpora.mjs';
import { score } from './lib/metrics.mjs';
import { launch, measure } from './lib/browser.mjs';

const bench = new URL('.', import.meta.url).pathname;
const repo = join(bench, '..');
const { values: v } = parseArgs({
  options: {
    cache: { type: 'string', default: join(bench, '.cache') },
    work: { type: 'string', default: join(bench, '.work') },
    corpora: { type: 'string', default: Object.keys(CORPORA).join(',') },
    engines: { type: 'string' },
    'latency-queries': { type: 'string', default: '100' },
    // Queries timed cold on the throttled network (a fresh browser context each).
    'slow-queries': { type: 'string', default: '20' },
    // Re-render BENCHMARKS.md from bench/results/*.json (the figures of the last run), measuring nothing.
    'report-only': { type: 'boolean', default: false },
  },
});
for (const [what, path, fix] of [
  ['the release indexer', indexBin(), 'cargo build --release -p aidocs-index'],
  ['the wasm module', join(repo, 'site-plugin/wasm/aidocs_search_bg.wasm'), 'npm run build --prefix site-plugin'],
  ['the peers', join(bench, 'node_modules/pagefind'), 'npm install --prefix bench'],
  ['SciFact', join(repo, '../shared/data/scifact/docs.jsonl'), 'mount ../shared/data'],
  ['GNU time', '/usr/bin/time', 'apt-get install time'],
  ['Chromium', process.env.CHROMIUM ?? '/usr/bin/chromium', './dev.sh setup'],
]) {
  if (!existsSync(path)) {
    console.error(`missing ${what} (${path}): ${fix}`);
    process.exit(2);
  }
}
const corpora = v.corpora.split(',').filter(Boolean);
for (const c of corpora) {
  if (!CORPORA[c]) {
    console.error(`--corpora: unknown corpus ${c} (known: ${Object.keys(CORPORA).join(', ')})`);
    process.exit(2);
  }
}
const engineList = await allEngines();
const wanted = v.engines ? new Set(v.engines.split(',')) : null;
for (const k of wanted ?? []) {
  if (!engineList.some((e) => e.key === k)) {
    console.error(`--engines: unknown engine ${k} (known: ${engineList.map((e) => e.key).join(', ')})`);
    process.exit(2);
  }
}
const engines = engineList.filter((e) => !wanted || wanted.has(e.key));
const latencyQueries = Number(v['latency-queries']);
const slowQueries = Number(v['slow-queries']);

function dirStats(paths) {
  let files = 0;
  let bytes = 0;
  let gz = 0;
  const walk = (p) => {
    const s = statSync(p);
    if (s.isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
    else {
      files += 1;
      bytes += s.size;
      gz += gzipSync(readFileSync(p), { level: 6 }).length;
    }
  };
  paths.forEach(walk);
  return { files, bytes, gz };
}

const log = (s) => process.stderr.write(s);
/** What a failure ended with: the last `SomethingError: …` line of its output, else its first line. */
const lastError = (msg) => {
  const m = [...msg.matchAll(/\b(\w*Error): ([^\n]*)/g)].at(-1);
  return (m ? `${m[1]}: ${m[2]}` : msg.split('\n')[0]).slice(0, 300);
};
const results = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30) },
  node: process.version,
  chromium: null,
  versions: { aidocs: spawnSync(indexBin(), ['--version'], { encoding: 'utf8' }).stdout.trim(), ...versions },
  command: `node bench/run.mjs${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
  corpora: {},
};
if (v['report-only']) {
  for (const key of corpora) {
    const f = join(bench, 'results', `${key}.json`);
    if (!existsSync(f)) continue;
    const { corpus, date, machine, node, chromium, versions: vers, command, ...c } = JSON.parse(readFileSync(f, 'utf8'));
    Object.assign(results, { date, machine, node, chromium, versions: vers, command });
    results.corpora[corpus] = { ...c, run: { command, date } };
  }
} else {
const browser = await launch();
results.chromium = browser.version();
mkdirSync(join(bench, 'results'), { recursive: true });
try {
  for (const key of corpora) {
    const needVectors = engines.some((e) => e.needsVectors);
    log(`${key}: preparing… `);
    const c = prepare(key, { work: v.work, cache: v.cache, vectors: needVectors });
    log(`${c.pages.length} pages, ${c.variants.clean.length} queries\n`);
    const rows = [];
    for (const e of engines) {
      const root = join(v.work, key, e.key);
      rmSync(root, { recursive: true, force: true });
      mkdirSync(root, { recursive: true });
      const started = Date.now();
      log(`  ${e.name}: build… `);
      let b;
      try {
        b = await e.build({ corpus: c, docs: c.pages, pagesFile: c.pagesFile, root, work: join(v.work, key) });
      } catch (err) {
        log(`failed: ${err.message}\n`);
        rows.push({ key: e.key, name: e.name, ours: Boolean(e.ours), failed: `build: ${lastError(err.message)}` });
        continue;
      }
      const index = dirStats(b.indexDir ? [b.indexDir] : b.indexFiles);
      writeFileSync(join(root, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head><body></body></html>');
      log(`${b.seconds.toFixed(1)} s, ${b.peakMiB.toFixed(0)} MiB; browser… `);
      const variants = Object.fromEntries(Object.entries(c.variants).map(([n, qs]) => [n, qs.map(([id, t, vec]) => [id, t, e.needsVectors ? vec : null])]));
      let m;
      try {
        m = await measure(browser, root, { variants, typed: c.typed, latencyQueries, slowQueries });
      } catch (err) {
        log(`failed: ${err.message}\n`);
        rows.push({ key: e.key, name: e.name, ours: Boolean(e.ours), build: { seconds: b.seconds, peakMiB: b.peakMiB }, index, failed: `browser: ${lastError(err.message)}` });
        continue;
      }
      const relevance = Object.fromEntries(Object.entries(m.runs).map(([n, runs]) => [n, score(runs, c.qrels)]));
      const row = {
        key: e.key,
        name: e.name,
        ours: Boolean(e.ours),
        build: { seconds: b.seconds, peakMiB: b.peakMiB },
        index,
        pageLoad: m.pageLoad,
        firstQuery: m.firstQuery,
        warm: m.warm,
        typed: m.typed,
        slow: m.slow,
        relevance,
      };
      if (b.summary) row.aidocs = { chunks: b.summary.chunks, chunksEmbedded: b.summary.chunks_embedded, embedSeconds: b.summary.embed_seconds };
      rows.push(row);
      log(`${relevance.clean.ndcg10.toFixed(4)} nDCG@10, found@10 ${relevance.clean.found10.toFixed(4)}, warm p50 ${m.warm.p50.toFixed(2)} ms (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
    }
    results.corpora[key] = { title: c.title, pages: c.pages.length, queries: c.variants.clean.length, judged: c.judged, note: c.note, typed: c.typed, engines: rows };
    writeFileSync(join(bench, 'results', `${key}.json`), `${JSON.stringify({ ...results, corpora: undefined, corpus: key, ...results.corpora[key] }, null, 2)}\n`);
  }
} finally {
  await browser.close();
}
}

// ---- report ----
const f4 = (x) => x.toFixed(4);
const kb = (b) => (b >= 1 << 20 ? `${(b / 2 ** 20).toFixed(1)} MB` : `${(b / 1024).toFixed(1)} KB`);
const ok = (rows) => rows.filter((r) => !r.failed);
/** A failure in one line: the step and the error it ended with. */
const why = (r) => {
  const step = r.failed.split(':')[0];
  const errors = [...r.failed.matchAll(/\b(\w*Error): ([^\n]*)/g)];
  let msg = errors.length ? `${errors.at(-1)[1]}: ${errors.at(-1)[2]}` : r.failed.slice(step.length + 1).split('\n')[0];
  if (/Invalid string length/.test(msg)) msg += ' (its serialized index passes V8\'s longest string, about 512 MB, in JSON.stringify)';
  msg = msg.replace(/\S*\/([\w.-]+\.m?js)/g, '$1');
  return `${step} failed: ${msg.replace(/\s+/g, ' ').replace(/\|/g, '/').trim()}`;
};
const lines = [];
const L = (...s) => lines.push(...s);
L('# Benchmarks', '');
L(`${v['report-only'] ? 'Measured by `./dev.sh bench`' : `Generated by \`${results.command}\` (\`./dev.sh bench\`)`} on ${results.date.slice(0, 10)}: ${results.machine.cpus} × ${results.machine.cpu}, ${results.machine.memGiB} GiB, Node ${results.node}, Chromium ${results.chromium}.`);
if (v['report-only']) {
  const runs = new Map();
  for (const [key, c] of Object.entries(results.corpora)) {
    const id = `\`${c.run.command}\` at ${c.run.date.slice(0, 16).replace('T', ' ')} UTC`;
    runs.set(id, [...(runs.get(id) ?? []), key]);
  }
  L(`(Rendered from the raw figures by \`node bench/run.mjs --report-only\`, nothing measured again; measured by ${[...runs].map(([id, keys]) => `${id} (${keys.join(', ')})`).join('; ')}.)`);
}
L(`Versions: ${Object.entries(results.versions).map(([k, x]) => (k === 'aidocs' ? x : `${k} ${x}`)).join(', ')}. Raw figures: \`bench/results/<corpus>.json\`. Do not edit by hand.`, '');
L('Every engine indexes the same pages (the text `aidocs-index pages` reads from the corpus; Pagefind gets each page as HTML) and is measured the same way: built in its own process under `/usr/bin/time`, then served to headless Chromium by a byte-counting static server on 127.0.0.1 that sends text files (HTML, JS, JSON, wasm) gzip -9 and compressed files as they are. The in-memory peers (MiniSearch, Orama, Lunr, FlexSearch) ship as one esbuild bundle with their library plus one JSON index; aidocs as its deployed `search.js`, wasm glue and wasm module plus its shards; Pagefind as it writes itself. aidocs runs with the search box\'s settings (the last word a prefix, typo tolerance on); peers with their typo and prefix options on where they have them.', '');

const sf = results.corpora.scifact;
if (sf) {
  L(`## Relevance: SciFact test (${sf.pages} abstracts, ${sf.queries} judged claims)`, '');
  L('"typo": every claim with one deterministic one-edit typo; "prefix": the last word cut to 4 letters, as typed (both from `aidocs-index variants`, what `aidocs-index eval` scores).', '');
  L('| engine | nDCG@10 | Recall@10 | MRR@10 | found@10 | empty answers | typo: found@10 | typo: nDCG@10 | prefix: found@10 |');
  L('|---|---|---|---|---|---|---|---|---|');
  for (const r of sf.engines) {
    if (r.failed) {
      L(`| ${r.name} | ${why(r)} ||||||||`);
      continue;
    }
    const c = r.relevance.clean;
    L(`| ${r.name} | ${f4(c.ndcg10)} | ${f4(c.recall10)} | ${f4(c.mrr10)} | ${f4(c.found10)} | ${c.empty} | ${f4(r.relevance.typo.found10)} | ${f4(r.relevance.typo.ndcg10)} | ${f4(r.relevance.prefix.found10)} |`);
  }
  L('');
  ratios(sf.engines, [
    ['nDCG@10', (r) => r.relevance.clean.ndcg10],
    ['typo found@10', (r) => r.relevance.typo.found10],
    ['prefix found@10', (r) => r.relevance.prefix.found10],
  ]);
}

const others = Object.entries(results.corpora).filter(([k]) => k !== 'scifact');
if (others.length) {
  L('## Relevance on the other corpora', '');
  L('The Mintlify sites have no judgments: 100 of their English page titles (sampled by hash) are the queries, and the page with that title is relevant (known-item search). The 10,000- and 30,000-page sites contain SciFact\'s abstracts: the 300 test claims are the queries and an abstract\'s page (and its repeats) relevant.', '');
  L(`| engine | ${others.map(([, c]) => `${c.title}: found@10 | MRR@10`).join(' | ')} |`);
  L(`|---|${others.map(() => '---|---').join('|')}|`);
  for (const e of engines) {
    const cells = others.map(([, c]) => {
      const r = c.engines.find((x) => x.key === e.key);
      return !r || r.failed ? ' | ' : `${f4(r.relevance.clean.found10)} | ${f4(r.relevance.clean.mrr10)}`;
    });
    L(`| ${e.name} | ${cells.join(' | ')} |`);
  }
  L('');
}

L('## Bytes a reader fetches', '');
L('"page load": the engine\'s code and start-up (`open()`) in a fresh page; "first query": what the first query then fetches (Pagefind: with the result fragments its UI loads for the top 10); "typed": the query typed key by key in a fresh page after page load, one search per keystroke, no debounce, all keystrokes summed (and the largest keystroke); aidocs hybrid as its search box runs it (`mode="auto"`): lexical per keystroke, hybrid once typing pauses (the last keystroke). Bytes are on the wire (gzip where served gzip).', '');
for (const [key, c] of Object.entries(results.corpora)) {
  L(`### ${c.title} (${c.pages} pages)`, '');
  L(`| engine | page load | first query | page load + first query | typed "${c.typed[0]}" | typed "${c.typed[1]}" | warm query p50 / p95 |`);
  L('|---|---|---|---|---|---|---|');
  for (const r of c.engines) {
    if (r.failed) {
      L(`| ${r.name} | ${why(r)} ||||||`);
      continue;
    }
    const t = (x) => `${kb(x.bytes)} in ${x.requests} req (max ${kb(x.maxKeyBytes)}/key)`;
    L(`| ${r.name} | ${kb(r.pageLoad.bytes)} in ${r.pageLoad.requests} req | ${kb(r.firstQuery.bytes)} in ${r.firstQuery.requests} req | **${kb(r.pageLoad.bytes + r.firstQuery.bytes)}** | ${t(r.typed[0])} | ${t(r.typed[1])} | ${r.warm.p50.toFixed(2)} / ${r.warm.p95.toFixed(2)} ms |`);
  }
  L('');
  const slowRows = c.engines.filter((r) => !r.failed && (r.slow?.queries > 0 || r.slow?.failed));
  if (slowRows.length) {
    const n = Math.max(...slowRows.map((r) => r.slow.queries ?? 0));
    L(`Time to first results on a slow phone network, cold: Chromium's network emulation at Lighthouse's mobile figures (150 ms request latency, 1.6 Mbps down, 750 kbps up; no CPU slowdown), a fresh browser context per query, from the search to its results with the engine not yet loaded; median of the first ${n} clean queries. "rounds": sequential round trips on that path (requests in flight together count once; over HTTP/1.1 at most 6 go at a time, so a wider round queues, which the time shows). Engines given precomputed query vectors (Orama hybrid) do not pay for a model here.`, '');
    L('| engine | time to first results | rounds | requests |');
    L('|---|---|---|---|');
    for (const r of slowRows) {
      if (r.slow.failed) L(`| ${r.name} | failed: ${r.slow.failed.replace(/\s+/g, ' ').replace(/\|/g, '/')} |||`);
      else L(`| ${r.name} | ${Math.round(r.slow.p50ms).toLocaleString('en-US')} ms | ${r.slow.rounds} | ${r.slow.requests} |`);
    }
    L('');
  }
  ratios(c.engines, [
    ...(slowRows.length === ok(c.engines).length && slowRows.every((r) => r.slow.queries > 0) ? [['slow-network time to first results', (r) => r.slow.p50ms, (x) => `${Math.round(x)} ms`, true]] : []),
    ['page load + first query', (r) => r.pageLoad.bytes + r.firstQuery.bytes, kb, true],
    ['warm query p50', (r) => Math.max(r.warm.p50, 0.001), (x) => `${x.toFixed(2)} ms`, true],
  ]);
}

L('## Index build and size', '');
L('Build: wall time and peak resident memory of the build\'s largest process (`/usr/bin/time`), from an empty cache; aidocs hybrid reuses the chunk embeddings of the corpus\' build cache (embedding is the one expensive step; the first run pays it: about 15 CPU-minutes for SciFact). "gzip": the index files compressed one by one (gzip -6), what a host with compression stores or sends.', '');
for (const c of Object.values(results.corpora)) {
  L(`### ${c.title} (${c.pages} pages)${c.note ? `: ${c.note}` : ''}`, '');
  L('| engine | build | peak memory | files | on disk | gzip |');
  L('|---|---|---|---|---|---|');
  for (const r of c.engines) {
    if (!r.build) {
      L(`| ${r.name} | ${why(r)} |||||`);
      continue;
    }
    L(`| ${r.name} | ${r.build.seconds.toFixed(1)} s | ${r.build.peakMiB.toFixed(0)} MiB | ${r.index.files} | ${kb(r.index.bytes)} | ${kb(r.index.gz)} |`);
  }
  L('');
}

L('## Notes', '');
L('- Orama hybrid ranks with the same document vectors as aidocs hybrid (each page\'s mean all-MiniLM-L6-v2 chunk vector, from `aidocs-index pages --vectors`) and the full model\'s query vectors (`aidocs-index embed`), computed outside the page: its own in-browser encoder (a TensorFlow.js model) is not counted in its bytes, and its typed keystrokes rank by BM25 alone. aidocs hybrid encodes queries in the page with its static encoder, whose bytes are counted.');
L('- The in-memory peers\' indexes hold no titles or excerpts to display; aidocs\' and Pagefind\'s results carry them.');
L('- Warm latency: each of the first 100 clean queries timed on its second run, right after its first (its files fetched and cached), in the page around `search()`, the page cross-origin isolated so that its clock has microsecond resolution.');
const failed = Object.values(results.corpora).flatMap((c) => c.engines.filter((r) => r.failed).map((r) => `${c.title}: ${r.name}: ${why(r)}`));
for (const f of failed) L(`- Could not run: ${f}`);
writeFileSync(join(repo, 'BENCHMARKS.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));

/** Our rows against the best peer, per measure: [label, value, format, lower is better]. */
function ratios(rows, measures) {
  const ours = ok(rows).filter((r) => r.ours);
  const peers = ok(rows).filter((r) => !r.ours);
  if (!ours.length || !peers.length) return;
  for (const [label, f, fmt = f4, lower = false] of measures) {
    const best = peers.reduce((a, b) => ((lower ? f(b) < f(a) : f(b) > f(a)) ? b : a));
    const ratio = (o) => (f(o) / f(best)).toFixed(3);
    L(`- ${label}: ${ours.map((o) => `${o.name} ${fmt(f(o))}`).join(', ')}; best peer ${best.name} ${fmt(f(best))}; ours ÷ best peer ${ours.map(ratio).join(' / ')} (${lower ? 'lower' : 'higher'} is better).`);
  }
  L('');
}
