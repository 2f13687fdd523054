#!/usr/bin/env bash
# SciFact (BEIR) lexical relevance and payload report. Prints figures; asserts nothing.
#   scripts/eval-scifact.sh            test split (the reported figure)
#   SPLIT=train scripts/eval-scifact.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=../shared/data/scifact
[ -f "$DATA/docs.jsonl" ] || { echo "skipped: $DATA is absent"; exit 0; }
cargo build --release -q -p aidocs-index
B=target/release/aidocs-index
OUT=target/bench/scifact
$B build "$DATA/docs.jsonl" --out "$OUT" --cache-dir target/bench/scifact-cache
$B inspect "$OUT" | head -3
for split in ${SPLIT:-train test}; do
  echo "== SciFact $split split (lexical)"
  $B eval --index "$OUT" --queries "$DATA/queries.jsonl" --qrels "$DATA/qrels/$split.tsv"
done
