// The engines compared. Each `build(ctx)` writes a deployable site root (`ctx.root`): the index files
// plus `engine.js`, the ES module the browser harness imports (browser.mjs). Builds run as their own
// processes under /usr/bin/time, so build time and peak memory are each engine's alone. Peers run with
// the settings their docs give for a search box; where a peer has a typo or prefix option it is on.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build as esbuild } from 'esbuild';

const bench = new URL('..', import.meta.url).pathname;
const repo = join(bench, '..');
const pkg = (p) => JSON.parse(readFileSync(join(bench, 'node_modules', p, 'package.json'), 'utf8')).version;
export const versions = {
  pagefind: pkg('pagefind'),
  minisearch: pkg('minisearch'),
  orama: pkg('@orama/orama'),
  lunr: pkg('lunr'),
  flexsearch: pkg('flexsearch'),
  esbuild: pkg('esbuild'),
};
export const indexBin = () => process.env.AIDOCS_INDEX_BIN ?? join(repo, 'target/release/aidocs-index');

/** Runs `argv` under /usr/bin/time: { seconds, peakMiB } (the largest process of the build's tree). */
export function timed(argv, opts = {}) {
  const r = spawnSync('/usr/bin/time', ['-f', '@@time %e %M', ...argv], { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  const m = /@@time ([\d.]+) (\d+)/.exec(r.stderr ?? '');
  if (r.status !== 0 || !m) throw new Error(`${argv.join(' ')} failed (${r.status}): ${(r.stderr ?? '').slice(-2000)}`);
  return { seconds: Number(m[1]), peakMiB: Number(m[2]) / 1024, stdout: r.stdout, stderr: r.stderr };
}

async function bundle(contents, out) {
  await esbuild({
    stdin: { contents, resolveDir: join(bench, 'lib'), sourcefile: 'engine-entry.mjs' },
    bundle: true,
    format: 'esm',
    minify: true,
    platform: 'browser',
    target: 'es2022',
    outfile: out,
    logLevel: 'error',
  });
}

/** aidocs-search: its indexer, then its JS API and wasm module as the search box loads them. */
function aidocs(mode) {
  return {
    key: `aidocs-${mode}`,
    name: `aidocs-search (${mode})`,
    ours: true,
    async build({ corpus, root, work }) {
      // Lexical: an empty cache, like every peer. Hybrid: the chunk embeddings come from the
      // corpus' persistent cache (embedding is the expensive step: its cost per 1,000 chunks is
      // reported apart), everything else is rebuilt.
      const cache = mode === 'lexical' ? join(work, 'aidocs-cache') : corpus.cache;
      rmSync(join(work, 'aidocs-cache'), { recursive: true, force: true });
      if (mode === 'hybrid') {
        rmSync(join(cache, 'tantivy'), { recursive: true, force: true });
        rmSync(join(cache, 'LAYOUT'), { force: true });
      }
      const index = join(root, 'index');
      const t = timed([indexBin(), 'build', corpus.input, '--out', index, '--cache-dir', cache, '--json', mode === 'lexical' ? '--no-embeddings' : '--require-embeddings']);
      const summary = JSON.parse(t.stdout);
      for (const d of ['src', 'wasm']) mkdirSync(join(root, 'aidocs', d), { recursive: true });
      for (const f of ['dist/search.js', 'wasm/aidocs_search_bg.wasm']) cpSync(join(repo, 'site-plugin', f), join(root, 'aidocs', f));
      writeFileSync(
        join(root, 'engine.js'),
        `import { openIndex } from '/aidocs/dist/search.js';\n` +
          `export async function open() {\n  const index = await openIndex('/index/');\n` +
          // As the search box runs it (mode="auto"): lexical while the reader types, the index's mode
          // once typing pauses.
          `  return { async search(q, vector, typing) {\n` +
          `    const mode = typing ? 'lexical' : '${mode}';\n` +
          `    return (await index.search(q, { k: 10, mode, prefix: true, typos: true })).map((r) => r.id);\n  } };\n}\n`,
      );
      return { ...t, indexDir: index, summary };
    },
  };
}

/** Pagefind indexes HTML: one page per document, the same title and text as every engine gets. */
const pagefind = {
  key: 'pagefind',
  name: 'Pagefind',
  async build({ docs, root }) {
    for (const d of docs) {
      const p = join(root, 'd', ...d.id.split('/').map(encodeURIComponent));
      mkdirSync(p, { recursive: true });
      const paras = d.text.split(/\n{2,}/).map((x) => `<p>${escapeHtml(x)}</p>`).join('');
      writeFileSync(
        join(p, 'index.html'),
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(d.title)}</title></head>` +
          `<body><main data-pagefind-body><h1>${escapeHtml(d.title)}</h1>${paras}</main></body></html>`,
      );
    }
    writeFileSync(join(root, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head><body></body></html>');
    const bin = join(bench, 'node_modules/.bin/pagefind');
    const t = timed([bin, '--site', root, '--output-subdir', 'pagefind', '--quiet']);
    if (!existsSync(join(root, 'pagefind', 'pagefind.js'))) throw new Error(`pagefind wrote no index: ${t.stderr}`);
    writeFileSync(
      join(root, 'engine.js'),
      `export async function open() {\n  const pf = await import('/pagefind/pagefind.js');\n  await pf.init();\n` +
        `  return { async search(q) {\n    const r = await pf.search(q);\n` +
        `    const top = await Promise.all(r.results.slice(0, 10).map((x) => x.data()));\n` +
        `    return top.map((d) => decodeURIComponent(d.url.replace(/^\\/d\\//, '').replace(/\\/$/, '')));\n  } };\n}\n`,
    );
    return { ...t, indexDir: join(root, 'pagefind') };
  },
};

/** An in-memory peer: its index is one JSON file the page downloads whole, its code one bundle. */
function peer(key) {
  return {
    key,
    peer: key,
    async build({ pagesFile, root }) {
      const out = join(root, 'index.json');
      const t = timed([process.execPath, join(bench, 'lib/build-peer.mjs'), key, pagesFile, out]);
      await bundle(
        `import { load } from './peers/${key}.mjs';\n` +
          `export async function open() { return load(await (await fetch('/index.json')).text()); }\n`,
        join(root, 'engine.js'),
      );
      return { ...t, indexDir: null, indexFiles: [out] };
    },
  };
}

export async function all() {
  const peers = ['minisearch', 'orama', 'orama-hybrid', 'lunr', 'flexsearch'].map(peer);
  for (const p of peers) {
    const m = await import(`./peers/${p.key}.mjs`);
    p.name = m.name;
    p.needsVectors = Boolean(m.needsVectors);
  }
  return [aidocs('lexical'), aidocs('hybrid'), pagefind, ...peers];
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
