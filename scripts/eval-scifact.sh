#!/usr/bin/env bash
# SciFact (BEIR) relevance and payload report: lexical, vector and hybrid, with the full query encoder
# (the model, natively) and the static one (the browser's fitted term rows). Prints figures; asserts
# nothing. The first run embeds the 5,183 abstracts and their titles (tens of minutes on 2 cores;
# cached after, so reruns take about a minute).
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
CACHE=${CACHE:-target/bench-cache/scifact}  # never beside the output (issue 18)
$B build "$DATA/docs.jsonl" --out "$OUT" --cache-dir "$CACHE" --require-embeddings
$B inspect "$OUT" | head -3
echo "index on disk: $(du -sb "$OUT" | cut -f1) B in $(find "$OUT" -type f | wc -l) files (term rows $(du -sb "$OUT/q" | cut -f1) B, vectors $(du -sb "$OUT/v" | cut -f1) B)"
for split in ${SPLIT:-train test}; do
  q=(--index "$OUT" --queries "$DATA/queries.jsonl" --qrels "$DATA/qrels/$split.tsv")
  echo "== SciFact $split: lexical";                            $B eval "${q[@]}"
  for enc in full static; do
    echo "== SciFact $split: vector, $enc encoder";             $B eval "${q[@]}" --mode vector --encoder $enc
    echo "== SciFact $split: vector, $enc encoder, exact";      $B eval "${q[@]}" --mode vector --encoder $enc --nprobe 0
    echo "== SciFact $split: hybrid, $enc encoder";             $B eval "${q[@]}" --mode hybrid --encoder $enc
    echo "== SciFact $split: hybrid, $enc encoder, exact";      $B eval "${q[@]}" --mode hybrid --encoder $enc --nprobe 0
    echo "== SciFact $split: hybrid RRF k=60, $enc encoder";    $B eval "${q[@]}" --mode hybrid --encoder $enc --fusion rrf
  done
  if [ "$split" = train ]; then
    for w in 0.4 0.5 0.55 0.6 0.7; do
      echo "== SciFact train: hybrid min-max, static encoder, BM25 weight $w"
      $B eval "${q[@]}" --mode hybrid --encoder static --lexical-weight $w | head -1
    done
  fi
done
