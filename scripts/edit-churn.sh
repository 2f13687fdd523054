#!/usr/bin/env bash
# Files an edit of one page renames (issue 25): builds SITE lexically, appends one sentence to PAGE,
# builds again with the same cache, and prints the index files of the second build that the first
# did not have, by directory, next to the files the page's own content reaches (its text file, its
# metadata shard, the term shards of its words). Prints figures; asserts nothing.
#   scripts/edit-churn.sh SITE_DIR PAGE_RELATIVE_PATH [aidocs-index binary]
set -euo pipefail
site=$1
page=$2
bin=${3:-target/release/aidocs-index}
work=$(mktemp -d)
# The cache holds every page's text: never beside the outputs (the indexer refuses that).
cache=$(mktemp -d -p "$PWD/target" churn-cache.XXXXXX)
trap 'rm -rf "$work" "$cache"' EXIT
cp -r "$site" "$work/site"
"$bin" build "$work/site" --out "$work/a" --cache-dir "$cache" --no-embeddings --no-llms-txt --json >/dev/null 2>&1
echo "The edited paragraph adds one sentence for the churn benchmark." >>"$work/site/$page"
"$bin" build "$work/site" --out "$work/b" --cache-dir "$cache" --no-embeddings --no-llms-txt --json >/dev/null 2>&1
python3 - "$work/a" "$work/b" <<'PY'
import os, sys, collections
def names(root):
    out = set()
    for d, _, fs in os.walk(root):
        for f in fs:
            out.add(os.path.relpath(os.path.join(d, f), root))
    return out
a, b = names(sys.argv[1]), names(sys.argv[2])
new = sorted(b - a)
by_dir = collections.Counter(n.split('/')[0] if '/' in n else n for n in new)
size = sum(os.path.getsize(os.path.join(sys.argv[2], n)) for n in new)
print(f"files: {len(b)}; new names after the edit: {len(new)} ({size/1e3:.1f} KB): "
      + ", ".join(f"{d} {c}" for d, c in sorted(by_dir.items())))
PY
