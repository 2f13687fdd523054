#!/usr/bin/env node
// aidocs-search: the wasm engine from the command line, for parity tests and benchmarks.
//   aidocs-search query --index DIR --queries FILE.jsonl [--k N] [--mode M] [--nprobe N] [--encoder static|full]
//                       [--model DIR] [--kind K]... [--explain] [--prefix] [--no-typos] [--language L]
//                       [--wasm FILE]  (default: the module the reader's language needs)
//   aidocs-search query --index DIR [--json] TEXT...
//   aidocs-search context --index DIR (--queries FILE.jsonl | TEXT...) [--tokens N] [--pages N] [--json] [...query's options]
//   aidocs-search context --read --index DIR (--queries FILE.jsonl | URL) [--tokens N] [--json]  (a page's text by URL)
// Batch mode prints the same JSONL as `aidocs-index query --queries` ({"query_id","results"} per line)
// and `aidocs-index context --queries` ({"query_id","evidence"}); `context` prints Markdown, or with
// --json the evidence JSON, byte for byte what the native CLI prints.
// Exit codes as the native CLI: 0 ok, 1 runtime failure, 2 usage, 3 invalid input.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openIndex, AidocsSearchError } from '../src/search.js';

const USAGE = `usage: aidocs-search query --index DIR (--queries FILE.jsonl | TEXT...) [--k N] [--kind K]... [--tag T]...
                            [--group G] [--mode lexical|vector|hybrid] [--nprobe N] [--encoder static|full]
                            [--model DIR] [--explain] [--prefix] [--no-typos] [--language L] [--wasm FILE]
                            [--tag-any T]... [--tag-none T]... [--doc-version V] [--facets] [--json]
       aidocs-search context --index DIR (--queries FILE.jsonl | TEXT...) [--tokens N] [--pages N] [--json]
                            [the filters, --mode, --language and --no-typos of query]
       aidocs-search context --read --index DIR (--queries FILE.jsonl | URL) [--tokens N] [--language L] [--json]`;

function fail(code, msg) {
  process.stderr.write(`error: ${msg}\n`);
  process.exit(code);
}

