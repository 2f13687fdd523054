#!/usr/bin/env bash
# wasm query-side figures (issue 3): warm latency in Node and headless Chromium, cold and per-keystroke
# bytes, module sizes. Builds SciFact (with vectors: the first run embeds it, tens of minutes; point
# SCIFACT_CACHE at an existing build cache to reuse its vectors) and a 10,000-page site (lexical unless
# SITE10K_VECTORS=1, below)
# from ../shared/data with the release indexer, then runs every mode in MODES (default: lexical hybrid).
# Prints figures; asserts nothing. Needs ./dev.sh setup (wasm toolchain, chromium, npm packages, model).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=../shared/data
[ -d "$DATA/scifact" ] || { echo "skipped: $DATA is absent"; exit 0; }
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --release -q -p aidocs-index
npm run --silent build --prefix site-plugin >/dev/null
B=target/release/aidocs-index
W=target/bench
mkdir -p $W
$B build "$DATA/scifact/docs.jsonl" --out $W/scifact --cache-dir "${SCIFACT_CACHE:-target/bench-cache/scifact}" >/dev/null 2>&1
[ -d $W/site-10k ] || python3 scripts/make-corpus.py 10000 $W/site-10k
# The 10,000-page site is lexical unless SITE10K_VECTORS=1: embedding its 22,000 chunks takes about an
# hour on 2 cores (SITE10K_CACHE reuses a build cache that has them).
if [ "${SITE10K_VECTORS:-0}" = 1 ]; then
  $B build $W/site-10k --out $W/out-site-10k --cache-dir "${SITE10K_CACHE:-target/bench-cache/site-10k}" --require-embeddings >/dev/null 2>&1
else
  $B build $W/site-10k --out $W/out-site-10k --cache-dir "${SITE10K_CACHE:-target/bench-cache/site-10k}" --no-embeddings >/dev/null 2>&1
fi
# SciFact's 300 test queries (the ids of qrels/test.tsv).
python3 - "$DATA/scifact" > $W/scifact-test-queries.jsonl <<'PY'
import json, sys
d = sys.argv[1]
ids = {l.split("\t")[0] for l in open(f"{d}/qrels/test.tsv") if not l.startswith(("qid", "query"))}
for l in open(f"{d}/queries.jsonl"):
    q = json.loads(l)
    if str(q.get("_id", q.get("id"))) in ids:
        print(json.dumps({"id": str(q.get("_id", q.get("id"))), "text": q["text"]}))
PY
echo "machine: $(nproc) cores; $(node --version); $(/usr/bin/chromium --version 2>/dev/null); $(date -u +%F)"
$B inspect $W/scifact | head -2
$B inspect $W/out-site-10k | head -2
for mode in ${MODES:-lexical hybrid}; do
MODE=$mode node scripts/bench-wasm.mjs \
  "scifact=$W/scifact:$W/scifact-test-queries.jsonl:vitamin d deficiency and cancer risk" \
  "site-10k=$W/out-site-10k:$W/scifact-test-queries.jsonl:how to authenticate api requests"
done
