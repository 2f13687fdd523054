#!/usr/bin/env python3
"""Assemble a large docs site from the real text in ../shared/data, for build benchmarks.

Pages: every SciFact abstract as an MDX page (5,183), then every H2 section of the two real Mintlify
sites (all languages) as its own page, then every operation of the GitHub and Stripe specs as a page,
repeating sources only when the target is larger than all of them (the script says so). Each page
declares its language in `lang:` frontmatter, as the real sites' navigation does: the translated
sections theirs (es, fr, zh...), everything else en.
Usage: scripts/make-corpus.py N OUT_DIR
"""
import json, os, re, sys

def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    data = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data")
    pages = []
    with open(os.path.join(data, "scifact", "docs.jsonl")) as f:
        for line in f:
            d = json.loads(line)
            pages.append((d["title"] or d["id"], d["text"], "en"))
    for site in ("mintlify-docs", "pipecat-docs"):
        root = os.path.join(data, "sites", site)
        nav = json.load(open(os.path.join(root, "docs.json"))).get("navigation", {})
        # A language is named inline or in the file its `$ref` names (`./fr.json`).
        translated = set()
        for l in nav.get("languages", []):
            if isinstance(l, dict) and "$ref" in l:
                l = json.load(open(os.path.join(root, l["$ref"])))
            if isinstance(l, dict) and l.get("language"):
                translated.add(l["language"])
        for dirpath, dirnames, files in sorted(os.walk(root)):
            dirnames.sort()
            for fn in sorted(files):
                if not fn.endswith((".mdx", ".md")):
                    continue
                text = open(os.path.join(dirpath, fn), encoding="utf-8", errors="replace").read()
                text = re.sub(r"^---\n.*?\n---\n", "", text, flags=re.S)
                for part in re.split(r"\n(?=## )", text):
                    title = part.splitlines()[0].lstrip("# ").strip() if part.strip() else fn
                    if len(part) > 200:
                        first = os.path.relpath(dirpath, root).split(os.sep)[0]
                        lang = first if first in translated else "en"
                        pages.append((title[:120] or fn, part, lang))
    for spec in ("github-rest.json",):
        d = json.load(open(os.path.join(data, "openapi", spec)))
        for path, item in sorted(d.get("paths", {}).items()):
            for m, op in sorted(item.items()):
                if isinstance(op, dict) and "summary" in op:
                    pages.append((op["summary"], f"`{m.upper()} {path}`\n\n{op.get('description', '')}", "en"))
    unique = len(pages)
    if n > unique:
        print(f"note: {unique} unique pages available; text repeats to reach {n}", file=sys.stderr)
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        title, body, lang = pages[i % unique]
        sub = os.path.join(out, f"p{i // 1000:02d}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"page-{i:05d}.mdx"), "w", encoding="utf-8") as f:
            f.write("---\ntitle: " + json.dumps(title, ensure_ascii=False) + "\nlang: " + lang + "\n---\n\n" + body + "\n")
    print(f"wrote {n} pages ({min(n, unique)} distinct) to {out}")

main()
