// The search API on Bun, reading the index from a directory.
//   bun examples/bun-server.js path/to/_search 8787
//   → GET http://127.0.0.1:8787/search?q=...   (port 0 picks a free port)
import { createSearchHandler } from '../src/handler.js';

const dir = (process.argv[2] ?? '.').replace(/\/+$/, '');
const port = Number(process.argv[3] ?? 8787);
const handler = createSearchHandler({
  cors: true,
  loadShard: async (name) => {
    const file = Bun.file(`${dir}/${name}`);
    return (await file.exists()) ? new Uint8Array(await file.arrayBuffer()) : null;
  },
});
const server = Bun.serve({ hostname: '127.0.0.1', port, fetch: handler });
console.log(`search API on http://${server.hostname}:${server.port}/search?q=... over ${dir}`);