async function readQueries(file) {
  let src;
  try {
    src = await readFile(file, 'utf8');
  } catch (e) {
    fail(3, `${file}: ${e.message}`);
  }
  const out = [];
  src.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let q;
    try {
      q = JSON.parse(line);
    } catch (e) {
      fail(3, `${file}:${i + 1}: expected {"id","text"}: ${e.message}`);
    }
    if (q == null || typeof q.text !== 'string' || q.id == null) fail(3, `${file}:${i + 1}: expected {"id","text"}`);
    out.push([String(q.id), q.text]);
  });
  return out;
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (command !== 'query' && command !== 'context') fail(2, `${command ? `unknown command \`${command}\`` : 'no command'}\n${USAGE}`);
  let args;
  try {
    args = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        index: { type: 'string' },
        queries: { type: 'string' },
        k: { type: 'string', default: '10' },
        mode: { type: 'string', default: 'lexical' },
        nprobe: { type: 'string' },
        encoder: { type: 'string', default: 'static' },
        model: { type: 'string' },
        kind: { type: 'string', multiple: true, default: [] },
        tag: { type: 'string', multiple: true, default: [] },
        group: { type: 'string' },
        explain: { type: 'boolean', default: false },
        prefix: { type: 'boolean', default: false },
        'no-typos': { type: 'boolean', default: false },
        language: { type: 'string' },
        'doc-version': { type: 'string' },
        wasm: { type: 'string' },
        facets: { type: 'boolean', default: false },
        'tag-any': { type: 'string', multiple: true, default: [] },
        'tag-none': { type: 'string', multiple: true, default: [] },
        json: { type: 'boolean', default: false },
        tokens: { type: 'string', default: '2000' },
        pages: { type: 'string', default: '10' },
        read: { type: 'boolean', default: false },
      },
    });
  } catch (e) {
    fail(2, `${e.message}\n${USAGE}`);
  }
  const { values: v, positionals } = args;
  if (!v.index) fail(2, `--index DIR is required\n${USAGE}`);
  const k = Number(v.k);
  if (!Number.isInteger(k) || k < 1) fail(2, `--k must be a positive integer, got ${v.k}`);
  if (v.encoder !== 'static' && v.encoder !== 'full') fail(2, `--encoder must be static or full, got ${v.encoder}`);
  let encoder = null;
  if (v.encoder === 'full') {
    const { loadFullEncoder } = await import('../src/full-encoder.js');
    try {
      encoder = await loadFullEncoder({ modelDir: v.model });
    } catch (e) {
      fail(1, e.message);
    }
  }
  const dir = resolve(v.index);
  const load = (name) => readFile(join(dir, name));
  let index;
  try {
    // The reader's language picks the module (the full one has the other languages' stemmers);
    // `--explain` and `context` need the full one too. `--wasm FILE` names one instead.
    const wasm = v.wasm == null ? undefined : await readFile(resolve(v.wasm));
    index = await openIndex(load, { encoder, language: v.language, wasm, evidence: command === 'context', explain: Boolean(v.explain) });
  } catch (e) {
    fail(1, e.message);
  }
  const nprobe = v.nprobe == null ? undefined : Number(v.nprobe);
  if (nprobe !== undefined && !(Number.isInteger(nprobe) && nprobe >= 0)) fail(2, `--nprobe must be a whole number, got ${v.nprobe}`);
  const opts = { k, kind: v.kind, tags: v.tag, group: v.group, explain: v.explain, mode: v.mode, nprobe, prefix: v.prefix, typos: !v['no-typos'], language: v.language, facets: v.facets, tagsAny: v['tag-any'], tagsNone: v['tag-none'], version: v['doc-version'] };
  const write = (line) => process.stdout.write(`${line}\n`);
  if (command === 'context') {
    const tokens = Number(v.tokens);
    const pages = Number(v.pages);
    const copts = { ...opts, tokens, pages };
    // The evidence of a question, or with --read the text of the page at a URL.
    const evidence = async (text) => (await index.searchRawDetailed(text, v.read ? { read: true, tokens, language: v.language } : copts)).evidence;
    try {
      if (v.queries) {
        for (const [id, text] of await readQueries(v.queries)) {
          write(`{"query_id":${JSON.stringify(id)},"evidence":${(await evidence(text)).json}}`);
        }
        return;
      }
      const text = positionals.join(' ');
      if (!text) fail(2, `give a question or --queries FILE.jsonl\n${USAGE}`);
      const { json, markdown } = await evidence(text);
      if (v.json) write(json);
      else process.stdout.write(markdown);
    } catch (e) {
      if (e instanceof AidocsSearchError && e.code === 'bad_option') fail(2, e.message);
      fail(1, e instanceof AidocsSearchError ? `${e.code}: ${e.message}` : e.message);
    }
    return;
  }
  try {
    if (v.queries) {
      for (const [id, text] of await readQueries(v.queries)) {
        write(`{"query_id":${JSON.stringify(id)},"results":${await index.searchRaw(text, opts)}}`);
      }
      return;
    }
    const text = positionals.join(' ');
    if (!text) fail(2, `give a query text or --queries FILE.jsonl\n${USAGE}`);
    const { raw, corrections, correctedQuery, facets } = await index.searchRawDetailed(text, opts);
    if (v.json) {
      write(`{"query":${JSON.stringify(text)},"corrections":${corrections},"results":${raw}${v.facets ? `,"facets":${facets}` : ''}}`);
      return;
    }
    if (correctedQuery != null) process.stderr.write(`showing results for ${JSON.stringify(correctedQuery)}\n`);
    const results = JSON.parse(raw);
    if (!results.length) write(`no results for ${JSON.stringify(text)}`);
    results.forEach((r, i) => {
      write(`${String(i + 1).padStart(2)}. ${r.score.toFixed(4)}  [${r.kind}] ${r.title}  ${r.url}`);
      for (const s of r.sections) if (s.anchor) write(`      § ${s.title} (${s.score.toFixed(4)})  ${s.url}`);
    });
  } catch (e) {
    if (e instanceof AidocsSearchError && e.code === 'bad_option') fail(2, e.message);
    fail(1, e instanceof AidocsSearchError ? `${e.code}: ${e.message}` : e.message);
  }
}

main(process.argv.slice(2));
