#!/usr/bin/env python3
"""Dependency checks that cargo does not make by itself (run by `./dev.sh test`).

1. The three lock files agree where they must: every crate in the dependency closure of
   `aidocs-core` (the analyzer, stemmers, filters and shard codecs the browser and the CLI share byte
   for byte) and of `aidocs-embed` (the model the indexer and the edge encoder share) has the same
   version in every lock file that holds that closure (compared edge by edge: a crate's dependency
   resolves to the same version). A `cargo update` in one workspace cannot make
   the browser stem or decode differently from the CLI.
2. The declared minimum Rust version is true: no crate the workspaces build declares a newer
   `rust-version` than the workspace's own (`cargo metadata` with the lock files as they are).

Exit status 1 with one line per problem; figures on stdout.
"""
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ["Cargo.lock", "wasm-search/Cargo.lock", "wasm-encoder/Cargo.lock"]
SHARED_ROOTS = ["aidocs-core", "aidocs-embed"]


def closure(lock, root):
    """{(crate, dependency): versions} for every dependency edge under `root` in one lock file.

    Edges, not crate versions: a lock file also holds versions that only other members of its
    workspace activate (proptest's newer `rand_core` under a shared `getrandom`); an edge that both
    lock files hold must lead to the same version."""
    by_name = {}
    for p in lock["package"]:
        by_name.setdefault(p["name"], []).append(p)

    def find(dep):
        # A lock names a dependency "name" when one version is locked, else "name version".
        parts = dep.split(" ")
        cands = by_name.get(parts[0], [])
        if len(parts) > 1:
            cands = [c for c in cands if c["version"] == parts[1]]
        return cands[0] if cands else None

    seen = set()
    edges = {}
    todo = list(by_name.get(root, []))
    while todo:
        p = todo.pop()
        if (p["name"], p["version"]) in seen:
            continue
        seen.add((p["name"], p["version"]))
        for d in p.get("dependencies", []):
            q = find(d)
            if q is not None:
                edges.setdefault((p["name"], q["name"]), set()).add(q["version"])
                todo.append(q)
    return edges


def check_locks(problems):
    locks = {path: tomllib.loads((ROOT / path).read_text()) for path in LOCKS}
    for root in SHARED_ROOTS:
        closures = {path: closure(lock, root) for path, lock in locks.items()}
        closures = {path: c for path, c in closures.items() if c}
        edges = set().union(*closures.values())
        compared = 0
        for edge in sorted(edges):
            versions = {path: c[edge] for path, c in closures.items() if edge in c}
            if len(versions) < 2:
                continue
            compared += 1
            if len({frozenset(v) for v in versions.values()}) > 1:
                problems.append(
                    f"{edge[0]} -> {edge[1]} differs between lock files (under {root}): "
                    + ", ".join(f"{p} has {' '.join(sorted(v))}" for p, v in versions.items())
                )
        print(f"lock files: {root} is in {len(closures)} lock files; {compared} shared dependency edges compared")


def version_tuple(v):
    """`1.90` and `1.90.0` are the same version."""
    parts = [int(x) for x in v.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def check_msrv(problems):
    declared = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]["rust-version"]
    newest = ("0", None)
    for manifest in ["Cargo.toml", "wasm-search/Cargo.toml", "wasm-encoder/Cargo.toml"]:
        run = subprocess.run(
            # The platforms we build for: this machine's and the browser's.
            ["cargo", "metadata", "--format-version", "1", "--locked", "--manifest-path", str(ROOT / manifest),
             "--filter-platform", "x86_64-unknown-linux-gnu", "--filter-platform", "wasm32-unknown-unknown"],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            problems.append(f"cargo metadata --locked failed for {manifest}: {run.stderr.strip()[-400:]}")
            continue
        meta = json.loads(run.stdout)
        used = {n["id"] for n in meta["resolve"]["nodes"]}
        for p in meta["packages"]:
            rv = p.get("rust_version")
            if p["id"] not in used or not rv:
                continue
            if version_tuple(rv) > version_tuple(declared):
                problems.append(
                    f"{p['name']} {p['version']} (in {manifest}'s lock) needs Rust {rv}; "
                    f"the workspace declares rust-version = \"{declared}\""
                )
            if version_tuple(rv) > version_tuple(newest[0]):
                newest = (rv, f"{p['name']} {p['version']}")
    print(f"rust-version: declared {declared}; the newest any locked crate needs is {newest[0]} ({newest[1]})")


def main():
    problems = []
    check_locks(problems)
    check_msrv(problems)
    for p in problems:
        print(f"error: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
