import type { QueryEncoder, ShardLoader } from './search.js';

export const MAX_QUERY_CHARS: 512;
export const MAX_K: 50;

export interface SearchHandlerOptions {
  /** Reads one index file by name; resolve null (or throw) when it does not exist. */
  loadShard: ShardLoader;
  /** false (default), true for `*`, or one allowed origin. */
  cors?: boolean | string;
  /** Cache-Control of 200 responses (default `public, max-age=60`). */
  cacheControl?: string;
  /** Route of the API (default `/search`). */
  path?: string;
  /** Route of evidence for agents (default: `context` next to `path`; null turns it off). */
  contextPath?: string | null;
  /** Route of the MCP endpoint (default: `mcp` next to `path`; null turns it off). */
  mcpPath?: string | null;
  /** The URL the docs site's root is at: evidence and MCP results cite pages under it. */
  siteUrl?: string;
  /** Origins allowed to call the handler from a browser (403 `forbidden_origin` for others); default: any. */
  allowedOrigins?: string[] | null;
  wasm?: string | URL | BufferSource | WebAssembly.Module;
  cacheBytes?: number;
  /** A full encoder (aidocs-search/full-encoder) for mode=vector|hybrid, where the runtime can hold the model. */
  encoder?: QueryEncoder | null;
}

/** `GET /search?q=&k=&kind=&mode=`, `GET /context?q=&tokens=` and `POST /mcp` on the Fetch API; 400 for bad requests, 503 when the index fails. */
export function createSearchHandler(options: SearchHandlerOptions): (request: Request) => Promise<Response>;
/** Adapts a Fetch handler to `http.createServer`. */
export function toNodeListener(handler: (request: Request) => Promise<Response>): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
