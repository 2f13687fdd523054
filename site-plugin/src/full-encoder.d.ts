/** A loaded full query encoder (all-MiniLM-L6-v2 in wasm). */
export declare class FullEncoder {
  /** The model name index manifests record. */
  readonly modelName: string;
  readonly dims: number;
  /** The unit embedding of the text's first 256 tokens. */
  embed(text: string): Float32Array;
  free(): void;
}

export interface FullEncoderOptions {
  /** A directory with config.json, vocab.txt and model.safetensors (default: $AIDOCS_MODEL_DIR, then ~/.cache/aidocs/models/all-MiniLM-L6-v2). */
  modelDir?: string;
  /** The model files themselves, for runtimes without a file system. */
  files?: { config: string | Uint8Array; vocab: string | Uint8Array; weights: Uint8Array | ArrayBuffer };
  /** The encoder wasm module (bytes or a compiled module); default the file next to this package. */
  wasm?: WebAssembly.Module | BufferSource;
}

export declare function loadFullEncoder(options?: FullEncoderOptions): Promise<FullEncoder>;
