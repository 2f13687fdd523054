// The search API on Deno, reading the index from a directory.
//   deno run --allow-net=127.0.0.1 --allow-read examples/deno-server.js path/to/_search 8787
//   → GET http://127.0.0.1:8787/search?q=...   (port 0 picks a free port)
import { createSearchHandler } from '../src/handler.js';

const dir = (Deno.args[0] ?? '.').replace(/\/+$/, '');
const port = Number(Deno.args[1] ?? 8787);
const handler = createSearchHandler({
  cors: true,
  loadShard: (name) =>
    Deno.readFile(`${dir}/${name}`).catch((e) => (e instanceof Deno.errors.NotFound ? null : Promise.reject(e))),
});
Deno.serve(
  {
    hostname: '127.0.0.1',
    port,
    onListen: ({ hostname, port }) => console.log(`search API on http://${hostname}:${port}/search?q=... over ${dir}`),
  },
  handler,
);
