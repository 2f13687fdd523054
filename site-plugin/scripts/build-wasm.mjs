#!/usr/bin/env node
// Builds wasm-search/ into site-plugin/wasm/ (wasm-pack, web target, wasm-opt -Oz from npm `binaryen`,
// never Debian's: see ../shared/TOOLCHAIN.md) and prints the sizes readers pay.
// The search module is built twice from the same code: `aidocs_search_bg.wasm` without an inflater
// (every platform with DecompressionStream: what readers load) and `aidocs_search_full_bg.wasm`
// with one (older browsers, `inflate: 'wasm'`); both share the one JS glue, which is checked.
// `build-wasm.mjs encoder` builds wasm-encoder/ (the full model for Node and edge, never shipped to
// browsers) into site-plugin/wasm-encoder/ instead.
// Then what browsers load is minified with Bun's minifier (the `bun` devDependency the runtime tests
// already use): src/element.js into dist/, src/search.js into dist/search.js with the generated glue
// inlined (same relative path to ../wasm/), and the glue in place for Node. Comments and names are
// most of those files: minified, they cost every reader about 8 KB gzipped less. Node, tests and
// bundlers use src/.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, existsSync, renameSync, rmSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir, homedir } from 'node:os';
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
// Panic locations name their source files, and rustc writes a path dependency's (core/) and a
// registry crate's absolute: the module would carry the build machine's paths (a clone at
// /check/work/main built a lean module 57 B larger than one at /work/main). Both prefixes, as given
// and resolved, are remapped to nothing. The flags go in as `--config`, which cargo appends to the
// config files' `rustflags` (wasm-encoder/.cargo/config.toml's getrandom backend) where
// CARGO_ENCODED_RUSTFLAGS would replace them; RUSTFLAGS, when set, still replaces both.
const cargoHome = resolve(crate, process.env.CARGO_HOME || join(homedir(), '.cargo'));
const prefixes = new Set();
for (const p of [resolve(pkg, '..'), cargoHome]) {
  prefixes.add(p);
  try {
    prefixes.add(realpathSync(p));
  } catch {
    // No such directory (a vendored build without a cargo home): nothing of it to remap.
  }
}
const env = { ...process.env, PATH: `${bin}:${process.env.HOME}/.cargo/bin:${process.env.PATH}` };
// The search module is built with its standard library compiled for size (issue 21): `-Zbuild-std`
// with core's `optimize_for_size` algorithms and the `immediate-abort` panic strategy, which drops
// the panic machinery (messages, locations, formatting of them) that `panic = "abort"` still
// carries: a panic was already an `unreachable` trap for the reader, now without the code that
// formatted a message nobody saw. Lean module 111.1 -> 99.7 KB gzipped. Both flags are unstable
// options of the stable compiler, enabled with RUSTC_BOOTSTRAP for this build only (the native
// workspace never sees them); the standard library's sources (`rustup component add rust-src`,
// part of ./dev.sh setup) are remapped like ours. The encoder (never shipped to browsers) is built
// as before.
const sizeFirstStd = !encoder;
let sysrootSrc;
if (sizeFirstStd) {
  const sysroot = spawnSync('rustc', ['--print', 'sysroot'], { env, encoding: 'utf8', cwd: crate });
  sysrootSrc = join(sysroot.stdout.trim(), 'lib', 'rustlib', 'src', 'rust');
  if (sysroot.status !== 0 || !existsSync(join(sysrootSrc, 'library', 'std', 'Cargo.toml'))) {
    console.error('the standard library sources are missing: run `rustup component add rust-src` (./dev.sh setup does)');
    process.exit(1);
  }
  prefixes.add(sysrootSrc);
  try {
    prefixes.add(realpathSync(sysrootSrc));
  } catch {
    // Checked above: it exists.
  }
}
const remap = [...prefixes].flatMap((p) => ['--remap-path-prefix', `${p}/=`]);
const rustflags = sizeFirstStd ? [...remap, '-Zunstable-options', '-Cpanic=immediate-abort'] : remap;
const remapConfig = ['--config', `target.wasm32-unknown-unknown.rustflags=${JSON.stringify(rustflags)}`];
const buildStd = sizeFirstStd ? ['-Zbuild-std=std,panic_abort', '-Zbuild-std-features=optimize_for_size'] : [];
const packEnv = sizeFirstStd ? { ...env, RUSTC_BOOTSTRAP: '1' } : env;
function wasmPack(outDir, extra = []) {
  const r = spawnSync(
    'wasm-pack',
    ['build', crate, '--release', '--target', 'web', '--out-dir', outDir, '--out-name', name, '--no-pack', '--', ...remapConfig, ...buildStd, ...extra],
    { stdio: 'inherit', env: packEnv },
  );
  if (r.status !== 0) {
    console.error(`wasm-pack build failed (exit ${r.status ?? r.error})`);
    process.exit(1);
  }
}
if (encoder) {
  wasmPack(out);
} else {
  // With the inflater first (into a scratch directory), then the lean module into wasm/.
  const scratch = mkdtempSync(join(tmpdir(), 'aidocs-wasm-'));
  wasmPack(scratch);
  wasmPack(out, ['--no-default-features']);
  if (!readFileSync(join(scratch, `${name}.js`)).equals(readFileSync(join(out, `${name}.js`)))) {
    console.error('the two builds of the search module need different JS glue: they cannot share it');
    process.exit(1);
  }
  renameSync(join(scratch, `${name}_bg.wasm`), join(out, `${name}_full_bg.wasm`));
  rmSync(scratch, { recursive: true, force: true });
}
if (!encoder) {
  // A second wasm-opt pass over what wasm-pack wrote (after its `-Oz --converge`): about 150 B less
  // gzipped on the lean module. Imports and exports are kept, so the shared glue still fits.
  // `--low-memory-unused` lets it fold constant offsets into loads and stores (673 B less gzipped):
  // it assumes no address below 1024 is reached by an address that wraps around, which holds for
  // Rust's wasm32 code (its pointer arithmetic never wraps; what lies down there is the far end of
  // the stack, which the stack pointer reaches directly).
  const features = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-reference-types', '--enable-mutable-globals'];
  for (const f of [`${name}_bg.wasm`, `${name}_full_bg.wasm`]) {
    const r = spawnSync(join(bin, 'wasm-opt'), [join(out, f), '-Oz', '--low-memory-unused', '--strip-producers', ...features, '-o', join(out, f)], { stdio: 'inherit', env });
    if (r.status !== 0) {
      console.error(`wasm-opt over ${f} failed (exit ${r.status ?? r.error})`);
      process.exit(1);
    }
  }
  const bun = join(bin, 'bun');
  const minify = (from, to, bundle = false) => {
    const mode = bundle ? ['--bundle', '--format', 'esm'] : ['--no-bundle'];
    const r = spawnSync(bun, ['build', join(pkg, from), ...mode, '--minify', '--outfile', join(pkg, to)], { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (r.status !== 0) {
      console.error(`minifying ${from} failed (exit ${r.status ?? r.error}): is the bun devDependency installed (npm ci)?`);
      process.exit(1);
    }
  };
  minify('src/element.js', 'dist/element.js');
  // The engine with the glue inlined: one request and about 400 B less than the two files.
  minify('src/search.js', 'dist/search.js', true);
  minify(`wasm/${name}.js`, `wasm/${name}.js`);
}
const size = (f) => {
  const b = readFileSync(join(out, f));
  return `${f}: ${statSync(join(out, f)).size} B, ${gzipSync(b, { level: 9 }).length} B gzipped`;
};
console.log(size(`${name}_bg.wasm`));
if (!encoder) console.log(size(`${name}_full_bg.wasm`));
console.log(size(`${name}.js`));
if (!encoder) {
  const gz = (f) => `${f}: ${gzipSync(readFileSync(join(pkg, f)), { level: 9 }).length} B gzipped`;
  console.log(gz('dist/search.js'));
  console.log(gz('dist/element.js'));
}
