#!/usr/bin/env node
// Builds wasm-search/ into site-plugin/wasm/ (wasm-pack, web target, wasm-opt -Oz from npm `binaryen`,
// never Debian's: see ../shared/TOOLCHAIN.md) and prints the sizes readers pay.
// `build-wasm.mjs encoder` builds wasm-encoder/ (the full model for Node and edge, never shipped to
// browsers) into site-plugin/wasm-encoder/ instead.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const encoder = process.argv[2] === 'encoder';
const crate = resolve(pkg, '..', encoder ? 'wasm-encoder' : 'wasm-search');
const out = join(pkg, encoder ? 'wasm-encoder' : 'wasm');
const name = encoder ? 'aidocs_encoder' : 'aidocs_search';
const bin = join(pkg, 'node_modules', '.bin');
if (!existsSync(join(bin, 'wasm-opt'))) {
  console.error('wasm-opt from the npm package binaryen is missing: run `npm ci` in site-plugin first');
  process.exit(1);
}
const env = { ...process.env, PATH: `${bin}:${process.env.HOME}/.cargo/bin:${process.env.PATH}` };
const r = spawnSync(
  'wasm-pack',
  ['build', crate, '--release', '--target', 'web', '--out-dir', out, '--out-name', name, '--no-pack'],
  { stdio: 'inherit', env },
);
if (r.status !== 0) {
  console.error(`wasm-pack build failed (exit ${r.status ?? r.error})`);
  process.exit(1);
}
const size = (f) => {
  const b = readFileSync(join(out, f));
  return `${f}: ${statSync(join(out, f)).size} B, ${gzipSync(b, { level: 9 }).length} B gzipped`;
};
console.log(size(`${name}_bg.wasm`));
console.log(size(`${name}.js`));
