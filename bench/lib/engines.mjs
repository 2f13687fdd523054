// The engines compared, each behind the same two calls: `build(corpus, dir)` writes its index files
// into `dir` (what a site would deploy), `open(dir)` resolves to `{ search(text, variant) → ids }`.
// Peers run with the settings their docs give for a search box; where a peer has a typo or prefix
// option it is on, so each is measured at its best. Pagefind runs in headless Chromium (browser.mjs):
// its search runtime is browser code.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import lunr from 'lunr';
import FlexSearch from 'flexsearch';
import { create, insertMultiple, search as oramaSearch, save, load } from '@orama/orama';

const repo = new URL('../../', import.meta.url).pathname;
const require = (p) => JSON.parse(readFileSync(new URL(`../node_modules/${p}/package.json`, import.meta.url)));
export const versions = {
  minisearch: require('minisearch').version,
  orama: require('@orama/orama').version,
  lunr: require('lunr').version,
  flexsearch: require('flexsearch').version,
  pagefind: require('pagefind').version,
};

const K = 10;

/** aidocs-search through its JS API and wasm module (what browsers and edge functions run). */
export function aidocs(mode) {
  return {
    name: `aidocs-search (${mode})`,
    key: `aidocs-${mode}`,
    async build(corpus, dir) {
      const bin = process.env.AIDOCS_INDEX_BIN ?? join(repo, 'target/release/aidocs-index');
      // Lexical: a cold build (an empty cache). Hybrid: the chunk embeddings come from the persistent
      // cache (embedding SciFact from scratch takes about 15 CPU-minutes; the note says so).
      const cache = mode === 'lexical' ? join(dir, '..', `${this.key}.cache`) : corpus.cache;
      rmSync(join(dir, '..', `${this.key}.cache`), { recursive: true, force: true });
      const args = ['build', corpus.jsonl, '--out', dir, '--cache-dir', cache];
      args.push(mode === 'lexical' ? '--no-embeddings' : '--require-embeddings');
      const r = spawnSync(bin, args, { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`aidocs-index build failed: ${r.stderr}`);
    },
    async open(dir) {
      const { openIndex } = await import(join(repo, 'site-plugin/src/search.js'));
      const index = await openIndex(async (name) => new Uint8Array(readFileSync(join(dir, name))), { cacheBytes: 256 << 20 });
      return {
        // The search box's settings: the last word is a prefix, typos are corrected.
        async search(text) {
          const results = await index.search(text, { k: K, mode, prefix: true, typos: true });
          return results.map((r) => r.id);
        },
      };
    },
  };
}

export const minisearch = {
  name: 'MiniSearch (prefix, fuzzy 0.2)',
  key: 'minisearch',
  options: { fields: ['title', 'text'], storeFields: [], searchOptions: { boost: { title: 2 }, prefix: true, fuzzy: 0.2 } },
  async build(corpus, dir) {
    const ms = new MiniSearch(this.options);
    ms.addAll(corpus.docs);
    writeFileSync(join(dir, 'index.json'), JSON.stringify(ms));
  },
  async open(dir) {
    const ms = MiniSearch.loadJSON(readFileSync(join(dir, 'index.json'), 'utf8'), this.options);
    return { search: async (text) => ms.search(text).slice(0, K).map((r) => String(r.id)) };
  },
};

const oramaSchema = { id: 'string', title: 'string', text: 'string' };
// Orama's English stemmer and Lucene's English stop words (the list aidocs uses): without them its
// BM25 scores SciFact's long claims at nDCG@10 0.25 (0.28 with stemming alone).
const STOP_WORDS = ['a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with'];
const oramaComponents = { tokenizer: { stemming: true, stopWords: STOP_WORDS } };
export const orama = {
  name: 'Orama (BM25, stemming, stop words, tolerance 1)',
  key: 'orama',
  async build(corpus, dir) {
    const db = create({ schema: oramaSchema, components: oramaComponents });
    await insertMultiple(db, corpus.docs, 1000);
    writeFileSync(join(dir, 'index.json'), JSON.stringify(await save(db)));
  },
  async open(dir) {
    const db = create({ schema: oramaSchema, components: oramaComponents });
    await load(db, JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')));
    return {
      async search(text) {
        const r = await oramaSearch(db, { term: text, properties: ['title', 'text'], boost: { title: 2 }, limit: K, tolerance: 1 });
        return r.hits.map((h) => String(h.document.id));
      },
    };
  },
};

export const lunrEngine = {
  name: 'Lunr',
  key: 'lunr',
  async build(corpus, dir) {
    const idx = lunr(function () {
      this.ref('id');
      this.field('title', { boost: 2 });
      this.field('text');
      for (const d of corpus.docs) this.add(d);
    });
    writeFileSync(join(dir, 'index.json'), JSON.stringify(idx));
  },
  async open(dir) {
    const idx = lunr.Index.load(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')));
    return {
      // The query builder, not the query-string parser, so claims with ':' or '-' are plain text; the
      // last term also matches as a prefix (lunr's trailing wildcard), as a search box would do.
      async search(text) {
        const terms = lunr.tokenizer(text).map((t) => t.toString());
        const r = idx.query((q) => {
          terms.forEach((t, i) => {
            q.term(t, {});
            if (i === terms.length - 1) q.term(t, { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false, boost: 0.5 });
          });
        });
        return r.slice(0, K).map((x) => x.ref);
      },
    };
  },
};

export const flexsearch = {
  name: 'FlexSearch (Document, forward tokenizer, suggest)',
  key: 'flexsearch',
  options: { tokenize: 'forward', document: { id: 'id', index: ['title', 'text'] } },
  async build(corpus, dir) {
    const idx = new FlexSearch.Document(this.options);
    for (const d of corpus.docs) idx.add(d);
    const parts = {};
    await idx.export((key, data) => {
      parts[key] = data;
    });
    writeFileSync(join(dir, 'index.json'), JSON.stringify(parts));
  },
  async open(dir) {
    const idx = new FlexSearch.Document(this.options);
    const parts = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
    for (const [k, v] of Object.entries(parts)) await idx.import(k, v);
    return {
      async search(text) {
        // `suggest`: also pages without every word (without it 289 of 300 claims find nothing).
        const r = idx.search(text, { limit: K, merge: true, suggest: true });
        return r.slice(0, K).map((x) => String(x.id));
      },
    };
  },
};

/** Pagefind indexes HTML: one page per document, the same title and text as every engine gets. */
export const pagefind = {
  name: 'Pagefind',
  key: 'pagefind',
  browser: true,
  async build(corpus, dir) {
    const site = join(dir, 'site');
    for (const d of corpus.docs) {
      const p = join(site, 'd', d.id);
      mkdirSync(p, { recursive: true });
      writeFileSync(
        join(p, 'index.html'),
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(d.title)}</title></head>` +
          `<body><main data-pagefind-body><h1>${escapeHtml(d.title)}</h1><p>${escapeHtml(d.text)}</p></main></body></html>`,
      );
    }
    writeFileSync(join(site, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head><body></body></html>');
    const bin = new URL('../node_modules/.bin/pagefind', import.meta.url).pathname;
    const r = spawnSync(bin, ['--site', site, '--output-subdir', 'pagefind', '--quiet'], { encoding: 'utf8' });
    if (r.status !== 0 || !existsSync(join(site, 'pagefind', 'pagefind.js'))) throw new Error(`pagefind failed: ${r.stderr}${r.stdout}`);
  },
};

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
