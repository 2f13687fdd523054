#!/usr/bin/env bash
# Build throughput and peak memory of lexical builds (cold cache, then warm, then one page edited).
# Prints figures; asserts nothing. Corpora come from ../shared/data (skipped when absent).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=../shared/data
[ -d "$DATA" ] || { echo "skipped: $DATA is absent"; exit 0; }
cargo build --release -q -p aidocs-index
B=$PWD/target/release/aidocs-index
W=target/bench
mkdir -p $W
[ -d $W/site-10k ] || python3 scripts/make-corpus.py 10000 $W/site-10k
[ -d $W/empty ] || mkdir -p $W/empty

run() { # name, args...
  local name=$1; shift
  rm -rf "$W/out-$name" "target/bench-cache/$name"
  local t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o $W/mem "$B" build "$@" --out "$W/out-$name" --cache-dir "target/bench-cache/$name" --json > $W/summary.json 2>/dev/null
  local t1=$(date +%s.%N)
  python3 - "$name" "$t0" "$t1" <<'PY'
import json, sys
name, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
s = json.load(open("target/bench/summary.json")); mem = int(open("target/bench/mem").read().split()[-1])
print(f"{name:16} {s['pages']:6} pages {s['chunks']:7} chunks {s['output']['bytes']/1e6:7.2f} MB out {s['output']['files']:5} files  "
      f"cold {t1-t0:6.2f} s  peak {mem/1024:6.0f} MiB  warnings {len(s['warnings'])}")
PY
}
echo "machine: $(nproc) cores, $(free -g | awk '/Mem/{print $2}') GiB; $(rustc --version)"
run mintlify-docs "$DATA/sites/mintlify-docs"
run pipecat-docs "$DATA/sites/pipecat-docs"
run github-rest $W/empty --openapi "$DATA/openapi/github-rest.json"
run stripe $W/empty --openapi "$DATA/openapi/stripe-spec3.yaml"
run scifact "$DATA/scifact/docs.jsonl"
run site-10k $W/site-10k

# Incremental: warm rebuild, then one page edited.
t0=$(date +%s.%N); "$B" build $W/site-10k --out $W/out-site-10k --cache-dir target/bench-cache/site-10k --json > $W/warm.json 2>/dev/null; t1=$(date +%s.%N)
f=$W/site-10k/p03/page-03000.mdx; cp "$f" $W/page.bak; echo "Edited paragraph for the incremental benchmark." >> "$f"
t2=$(date +%s.%N); "$B" build $W/site-10k --out $W/out-site-10k --cache-dir target/bench-cache/site-10k --json > $W/edit.json 2>/dev/null; t3=$(date +%s.%N)
cp $W/page.bak "$f"
python3 - "$t0" "$t1" "$t2" "$t3" <<'PY'
import json, sys
t0, t1, t2, t3 = map(float, sys.argv[1:])
w, e = json.load(open("target/bench/warm.json")), json.load(open("target/bench/edit.json"))
print(f"site-10k warm rebuild (nothing changed): {t1-t0:.2f} s, {w['pages_parsed']} pages parsed, {w['output']['new_files']} files changed")
print(f"site-10k after editing one page:        {t3-t2:.2f} s, {e['pages_parsed']} page parsed, {e['output']['new_files']} of {e['output']['files']} files changed")
PY

# Issue 25: a scale corpus of distinct real documentation text (scripts/make-scale-corpus.py), when
# asked for: SCALE=100000 scripts/bench-build.sh (about 10 minutes on 2 cores at 100,000 pages).
if [ -n "${SCALE:-}" ]; then
  S=$W/scale-$SCALE
  [ -d "$S" ] || python3 scripts/make-scale-corpus.py "$SCALE" "$S" | tail -3
  rm -rf "$W/out-scale-$SCALE" "target/bench-cache/scale-$SCALE"
  for pass in cold warm; do
    /usr/bin/time -f "%e %U %S %M" -o $W/mem "$B" build "$S" --out "$W/out-scale-$SCALE" --cache-dir "target/bench-cache/scale-$SCALE" --no-embeddings --json > $W/summary.json 2>/dev/null
    python3 - "$pass" "$SCALE" <<'PY'
import json, sys
wall, user, sys_, mem = map(float, open("target/bench/mem").read().split())
s = json.load(open("target/bench/summary.json"))
print(f"scale-{sys.argv[2]} {sys.argv[1]:4}: {wall:7.1f} s, CPU/wall {(user + sys_) / wall:.2f}, peak {mem / 1024:6.0f} MiB, "
      f"{s['output']['files']} files {s['output']['bytes'] / 1e6:.1f} MB, manifest {s['manifest_bytes']} B, {s['terms']} terms")
PY
  done
  page=$(cd "$S" && find . -name '*.mdx' | sort | head -1 | sed 's|^\./||')
  echo "scale-$SCALE, one page edited ($page):"
  scripts/edit-churn.sh "$S" "$page" "$B"
  # What a reader's first query fetches (the manifest, directory pages and shards) and in how many
  # sequential rounds, for readers' questions (bench/queries/pipecat-docs, whose pages are part of
  # the corpus) and SciFact's claims.
  for q in bench/queries/pipecat-docs/queries.jsonl ../shared/data/scifact/queries.jsonl; do
    [ -f "$q" ] && node scripts/cold-bytes.mjs "$W/out-scale-$SCALE" "$q" --mode lexical --n 60 | grep -v "^  code\|follow-up"
  done
fi
