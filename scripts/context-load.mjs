#!/usr/bin/env node
// What evidence for agents costs at the handler (issue 22): the Fetch handler of site-plugin on an
// index directory, each query answered by `GET /context` and by the MCP tool `get_context` (a
// JSON-RPC `tools/call` on `POST /mcp`), from a cold handler (nothing cached: the bytes and files one
// call fetches) and warm (latency p50/p95 in-process on Node, the handler's own time).
//
//   node scripts/context-load.mjs INDEX_DIR QUERIES.jsonl [--tokens 2000] [--limit 100]
//
// Prints one line per measure. The index must be a v9 build (section text files); queries are
// `{"id","text"}` lines. Needs `npm run build --prefix site-plugin`.
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const { createSearchHandler } = await import(join(repo, 'site-plugin', 'src', 'handler.js'));

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const [dir, queriesFile] = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!dir || !queriesFile) {
  console.error('usage: node scripts/context-load.mjs INDEX_DIR QUERIES.jsonl [--tokens 2000] [--limit 100]');
  process.exit(2);
}
const tokens = Number(opt('tokens', 2000));
const limit = Number(opt('limit', 100));
const queries = readFileSync(queriesFile, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l).text)
  .slice(0, limit);

function handlerCounting() {
  const count = { bytes: 0, files: 0 };
  const handler = createSearchHandler({
    loadShard: async (name) => {
      const b = new Uint8Array(await readFile(join(resolve(dir), name)));
      count.bytes += b.length;
      count.files += 1;
      return b;
    },
  });
  return { handler, count };
}

const contextRequest = (q) => new Request(`http://127.0.0.1/context?q=${encodeURIComponent(q)}&tokens=${tokens}`);
let id = 0;
const mcpRequest = (q) =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'get_context', arguments: { query: q, tokens } } }),
  });

const pct = (v, p) => {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.round((s.length - 1) * p))];
};

for (const [name, make] of [
  ['GET /context', contextRequest],
  ['MCP get_context', mcpRequest],
]) {
  // Cold: a new handler per query (only the wasm module stays loaded), counting what it fetches.
  const bytes = [];
  const files = [];
  for (const q of queries) {
    const { handler, count } = handlerCounting();
    const res = await handler(make(q));
    if (res.status !== 200) throw new Error(`${name} ${q}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    bytes.push(count.bytes);
    files.push(count.files);
  }
  // Warm: one handler, every query once to fill its cache, then timed.
  const { handler } = handlerCounting();
  for (const q of queries) await (await handler(make(q))).arrayBuffer();
  const ms = [];
  for (const q of queries) {
    const t = performance.now();
    await (await handler(make(q))).arrayBuffer();
    ms.push(performance.now() - t);
  }
  console.log(
    `${name} (${queries.length} queries, ${tokens} tokens): cold ${pct(bytes, 0.5)} B p50, ${pct(bytes, 0.95)} B p95, ${pct(files, 0.5)} files p50 (manifest included); warm latency p50 ${pct(ms, 0.5).toFixed(2)} ms, p95 ${pct(ms, 0.95).toFixed(2)} ms`,
  );
}
