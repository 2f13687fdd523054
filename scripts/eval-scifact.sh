#!/usr/bin/env bash
# SciFact (BEIR) relevance and payload report: lexical, vector and hybrid (full query encoder). Prints
# figures; asserts nothing. The first run embeds the 5,183 abstracts (minutes on 2 cores; cached after).
#   scripts/eval-scifact.sh                 train and test splits
#   SPLIT=test scripts/eval-scifact.sh      one split
#   OUT=dir CACHE=dir scripts/eval-scifact.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=../shared/data/scifact
[ -f "$DATA/docs.jsonl" ] || { echo "skipped: $DATA is absent"; exit 0; }
cargo build --release -q -p aidocs-index
B=target/release/aidocs-index
OUT=${OUT:-target/bench/scifact}
CACHE=${CACHE:-target/bench/scifact-cache}
$B build "$DATA/docs.jsonl" --out "$OUT" --cache-dir "$CACHE"
$B inspect "$OUT" | head -3
for split in ${SPLIT:-train test}; do
  q=(--index "$OUT" --queries "$DATA/queries.jsonl" --qrels "$DATA/qrels/$split.tsv")
  echo "== SciFact $split: lexical";                 $B eval "${q[@]}"
  echo "== SciFact $split: vector (full encoder)";   $B eval "${q[@]}" --mode vector
  echo "== SciFact $split: vector, nprobe 8";        $B eval "${q[@]}" --mode vector --nprobe 8
  for w in 0.4 0.5 0.55 0.6 0.7; do
    echo "== SciFact $split: hybrid min-max, BM25 weight $w"; $B eval "${q[@]}" --mode hybrid --lexical-weight $w
  done
  echo "== SciFact $split: hybrid RRF k=60";         $B eval "${q[@]}" --mode hybrid --fusion rrf
done
