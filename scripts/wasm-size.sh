#!/usr/bin/env bash
# Where the lean wasm module's bytes go (issue 21). Builds the module every reader loads as
# site-plugin/scripts/build-wasm.mjs does (wasm-search without default features, its standard library
# compiled for size, wasm-bindgen, wasm-opt -Oz from npm `binaryen`), once more keeping function
# names, and prints: the shipped module's code and
# data, raw and gzipped; twiggy's top items of the named copy (sizes after wasm-opt; an exported
# function's size includes what was inlined into it); and the code that is copies of one generic
# function (the same name, other type parameters or closures). Prints figures; asserts nothing.
# Needs `cargo install twiggy --locked` (crates.io), the wasm toolchain of ./dev.sh setup and
# `npm ci` in site-plugin. TOP=N sets how many items are listed (default 40).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
command -v twiggy >/dev/null || { echo "twiggy is missing: cargo install twiggy --locked"; exit 1; }
BIN=site-plugin/node_modules/.bin
[ -x $BIN/wasm-opt ] || { echo "wasm-opt from npm binaryen is missing: run npm ci in site-plugin"; exit 1; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
command -v wasm-bindgen >/dev/null || { echo "wasm-bindgen is missing: run ./dev.sh setup"; exit 1; }
# Source paths remapped as build-wasm.mjs remaps them (the same bytes, and the same cargo cache): the
# repo and the cargo home (a relative CARGO_HOME read from wasm-search/, as cargo there reads it),
# each as given and resolved.
ROOT=$(pwd -P)
CH=$(cd wasm-search && realpath -s -m "${CARGO_HOME:-$HOME/.cargo}")
# The standard library is compiled from its sources for size, with the immediate-abort panic strategy
# (build-wasm.mjs says why), its sources remapped too.
SRC=$(cd wasm-search && rustc --print sysroot)/lib/rustlib/src/rust
[ -f "$SRC/library/std/Cargo.toml" ] || { echo "the standard library sources are missing: rustup component add rust-src"; exit 1; }
REMAP=""
for p in "$ROOT" "$CH" "$(realpath -m "$CH")" "$SRC" "$(realpath -m "$SRC")"; do
  case ",$REMAP," in *"\"$p/=\""*) ;; *) REMAP="$REMAP${REMAP:+, }\"--remap-path-prefix\", \"$p/=\"" ;; esac
done
(cd wasm-search && RUSTC_BOOTSTRAP=1 cargo build -q --release --target wasm32-unknown-unknown --no-default-features \
  -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size \
  --config "target.wasm32-unknown-unknown.rustflags=[$REMAP, \"-Zunstable-options\", \"-Cpanic=immediate-abort\"]")
TARGET=${CARGO_TARGET_DIR:-wasm-search/target}
wasm-bindgen --target web --out-dir "$OUT" "$TARGET/wasm32-unknown-unknown/release/aidocs_wasm_search.wasm"
FEATURES="--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types --enable-mutable-globals"
# As shipped (the flags of wasm-search/Cargo.toml's wasm-pack profile, then build-wasm.mjs's pass).
$BIN/wasm-opt "$OUT/aidocs_wasm_search_bg.wasm" -Oz --converge $FEATURES -o "$OUT/a.wasm"
$BIN/wasm-opt "$OUT/a.wasm" -Oz --low-memory-unused --strip-producers $FEATURES -o "$OUT/shipped.wasm"
# The same passes, keeping the names section for twiggy.
$BIN/wasm-opt "$OUT/aidocs_wasm_search_bg.wasm" -Oz --converge -g $FEATURES -o "$OUT/b.wasm"
$BIN/wasm-opt "$OUT/b.wasm" -Oz --low-memory-unused -g $FEATURES -o "$OUT/named.wasm"
node - "$OUT/shipped.wasm" <<'JS'
// The module's sections, raw and gzipped (-9) on their own: code and data are what cost.
const { readFileSync } = require('node:fs');
const { gzipSync } = require('node:zlib');
const b = readFileSync(process.argv[2]);
const gz = (x) => gzipSync(x, { level: 9 }).length;
const names = { 0: 'custom', 1: 'type', 2: 'import', 3: 'function', 4: 'table', 5: 'memory', 6: 'global', 7: 'export', 8: 'start', 9: 'element', 10: 'code', 11: 'data', 12: 'data count' };
let i = 8;
const leb = () => {
  let r = 0, s = 0, x;
  do { x = b[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  return r;
};
console.log(`lean module as shipped: ${b.length} B, ${gz(b)} B gzipped`);
while (i < b.length) {
  const id = b[i++];
  const size = leb();
  const body = b.subarray(i, i + size);
  if (size > 1024) console.log(`  ${(names[id] ?? id).padEnd(10)} ${String(size).padStart(7)} B, ${String(gz(body)).padStart(6)} B gzipped alone`);
  i += size;
}
JS
echo
echo "top items (named copy, after wasm-opt):"
twiggy top -n "${TOP:-40}" "$OUT/named.wasm" | grep -v '"function names"\|"data names"\|"local names"'
echo
twiggy top -n 100000 "$OUT/named.wasm" | python3 -c '
import re, sys, collections
# Generic code compiled more than once: the same path with another hash (type parameters, closures).
copies = collections.defaultdict(list)
for line in sys.stdin:
    m = re.match(r"\s*(\d+) ┊\s*[\d.]+% ┊ (.*)", line)
    if m:
        name = re.sub(r"(::h[0-9a-f]{16}|_\d+)$", "", m.group(2))
        copies[name].append(int(m.group(1)))
extra = sorted(((sum(v) - max(v), len(v), k) for k, v in copies.items() if len(v) > 1), reverse=True)
print(f"generic code compiled more than once: {sum(e for e, _, _ in extra)} B beyond one copy of each; the most:")
for e, n, k in extra[:15]:
    print(f"  {e:>6} B  {n} copies  {k[:110]}")
'
