// A Cloudflare Worker answering /search from index files stored in R2 (bucket binding SEARCH_INDEX),
// uploaded from the directory `aidocs-index build` wrote (`wrangler r2 object put` per file, or rclone).
// wrangler.toml: main = "examples/cloudflare-worker.js"; [[r2_buckets]] binding = "SEARCH_INDEX" ...
// Workers import .wasm files as compiled WebAssembly.Module objects. The full module has every
// language's stemmer (a worker answers readers of every language); an English, Chinese, Japanese or
// Korean site can import the lean aidocs_search_bg.wasm instead (about 76 KB gzipped smaller).
import wasm from '../wasm/aidocs_search_full_bg.wasm';
import { createSearchHandler } from '../src/handler.js';

let handler;

export default {
  async fetch(request, env) {
    handler ??= createSearchHandler({
      wasm,
      cors: true,
      loadShard: async (name) => {
        const object = await env.SEARCH_INDEX.get(name);
        return object ? new Uint8Array(await object.arrayBuffer()) : null;
      },
    });
    return handler(request);
  },
};
