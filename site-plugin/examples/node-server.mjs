// The search API on Node's http server, reading the index from a directory.
//   node examples/node-server.mjs path/to/_search 8787   →  GET http://127.0.0.1:8787/search?q=...
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createSearchHandler, toNodeListener } from '../src/handler.js';

const dir = resolve(process.argv[2] ?? '.');
const port = Number(process.argv[3] ?? 8787);
const handler = createSearchHandler({
  cors: true,
  loadShard: (name) => readFile(join(dir, name)).then((b) => new Uint8Array(b), (e) => (e.code === 'ENOENT' ? null : Promise.reject(e))),
});
createServer(toNodeListener(handler)).listen(port, '127.0.0.1', () => {
  console.log(`search API on http://127.0.0.1:${port}/search?q=... over ${dir}`);
});
